"""A live round as a screen reader hears it (issue 25, point 11): the page's live region
says the player's cards and the dealer's up card when their turn comes, with the focus on
their first play; their result; and, when their time runs out, that their hand was played
for them. No answer loses its announcement (htmx:oobErrorNoTarget).

The live server runs in the test process: the test moves its clock (`Clock`) past the
deadlines. Round 1: Ann's 10♠ 8♦ (18) against the 9♥ stands; the hole 7♣ makes 16 and the
10♥ busts it: +10. Round 2: her 6♠ 4♦ (10) against the 9♥ waits until time runs out;
auto-play hits (the 10♠: 20) and stands, the dealer's 16 busts on the 10♥: +10 again.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import Screen
from tests.browser.live_helpers import Clock, alone_at_a_table, bet, play

SHOE = "10s 9h 8d 7c 10h " + "6s 9h 4d 7c 10s 10h " + "2c 3d 4h 5s " * 20
# A signed number is isolated left to right (trainer/shared/bidi.py): invisible marks.
PLUS_TEN = re.compile(r"Round over: \W?\+10\W? chips\.")

COUNT_MISSING_TARGETS = """() => {
  window.missingTargets = 0;
  document.body.addEventListener("htmx:oobErrorNoTarget", () => { window.missingTargets += 1; });
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_live_round_is_heard_turn_result_and_auto_play(
    screen: Screen, live_server: LiveServer, clock: Clock
) -> None:
    page = screen.page
    row = alone_at_a_table(page, live_server.url, SHOE)
    page.evaluate(COUNT_MISSING_TARGETS)
    said = page.locator("#announcement")
    expect(said).to_have_text("")  # the page as loaded is read, not announced

    # Her turn: her cards, their total and the up card, and the focus on her first play.
    bet(page, 3, 10)
    for words in ("your play", "Ten of spades", "Eight of diamonds", "18", "Nine of hearts"):
        expect(said).to_contain_text(words)
    first_play = page.get_by_test_id("decision").get_by_role("button").first
    expect(first_play).to_be_focused()
    screen.shot("live-heard-turn")

    # Her result, once the story has shown it.
    play(page, "Stand")
    expect(said).to_have_text(PLUS_TEN)
    expect(page.get_by_test_id("balance")).to_contain_text("510")

    # The next betting window, then a turn she lets run out.
    clock.to_deadline(row, 1)
    expect(said).to_have_text("Place your bets")
    bet(page, 3, 10)
    for words in ("Six of spades", "Four of diamonds", "10", "Nine of hearts"):
        expect(said).to_contain_text(words)
    clock.to_deadline(row, 1)
    expect(said).to_contain_text("Time ran out: played automatically.")
    expect(said).to_contain_text(PLUS_TEN)
    expect(page.get_by_test_id("balance")).to_contain_text("520")
    screen.shot("live-heard-auto-play")
    assert page.evaluate("window.missingTargets") == 0
