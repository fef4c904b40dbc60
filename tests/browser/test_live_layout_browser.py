"""A live table with all seven seats taken: what the viewer's decision needs — the dealer,
their own hands, their action buttons — fits on one screen, the other seats compact."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from engine.table import BotSeat
from tests.browser.conftest import Screen, fits_the_width
from tests.browser.live_helpers import alone_at_a_table, bet, play
from tests.browser.test_table_layout_browser import assert_on_screen

# Ann holds seats 3 and 4, easy bots the five others. Deal order: seats 1–7, the up card,
# seats 1–7, the hole card. The bots hold 20s and stand; Ann's seat 3 holds 8♠ 8♥ against
# the 6♣ and splits: the first hand draws 3♣ (11) and awaits her play, while her seat 4
# (9♣ 9♦) waits its turn with a play to choose.
FULL_TABLE_SHOE = "10s 10h 8s 9c Ks Kh Kd 6c Qs Qh 8h 9d Js Jh Jd 10c 3c " + "2c 3d 4h 5s " * 20


def ann_at_a_full_table(page: Page, url: str, bot: str) -> None:
    """Ann at seats 3 and 4 of a live table dealt from `FULL_TABLE_SHOE`, a ``bot`` at each
    of the five others, and ``page`` logged in as her and showing it, with reduced motion
    (the whole story at once)."""
    page.emulate_media(reduced_motion="reduce")
    bots = [BotSeat(seat, bot) for seat in (1, 2, 5, 6, 7)]
    alone_at_a_table(page, url, FULL_TABLE_SHOE, seats=[3, 4], bots=bots)


def split_at_seat_3(page: Page) -> None:
    """Bet 10 on each of Ann's seats and split seat 3's eights: its two hands are drawn."""
    for seat in (3, 4):
        bet(page, seat, 10)
    play(page, "Split")
    expect(page.get_by_test_id("seat-3").locator(".seat__hand")).to_have_count(2)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("clock")  # standing still: no deadline passes
@pytest.mark.parametrize("language", ["en", "ka"])  # Georgian's longer words wrap the head
def test_a_decision_at_a_full_live_table_fits_on_one_screen(
    screen: Screen, live_server: LiveServer, language: str
) -> None:
    page = screen.page
    ann_at_a_full_table(page, live_server.url, bot="easy")
    split_at_seat_3(page)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.reload()
    decision = page.get_by_test_id("decision")
    expect(decision.locator("#act-hit")).to_be_visible()
    expect(page.get_by_test_id("preselect-4")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    screen.shot(f"live-full-decision-{language}")

    assert_on_screen(page, page.get_by_test_id("dealer-cards"), "the dealer's cards")
    for seat in (3, 4):
        for hand in page.get_by_test_id(f"seat-{seat}").locator(".seat__hand").all():
            assert_on_screen(page, hand, f"your hand on seat {seat}")
    buttons = decision.get_by_role("button").all()
    assert buttons
    for button in buttons:
        assert_on_screen(page, button, "an action button")
    assert fits_the_width(page)
