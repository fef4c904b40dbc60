"""The Content-Security-Policy does not break the trainer: a journey through every page
meets no blocked script, style or image, and the browser logs nothing."""

from __future__ import annotations

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import SCREENSHOTS

# Seat 1 (you) 10s 8h = 18 stands; seat 2 (easy bot) 10c 7d = 17 stands; the dealer's
# 6c 10d = 16 draws 10h and busts. Standing adds several lines to the log at once, each
# fading in after the one before.
SHOE = "10s 10c 6c 8h 7d 10d 10h"

# Playwright adds this before any of the page's own scripts run, and outside the policy.
RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI}`);
});
"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_drill_practice_progress_chart_and_account_pages_break_no_rule_of_the_policy(
    page: Page, live_server: LiveServer
) -> None:
    console: list[str] = []
    # Chromium reports a blocked resource or inline code as an error; its "info" notes
    # (such as autofocus giving way to a focused element) are no fault.
    page.on(
        "console",
        lambda message: message.type in ("error", "warning") and console.append(_describe(message)),
    )
    page.on("pageerror", lambda error: console.append(f"page error: {error}"))
    page.add_init_script(RECORD_VIOLATIONS)
    # Browsers ask for /favicon.ico by themselves; whether there is one is not this test's
    # concern, and its 404 would be logged as an error.
    page.route("**/favicon.ico", lambda route: route.fulfill(status=204))
    violations: list[str] = []

    def visit(url: str) -> None:
        page.goto(f"{live_server.url}{url}")
        page.wait_for_load_state()

    def collect() -> None:
        # Each page load starts a new list; gather it before leaving the page.
        violations.extend(page.evaluate("window.cspViolations"))

    visit("/drill/")
    page.keyboard.press("h")
    expect(page.locator(".feedback__verdict")).to_be_visible()
    page.get_by_role("button", name="Next hand").click()
    expect(page.get_by_text("What is your play?")).to_be_visible()
    collect()

    visit("/practice/")
    page.get_by_label("Seat 1").select_option("you")
    page.get_by_label("Seat 2").select_option("easy")
    page.get_by_label("Seat 3").select_option("")
    page.get_by_label("Seat 4").select_option("")
    page.get_by_label("Stacked shoe (test mode)").fill(SHOE)
    page.get_by_role("button", name="Sit down").click()
    page.wait_for_load_state()
    page.get_by_role("button", name="Deal").click()
    page.get_by_role("button", name="Stand").click()
    # The story is told by a script from the static files: its lines appear in turn.
    lines = page.locator(".log li[data-step]")
    expect(lines.last).to_be_hidden()
    expect(page.get_by_test_id("round-result")).to_be_visible()
    expect(lines.last).to_be_visible()
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / "csp-practice-log.png", full_page=True)
    collect()

    for url in (
        "/progress/",
        "/chart/",
        "/chart/deluxe/",
        "/",
        "/accounts/login/",
        "/accounts/signup/",
    ):
        visit(url)
        collect()

    assert violations == []
    assert console == []


def _describe(message: ConsoleMessage) -> str:
    return f"{message.type}: {message.text}"
