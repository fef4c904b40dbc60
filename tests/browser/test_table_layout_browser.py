"""The practice table's page with a full table: what a decision needs fits on one screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import Screen, sit_down

# Seven seats, European rules: you in seat 4, easy bots in the six others. Deal order:
# seats 1–7, the up card, seats 1–7, the hole card. The bots hold 20s and stand; you hold
# 8s 8h against a 6 and split: the first hand draws 3c (11), the decision awaited is on it.
FULL_TABLE_SHOE = "10s 10h 10d 8s Ks Kh Kd 6c Qs Qh Qd 8h Js Jh Jd 10c 3c 9d 9c 9s 9h"


def sit_at_a_full_table(
    page: Page, live_server: LiveServer, shoe: str, rules: str = "european"
) -> None:
    seats = {seat: "you" if seat == 4 else "easy" for seat in range(1, 8)}
    sit_down(page, live_server.url, shoe, rules=rules, seats=seats)


def assert_on_screen(page: Page, locator: Locator, what: str) -> None:
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None, what
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (what, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (what, box)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_decision_at_a_full_table_fits_on_one_screen(
    page: Page, live_server: LiveServer, screen: Screen
) -> None:
    page.emulate_media(reduced_motion="reduce")  # the whole story at once
    sit_at_a_full_table(page, live_server, FULL_TABLE_SHOE)
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Split")).to_be_visible()
    page.keyboard.press("p")
    # The first decision graded may compute the strategy chart: give it time.
    expect(page.get_by_test_id("seat-4").locator(".seat__hand")).to_have_count(2, timeout=90_000)
    expect(page.get_by_role("button", name="Hit")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    screen.shot("table-full-decision")

    assert_on_screen(page, page.get_by_test_id("dealer-cards"), "the dealer's cards")
    for hand in page.get_by_test_id("seat-4").locator(".seat__hand").all():
        assert_on_screen(page, hand, "your hand")
    for button in page.locator("#table .drill__actions button").all():
        assert_on_screen(page, button, "an action button")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_full_table_reads_right_to_left_in_arabic(
    page: Page, live_server: LiveServer, screen: Screen
) -> None:
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/practice/")
    page.locator("select[name=rules]").select_option("european")
    for seat in range(1, 8):
        page.locator(f"select[name=seat_{seat}]").select_option("you" if seat == 4 else "easy")
    page.locator("input[name=shoe]").fill(FULL_TABLE_SHOE)
    page.locator("form.practice-start button[type=submit]").click()
    page.locator("button[value=deal]").click()
    expect(page.locator("button[value=split]")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    screen.shot("table-full-decision-ar")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert_on_screen(page, page.get_by_test_id("dealer-cards"), "the dealer's cards")
    for button in page.locator("#table .drill__actions button").all():
        assert_on_screen(page, button, "an action button")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
