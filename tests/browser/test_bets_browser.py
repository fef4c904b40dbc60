from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import sit_down

# The player alone in seat 1, European rules. Round 1: 8s 8h against the 6d (hole 10c);
# split, the hands get 10s and 10h and stand on 18 each; the dealer draws 9s and busts:
# two wins of 10. Round 2: 10d 6h against the 10s (hole 7c); standing on 16 loses to 17.
SHOE = "8s 6d 8h 10c 10s 10h 9s  10d 10s 6h 7c 5c"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_reads_their_bets_newest_first(
    page: Page, live_server: LiveServer, screen
) -> None:
    sit_down(page, live_server.url, SHOE)
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Split")).to_be_visible()
    page.keyboard.press("p")
    expect(page.get_by_test_id("seat-1").locator(".seat__hand")).to_have_count(2)
    page.keyboard.press("s")
    expect(page.locator(".log")).to_contain_text("Seat 1 (You) draws 10♥.")  # the second hand
    page.keyboard.press("s")
    expect(page.get_by_test_id("round-result")).to_contain_text("+20")
    # Deal is offered once the story has told the result.
    expect(page.get_by_role("button", name="Deal")).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Stand")).to_be_visible()
    page.keyboard.press("s")
    expect(page.get_by_test_id("round-result")).to_contain_text("-10")

    page.get_by_role("link", name="Session summary and round history").click()
    page.get_by_role("link", name="Bet history").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Bet history")
    rows = page.get_by_test_id("bet")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Seat bet, seat 1")
    expect(rows.nth(0)).to_contain_text("Lose")
    expect(rows.nth(1)).to_contain_text("Seat bet, seat 1, hand 2")
    expect(rows.nth(2)).to_contain_text("Seat bet, seat 1, hand 1")
    expect(rows.nth(2)).to_contain_text("Win")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screen.shot("bet-history")
