from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("screen", "width", "height"),
    [("desktop", 1280, 800), ("phone", 390, 844)],
)
def test_a_visitor_reads_the_chart_and_switches_rules(
    page: Page, live_server: LiveServer, screen: str, width: int, height: int
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Strategy chart").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Basic strategy chart")
    expect(page.get_by_role("link", name="European")).to_have_attribute("aria-current", "page")
    header = page.get_by_role("rowheader", name="16", exact=True)
    hard_sixteen = page.locator("tr", has=header).first
    expect(hard_sixteen.locator("td").nth(8).locator("abbr")).to_have_text("H")  # against a 10
    expect(page.locator(".action--differs")).to_have_count(4)
    expect(page.get_by_text("the dealer does not look for blackjack")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"chart-european-{screen}.png", full_page=True)

    page.get_by_role("link", name="Deluxe").click()
    expect(page).to_have_title("Basic strategy chart — deluxe v1.0.0")
    expect(hard_sixteen.locator("td").nth(7).locator("abbr")).to_have_text("R")  # against a 9
    page.screenshot(path=SCREENSHOTS / f"chart-deluxe-{screen}.png", full_page=True)
