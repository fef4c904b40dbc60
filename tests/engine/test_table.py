"""The practice table (engine/table.py): seats and bots, balances, limits, state.

Stacked shoes deal in RULES.md "Dealing order": one card to each seat from the lowest,
the dealer's up card, a second card to each seat, the hole card; then the seats' hits in
seat order, then the dealer's draws. Every expected balance below is worked out by hand
from that order and RULES.md §1 (a comment says how), never copied from a run.
"""

from __future__ import annotations

import dataclasses
import json
import random
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import (
    CARDS,
    DELUXE,
    EUROPEAN,
    NORMAL_CHART,
    SUITS,
    Action,
    ActionTaken,
    Card,
    CardDealt,
    Event,
    HandSplit,
    HoleCardRevealed,
    IllegalActionError,
    Phase,
    PlayerView,
    Shoe,
    StateError,
)
from engine.hand import Hand
from engine.round import Round, Turn
from engine.seat import Seat
from engine.strategy import store, strategy_for
from engine.table import (
    PLAYER,
    BotSeat,
    Limits,
    PublicHand,
    PublicSeat,
    PublicTable,
    Table,
    bot_owner,
)
from tests.engine.unseen_cards import with_unseen_cards_replaced

HIT, STAND, DOUBLE, SPLIT, SURRENDER = (
    Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER,
)  # fmt: skip
DEALER = 0
#: More player decisions than any European round can take: four hands of at most ~10
#: one-point hits each.
MAX_DECISIONS = 60
#: The default table limits: bets of 10 to 500 in steps of 10.
LIMITS = Limits()

PROPERTY = settings(
    # 40: with three seeds, branch coverage of the table still grew up to 40-45 examples.
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# Helpers -----------------------------------------------------------------------------


def stacked(
    cards: str,
    *,
    player_seat: int = 1,
    bots: tuple[BotSeat, ...] = (),
    bankroll: int = 100,
    limits: Limits = LIMITS,
) -> Table:
    """A European table dealing exactly ``cards``, everyone starting with ``bankroll``."""
    return Table.new(
        EUROPEAN,
        player_seat=player_seat,
        bots=bots,
        bankroll=bankroll,
        limits=limits,
        shoe=Shoe.stacked(cards),
    )


def dealt_cards(events: list[Event]) -> list[tuple[int, str | None]]:
    """(seat, card) of every card dealt, in order; the face-down card is None."""
    return [
        (e.seat, None if e.card is None else str(e.card))
        for e in events
        if isinstance(e, CardDealt)
    ]


def actions_of(events: list[Event]) -> list[tuple[int, str]]:
    """(seat, action) of every decision, in order."""
    return [(e.seat, str(e.action)) for e in events if isinstance(e, ActionTaken)]


def refused(table: Table, attempt: Callable[[], object], keyword: str) -> None:
    """``attempt`` raises `IllegalActionError` with ``keyword`` in its message and leaves
    the whole table (shoe, balances, round) exactly as it was."""
    before = table.to_json()
    with pytest.raises(IllegalActionError, match=keyword):
        attempt()
    assert table.to_json() == before


def points(card: Card) -> int:
    """A card's value with an ace as 1."""
    return 1 if card.rank == "A" else 10 if card.rank in ("10", "J", "Q", "K") else int(card.rank)


def best_total(cards: list[Card]) -> tuple[int, bool]:
    """RULES.md §1: an ace counts 11 unless that takes the hand over 21; (total, soft)."""
    hard = sum(points(card) for card in cards)
    if any(card.rank == "A" for card in cards) and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def column(card: Card) -> str:
    """The chart column of an up card."""
    return "A" if card.rank == "A" else str(points(card))


# Seat order and dealing order -------------------------------------------------------


# Seats: easy bot 1, player 3, easy bot 5. Dealt: 10s 9h 10d | up 6c | 4s 3h 3d | hole 10c.
# Bot 1 has 14 and hits the 5s (19, stands); the player has 12, hits the 7h (19), stands;
# bot 5 has 13, hits the 2d (15) and the 9c (24, bust); the dealer's 16 draws the 7c: 23.
ORDER_SHOE = "10s 9h 10d 6c 4s 3h 3d 10c 5s 7h 2d 9c 7c"
ORDER_BOTS = (BotSeat(5, "easy"), BotSeat(1, "easy"))  # given out of order on purpose


def test_cards_are_dealt_one_to_each_seat_lowest_first_then_up_card_then_hole_card():
    table = stacked(ORDER_SHOE, player_seat=3, bots=ORDER_BOTS)
    table.deal(20)
    assert table.round is not None
    assert dealt_cards(table.round.history())[:8] == [
        (1, "10s"),
        (3, "9h"),
        (5, "10d"),
        (DEALER, "6c"),
        (1, "4s"),
        (3, "3h"),
        (5, "3d"),
        (DEALER, None),  # the hole card, face down
    ]


def test_the_public_view_shows_the_seats_chips_and_round_as_they_are():
    table = stacked(ORDER_SHOE, player_seat=3, bots=ORDER_BOTS)
    before = table.public()
    assert (before.rules, before.limits, before.player_seat) == (EUROPEAN, LIMITS, 3)
    assert [(s.number, s.owner, s.tier, s.balance, s.hands) for s in before.seats] == [
        (1, bot_owner(1), "easy", 100, ()),
        (3, PLAYER, None, 100, ()),
        (5, bot_owner(5), "easy", 100, ()),
    ]
    assert (before.phase, before.turn, before.decision, before.shuffled) == (None,) * 4
    table.deal(20)
    public = table.public()
    player = public.seats[1]
    # The bot at seat 1 bet the minimum and has played its 10 4 (it hit the 10c: 24).
    assert (player.balance, public.seats[0].balance) == (80, 100 - LIMITS.minimum)
    assert player.hands == (PublicHand((Card("9", "h"), Card("3", "h")), 20),)
    assert [len(hand.cards) for hand in public.seats[0].hands] == [3]
    assert all(seat.pair_bets == () and seat.bets_behind == () for seat in public.seats)
    assert public.phase is Phase.PLAYER_TURNS and public.turn == Turn(3, 0, PLAYER)
    assert public.decision is not None and public.decision.seat == 3
    assert (public.cut_card_out, public.shuffled) == (False, None)


def test_the_public_view_says_when_the_round_opened_a_fresh_shoe() -> None:
    table = Table.new(DELUXE, shoe=Shoe.for_rules(DELUXE, random.Random(4)))
    table.deal(10)
    shuffled = table.public().shuffled
    # Deluxe burns the first card face up, and as many more face down as its points.
    assert shuffled is not None and shuffled.shown is not None
    assert shuffled.burned == 1 + points(shuffled.shown)
    while table.players_turn:
        table.act(table.view().legal[-1])  # the last play offered: the round goes on
    table.deal(10)
    assert table.public().shuffled is None  # the same shoe goes on


def test_bots_before_the_player_have_acted_when_the_players_turn_comes():
    table = stacked(ORDER_SHOE, player_seat=3, bots=ORDER_BOTS)
    table.deal(20)
    assert table.round is not None
    assert table.round.turn == Turn(seat=3, hand=0, owner=PLAYER)
    assert table.players_turn
    history = table.round.history()
    assert actions_of(history) == [(1, "hit"), (1, "stand")]
    assert dealt_cards(history)[8:] == [(1, "5s")]  # nothing else drawn yet


def test_bots_after_the_player_act_only_after_the_players_last_decision():
    table = stacked(ORDER_SHOE, player_seat=3, bots=ORDER_BOTS)
    table.deal(20)
    table.act("hit")  # 12 + 7h = 19: still the player's decision
    assert table.round is not None
    assert table.players_turn
    assert [seat for seat, _ in actions_of(table.round.history())] == [1, 1, 3]
    table.act("stand")
    history = table.round.history()
    assert actions_of(history) == [
        (1, "hit"),
        (1, "stand"),
        (3, "hit"),
        (3, "stand"),
        (5, "hit"),
        (5, "hit"),
    ]
    reveal = next(i for i, e in enumerate(history) if isinstance(e, HoleCardRevealed))
    last_bot_card = max(
        i for i, e in enumerate(history) if isinstance(e, CardDealt) and e.seat == 5
    )
    assert last_bot_card < reveal  # the dealer plays after every seat
    assert table.round.phase is Phase.SETTLED
    # Dealer busts: bot 1's 19 and the player's 19 win 1:1, bot 5's bust loses.
    assert table.balances == {PLAYER: 100 + 20, bot_owner(1): 100 + 10, bot_owner(5): 100 - 10}


def test_a_player_natural_does_not_act_and_the_bots_after_it_play_on_at_once():
    # Player seat 1: As Kh (natural); easy bot 2: 10d 7d = 17, stands; dealer 9c 8c = 17.
    table = stacked("As 10d 9c Kh 7d 8c", player_seat=1, bots=(BotSeat(2, "easy"),))
    table.deal(10)
    assert table.round is not None
    assert table.round.phase is Phase.SETTLED
    assert not table.players_turn
    assert actions_of(table.round.history()) == [(2, "stand")]
    # Natural 3:2 on 10 is +15; the bot's 17 pushes the dealer's 17.
    assert table.balances == {PLAYER: 115, bot_owner(2): 100}


# Settlement into balances ------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "bet", "actions", "balance"),
    [
        # 10s 9h = 19 against 7c 10d = 17: win 1:1.
        pytest.param("10s 7c 9h 10d", 30, ["stand"], 100 + 30, id="win"),
        # 10s 7h = 17 against 10c 8d = 18: lose the bet.
        pytest.param("10s 10c 7h 8d", 30, ["stand"], 100 - 30, id="loss"),
        # As Kd natural against 9c 7h: 3:2 of 30 is 45; the dealer draws nothing.
        pytest.param("As 9c Kd 7h", 30, [], 100 + 45, id="natural-3-to-2"),
        # 6s 5h = 11 doubles to 40 staked, draws 10h = 21 against 10c 7d = 17: +40.
        pytest.param("6s 10c 5h 7d 10h", 20, ["double"], 100 + 40, id="double"),
        # 8s 8h split against 10c 7d = 17: 8s+10h = 18 wins 20, 8h+9s = 17 pushes.
        pytest.param("8s 10c 8h 7d 10h 9s", 20, ["split", "stand", "stand"], 120, id="split"),
        # 8s 8h split against 6c 10d = 16: 8s+3h = 11 doubles to 21 (10c); 8h+10s = 18
        # stands; the dealer draws 9d, busts: +40 and +20.
        pytest.param(
            "8s 6c 8h 10d 3h 10c 10s 9d", 20, ["split", "double", "stand"], 160, id="split-double"
        ),
    ],
)
def test_a_round_settles_into_the_players_balance(
    cards: str, bet: int, actions: list[str], balance: int
) -> None:
    table = stacked(cards)
    table.deal(bet)
    for action in actions:
        table.act(action)
    assert table.round is not None and table.round.phase is Phase.SETTLED
    assert table.balances == {PLAYER: balance}
    assert table.round.net(PLAYER) == balance - 100


def test_the_split_stake_is_taken_from_the_balance_when_the_hand_is_split():
    table = stacked("8s 10c 8h 7d 10h 9s")
    table.deal(20)
    assert table.balances[PLAYER] == 80
    table.act("split")
    assert table.balances[PLAYER] == 60  # a second bet of 20 on the new hand


def test_no_peek_a_dealer_natural_takes_the_whole_doubled_stake():
    # 6s 5d = 11 against the Ah: no peek, so the player may double (9h: 20); the hole Kc
    # then makes a dealer natural, which takes both halves of the doubled stake.
    table = stacked("6s Ah 5d Kc 9h")
    table.deal(20)
    assert table.players_turn  # the dealer did not look under the ace
    table.act("double")
    assert table.round is not None and table.round.outcome().dealer_natural
    assert table.balances[PLAYER] == 100 - 2 * 20


def test_no_peek_a_dealer_natural_takes_every_stake_at_the_table():
    # Normal bot at seat 1: 6s 5d = 11 against the ace hits (chart: H vs A) and makes 21
    # with the 10h; the player at seat 2 doubles 5c 6c = 11 and draws the 9h (20). The
    # hole Kc makes a dealer natural: the bot's 21 loses its 10, the player both 20s.
    table = stacked("6s 5c Ah 5d 6c Kc 10h 9h", player_seat=2, bots=(BotSeat(1, "normal"),))
    table.deal(20)
    assert table.round is not None
    assert actions_of(table.round.history()) == [(1, "hit")]
    table.act("double")
    assert table.balances == {PLAYER: 100 - 40, bot_owner(1): 100 - 10}


# Bets and bad input ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bankroll", "bet", "keyword"),
    [
        pytest.param(1000, 5, "minimum is 10", id="below-minimum"),
        pytest.param(1000, 1, "minimum is 10", id="one-chip"),
        pytest.param(1000, 510, "maximum is 500", id="above-maximum"),
        pytest.param(1000, 25, "steps of 10", id="not-a-step"),
        pytest.param(100, 110, "more than your balance", id="above-balance"),
        pytest.param(1000, 0, "whole number", id="zero"),
        pytest.param(1000, -10, "whole number", id="negative"),
        pytest.param(1000, "10", "whole number", id="str"),
        pytest.param(1000, 10.0, "whole number", id="float"),
        pytest.param(1000, True, "whole number", id="bool"),
        pytest.param(1000, None, "whole number", id="none"),
    ],
)
def test_a_bad_bet_is_refused_and_changes_nothing(bankroll: int, bet: Any, keyword: str) -> None:
    table = stacked("10s 9h 8d 7c", bots=(BotSeat(2, "easy"),), bankroll=bankroll)
    refused(table, lambda: table.deal(bet), keyword)
    assert table.round is None
    assert table.balances == {PLAYER: bankroll, bot_owner(2): bankroll}


def test_a_bet_of_the_whole_balance_is_accepted():
    table = stacked("10s 9h 8d 7c", bankroll=100)  # 10s 8d = 18 against 9h 7c = 16
    table.deal(100)
    assert table.balances == {PLAYER: 0}


def test_no_deal_while_a_round_is_in_play():
    table = stacked("10s 9h 8d 7c 5s 5h 5d 5c")
    table.deal(10)
    refused(table, lambda: table.deal(10), "finish this round")


@pytest.mark.parametrize("action", ["stand", "hit", Action.DOUBLE])
def test_no_action_before_a_round_is_dealt(action: str) -> None:
    table = stacked("10s 9h 8d 7c")
    refused(table, lambda: table.act(action), "no round is in play")
    refused(table, table.view, "no round is in play")


def test_no_action_after_the_round_is_settled():
    table = stacked("10s 9h 8d 7c 5s")
    table.deal(10)
    table.act("stand")
    assert table.round is not None and table.round.phase is Phase.SETTLED
    refused(table, lambda: table.act("hit"), "no round is in play")
    refused(table, table.view, "no round is in play")


def test_no_double_after_a_hit():
    table = stacked("2s 9h 3d 7c 4h 9d")  # 2+3 = 5, hits the 4h: 9 on three cards
    table.deal(10)
    table.act("hit")
    refused(table, lambda: table.act("double"), "first two cards")


def test_no_split_of_two_cards_of_different_value():
    table = stacked("9s 9h 8d 7c")
    table.deal(10)
    refused(table, lambda: table.act("split"), "same value")


@pytest.mark.parametrize(
    ("action", "keyword"),
    [
        pytest.param("fold", "not an action", id="nonsense"),
        pytest.param("", "not an action", id="empty"),
        pytest.param(None, "not an action", id="none"),
        pytest.param("surrender", "no surrender", id="surrender-off"),
        pytest.param("insure", "insurance", id="insurance-off"),
    ],
)
def test_an_action_the_table_does_not_know_or_offer_is_refused(action: Any, keyword: str) -> None:
    table = stacked("10s 9h 6d 7c")
    table.deal(10)
    refused(table, lambda: table.act(action), keyword)


# Construction refusals -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "keyword"),
    [
        pytest.param({"player_seat": 2, "bots": [BotSeat(2, "easy")]}, "share a seat", id="p-b"),
        pytest.param(
            {"player_seat": 1, "bots": [BotSeat(4, "easy"), BotSeat(4, "hard")]},
            "share a seat",
            id="b-b",
        ),
        pytest.param({"player_seat": 0}, "1 to 7", id="player-0"),
        pytest.param({"player_seat": 8}, "1 to 7", id="player-8"),
        pytest.param({"bots": [BotSeat(0, "easy")]}, "1 to 7", id="bot-0"),
        pytest.param({"bots": [BotSeat(8, "normal")]}, "1 to 7", id="bot-8"),
        pytest.param({"bots": [BotSeat(2, "expert")]}, "no bot tier 'expert'", id="tier-expert"),
        pytest.param({"bots": [BotSeat(2, "Hard")]}, "no bot tier", id="tier-case"),
        pytest.param({"bankroll": 5}, "at least 10", id="bankroll-5"),
        pytest.param({"bankroll": 0}, "at least 10", id="bankroll-0"),
        pytest.param({"bankroll": 100.0}, "at least 10", id="bankroll-float"),
        pytest.param({"bankroll": "100"}, "at least 10", id="bankroll-str"),
        pytest.param({"bankroll": 40, "limits": Limits(50, 500, 10)}, "at least 50", id="min-50"),
    ],
)
def test_a_table_that_cannot_be_played_is_refused(kwargs: dict[str, Any], keyword: str) -> None:
    with pytest.raises(IllegalActionError, match=keyword):
        Table.new(EUROPEAN, **kwargs)


def test_a_bankroll_of_exactly_the_minimum_is_accepted():
    table = Table.new(EUROPEAN, bankroll=10, bots=[BotSeat(2, "easy")])
    assert table.balances == {PLAYER: 10, bot_owner(2): 10}


@pytest.mark.parametrize(
    ("minimum", "maximum", "step"),
    [
        pytest.param(10, 500, 0, id="no-step"),
        pytest.param(10, 500, -2, id="negative-step"),
        pytest.param(9, 500, 3, id="odd-step"),
        pytest.param(15, 500, 10, id="minimum-off-step"),
        pytest.param(10, 500, 20, id="step-over-minimum"),
        pytest.param(0, 500, 2, id="zero-minimum"),
        pytest.param(20, 10, 10, id="minimum-over-maximum"),
    ],
)
def test_table_limits_need_an_even_step_dividing_a_minimum_at_most_the_maximum(
    minimum: int, maximum: int, step: int
) -> None:
    with pytest.raises(IllegalActionError, match="even step"):
        Limits(minimum, maximum, step)


def test_the_smallest_table_limits_are_accepted():
    assert Limits(2, 2, 2) == Limits(minimum=2, maximum=2, step=2)


def test_a_table_starts_everyone_with_1000_chips_unless_told():
    table = Table.new(EUROPEAN, bots=[BotSeat(2, "easy")])
    assert table.balances == {PLAYER: 1000, bot_owner(2): 1000}


def test_a_table_given_a_seeded_rng_shuffles_the_same_way_new_and_restored():
    def first_round(table: Table) -> list[tuple[int, str | None]]:
        table.deal(10)
        while table.players_turn:
            table.act("stand")
        assert table.round is not None
        return dealt_cards(table.round.history())

    dealt = first_round(Table.new(EUROPEAN, rng=random.Random(3)))
    assert first_round(Table.new(EUROPEAN, rng=random.Random(3))) == dealt
    assert first_round(Table.new(EUROPEAN, rng=random.Random(4))) != dealt
    # Restored from JSON, a table shuffles with the RNG it is given: before a round ...
    state = Table.new(EUROPEAN, rng=random.Random(0)).to_json()
    assert first_round(Table.from_json(state, rng=random.Random(3))) == dealt
    # ... and with a round in it, once its shoe is due for a shuffle.
    played = Table.from_json(state, rng=random.Random(3))
    first_round(played)
    state = played.to_json()
    state["round"]["shoe"]["needs_shuffle"] = True
    again = [first_round(Table.from_json(state, rng=random.Random(5))) for _ in range(2)]
    assert again[0] == again[1]


def test_tables_are_equal_only_in_the_same_state():
    def table() -> Table:
        return stacked("10s 9h 10d 8d 7c 9c 5s", bots=(BotSeat(2, "easy"),))

    assert table() == table()
    dealt = table()
    dealt.deal(10)
    assert dealt != table()
    assert stacked("10s 9h 10d 8d 7c 9c 5s") != table()
    assert table() != table().to_json()


# Bots --------------------------------------------------------------------------------


def test_a_broke_bot_buys_in_again_before_its_bet():
    # Bankroll 10 each. Round 1: easy bot 1 has 10s 7s = 17 and stands; the player at
    # seat 2 has As Kh, a natural; the dealer has 10d 8c = 18. Bot: 10 - 10 = 0; player:
    # 10 - 10 + 25 = 25. Round 2: the bot is below the minimum and buys in with 10, bets
    # them, then its 10s 9s = 19 beats the dealer's 9d 8c = 17 (0 + 20); the player's
    # 10h 8h = 18 stands and wins too (25 - 10 + 20 = 35).
    table = stacked(
        "10s Ah 10d 7s Kh 8c  10s 10h 9d 9s 8h 8c",
        player_seat=2,
        bots=(BotSeat(1, "easy"),),
        bankroll=10,
    )
    table.deal(10)
    assert table.balances == {PLAYER: 25, bot_owner(1): 0}
    table.deal(10)
    assert table.balances == {PLAYER: 15, bot_owner(1): 0}  # bought in with 10, bet 10
    assert table.round is not None
    assert actions_of(table.round.history()) == [(1, "stand")]
    table.act("stand")
    assert table.balances == {PLAYER: 35, bot_owner(1): 20}
    bot_stakes = [
        (s.kind, s.staked) for s in table.round.outcome().settlements if s.owner == bot_owner(1)
    ]
    assert bot_stakes == [("hand", 10)]


def test_a_bot_with_no_chips_on_record_buys_in_before_its_bet():
    # A stored table that has no balance for bot 1 (only the player's is required): the
    # bot buys in with the bot bankroll, 100, and bets the minimum from it.
    table = stacked("10s 10h 10d 9s 8h 10c", player_seat=2, bots=(BotSeat(1, "easy"),))
    state = table.to_json()
    del state["balances"][bot_owner(1)]
    table = Table.from_json(state)
    table.deal(10)
    assert table.balances == {PLAYER: 90, bot_owner(1): 90}


def test_a_bot_with_exactly_the_minimum_does_not_buy_in():
    # Bankroll 20. Round 1: easy bot 1 has 10s 9s = 19, the player 10h 8h = 18, the
    # dealer 10d 10c = 20: both lose 10 and keep 10, the minimum. Round 2: the bot bets
    # its last 10 (a buy-in would have reset it to 20 first); its 10s 10h = 20 beats the
    # dealer's 9d 8c = 17: 0 + 20. The player's 7h Kh = 17 pushes: 10 - 10 + 10.
    table = stacked(
        "10s 10h 10d 9s 8h 10c  10s 7h 9d 10h Kh 8c",
        player_seat=2,
        bots=(BotSeat(1, "easy"),),
        bankroll=20,
    )
    table.deal(10)
    table.act("stand")
    assert table.balances == {PLAYER: 10, bot_owner(1): 10}
    table.deal(10)
    assert table.balances == {PLAYER: 0, bot_owner(1): 0}
    table.act("stand")
    assert table.balances == {PLAYER: 10, bot_owner(1): 20}


#: RULES.md §3 "Chart codes": the actions each code tries, first legal one wins. P's
#: "else" (as the hard total) is taken care of by the row: a pair row is only read when
#: the split was legal.
CODE_ACTIONS: dict[str, tuple[Action, ...]] = {
    "H": (HIT,),
    "S": (STAND,),
    "D": (DOUBLE, HIT),
    "Ds": (DOUBLE, STAND),
    "P": (SPLIT,),
    "Ph": (SPLIT, HIT),  # European allows double after split
    "R": (SURRENDER, HIT),
    "Rs": (SURRENDER, STAND),
    "Rp": (SURRENDER, SPLIT),
}


@dataclass
class Decision:
    """A bot's decision read back from a round's history, with what it was taken on."""

    seat: int
    hand: int
    cards: list[Card]
    up: Card
    hands: int
    funds: int
    action: str
    effective: str
    legal: tuple[Action, ...]


def decisions(history: list[Event], funds: dict[int, int], bet: int) -> Iterator[Decision]:
    """Every decision in ``history``, with the cards of the hand as they were at that
    moment (replayed from CardDealt and HandSplit), the dealer's up card, and the seat's
    free chips (``funds`` at the start of play, less a bet for each double and split)."""
    hands: dict[int, list[list[Card]]] = {}
    up: Card | None = None
    funds = dict(funds)
    for event in history:
        if isinstance(event, CardDealt):
            if event.seat == DEALER:
                up = up or event.card
                continue
            seat_hands = hands.setdefault(event.seat, [])
            if event.hand == len(seat_hands):
                seat_hands.append([])
            assert event.card is not None
            seat_hands[event.hand].append(event.card)
        elif isinstance(event, HandSplit):
            seat_hands = hands[event.seat]
            first, second = seat_hands[event.hand]
            seat_hands[event.hand : event.hand + 1] = [[first], [second]]
        elif isinstance(event, ActionTaken):
            assert up is not None
            cards = list(hands[event.seat][event.hand])
            yield Decision(
                event.seat,
                event.hand,
                cards,
                up,
                len(hands[event.seat]),
                funds.get(event.seat, 0),
                str(event.action),
                str(event.effective),
                legal_for(cards, len(hands[event.seat]), funds.get(event.seat, 0), bet),
            )
            if event.action in (DOUBLE, SPLIT):
                funds[event.seat] -= bet


def legal_for(cards: list[Card], hands: int, funds: int, bet: int) -> tuple[Action, ...]:
    """RULES.md §1 legal actions of a European hand still in play: hit and stand; on two
    cards double, and split on a pair below 4 hands, each when the balance covers a bet."""
    legal = [HIT, STAND]
    if len(cards) == 2 and funds >= bet:
        legal.append(DOUBLE)
        if points(cards[0]) == points(cards[1]) and hands < EUROPEAN.max_hands:
            legal.append(SPLIT)
    return tuple(legal)


def chart_play(chart: Any, decision: Decision) -> tuple[str, str, Action | None]:
    """(row, code, action) the chart gives: the pair row when the two cards are a pair
    and the split is legal, else the soft or hard total's row; None if no action of the
    code's list is legal."""
    cards = decision.cards
    if len(cards) == 2 and points(cards[0]) == points(cards[1]) and SPLIT in decision.legal:
        row = "pair A" if cards[0].rank == "A" else f"pair {points(cards[0])}"
    else:
        total, soft = best_total(cards)
        row = f"{'soft' if soft else 'hard'} {total}"
    if row in chart:
        code = chart[row][column(decision.up)]
    else:
        assert row in ("hard 4", "soft 12"), row  # an unsplit 2,2 or A,A: below the chart
        code = "H"
    action = next((a for a in CODE_ACTIONS[code] if a in decision.legal), None)
    return row, code, action


BOT_BANKROLL = 20
TIER_SEATS = {2: "easy", 3: "hard", 5: "normal"}  # the player sits at 4
TIER_ROUNDS = 2000


def play_tier_session(seed: int) -> list[tuple[list[Event], dict[int, int]]]:
    """Rounds at a table of an easy, a hard and a normal bot around a player who always
    stands; each round's history with every bot's free chips once its bet was taken.

    The bots start (and buy in) with only 20 chips, so doubles and splits they cannot
    cover — and the codes' fallbacks — come up too.
    """
    limits = LIMITS
    table = Table(
        EUROPEAN,
        Shoe.for_rules(EUROPEAN, random.Random(seed)),
        player_seat=4,
        bots=[BotSeat(seat, tier) for seat, tier in TIER_SEATS.items()],
        balances={PLAYER: 10**6, **{bot_owner(seat): BOT_BANKROLL for seat in TIER_SEATS}},
        bot_bankroll=BOT_BANKROLL,
        limits=limits,
    )
    rounds = []
    for _ in range(TIER_ROUNDS):
        funds = {}
        for seat in TIER_SEATS:
            balance = table.balances[bot_owner(seat)]
            funds[seat] = (BOT_BANKROLL if balance < limits.minimum else balance) - limits.minimum
        table.deal(limits.minimum)
        while table.players_turn:
            table.act("stand")
        assert table.round is not None and table.round.phase is Phase.SETTLED
        rounds.append((table.round.history(), funds))
    return rounds


@pytest.fixture(scope="module")
def tier_session() -> list[tuple[list[Event], dict[int, int]]]:
    """One long seeded session, shared by the bot tier tests.

    Module-scoped, it is built before the per-test fixture that points analyses at the
    engine's folder store: it must do so itself, or the hard bot's analysis is looked up
    in the database store whenever no earlier test has loaded it (any test order but
    the file's own)."""
    with store.store_used(store.DirectoryStore()):
        return play_tier_session(seed=2024)


def bot_decisions(session: list[tuple[list[Event], dict[int, int]]], tier: str) -> list[Decision]:
    """Every decision the bot of ``tier`` took in the session."""
    (seat,) = [seat for seat, name in TIER_SEATS.items() if name == tier]
    return [
        decision
        for history, funds in session
        for decision in decisions(history, funds, LIMITS.minimum)
        if decision.seat == seat
    ]


@pytest.mark.parametrize(
    ("tier", "chart"),
    [
        # The hard tier's chart is looked up in the test, not at collection, when no
        # strategy store has been chosen for the test yet.
        pytest.param("hard", None, id="hard-exact-chart"),
        pytest.param("normal", NORMAL_CHART, id="normal-chart"),
    ],
)
def test_a_chart_bot_at_the_table_plays_its_chart_at_every_decision(
    tier_session: list[tuple[list[Event], dict[int, int]]], tier: str, chart: Any
) -> None:
    chart = chart or strategy_for(EUROPEAN).chart
    wrong = []
    played: set[str] = set()
    #: Cells whose code fell back: a double on two cards the balance could not cover,
    #: a double on three cards, a pair that could not be split (balance or 4 hands).
    short_double = late_double = unsplit_pair = False
    for decision in bot_decisions(tier_session, tier):
        assert decision.effective == decision.action  # European: nothing changes an action
        row, code, want = chart_play(chart, decision)
        cards = decision.cards
        if decision.action != want:
            shown = " ".join(str(card) for card in cards)
            wrong.append(f"{shown} vs {decision.up} ({row}, {code}): {decision.action}, not {want}")
        played.add(decision.action)
        if code in ("D", "Ds") and want is not DOUBLE:
            short_double = short_double or len(cards) == 2
            late_double = late_double or len(cards) > 2
        is_pair = len(cards) == 2 and points(cards[0]) == points(cards[1])
        unsplit_pair = unsplit_pair or (is_pair and SPLIT not in decision.legal)
    assert wrong == []
    # Not vacuous: every kind of decision, and every kind of fallback, came up.
    assert played == {"hit", "stand", "double", "split"}
    assert short_double and late_double and unsplit_pair


def test_an_easy_bot_at_the_table_hits_exactly_below_17_and_never_doubles_or_splits(
    tier_session: list[tuple[list[Event], dict[int, int]]],
) -> None:
    wrong = []
    seen = bot_decisions(tier_session, "easy")
    for decision in seen:
        total, _ = best_total(decision.cards)
        want = "hit" if total < 17 else "stand"
        if decision.action != want:
            cards = " ".join(str(card) for card in decision.cards)
            wrong.append(f"{cards} ({total}): {decision.action}, not {want}")
    assert wrong == []
    # It had the chance to double and split, and the history shows it hitting and standing.
    assert any(DOUBLE in d.legal for d in seen) and any(SPLIT in d.legal for d in seen)
    assert {d.action for d in seen} == {"hit", "stand"}


# JSON --------------------------------------------------------------------------------


#: Cards that make naturals, pairs and doubles common in a stacked shoe.
RICH_CARDS = [
    Card(rank, suit) for rank in ("A", "A", "8", "8", "10", "K", "5", "6") for suit in SUITS
]


@dataclass
class Session:
    table: Table
    #: What the player started with.
    bankroll: int


def random_session(data: st.DataObject) -> Session:
    """A European table: the player at a random seat among 0-3 bots of random tiers, a
    random bankroll (at least the minimum) and even-step limits, and a real shuffled shoe
    or a long stacked one rich in aces, pairs and ten-values."""
    player_seat = data.draw(st.integers(1, 7), label="player seat")
    bot_seats = data.draw(
        st.lists(
            st.integers(1, 7).filter(lambda seat: seat != player_seat), max_size=3, unique=True
        ),
        label="bot seats",
    )
    bots = [
        BotSeat(seat, data.draw(st.sampled_from(("easy", "normal", "hard")), label="tier"))
        for seat in bot_seats
    ]
    limits = data.draw(
        st.sampled_from([Limits(), Limits(2, 40, 2), Limits(20, 200, 20)]), label="limits"
    )
    # Often only a few bets' worth, so that the player and the bots run short and go broke.
    low = limits.minimum
    bankroll = data.draw(
        st.one_of(st.integers(1, 4).map(lambda bets: bets * low), st.integers(low, 30 * low)),
        label="bankroll",
    )
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    if data.draw(st.booleans(), label="rich stacked shoe"):
        rich = data.draw(st.lists(st.sampled_from(RICH_CARDS), max_size=60), label="rich cards")
        rest = list(CARDS) * 6
        random.Random(seed).shuffle(rest)
        shoe = Shoe.stacked([*rich, *rest])
    else:
        shoe = Shoe.for_rules(EUROPEAN, random.Random(seed))
    table = Table.new(
        EUROPEAN, player_seat=player_seat, bots=bots, bankroll=bankroll, limits=limits, shoe=shoe
    )
    return Session(table, bankroll)


def random_bet(data: st.DataObject, table: Table) -> int | None:
    """A bet the limits and the player's balance allow, or None if there is none."""
    limits = table.limits
    balance = table.balances[PLAYER]
    low = -(-limits.minimum // limits.step) * limits.step
    bets = range(low, min(limits.maximum, balance) + 1, limits.step)
    return data.draw(st.sampled_from(bets), label="bet") if bets else None


def random_action(data: st.DataObject, table: Table) -> Action:
    """A random legal action of the player's; splits and doubles come up more often."""
    assert table.round is not None
    legal = table.round.legal_actions()
    assert legal, "the player's turn with no legal action"
    often = tuple(action for action in (SPLIT, DOUBLE) if action in legal) * 2
    return data.draw(st.sampled_from(often + legal), label="action")


def json_copy(table: Table, **kwargs: Any) -> Table:
    """The table through real JSON text and back."""
    return Table.from_json(json.loads(json.dumps(table.to_json())), **kwargs)


def assert_same_table(copy: Table, table: Table, public: Callable[[PlayerView], Any]) -> None:
    """The copy holds the same state and shows the player the same decision."""
    assert copy == table
    assert copy.to_json() == table.to_json()
    assert copy.balances == table.balances
    assert (copy.player_seat, copy.bots, copy.limits) == (
        table.player_seat,
        table.bots,
        table.limits,
    )
    assert (copy.in_play, copy.players_turn) == (table.in_play, table.players_turn)
    if table.players_turn:
        assert public(copy.view()) == public(table.view())


@PROPERTY
@given(st.data())
def test_json_round_trip_at_every_step_gives_an_equal_table_that_plays_on_the_same(
    public: Callable[[PlayerView], Any], data: st.DataObject
) -> None:
    session = random_session(data)
    table = session.table
    assert_same_table(json_copy(table), table, public)
    for _ in range(data.draw(st.integers(1, 4), label="rounds")):
        bet = random_bet(data, table)
        if bet is None:
            break
        # A copy deals the same round unless the shoe is due a shuffle (the RNG is not
        # state: a copy gets its own).
        copy = json_copy(table)
        shuffles = table.shoe.needs_shuffle or table.shoe.position >= table.shoe.cut
        table.deal(bet)
        copy.deal(bet)
        if not shuffles:
            assert_same_table(copy, table, public)
        steps = 0
        while table.players_turn:
            steps += 1
            assert steps <= MAX_DECISIONS
            assert_same_table(json_copy(table), table, public)
            copy = json_copy(table)
            action = random_action(data, table)
            table.act(action)
            copy.act(action)
            assert_same_table(copy, table, public)
        assert_same_table(json_copy(table), table, public)


def _no_round() -> dict[str, Any]:
    """A valid table's JSON between rounds (no round dealt yet)."""
    return Table.new(EUROPEAN, bots=[BotSeat(3, "hard")], rng=random.Random(1)).to_json()


def _in_round() -> dict[str, Any]:
    """A valid table's JSON with a round in play."""
    table = Table.new(EUROPEAN, bots=[BotSeat(3, "hard")], rng=random.Random(1))
    table.deal(10)
    return table.to_json()


def _without(key: str) -> Callable[[dict[str, Any]], None]:
    """Spoil the JSON by taking a key out."""
    return lambda data: data.pop(key)


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """Spoil the JSON by setting a key to a wrong value."""
    return lambda data: data.__setitem__(key, value)


#: (valid table JSON, how it is spoiled): a key missing, or a value of the wrong type.
MALFORMED: list[Any] = [
    *[
        pytest.param(_no_round, _without(key), id=f"missing-{key}")
        for key in ("player_seat", "bots", "bot_bankroll", "limits", "rules", "shoe", "balances")
    ],
    *[
        pytest.param(_in_round, _without(key), id=f"in-round-missing-{key}")
        for key in ("player_seat", "bots", "bot_bankroll", "limits", "round")
    ],
    pytest.param(_no_round, _set("player_seat", None), id="seat-none"),
    pytest.param(_no_round, _set("player_seat", "one"), id="seat-text"),
    pytest.param(_no_round, _set("player_seat", 9), id="seat-out-of-range"),
    pytest.param(_no_round, _set("player_seat", 3), id="seat-taken-by-a-bot"),
    pytest.param(_no_round, _set("bots", None), id="bots-none"),
    pytest.param(_no_round, _set("bots", "hard"), id="bots-text"),
    pytest.param(_no_round, _set("bots", [[3]]), id="bot-without-tier"),
    pytest.param(_no_round, _set("bots", [[3, "expert"]]), id="bot-unknown-tier"),
    pytest.param(_no_round, _set("bots", [["x", "hard"]]), id="bot-seat-text"),
    pytest.param(_no_round, _set("bot_bankroll", None), id="bot-bankroll-none"),
    pytest.param(_no_round, _set("limits", None), id="limits-none"),
    pytest.param(_no_round, _set("limits", [10, 500]), id="limits-two"),
    pytest.param(_no_round, _set("limits", ["ten", 500, 10]), id="limits-text"),
    pytest.param(_no_round, _set("rules", None), id="rules-none"),
    pytest.param(_no_round, _set("shoe", None), id="shoe-none"),
    pytest.param(_no_round, _set("balances", None), id="balances-none"),
    pytest.param(_no_round, _set("balances", {PLAYER: "lots"}), id="balance-text"),
    pytest.param(_no_round, _set("balances", [[PLAYER, 100]]), id="balances-list"),
    pytest.param(_no_round, _set("balances", {"bot 3": 100}), id="balances-without-player"),
    pytest.param(_in_round, _set("round", None), id="round-none"),
    pytest.param(_in_round, _set("round", {"phase": "settled"}), id="round-partial"),
    pytest.param(
        _in_round,
        lambda data: data["round"].__setitem__("balances", None),
        id="round-without-balances",
    ),
]


@pytest.mark.parametrize(("make", "spoil"), MALFORMED)
def test_from_json_of_malformed_data_raises_state_error(
    make: Callable[[], dict[str, Any]], spoil: Callable[[dict[str, Any]], None]
) -> None:
    data = make()
    Table.from_json(json.loads(json.dumps(data)))  # the unspoiled data is fine
    spoil(data)
    with pytest.raises(StateError, match="not a valid table"):
        Table.from_json(data)


def test_a_stored_table_without_the_players_balance_is_refused_saying_so() -> None:
    data = stacked(ORDER_SHOE).to_json()
    del data["balances"][PLAYER]
    with pytest.raises(StateError, match="^not a valid table: a table keeps the player's balance$"):
        Table.from_json(data)


def test_a_stored_table_whose_round_keeps_no_balances_is_refused_saying_so() -> None:
    table = stacked(ORDER_SHOE)
    table.deal(20)
    data = table.to_json()
    data["round"]["balances"] = None
    with pytest.raises(StateError, match="^not a valid table: a table's round keeps the balances$"):
        Table.from_json(data)


@pytest.mark.parametrize("data", [None, [], "table", 3])
def test_from_json_of_something_not_a_table_raises_state_error(data: Any) -> None:
    with pytest.raises(StateError):
        Table.from_json(data)


# Ledger ------------------------------------------------------------------------------


@PROPERTY
@given(st.data())
def test_the_players_balance_is_the_bankroll_plus_every_rounds_net(data: st.DataObject) -> None:
    session = random_session(data)
    table = session.table
    nets = 0
    for _ in range(data.draw(st.integers(1, 6), label="rounds")):
        bet = random_bet(data, table)
        if bet is None:
            assert table.balances[PLAYER] < table.limits.minimum
            break
        before = dict(table.balances)
        minimum = table.limits.minimum
        table.deal(bet)
        assert table.round is not None
        steps = 0
        while table.players_turn:
            steps += 1
            assert steps <= MAX_DECISIONS, "the round is still waiting for the player"
            table.act(random_action(data, table))
            balance = table.balances[PLAYER]
            assert type(balance) is int and balance >= 0
        rnd = table.round
        assert rnd.phase is Phase.SETTLED and not table.in_play
        assert rnd.net(PLAYER) == rnd.outcome().net(PLAYER)
        nets += rnd.net(PLAYER)
        balance = table.balances[PLAYER]
        assert type(balance) is int
        assert balance >= 0
        assert balance == session.bankroll + nets
        # The bots' ledgers too: what they had (or bought in with) plus their net.
        for bot in table.bots:
            owner = bot_owner(bot.seat)
            start = table.bot_bankroll if before[owner] < minimum else before[owner]
            assert table.balances[owner] == start + rnd.net(owner)
            assert type(table.balances[owner]) is int and table.balances[owner] >= 0


# Hidden cards ------------------------------------------------------------------------


@PROPERTY
@given(st.data())
def test_the_hole_card_is_never_shown_while_the_player_decides(
    public: Callable[[PlayerView], Any], data: st.DataObject
) -> None:
    session = random_session(data)
    table = session.table
    for _ in range(data.draw(st.integers(1, 3), label="rounds")):
        bet = random_bet(data, table)
        if bet is None:
            break
        table.deal(bet)
        while table.players_turn:
            rnd = table.round
            assert rnd is not None
            up, hole = rnd.dealer.cards[:2]
            view = table.view()
            for history in (view.history, rnd.history()):
                dealer = [e.card for e in history if isinstance(e, CardDealt) and e.seat == 0]
                assert dealer == [CARDS[up], None]
                assert not any(isinstance(e, HoleCardRevealed) for e in history)
            # The same table with another card face down shows the player exactly the same.
            state = table.to_json()
            state["round"]["dealer"][1] = data.draw(
                st.sampled_from([code for code in range(52) if code != hole]), label="other hole"
            )
            assert public(Table.from_json(state).view()) == public(view)
            table.act(random_action(data, table))
        assert table.round is not None
        revealed = [e.card for e in table.round.history() if isinstance(e, HoleCardRevealed)]
        assert revealed == [CARDS[table.round.dealer.cards[1]]]


# What a player may see: the public view -------------------------------------------------


def reachable(value: object) -> Iterator[object]:
    """Every object reachable from a value through its fields and containers."""
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from reachable(getattr(value, field.name))
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from reachable(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from reachable(key)
            yield from reachable(item)


def assert_public_shows_only_the_seen(table: Table, data: st.DataObject) -> None:
    public = table.public()
    assert with_unseen_cards_replaced(table, data).public() == public
    assert not [part for part in reachable(public) if isinstance(part, SECRET_KEEPERS)]
    rnd = table.round
    if rnd is not None:
        assert public.dealer[0] == CARDS[rnd.dealer.cards[0]]
        turned = any(isinstance(e, HoleCardRevealed) for e in rnd.history())
        assert (public.dealer[1] is None) is not turned


#: What holds the shoe or the hole card: none of these may be reachable from a public view.
SECRET_KEEPERS = (Shoe, Round, Table, Hand, Seat)


@PROPERTY
@given(st.data())
def test_the_public_view_is_the_same_whatever_the_unseen_cards_are(data: st.DataObject) -> None:
    """At every point of random rounds — between rounds, at each decision, after the
    dealer, after a void — what a player may see depends on no card they have not seen:
    not the shoe's order, not the hole card before it is turned."""
    table = random_session(data).table
    assert_public_shows_only_the_seen(table, data)
    for _ in range(data.draw(st.integers(1, 4), label="rounds")):
        bet = random_bet(data, table)
        if bet is None:
            break
        table.deal(bet)
        assert_public_shows_only_the_seen(table, data)
        while table.players_turn:
            assert table.round is not None
            if data.draw(st.integers(0, 9), label="void now") == 0:
                table.round.void("the table closed")
            else:
                table.act(random_action(data, table))
            assert_public_shows_only_the_seen(table, data)


def field_types(kind: Any, seen: set[Any]) -> Iterator[Any]:
    """Every type a field of ``kind`` may hold, through its fields, unions and generics."""
    if kind in seen:
        return
    seen.add(kind)
    yield kind
    for arg in typing.get_args(kind):
        yield from field_types(arg, seen)
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        for hint in typing.get_type_hints(kind).values():
            yield from field_types(hint, seen)


def test_no_field_of_the_public_view_can_hold_the_shoe_or_the_round() -> None:
    kinds = set(field_types(PublicTable, set()))
    assert {PublicSeat, PublicHand, PlayerView, Card, CardDealt} <= kinds  # it looks deep
    assert not [kind for kind in kinds if isinstance(kind, type) and kind in SECRET_KEEPERS]
    assert object not in kinds and Any not in kinds  # nothing that could hold anything


def test_the_players_decisions_behind_a_bot_are_the_players_turns():
    # Normal bot in seat 1 doubles 6+5 against the 6; the player (seat 2, 10 behind seat
    # 1) is asked to follow before the bot's card: yes. The bot draws the 9d (20); the
    # player stands on 19; the dealer's 16 draws the Kd and busts. The player wins 10 on
    # the seat and 20 on the followed stake behind.
    table = Table.new(DELUXE, player_seat=2, bots=[BotSeat(1, "normal")], bankroll=100,
                      shoe=Shoe.stacked("6s 10h 6d 5c 9h 10c 9d Kd"))  # fmt: skip
    table.deal(10, behind={1: 10})
    assert table.players_turn
    assert table.round is not None
    assert table.round.turn == Turn(1, 0, PLAYER, engine.Decision.FOLLOW_DOUBLE, 0)
    assert table.public().legal == (Action.FOLLOW, Action.NO_FOLLOW)
    table.act("follow")
    assert table.round.turn == Turn(2, 0, PLAYER)
    table.act("stand")
    assert table.balances[PLAYER] == 100 + 10 + 20


def test_a_bet_behind_the_table_refuses_changes_nothing():
    table = Table.new(DELUXE, player_seat=2, bots=[BotSeat(1, "normal")], bankroll=100,
                      shoe=Shoe.stacked("6s 10h 6d 5c 9h 10c 9d Kd"))  # fmt: skip
    before = table.to_json()
    refusals = [({2: 10}, "own seat"), ({1: 15}, "steps of 10"), ({3: 10}, "no player")]
    for behind, message in refusals:
        with pytest.raises(IllegalActionError, match=message):
            table.deal(10, behind=behind)
        assert table.to_json() == before
