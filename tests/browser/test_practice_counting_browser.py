"""Counting mode at the practice table in a browser (issue 27): the table asks for the count
after a round and deals again once it is given, grades it and the bet, shows the count only
when opened, and the summary counts both; in English and Arabic at both widths, each state
scanned by axe."""

from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import Screen, fits_the_width, settled, sit_down
from tests.browser.test_accessibility_browser import violations
from trainer.models import CountCheck
from trainer.practice import counting

# You 10s 9h = 19 against the 6d (hole 10c: 16); standing, the dealer draws 8s and busts.
# Seen: 10s 6d 9h 10c 8s, Hi-Lo -1; 47 cards left (one deck, stacked): true count -2.
SHOE = "10s 6d 9h 10c 8s " + "9c 9d 2c 3c 4c 5c 6c 7c 8c " * 3


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_counter_gives_the_count_the_table_asks_for_and_sees_it_graded(
    screen: Screen, live_server: LiveServer, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(counting, "_RNG", random.Random(0))
    monkeypatch.setattr(counting, "ASK_ONE_IN", 1)
    page = screen.page
    page.emulate_media(reduced_motion="reduce")  # each round told at once: axe sees it whole
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/practice/")
    for seat in range(2, 8):
        page.locator(f"#id_seat_{seat}").select_option("")
    page.locator("#id_seat_1").select_option("you")
    page.locator("#id_counting").check()
    page.locator("#id_counting_ramp").fill("0:2, 2:4")
    page.locator("#id_shoe").fill(SHOE)
    found = {"start": violations(page)}
    page.locator("form.practice-start button[type=submit]").click()

    expect(page.get_by_test_id("counting")).to_be_visible()
    page.locator("button[name=op][value=deal]").click()
    page.locator("button[name=action][value=stand]").click()
    question = page.get_by_test_id("count-question")
    expect(question).to_be_visible()
    expect(page.locator("button[name=op][value=deal]")).to_be_disabled()
    expect(page.get_by_test_id("the-count")).to_have_count(0)
    expect(page.get_by_test_id("bet-grade")).to_have_class("feedback--wrong")  # 10, not 20
    settled(page)
    expect(page.locator("#count-running")).to_be_focused()
    found["asked"] = violations(page)
    assert fits_the_width(page)
    screen.shot(f"practice-counting-asked-{language}")

    page.locator("#count-running").fill("-1")
    page.locator("#count-true").fill("-2")
    page.locator("#count-true").press("Enter")
    expect(page.get_by_test_id("count-grade")).to_have_class("feedback--right")
    check = CountCheck.objects.get()
    assert (check.running_answer, check.true_answer) == ("-1", -2)
    page.locator(".counting-table__count summary").click()
    expect(page.get_by_test_id("the-count")).to_be_visible()
    found["answered"] = violations(page)
    assert fits_the_width(page)
    screen.shot(f"practice-counting-answered-{language}")

    page.goto(page.url + "summary/")
    expect(page.get_by_test_id("counting-summary")).to_be_visible()
    found["summary"] = violations(page)
    screen.shot(f"practice-counting-summary-{language}")
    assert all(not broken for broken in found.values()), json.dumps(found, ensure_ascii=False)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_counts_field_takes_the_focus_once_the_round_is_told(
    page: Page, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With motion, the field shows only when the story reaches the round's end, too late
    for htmx's autofocus: the story gives it the focus then."""
    monkeypatch.setattr(counting, "_RNG", random.Random(0))
    monkeypatch.setattr(counting, "ASK_ONE_IN", 1)
    page.emulate_media(reduced_motion="no-preference")
    sit_down(
        page,
        live_server.url,
        SHOE,
        ticked=("Counting mode: the table asks for the count and grades my bets",),
    )
    page.locator("button[name=op][value=deal]").click()
    page.locator("button[name=action][value=stand]").click()
    expect(page.locator("#count-running")).to_be_focused()
    page.keyboard.type("-1")
    page.keyboard.press("Tab")
    page.keyboard.type("-2")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("count-grade")).to_have_class("feedback--right")
