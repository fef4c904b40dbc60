"""Pair bets and bets behind bots at the practice table, in a browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import Screen, sit_down

# Deluxe, you in seat 1 and an easy bot in seat 2: you 8s 8s (a perfect pair), the bot
# 10h 10d, the dealer Kc Ah: a natural, found by the peek; the round ends at once. Your
# 10 loses, your pair bet of 10 wins 250, your 20 behind the bot loses: +220.
SHOE = "8s 10h Kc 8s 10d Ah 9c 9d 9h"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_pair_bet_and_a_bet_behind_a_bot_settle_with_the_round(
    page: Page, live_server: LiveServer, screen: Screen
) -> None:
    sit_down(page, live_server.url, SHOE, rules="deluxe", seats={1: "you", 2: "easy"})

    page.get_by_text("Side bets with this deal").click()
    page.get_by_label("Pair bet on your seat").fill("10")
    page.get_by_label("Bet behind seat 2 (Easy bot)").fill("20")
    screen.shot("table-side-bets")
    page.get_by_role("button", name="Deal").click()

    expect(page.get_by_test_id("round-result")).to_contain_text("+220")
    expect(page.get_by_test_id("balance")).to_have_text("1220")
    expect(page.get_by_test_id("seat-1")).to_contain_text("Your pair bet: 10")
    expect(page.get_by_test_id("seat-2")).to_contain_text("Your bet behind: 20")
    # (signed numbers come isolated left to right: see trainer/shared/bidi.py)
    expect(page.locator(".log")).to_contain_text(
        "Seat 1 (You): Pair bet, Perfect pair, \u2066+250\u2069."
    )
    screen.shot("table-side-bets-settled")

    # Off the table's steps: the field itself says so, and nothing is dealt (the server's
    # refusal of a forged amount is tested in tests/trainer/practice/test_practice_side_bets.py).
    page.get_by_text("Side bets with this deal").click()
    behind = page.get_by_label("Bet behind seat 2 (Easy bot)")
    behind.fill("25")
    page.get_by_role("button", name="Deal").click()
    assert behind.evaluate("field => field.validity.stepMismatch")
    expect(page.get_by_test_id("round-result")).to_contain_text("+220")
    expect(page.get_by_test_id("balance")).to_have_text("1220")
