"""Pair bets and bets behind bots at the practice table, through its pages (issue 12,
"The table page": the same page serves the bot-only table, so they work there too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client
from pytest_django.asserts import assertRedirects

from tests.trainer.practice.test_practice_views import (
    refused,
    send,
    snapshot,
    table_url,
    text,
    words,
)
from trainer.models import Drill, PracticeRound, PracticeSession

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

pytestmark = pytest.mark.django_db

# Deluxe, you in seat 1 and an easy bot in seat 2. Deal: you 8s, bot 10h, up Kc, you 8s,
# bot 10d, hole Ah: the dealer peeks under the king, has a natural, and the round ends
# there, with no decision. Your seat bet of 10 loses; a pair bet of 10 on your perfect
# pair (same rank and suit) wins 25:1, +250; 20 behind the bot's 20 loses: +220 in all.
PAIR_AND_A_DEALER_NATURAL = "8s 10h Kc 8s 10d Ah 9c 9d 9h"


def start(client: Client, rules: str, shoe: str) -> PracticeSession:
    data = {"rules": rules, "bankroll": "1000", "shoe": shoe, "seat_1": "you", "seat_2": "easy"}
    response = client.post("/practice/", data)
    session = PracticeSession.objects.get()
    assertRedirects(response, table_url(session), fetch_redirect_response=False)
    return session


def deal(client: Client, session: PracticeSession, **bets: int) -> Response:
    return send(client, session, "deal", bets)


def test_a_pair_bet_and_a_bet_behind_settle_into_the_rounds_result(client: Client) -> None:
    session = start(client, "deluxe", PAIR_AND_A_DEALER_NATURAL)
    response = deal(client, session, pair=10, behind_2=20)
    shown = words(response)
    assert "Round over: +220 chips for you." in shown
    assert "Seat 1 (You): Pair bet, Perfect pair, +250." in shown
    assert "Seat 2 (Easy bot): Bet behind, Lose, -20." in shown
    assert "Your pair bet: 10" in shown and "Your bet behind: 20" in shown
    session.refresh_from_db()
    assert session.balance == 1220
    assert PracticeRound.objects.get().net == 220
    summary = words(client.get(f"{table_url(session)}summary/"))
    assert "+220" in summary


@pytest.mark.parametrize(
    ("bets", "message"),
    [
        pytest.param(
            {"pair": 5}, "Not allowed: The table minimum is 10 chips.", id="pair-below-minimum"
        ),
        pytest.param(
            {"behind_2": 600},
            "Not allowed: The table maximum is 500 chips.",
            id="behind-over-maximum",
        ),
        pytest.param(
            {"behind_2": 25}, "Not allowed: Bets go in steps of 10 chips.", id="behind-off-step"
        ),
        pytest.param(
            {"pair": 500, "behind_2": 500},
            "Not allowed: That bet is more than your balance.",
            id="over-balance",
        ),
        pytest.param({"behind_1": 10}, "on a bot's seat", id="behind-your-own-seat"),
        pytest.param({"behind_5": 10}, "on a bot's seat", id="behind-an-empty-seat"),
    ],
)
def test_a_side_bet_refused_says_why_and_changes_nothing(
    client: Client, bets: dict[str, int], message: str
) -> None:
    session = start(client, "deluxe", PAIR_AND_A_DEALER_NATURAL)
    before = snapshot(session)
    refused(deal(client, session, **bets), htmx=True, message=message)
    assert snapshot(session) == before


def test_side_bets_are_offered_where_the_rules_have_them(client: Client) -> None:
    deluxe = start(client, "deluxe", PAIR_AND_A_DEALER_NATURAL)
    page = text(client.get(table_url(deluxe)))
    assert 'name="pair"' in page
    assert 'name="behind_2"' in page  # the bot's seat
    assert 'name="behind_1"' not in page  # never behind your own
    client.post(f"{table_url(deluxe)}", {"op": "end", "version": deluxe.version})
    european = start_european(client)
    page = text(client.get(table_url(european)))
    assert 'name="pair"' not in page and 'name="behind_' not in page


def start_european(client: Client) -> PracticeSession:
    data = {"rules": "european", "bankroll": "1000", "shoe": "10s 10h", "seat_1": "you"}
    data["seat_2"] = "easy"
    client.post("/practice/", data)
    return PracticeSession.objects.get(ended_at__isnull=True)


# Deluxe, you in seat 1 and a hard bot in seat 2. Deal: you 10s, bot 5h, up 6d, you 9c
# (19), bot 6c (11), hole 10h (16; no peek under a 6). You stand; the bot doubles 11
# against a 6 and you, 20 behind it, are asked whether to follow before its card comes:
# 9s gives it 20. The dealer's 16 draws Kd and busts. Your 19 wins 10; the stake behind
# wins 40 if it followed (doubled to 40), 20 if not (the third card counts as a hit).
BOT_DOUBLES = "10s 5h 6d 9c 6c 10h 9s Kd 9d 9h"


@pytest.mark.parametrize(("answer", "won"), [("follow", 50), ("no_follow", 30)])
def test_a_bet_behind_a_doubling_bot_asks_whether_to_follow(
    client: Client, answer: str, won: int
) -> None:
    data = {"rules": "deluxe", "bankroll": "1000", "shoe": BOT_DOUBLES}
    client.post("/practice/", {**data, "seat_1": "you", "seat_2": "hard", "hints": "on"})
    session = PracticeSession.objects.get()
    deal(client, session, behind_2=20)
    asked = words(send(client, session, "act", action="stand"))

    assert "Seat 2 doubles: follow with your bet behind?" in asked
    assert 'value="follow"' in text(send(client, session, "act", action="hit", version=0))
    assert "Hint:" not in asked  # the strategy chart has no play for a bet behind
    shown = words(send(client, session, "act", action=answer))
    assert f"Round over: +{won} chips for you." in shown
    session.refresh_from_db()
    assert session.balance == 1000 + won
    # Your stand was graded; the answer for the bet behind is no strategy decision.
    assert [d.action for d in Drill.objects.filter(practice_round__session=session)] == ["stand"]
