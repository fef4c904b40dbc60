"""A round at the practice table is told in order: its cards, its result and the new
balance appear as the story reaches them; with reduced motion, all at once."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

# Seat 1 (you) 10s 8h = 18 stands; seat 2 (easy bot) 10c 7d = 17 stands; the dealer's
# 6c 10d = 16 draws 10h and busts: +10 for you, 1000 → 1010 (990 while the story runs).
SHOE = "10s 10c 6c 8h 7d 10d 10h 9s 9h"


def sit_and_stand(page: Page, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/practice/")
    for seat in range(1, 8):
        page.get_by_label(f"Seat {seat}").select_option({1: "you", 2: "easy"}.get(seat, ""))
    page.get_by_label("Stacked shoe (test mode)").fill(SHOE)
    page.get_by_role("button", name="Sit down").click()
    page.wait_for_load_state()
    page.get_by_role("button", name="Deal").click()
    expect(page.get_by_role("button", name="Stand")).to_be_visible()
    # Let the deal's short story end before standing.
    expect(page.get_by_test_id("balance")).to_have_text("990")
    page.get_by_role("button", name="Stand").click()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_result_and_the_balance_wait_for_the_story(page: Page, live_server: LiveServer) -> None:
    sit_and_stand(page, live_server)
    result = page.get_by_test_id("round-result")
    expect(result).to_be_attached(timeout=90_000)  # the first grading may compute the chart
    bust = page.locator(".log li", has_text="The dealer busts with 26.")
    drawn = page.get_by_test_id("dealer-cards").get_by_role("img", name="Ten of hearts")
    # While the story runs: the dealer's draw, the bust, the result and the new balance
    # are still to come, and the balance shown is the one before the settlement.
    assert not result.is_visible()
    assert not bust.is_visible()
    assert not drawn.is_visible()
    assert page.get_by_test_id("balance").text_content() == "990"
    deal = page.get_by_role("button", name="Deal")
    assert not deal.is_visible()  # no next round before this one's result is told
    page.keyboard.press("Enter")  # nor by its key
    told = time.monotonic()
    expect(drawn).to_be_visible()
    expect(bust).to_be_visible()
    expect(result).to_be_visible()
    expect(result).to_contain_text("+10")
    expect(page.get_by_test_id("balance")).to_have_text("1010")
    expect(deal).to_be_visible()
    assert page.get_by_test_id("round-result").is_visible()
    assert time.monotonic() - told < 7  # no story takes longer than 6 s


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_with_reduced_motion_the_whole_round_shows_at_once(
    page: Page, live_server: LiveServer
) -> None:
    page.emulate_media(reduced_motion="reduce")
    sit_and_stand(page, live_server)
    result = page.get_by_test_id("round-result")
    expect(result).to_be_attached(timeout=90_000)  # the first grading may compute the chart
    # In the same moment as the response: nothing is held back.
    assert result.is_visible()
    assert page.locator(".log li", has_text="The dealer busts with 26.").is_visible()
    assert page.get_by_test_id("balance").text_content() == "1010"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_fresh_deluxe_shoe_shows_its_burn_and_the_up_cards_score(
    page: Page, live_server: LiveServer
) -> None:
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/practice/")
    page.get_by_label("Rules").select_option("deluxe")
    for seat in range(1, 8):
        page.get_by_label(f"Seat {seat}").select_option("you" if seat == 1 else "")
    page.get_by_role("button", name="Sit down").click()  # a shuffled shoe, not stacked
    page.get_by_role("button", name="Deal").click()
    notice = page.get_by_test_id("notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(re.compile(r"The dealer turns \S+ and burns \d+ cards\."))
    expect(page.locator(".dealer .felt__label")).to_contain_text(re.compile(r"Dealer · \S"))
