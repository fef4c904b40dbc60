"""The practice table takes the player's pair bets and bets behind bots with the deal
(RULES.md §2: "Bet behind", "Pair side bet"; payouts under "Payouts")."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import IllegalActionError
from engine.rules import DELUXE, EUROPEAN, Rules
from engine.shoe import Shoe
from engine.table import PLAYER, BotSeat, Table, bot_owner

# Deluxe, you in seat 1, a normal bot in seat 2. Deal: you 8s, bot 10h, up 9c, you 8s,
# bot 10d, hole 7c (the dealer peeks only under an ace or a ten-value: not here). You
# stand on 16, the bot stands on 20; the dealer's 16 draws 10s and busts.
PERFECT_PAIR_AND_A_BUST = "8s 10h 9c 8s 10d 7c 10s"


def table_of(shoe: str, rules: Rules = DELUXE) -> Table:
    return Table.new(rules, player_seat=1, bots=[BotSeat(2, "normal")], shoe=Shoe.stacked(shoe))


def play_out(table: Table) -> None:
    while table.players_turn:
        table.act("stand")


def test_a_pair_bet_on_your_seat_pays_25_to_1_on_a_perfect_pair() -> None:
    table = table_of(PERFECT_PAIR_AND_A_BUST)
    table.deal(10, pairs={1: 10})
    play_out(table)
    # Seat bet 10 wins 10; the pair bet of 10 wins 250: 1000 + 10 + 250.
    assert table.balances[PLAYER] == 1260
    assert table.public().net(PLAYER) == 260


def test_the_public_view_shows_a_pair_bet_on_its_seat() -> None:
    table = table_of(PERFECT_PAIR_AND_A_BUST)
    table.deal(10, pairs={1: 10})
    seats = table.public().seats
    assert seats[0].pair_bets == ((PLAYER, 10),) and seats[1].pair_bets == ()


def test_a_bet_behind_a_bot_wins_with_the_bots_hand() -> None:
    table = table_of(PERFECT_PAIR_AND_A_BUST)
    table.deal(10, behind={2: 30})
    assert table.public().seats[1].bets_behind == ((PLAYER, 30),)
    play_out(table)
    # Your hand wins 10 and the bot's 20 wins, with your 30 behind it: +40.
    assert table.balances[PLAYER] == 1040
    assert table.balances[bot_owner(2)] == 1010  # the bot's own bet only
    assert table.public().net(PLAYER) == 40


def test_a_bet_behind_loses_with_the_bots_hand() -> None:
    # You 10s 9h = 19 stand; the bot 10h 6d = 16 hits the 10c and busts; the dealer's
    # 9c 8d = 17 stands. Your hand wins 10, your 20 behind the bot loses: -10.
    table = table_of("10s 10h 9c 9h 6d 8d 10c")
    table.deal(10, behind={2: 20})
    play_out(table)
    assert table.balances[PLAYER] == 990


@pytest.mark.parametrize(
    ("rules", "bets", "reason"),
    [
        pytest.param(DELUXE, {"behind": {1: 10}}, "your own seat", id="behind-own-seat"),
        pytest.param(DELUXE, {"behind": {5: 10}}, "seat 5 has no player", id="behind-empty"),
        pytest.param(DELUXE, {"pairs": {1: 5}}, "table minimum", id="pair-below-minimum"),
        pytest.param(DELUXE, {"behind": {2: 600}}, "table maximum", id="behind-over-maximum"),
        pytest.param(DELUXE, {"pairs": {1: 500, 2: 500}}, "balance", id="over-balance"),
        pytest.param(EUROPEAN, {"pairs": {1: 10}}, "no pair side bet", id="no-pair-bets"),
        pytest.param(EUROPEAN, {"behind": {2: 10}}, "no bet behind", id="no-bets-behind"),
    ],
)
def test_a_side_bet_refused_changes_nothing(
    rules: Rules, bets: dict[str, Any], reason: str
) -> None:
    table = Table.new(
        rules,
        player_seat=1,
        bots=[BotSeat(2, "normal")],
        bankroll=600,
        shoe=Shoe.stacked(PERFECT_PAIR_AND_A_BUST),
    )
    before = table.to_json()
    with pytest.raises(IllegalActionError, match=reason):
        table.deal(10, **bets)
    assert table.to_json() == before
    assert table.round is None
