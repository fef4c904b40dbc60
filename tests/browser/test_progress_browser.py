from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from engine.rules import DELUXE, EUROPEAN, Rules
from trainer.models import Drill


def history(user_id: int) -> None:
    """Answers over a week under two rules sets, more of them European."""
    rows = ["hard 16", "hard 12", "soft 18", "pair 8", "hard 11", "soft 13"]
    ups = ["10", "3", "9", "A", "6", "5"]
    for n in range(60):
        rules: Rules = DELUXE if n % 4 == 0 else EUROPEAN
        right = n % 5 != 1
        Drill.objects.create(
            user_id=user_id, rules_name=rules.name, rules_version=rules.version,
            rules=rules.to_json(), cards="10s 6h", up="10d", row=rows[n % 6], up_column=ups[n % 6],
            answered_at=timezone.now() - timedelta(days=n % 7, hours=n % 3),
            action="hit" if right else "stand", correct_action="hit", correct_code="H",
            ev_lost=Decimal("0") if right else Decimal("0.071"),
            source="play" if n % 3 == 0 else "drill",
        )  # fmt: skip


def log_in_with_history(page: Page, live_server: LiveServer) -> None:
    user = get_user_model().objects.create_user("ann", password="pw-long-enough-1")
    history(user.pk)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill("pw-long-enough-1")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_progress_tables_align_headers_with_their_numbers(
    page: Page, live_server: LiveServer, screen
) -> None:
    log_in_with_history(page, live_server)
    page.goto(f"{live_server.url}/progress/")
    expect(page.get_by_test_id("rules-shown")).to_contain_text("Rules: European")
    screen.shot("progress")
    align = "e => getComputedStyle(e).textAlign"
    for table in page.locator("table.ev-table").all():
        headers = table.locator("thead th")
        cells = table.locator("tbody tr").first.locator("th, td")
        assert headers.count() == cells.count() == 4
        for column in range(4):
            # Numbers right-aligned (in English) under headers aligned the same way.
            assert headers.nth(column).evaluate(align) == cells.nth(column).evaluate(align)
        assert cells.nth(1).evaluate(align) == "end"

    page.get_by_role("navigation", name="Rules").get_by_role("link", name="Deluxe").click()
    expect(page.get_by_test_id("rules-shown")).to_contain_text("Rules: Deluxe")
    page.get_by_role("link", name="By week").click()
    expect(page.get_by_test_id("rules-shown")).to_contain_text("Rules: Deluxe")  # kept
    screen.shot("progress-deluxe-weekly")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["pl", "ar"])
def test_the_progress_line_is_drawn_in_every_language(
    page: Page, live_server: LiveServer, screen, language: str
) -> None:
    log_in_with_history(page, live_server)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/progress/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    heights = page.locator(".line-chart__dot").evaluate_all(
        "dots => dots.map(dot => dot.y1.baseVal.value)"
    )
    assert len(heights) >= 7  # a point a day over a week
    assert len(set(heights)) > 1  # not every dot drawn at one height (100%)
    screen.shot(f"progress-{language}")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
