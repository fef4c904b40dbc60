"""A player who stops acting at a live table: when the decision's deadline passes,
auto-play finishes the hand and the round settles, seen in the player's page without
reloading (it polls every second). And a play chosen before the turn comes, carried out
when it does.

The live server runs in the test process, so the test moves its clock: `timezone.now`,
as the live views read it, is a clock the test advances past the deadline.

Ann (seat 3) gets 6♠ 4♦ (10) against the dealer's 9♥. At the deadline auto-play finishes
her hand (`LiveTable.advance`, tests/engine/test_live_table.py): a hit at 11 or less (the
10♠: 20), then a stand. The hole 7♣ makes 16, and the dealer's 10♥ busts it: Ann wins 10.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import Screen
from tests.browser.live_helpers import Clock, alone_at_a_table, ann_and_bob, bet, on_version, play

SHOE = "6s 9h 4d 7c 10s 10h " + "2c 3d 4h 5s " * 20


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_auto_play_finishes_a_silent_players_hand_after_the_deadline(
    screen: Screen, live_server: LiveServer, clock: Clock
) -> None:
    page = screen.page
    row = alone_at_a_table(page, live_server.url, SHOE)

    bet(page, 3, 10)
    expect(page.get_by_test_id("decision")).to_be_visible()
    expect(page.get_by_test_id("seat-3")).to_contain_text("10 · bet 10")
    expect(page.get_by_test_id("balance")).to_contain_text("490")
    screen.shot("live-autoplay-waiting")

    # Ann does nothing. Just before the deadline the hand still waits for her...
    clock.to_deadline(row, -1)
    page.wait_for_timeout(2_500)  # two polls or more
    expect(page.get_by_test_id("stage")).to_have_attribute("data-stage", "playing")
    expect(page.get_by_test_id("decision")).to_be_visible()

    # ... once it has passed, the next poll brings her hand finished by auto-play (a hit,
    # since 10 is 11 or less, then a stand on 20) and the round settled.
    clock.advance(2)
    seat = page.get_by_test_id("seat-3")
    expect(page.get_by_test_id("stage")).to_have_attribute("data-stage", "result")
    expect(page.get_by_test_id("decision")).to_have_count(0)
    expect(seat).to_contain_text("10♠")
    expect(seat).to_contain_text("20 · bet 10")
    expect(seat).to_contain_text("Win")
    expect(page.get_by_test_id("dealer-total")).to_have_text("· 26")
    expect(page.get_by_test_id("balance")).to_contain_text("510")
    expect(page.get_by_test_id("notices").get_by_text("Time ran out for You")).to_have_count(1)
    screen.shot("live-autoplay-settled")


# Seat 1 (Ann) 10♠ 8♦ = 18, seat 2 (Bob) 10♥ 9♦ = 19; the dealer's 9♥ 7♣ draws the 2♣: 18.
TWO_SEATS = "10s 10h 9h 8d 9d 7c 2c " + "3d 4h 5s 6c " * 20


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("clock")  # standing still: no deadline passes
def test_a_play_chosen_before_the_turn_is_carried_out_when_it_comes(
    screen: Screen, browser: Browser, live_server: LiveServer
) -> None:
    row, anns, bobs = ann_and_bob(
        browser, live_server.url, TWO_SEATS, seats=[1], size=screen.name, bobs=screen.page
    )
    bobs.get_by_test_id("seat-2").get_by_role("button", name="Sit here").click()
    bet(bobs, 2, 20)
    bet(anns, 1, 20)

    choice = bobs.get_by_role("group", name="Your play on seat 2 when its turn comes")
    choice.get_by_role("button", name="Hit").click()
    expect(bobs.get_by_test_id("preselected-2")).to_have_text("Chosen: Hit")
    choice.get_by_role("button", name="Stand").click()
    expect(bobs.get_by_test_id("preselected-2")).to_have_text("Chosen: Stand")
    expect(choice.get_by_role("button", name="Stand")).to_have_attribute("aria-pressed", "true")
    screen.shot("live-preselect-chosen")

    # Bob's choice moved the table on: Ann acts once her page has polled it (an action
    # from an older version is refused as a double click would be).
    on_version(anns, row)
    expect(anns.get_by_test_id("seat-2")).not_to_contain_text("Chosen")  # Bob's alone
    play(anns, "Stand")
    expect(bobs.get_by_test_id("stage")).to_have_attribute("data-stage", "result")
    expect(bobs.get_by_test_id("seat-2")).to_contain_text("Win")
    expect(bobs.get_by_test_id("balance")).to_contain_text("520")
    expect(bobs.get_by_test_id("notices")).not_to_contain_text("Time ran out")
    screen.shot("live-preselect-settled")
