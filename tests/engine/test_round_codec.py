"""The round's JSON (engine.round_codec): what the web app stores reads back, old rows
included."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from engine.cards import Card
from engine.events import ActionTaken, BehindDecided, CardDealt, StakeSettled
from engine.round import Round
from engine.round_codec import (
    chips_from_json,
    event_from_json,
    event_to_json,
    history_from_json,
    history_to_json,
)
from engine.rules import DELUXE, EUROPEAN
from engine.shoe import Shoe
from engine.values import Action, Result, StakeKind


def played_round() -> Round:
    rnd = Round(
        EUROPEAN, Shoe.stacked("As 9c 10s Kd 8h 7c 2d"), balances={"player": 100, "other": 100}
    )
    rnd.place_bet(seat=1, amount=5)
    rnd.place_bet(seat=2, amount=10, owner="other")
    rnd.deal()
    rnd.apply(Action.DOUBLE)  # seat 2's 17 doubled draws the 2d; seat 1 has a natural
    return rnd


def test_a_history_round_trips_through_json() -> None:
    history = played_round().history()
    stored = json.loads(json.dumps(history_to_json(history)))
    assert history_from_json(stored) == history
    settled = [item for item in stored if item["event"] == "StakeSettled"]
    assert settled[0]["returned"] == "25/2" and settled[0]["units"] == "3/2"


def test_a_history_with_a_followed_double_and_a_push_round_trips_through_json() -> None:
    # p1 doubles 6 5 against the 9 (hole 7) and b follows from behind; 21 pushes 21. A
    # push keeps its bet: a doubled stake of 20 on a bet of 10.
    balances = {"p1": 100, "b": 100}
    rnd = Round(DELUXE, Shoe.stacked("6s 9h 5d 7c 10h 5s"), balances=balances)
    rnd.place_bet(seat=1, amount=10, owner="p1")
    rnd.place_bet_behind(seat=1, amount=4, owner="b")
    rnd.deal()
    rnd.apply(Action.DOUBLE, owner="p1")
    rnd.apply(Action.FOLLOW, owner="b")
    history = rnd.history()
    assert BehindDecided(1, 0, 0, "b", Action.FOLLOW) in history
    assert StakeSettled(1, 0, "p1", StakeKind.HAND, Result.PUSH, 20, 20, 10) in history
    read = history_from_json(json.loads(json.dumps(history_to_json(history))))
    assert read == history
    assert all(isinstance(event.action, Action) for event in read if hasattr(event, "action"))


def test_a_history_stored_with_the_net_in_units_only_still_reads() -> None:
    """Histories stored before a settlement kept its bet: the bet that gives the net back."""
    stored = [
        {"event": "StakeSettled", "seat": 1, "hand": 0, "owner": "p", "kind": "hand",
         "result": "win", "staked": "20", "returned": "40", "units": "2"},
        {"event": "StakeSettled", "seat": 1, "hand": 0, "owner": "p", "kind": "hand",
         "result": "push", "staked": "20", "returned": "20", "units": "0"},
        {"event": "ActionTaken", "seat": 1, "hand": 0, "action": "double", "effective": "hit"},
    ]  # fmt: skip
    win, push, act = history_from_json(stored)
    assert win == StakeSettled(1, 0, "p", StakeKind.HAND, Result.WIN, 20, 40, 10)
    assert isinstance(push, StakeSettled) and push.units == 0
    assert act == ActionTaken(1, 0, Action.DOUBLE, Action.HIT)
    assert history_to_json([win])[0]["units"] == "2"


def test_a_round_stored_in_json_reads_back_equal() -> None:
    rnd = played_round()
    state = json.loads(json.dumps(rnd.to_json()))
    assert Round.from_json(state) == rnd
    assert Round.from_json(state).outcome() == rnd.outcome()


def test_events_are_stored_as_short_lists_with_card_codes() -> None:
    hole = CardDealt(0, 0, None)
    settled = StakeSettled(1, None, "p", StakeKind.PAIR, Result.LOSE, 5, 0, 5)
    assert event_to_json(hole) == ["card", 0, 0, None]
    assert event_to_json(CardDealt(1, 0, Card("A", "s"))) == ["card", 1, 0, 51]
    assert event_to_json(settled) == ["settle", 1, None, "p", "pair", "lose", 5, 0, 5]
    half = StakeSettled(1, 0, "p", StakeKind.HAND, Result.BLACKJACK, 5, Fraction(25, 2), 5)
    assert event_to_json(half)[7] == "25/2"
    for event in (hole, settled, half):
        assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event


def test_a_stored_card_code_past_the_last_card_is_refused_naming_it() -> None:
    assert event_from_json(["card", 1, 0, 51]) == CardDealt(1, 0, Card("A", "s"))
    with pytest.raises(ValueError, match="^card code out of range: 52$"):
        event_from_json(["card", 1, 0, 52])
    with pytest.raises(ValueError, match="^card code out of range: -1$"):
        event_from_json(["card", 1, 0, -1])


def test_a_stored_history_entry_of_no_known_kind_is_refused_showing_it() -> None:
    with pytest.raises(ValueError, match=r"^unknown history entry \['bet', 1, 10\]$"):
        event_from_json(["bet", 1, 10])


def test_stored_chips_read_as_whole_or_exact_amounts_and_never_from_a_flag() -> None:
    assert (chips_from_json(25), chips_from_json("25/2")) == (25, Fraction(25, 2))
    with pytest.raises(ValueError, match="^chips must be a number$"):
        chips_from_json(True)


def test_only_an_event_is_stored_as_one() -> None:
    with pytest.raises(TypeError, match="^not an event: 'deal'$"):
        event_to_json("deal")  # type: ignore[arg-type]
