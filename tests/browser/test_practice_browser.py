from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import settled, sit_down
from trainer.models import Drill, PracticeRound, PracticeSession

# Three rounds, player in seat 1 and an easy bot in seat 2, European rules, bankroll 1000.
# Deal order per round: seat 1, seat 2, up card, seat 1, seat 2, hole card; then draws.
SHOE = " ".join(
    [
        # 1 — bet 10. You 8s 8h split: 8s+10h = 18 stand, 8h+9c = 17 stand. Bot 10c 7d = 17
        # stands. Dealer 6c 10d = 16 draws 10s and busts: both hands win, +20 → 1020.
        "8s 10c 6c 8h 7d 10d 10h 9c 10s",
        # 2 — bet 60 (a 50 chip added). You 6s 5h = 11 double, 9d: 20. Bot 9h 5c = 14 hits
        # 3s: 17. Dealer 9s 7h = 16 draws Kd and busts: +120 → 1140.
        "6s 9h 9s 5h 5c 7h 9d 3s Kd",
        # 3 — bet 60. You 5d 6d = 11 double, 2c: 13. Bot Js 8c = 18. Dealer As Kh: a natural,
        # found after the players (no peek): the doubled hand loses both bets, -120 → 1020.
        "5d Js As 6d 8c Kh 2c",
    ]
)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_three_rounds_with_a_split_a_double_and_a_dealer_natural(
    page: Page, live_server: LiveServer, screen
) -> None:
    page.goto(f"{live_server.url}/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Practice").click()
    page.get_by_label("Seat 1").select_option("you")
    page.get_by_label("Seat 2").select_option("easy")
    page.get_by_label("Seat 3").select_option("")
    page.get_by_label("Seat 4").select_option("")
    page.get_by_label("Stacked shoe (test mode)").fill(SHOE)
    screen.shot("practice-start")
    page.get_by_role("button", name="Sit down").click()
    page.wait_for_load_state()  # the keyboard script is deferred

    balance = page.get_by_test_id("balance")
    expect(balance).to_have_text("1000")
    expect(page.get_by_test_id("next-bet")).to_have_text("10")
    screen.shot("practice-betting")

    # Round 1: the split.
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Split")).to_be_visible()
    dealer = page.get_by_test_id("dealer-cards")
    expect(dealer.locator(".card--back")).to_have_count(1)  # the hole card stays down
    expect(dealer).not_to_contain_text("10")
    screen.shot("practice-decision")
    page.keyboard.press("p")
    expect(page.get_by_test_id("seat-1").locator(".seat__hand")).to_have_count(2)
    page.keyboard.press("s")
    expect(page.locator(".log")).to_contain_text("Seat 1 (You) draws 9♣.")  # the second hand
    page.keyboard.press("s")
    expect(page.get_by_test_id("round-result")).to_contain_text("+20")
    expect(balance).to_have_text("1020")
    expect(page.locator(".log")).to_contain_text("The dealer turns the hole card: 10♦.")
    screen.shot("practice-settled")

    # Round 2: a winning double at a bet of 60.
    page.get_by_role("button", name="Add a chip of 50", exact=True).click()
    expect(page.get_by_test_id("next-bet")).to_have_text("60")
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Double")).to_be_visible()
    page.keyboard.press("d")
    expect(page.get_by_test_id("round-result")).to_contain_text("+120")
    expect(balance).to_have_text("1140")
    expect(page.locator(".log")).to_contain_text("Seat 2 (Easy bot): Hit.")

    # Round 3: doubled into a dealer natural, which takes both bets.
    page.keyboard.press("Enter")
    expect(dealer.locator(".card--back")).to_have_count(1)
    expect(dealer).not_to_contain_text("K")
    expect(page.get_by_role("button", name="Double")).to_be_visible()
    page.keyboard.press("d")
    expect(page.get_by_test_id("round-result")).to_contain_text("-120")
    expect(balance).to_have_text("1020")
    # (signed numbers come isolated left to right: see trainer/shared/bidi.py)
    expect(page.get_by_test_id("seat-1")).to_contain_text(
        "Lose \u2066-120\u2069 (\u2066-2\u2069 units)"
    )

    page.get_by_role("link", name="Session summary and round history").click()
    expect(page.get_by_test_id("rounds")).to_have_text("3")
    expect(page.get_by_test_id("net")).to_have_text("\u2066+20\u2069")  # kept left to right
    expect(page.get_by_test_id("decisions")).to_have_text("5")
    expect(page.get_by_test_id("round-3")).to_contain_text("-120")
    expect(page.get_by_test_id("round-1")).to_contain_text("+20")
    # Doubling 11 against an ace is a mistake without a peek: it is among the biggest.
    expect(page.locator(".mistakes")).to_contain_text("Double")
    screen.shot("practice-summary")

    session = PracticeSession.objects.get()
    assert session.balance == 1020
    assert Drill.objects.filter(source="play").count() == 5
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert re.search(r"\b1020\b", page.content())


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_coach_stops_a_wrong_play_and_lets_it_be_taken_back(
    page: Page, live_server: LiveServer, screen
) -> None:
    # You 10s 6h against the 10d (hole 7c): hard 16 against a ten is a hit; the hit
    # draws 5c for 21, and the dealer stands on 17.
    sit_down(
        page,
        live_server.url,
        "10s 10d 6h 7c 5c",
        ticked=(
            "Hints: show the strategy's play before I act",
            "Coach: stop me at a wrong play, and let me take it back",
        ),
    )

    page.keyboard.press("Enter")
    expect(page.get_by_test_id("hint")).to_have_text("Hint: Hit")
    page.keyboard.press("s")
    mistake = page.locator(".feedback--wrong")
    expect(mistake).to_contain_text("Stand gives up")
    expect(mistake).to_contain_text("the play is Hit.")
    expect(page.get_by_test_id("dealer-cards").locator(".card--back")).to_have_count(1)
    screen.shot("practice-coach")
    page.keyboard.press("b")
    expect(page.get_by_role("button", name="Hit")).to_be_visible()
    page.keyboard.press("h")
    expect(page.get_by_test_id("round-result")).to_contain_text("+10")

    # The mistake stays on record, taken back; the hit made instead is graded too.
    mistake, made = Drill.objects.filter(source="play").order_by("pk")
    assert (mistake.action, mistake.correct_action, mistake.taken_back) == ("stand", "hit", True)
    assert mistake.ev_lost is not None and mistake.ev_lost > 0
    assert (made.action, made.correct_action, made.taken_back) == ("hit", "hit", False)

    page.get_by_role("link", name="Session summary and round history").click()
    expect(page.locator(".decision--taken-back")).to_contain_text("Stand — taken back")
    expect(page.locator(".decision--right")).to_contain_text("Hit — right.")
    screen.shot("practice-summary-taken-back")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_keyboard_player_adds_a_chip_with_enter_without_dealing(
    page: Page, live_server: LiveServer
) -> None:
    sit_down(page, live_server.url, "10s 10d 6h 7c 5c")
    expect(page.get_by_test_id("next-bet")).to_have_text("10")

    # Each key is pressed on its button as found at that moment (Locator.press focuses it
    # and presses at once), so that a swap in between cannot send it elsewhere.
    page.get_by_role("button", name="Add a chip of 50", exact=True).press("Enter")
    expect(page.get_by_test_id("next-bet")).to_have_text("60")
    # The chip's answer moves the focus to Deal once htmx settles it; moving it on before
    # would let that late move send the next key to Deal.
    settled(page)
    expect(page.get_by_role("button", name="Deal")).to_be_focused()
    page.get_by_role("button", name="Clear bet").press(" ")
    expect(page.get_by_test_id("next-bet")).to_have_text("0")
    assert not PracticeRound.objects.exists()  # neither key dealt a round
