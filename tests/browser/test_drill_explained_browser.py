"""Drills that explain themselves, in a browser at both widths: a cell picked from the chart,
the explanation of a European cell, the session's figures, and a timed hand."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from engine.drills import Situation
from engine.rules import EUROPEAN
from tests.browser.conftest import drill_settings, save_and_deal
from trainer.models import Drill

KEYS = {"hit": "h", "stand": "s", "double": "d", "split": "p", "surrender": "r"}


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_cell_picked_from_the_chart_is_drilled_and_explained(
    page: Page, live_server: LiveServer, screen
) -> None:
    page.goto(f"{live_server.url}/chart/european/")
    page.locator('a[href*="row=hard%2011&up=10"]').click()
    expect(page.get_by_role("heading", name="Drill Hard 11 against 10")).to_be_visible()
    screen.shot("drill-focus")
    page.get_by_role("button", name="Start drilling").click()
    page.wait_for_load_state()

    expect(page.get_by_text("What is your play?")).to_be_visible()
    expect(page.locator(".drill-session")).to_contain_text("This session: 0 hands")
    drill = Drill.objects.get(answered_at=None)
    situation = Situation.parse(EUROPEAN, drill.cards, drill.up)
    assert (situation.row, situation.up_column) == ("hard 11", "10")
    page.keyboard.press("d")  # the common chart's double

    why = page.locator(".feedback__why")
    expect(why).to_contain_text(
        re.compile(r"The common chart plays double here, but under these rules hit is better")
    )
    expect(why).to_contain_text("a dealer ten may hide a blackjack that takes the doubled bet")
    expect(page.locator(".drill-session")).to_contain_text("This session: 1 hand")
    expect(page.locator(".drill-session")).to_contain_text("0 right")
    screen.shot("drill-explained")
    no_sideways_scroll(page)

    page.keyboard.press("Enter")  # the next hand is the same cell again
    expect(page.get_by_text("What is your play?")).to_be_visible()
    drill = Drill.objects.get(answered_at=None)
    again = Situation.parse(EUROPEAN, drill.cards, drill.up)
    assert (again.row, again.up_column) == ("hard 11", "10")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_timed_hand_answered_too_late_is_a_miss(
    page: Page, live_server: LiveServer, screen
) -> None:
    drill_settings(page, live_server.url)
    page.get_by_label("Time to answer each hand").select_option("3")
    no_sideways_scroll(page)  # the settings' longer choices fit a phone
    save_and_deal(page)

    expect(page.get_by_test_id("timer")).to_contain_text("Answer within 3 seconds.")
    expect(page.get_by_role("timer")).to_contain_text("Seconds left:")
    screen.shot("drill-timed")
    drill = Drill.objects.get(answered_at=None)
    situation = Situation.parse(EUROPEAN, drill.cards, drill.up)
    page.wait_for_timeout(4_000)  # past the limit and its half-second grace
    page.keyboard.press(KEYS[situation.correct_action().value])  # right, but too late

    expect(page.locator(".feedback__verdict")).to_contain_text(
        "Too slow: not answered within 3 seconds, so it counts as a miss."
    )
    expect(page.locator(".drill-session")).to_contain_text("0 right")
    screen.shot("drill-timed-late")
    drill.refresh_from_db()
    assert drill.late and drill.action == situation.correct_action().value
    no_sideways_scroll(page)

    # Progress: the miss, the response time, the heat map's link back to that cell.
    page.goto(f"{live_server.url}/progress/")
    expect(page.get_by_test_id("response-times")).to_be_visible()
    expect(page.get_by_role("link", name="Download every decision (CSV)")).to_be_visible()
    screen.shot("progress-times")
    no_sideways_scroll(page)
    page.locator(f'a[href*="up={situation.up_column}"]').first.click()
    expect(page.get_by_role("button", name="Start drilling")).to_be_visible()
