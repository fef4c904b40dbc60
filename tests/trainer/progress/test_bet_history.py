"""The bet history (issue 12, "Bet history per account"): every settled stake of the
player's, its table, round, amount and result, newest first, a page at a time.

Rounds are dealt from stacked shoes as in test_practice_views (European, the player alone
in seat 1: your card, the up card, your card, the hole card, then the draws).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.trainer.practice.test_practice_views import (
    NINETEEN_V_SIX,
    SIXTEEN_V_TEN,
    ok,
    send,
    start,
    words,
)
from trainer.models import Bet, PracticeRound

pytestmark = [pytest.mark.django_db, pytest.mark.database]

BETS = "/bets/"
# You 8s 8h against the 6d (hole 10c: 16). Split: the first 8 gets 10s (18), the second
# 10h (18); you stand on both, the dealer draws 9s and busts with 25: both hands win 10.
SPLIT_EIGHTS = "8s 6d 8h 10c 10s 10h 9s 9c 9d"


def test_a_settled_round_records_the_seat_bet_with_its_result(client: Client) -> None:
    session = start(client, NINETEEN_V_SIX)
    ok(send(client, session, "deal"))
    assert not Bet.objects.exists()  # nothing is settled while the round is in play
    ok(send(client, session, "act", action="stand"))  # 19 against the dealer's 24: a win

    (bet,) = Bet.objects.all()
    assert (bet.kind, bet.seat, bet.hand, bet.result, bet.staked, bet.returned) == (
        "hand", 1, 0, "win", 10, 20,
    )  # fmt: skip
    assert bet.practice_round == PracticeRound.objects.get(session=session, number=1)
    assert bet.guest_token == client.session["guest_owner"] and bet.user_id is None
    page = words(client.get(BETS))
    assert f"Practice {session.pk} 1 Seat bet, seat 1 10 Win +10" in page


def test_a_split_seat_lists_each_hand_numbered(client: Client) -> None:
    session = start(client, SPLIT_EIGHTS)
    ok(send(client, session, "deal"))
    for action in ("split", "stand", "stand"):
        ok(send(client, session, "act", action=action))

    page = words(client.get(BETS))
    assert "Seat bet, seat 1, hand 1 10 Win +10" in page
    assert "Seat bet, seat 1, hand 2 10 Win +10" in page


def test_the_newest_bet_comes_first(client: Client) -> None:
    session = start(client, NINETEEN_V_SIX + " " + SIXTEEN_V_TEN)
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="stand"))  # round 1: a win
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="stand"))  # round 2: 16 loses to 17

    page = words(client.get(BETS))
    assert page.index("Lose -10") < page.index("Win +10")


def test_nobody_sees_another_players_bets(client: Client) -> None:
    session = start(client, NINETEEN_V_SIX)
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="stand"))

    other = Client()
    page = words(other.get(BETS))
    assert "No bets yet" in page and f"Practice {session.pk}" not in page


def test_the_history_pages_hold_twenty_five_bets_newest_first(client: Client) -> None:
    session = start(client, NINETEEN_V_SIX)
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="stand"))
    first = Bet.objects.get()
    # Thirty more, each a minute later than the one before, staking 10, 20, ... 300.
    for n in range(1, 31):
        first.pk = None
        first._state.adding = True
        first.staked, first.returned = 10 * n, 0
        first.result = "lose"
        first.settled_at = timezone.now() + timedelta(minutes=n)
        first.save()

    one = words(client.get(BETS))
    assert "31 bets settled at your tables" in one and "Page 1 of 2" in one
    assert one.index(" 300 Lose -300") < one.index(" 290 Lose -290")  # newest first
    assert " 60 Lose -60" in one and " 50 Lose" not in one  # the 25 newest: 300 down to 60
    two = words(client.get(BETS, {"page": 2}))
    assert "Page 2 of 2" in two and "10 Win +10" in two
    assert words(client.get(BETS, {"page": 99})) == two  # past the end: the last page


def test_a_round_settled_at_the_deal_records_its_bet(client: Client) -> None:
    session = start(client, "As 9d Kh 7c 9s 9c")  # a natural against 9d 7c: paid 3:2
    ok(send(client, session, "deal"))

    (bet,) = Bet.objects.all()
    assert (bet.result, bet.staked, bet.returned) == ("blackjack", 10, 25)
    assert bet.practice_round == PracticeRound.objects.get(session=session, number=1)
