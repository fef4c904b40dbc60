"""A round's history: its events are frozen values and its views read-only ones, and a
round played without its history (``keep_history=False``, as simulations play) plays and
pays exactly the same."""

from __future__ import annotations

import dataclasses
import json
import random
import typing
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from engine import (
    DELUXE,
    EUROPEAN,
    Action,
    IllegalActionError,
    PlayerView,
    Round,
    Shoe,
    StateError,
)
from tests.engine.test_properties import DECIDING, PROPERTY, decide, random_table


def played(*, keep_history: bool) -> Round:
    return play_split(Round(EUROPEAN, Shoe.stacked(SPLIT_SHOE), keep_history=keep_history))


SPLIT_SHOE = "8s 6d 8h 10c 3c 10h 9d"


def play_split(rnd: Round) -> Round:
    """Seat 1 splits 8s against a 6 and stands on both hands; the dealer busts."""
    rnd.place_bet(seat=1, amount=10)
    rnd.deal()
    rnd.apply(Action.SPLIT)  # the first 8 draws the 3c: 11
    rnd.apply(Action.STAND)  # the second 8 draws the 10h: 18
    rnd.apply(Action.STAND)
    return rnd


def test_every_event_is_frozen() -> None:
    events = play_split(Round(EUROPEAN, Shoe.stacked(SPLIT_SHOE))).history()
    assert len({type(event) for event in events}) == 6  # cards, actions, split, close, ...
    for event in events:
        field = dataclasses.fields(event)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(event, field, None)


def test_a_player_view_is_read_only_and_read_by_field_name() -> None:
    rnd = Round(EUROPEAN, Shoe.stacked("8s 6d 8h 10c 2d"))
    rnd.place_bet(seat=1, amount=10)
    rnd.deal()
    view = rnd.view()
    assert (view.total, view.soft, view.pair_points, view.up_points) == (16, False, 8, 6)
    # Every field is `Final`, so the type checker refuses an assignment to it.
    hints = typing.get_type_hints(PlayerView, include_extras=True)
    assert {typing.get_origin(hint) for hint in hints.values()} == {typing.Final}
    assert dataclasses.replace(view, total=21).total == 21 and view.total == 16
    rnd.apply(Action.HIT)  # a copy: the round moves on without it
    assert view.total == 16 and len(view.hand) == 2


def test_a_round_without_its_history_records_nothing_and_nets_the_same() -> None:
    kept, unkept = played(keep_history=True), played(keep_history=False)
    assert len(kept.history()) == 16
    assert unkept.history() == [] and unkept.log == []
    assert kept.net("player") == unkept.net("player") == 20
    assert unkept.dealer.cards == kept.dealer.cards


def test_a_round_without_its_history_has_no_outcome_and_no_pair_bet() -> None:
    rnd = played(keep_history=False)
    with pytest.raises(IllegalActionError, match="kept no history"):
        rnd.outcome()
    deluxe = Round(DELUXE, Shoe.stacked("8s 6d 8h 10c"), keep_history=False)
    deluxe.place_bet(seat=1, amount=10)
    with pytest.raises(IllegalActionError, match="takes no pair bets"):
        deluxe.place_pair_bet(seat=1, amount=5)


def test_a_round_without_its_history_keeps_its_net_through_json() -> None:
    rnd = played(keep_history=False)
    state = json.loads(json.dumps(rnd.to_json()))
    copy = Round.from_json(state)
    assert copy == rnd and not copy.keeps_history and copy.net("player") == 20
    # A round that keeps its history stores it as before: its nets are in it.
    assert "nets" not in played(keep_history=True).to_json()


def test_a_stored_round_without_its_history_cannot_hold_a_pair_bet() -> None:
    rnd = Round(DELUXE, Shoe.stacked("8s 6d 8h 10c"))
    rnd.place_bet(seat=1, amount=10)
    rnd.place_pair_bet(seat=1, amount=5)
    state = rnd.to_json() | {"keep_history": False}
    with pytest.raises(
        StateError, match="^not a valid round: a round without its history takes no pair bets$"
    ):
        Round.from_json(state)


@PROPERTY
@given(st.data())
def test_a_round_without_its_history_plays_and_pays_as_one_with_it(
    public: Callable[[PlayerView], tuple[Any, ...]], data: st.DataObject
) -> None:
    table = random_table(data)
    rnd = table.rnd
    assume(not any(seat.pair_bets for seat in rnd.seats))
    # The twin gets an RNG in the state of the original's, which has not been used yet.
    state = json.loads(json.dumps(rnd.to_json())) | {"keep_history": False}
    twin = Round.from_json(state, rng=random.Random(table.seed))
    rnd.deal()
    assert twin.deal() == []
    while rnd.phase in DECIDING:
        assert (twin.phase, twin.turn, twin.legal_actions()) == (
            rnd.phase, rnd.turn, rnd.legal_actions()
        )  # fmt: skip
        view, twin_view = rnd.view(), twin.view()
        assert twin_view.history == () and twin_view.hands == ()
        assert public(dataclasses.replace(twin_view, history=view.history)) == public(view)
        action = decide(data, rnd)
        rnd.apply(action)
        assert twin.apply(action) == []
    assert twin.phase is rnd.phase and twin.log == []
    assert twin.dealer.cards == rnd.dealer.cards
    assert [seat.hands[0].cards for seat in twin.seats] == [s.hands[0].cards for s in rnd.seats]
    assert twin.balances == rnd.balances
    for owner in table.owners:
        assert twin.net(owner) == rnd.net(owner)
