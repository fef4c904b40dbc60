"""The Deluxe document to the letter, as a player sees it (issue 25): a round paused by a
fault and voided when it is not put right in time, a seat kept for a round without a bet,
and the rules page's table figures and returns.

The live server runs in the test process, so the test moves its clock (`timezone.now`,
as the live views read it) past the deadlines; the page polls every second.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from engine.live_table import FAULT_GRACE_SECONDS
from tests.browser.conftest import SCREENSHOTS, Screen, fits_the_width
from tests.browser.live_helpers import Clock, alone_at_a_table, ann_and_bob, bet, bet_behind, play
from tests.browser.test_accessibility_browser import violations


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_fault_pauses_the_round_and_voids_it_refunding_the_bet_when_not_put_right(
    screen: Screen, live_server: LiveServer, clock: Clock
) -> None:
    # Ann's 5♠ 6♦ (11) against the 9♥: the stacked shoe has no card left for her hit.
    page = screen.page
    alone_at_a_table(page, live_server.url, "5s 9h 6d 7c")
    bet(page, 3, 10)
    play(page, "Hit")

    expect(page.get_by_test_id("stage")).to_contain_text("Round paused")
    expect(page.get_by_test_id("decision")).to_have_count(0)
    notices = page.get_by_test_id("notices")
    expect(notices).to_contain_text(f"within {FAULT_GRACE_SECONDS:g} seconds")
    expect(page.get_by_test_id("balance")).to_contain_text("490")
    assert fits_the_width(page)
    assert violations(page) == []
    screen.shot("live-fault-paused")

    clock.advance(FAULT_GRACE_SECONDS)  # the next poll makes the last try, and voids
    expect(page.get_by_test_id("stage")).to_have_attribute("data-stage", "result")
    expect(notices).to_contain_text("void and every bet in it refunded")
    expect(page.get_by_test_id("balance")).to_contain_text("500")
    screen.shot("live-fault-voided")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_seat_that_played_and_places_no_bet_is_kept_for_the_round_and_told_so(
    screen: Screen, live_server: LiveServer, clock: Clock
) -> None:
    # Ann stands on 10♠ 10♦ against the 9♥ 8♣ (17) and wins; then she does not bet.
    page = screen.page
    alone_at_a_table(page, live_server.url, "10s 9h 10d 8c " + "2c 3d 4h 5s " * 10)
    bet(page, 3, 10)
    play(page, "Stand")
    expect(page.get_by_test_id("balance")).to_contain_text("510")

    clock.advance(5 + 15 + 1)  # the result shown, then a betting window without her bet
    expect(page.get_by_test_id("notices")).to_contain_text(
        "No bet from seat 3 this round: the seat is kept for this round only."
    )
    expect(page.get_by_role("group", name="Your bet on seat 3")).to_be_visible()  # still hers
    assert fits_the_width(page)
    screen.shot("live-seat-kept")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_deluxe_rules_page_gives_the_tables_figures_and_returns(
    screen: Screen, live_server: LiveServer
) -> None:
    page = screen.page
    page.goto(f"{live_server.url}/rules/deluxe/")
    returns = page.get_by_test_id("rules-returns")
    expect(returns).to_contain_text("99.515%")
    expect(returns).to_contain_text("states a maximum return to player of 99.53%")
    expect(returns).to_contain_text("The pair side bet returns 95.904%")
    facts = page.get_by_test_id("live-table-facts")
    expect(page.get_by_role("heading", name="At a live table")).to_be_visible()
    expect(facts).to_contain_text("Bets from 10 to 500 chips, in steps of 10")
    expect(facts).to_contain_text("10, 20, 30 seconds for each decision")
    expect(facts).to_contain_text("at most 50 bets behind it")
    assert fits_the_width(page)
    assert violations(page) == []
    screen.shot("rules-deluxe-live-table")
    # The figures alone, legible at a phone's width too.
    for number, part in enumerate(page.locator(".rules-short").all()):
        part.screenshot(path=SCREENSHOTS / f"rules-deluxe-figures-{number}-{screen.name}.png")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_after_a_timeout_the_rest_of_a_players_round_is_played_at_once(
    screen: Screen, live_server: LiveServer, clock: Clock
) -> None:
    # Ann splits 8♠ 8♦ against the 9♥ and goes quiet: her first hand (8 3) times out,
    # auto-play hits it (the 10♥: 21) and plays her second hand (8 5: 13, stands) at once,
    # with no countdown of its own; the dealer's 9 7 draws the 10♠ and busts.
    page = screen.page
    alone_at_a_table(page, live_server.url, "8s 9h 8d 7c 3c 10h 5d 10s " + "2c 3d 4h 5s " * 10)
    bet(page, 3, 10)
    play(page, "Split")
    expect(page.get_by_test_id("seat-3")).to_contain_text("11 · bet 10")

    clock.advance(10.5)  # past her first hand's window, and no more
    expect(page.get_by_test_id("stage")).to_have_attribute("data-stage", "result")
    expect(page.get_by_test_id("seat-3")).to_contain_text("13 · bet 10")
    expect(page.get_by_test_id("balance")).to_contain_text("520")
    expect(page.get_by_test_id("notices").get_by_text("Time ran out for You")).to_have_count(1)
    assert fits_the_width(page)
    screen.shot("live-timeout-rest-at-once")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_bettor_behind_is_asked_within_the_seats_own_window(
    screen: Screen, browser: Browser, live_server: LiveServer, clock: Clock
) -> None:
    # Ann doubles 5♠ 6♦ against the 9♥ six seconds into her window; Bob, 20 behind her,
    # is asked to follow with the 4 seconds left of it, and says nothing: his stake stays
    # 20. The 10♥ gives Ann 21; the dealer's 9 7 draws the 9♦ and busts.
    shoe = "5s 9h 6d 7c 10h 9d " + "2c 3d 4h 5s " * 10
    _row, anns, bobs = ann_and_bob(
        browser, live_server.url, shoe, size=screen.name, bobs=screen.page
    )
    bet_behind(bobs, 3, 20)
    expect(anns.get_by_test_id("seat-3")).to_contain_text("Behind: bob, 20")
    bet(anns, 3, 10)
    expect(anns.get_by_test_id("decision")).to_be_visible()

    clock.advance(6)
    play(anns, "Double")
    question = bobs.get_by_test_id("decision")
    expect(question.get_by_role("button", name="Follow", exact=True)).to_be_visible()
    seconds_left = bobs.get_by_test_id("countdown").get_attribute("data-seconds-left")
    assert seconds_left is not None and int(seconds_left) <= 4
    assert fits_the_width(bobs)
    screen.shot("live-behind-shared-window")

    clock.advance(4.5)  # the seat's window is over: no, the document's default
    expect(bobs.get_by_test_id("stage")).to_have_attribute("data-stage", "result")
    expect(bobs.get_by_test_id("balance")).to_contain_text("520")
    expect(anns.get_by_test_id("balance")).to_contain_text("520")
