"""`Round.next_round`: the next round at the same seats and seat bets, on the same objects,
is exactly the round a new `Round` would be."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import DELUXE, EUROPEAN, IllegalActionError, Phase, Round, Rules, Shoe
from engine.bots import normal
from engine.chips import Chips
from tests.engine.test_properties import DECIDING, PROPERTY, decide, internals, random_table


def fresh_round_like(rnd: Round) -> Round:
    """A new round on a copy of ``rnd``'s shoe and balances, with its seats' bets placed."""
    balances = None if rnd.balances is None else dict(rnd.balances)
    # The copy's RNG in the same state, so that both shuffle alike (a stacked shoe's
    # never shuffles, and the system's has no state to copy).
    rng = None if rnd.shoe.stacked_order else copy.deepcopy(rnd.shoe._rng)
    fresh = Round(rnd.rules, Shoe.from_json(rnd.shoe.to_json(), rng=rng), balances=balances)
    for seat in rnd.seats:
        fresh.place_bet(seat=seat.number, amount=seat.bet, owner=seat.owner)
    return fresh


@PROPERTY
@given(st.data())
def test_the_next_round_is_a_new_round_at_the_same_seats_and_bets(data: st.DataObject) -> None:
    """After any round, played out or voided, with any stakes: the next round equals a new
    round with the same seat bets placed, to its last attribute, and plays the same; when
    a balance no longer covers its bets, it is refused and nothing changes."""
    rnd = random_table(data).rnd
    rnd.deal()
    while rnd.phase in DECIDING:
        if data.draw(st.integers(0, 19), label="void now") == 0:
            rnd.void("the table closed")
        else:
            rnd.apply(decide(data, rnd))
    try:
        fresh = fresh_round_like(rnd)
    except IllegalActionError:
        before = internals(rnd)
        with pytest.raises(IllegalActionError, match="more than your balance"):
            rnd.next_round()
        assert internals(rnd) == before
        return
    rnd.next_round()
    assert internals(rnd) == internals(fresh) and rnd == fresh
    for each in (rnd, fresh):
        each.deal()
    while rnd.phase in DECIDING:
        action = decide(data, rnd)
        assert rnd.apply(action) == fresh.apply(action)
    assert rnd.outcome() == fresh.outcome() and rnd.balances == fresh.balances


def test_a_round_goes_on_to_the_next_only_once_it_is_over() -> None:
    rnd = Round(EUROPEAN, Shoe.stacked("10s 9h 6d 7c 5s"))
    rnd.place_bet(seat=1, amount=10)
    rnd.deal()
    before = rnd.to_json()
    with pytest.raises(IllegalActionError, match="not over"):
        rnd.next_round()
    assert rnd.to_json() == before


def test_the_next_round_takes_every_bet_again_or_none() -> None:
    # ann (seat 1) and bob (seat 2) both stand on 17 and lose 10 to the dealer's 20: bob
    # has nothing left, so neither bet is taken again.
    rnd = Round(EUROPEAN, Shoe.stacked("10s 9h Kd 7c 8c 10h"), balances={"ann": 20, "bob": 10})
    rnd.place_bet(seat=1, amount=10, owner="ann")
    rnd.place_bet(seat=2, amount=10, owner="bob")
    rnd.deal()
    rnd.apply("stand")
    rnd.apply("stand")
    assert rnd.phase is Phase.SETTLED and rnd.balances == {"ann": 10, "bob": 0}
    before = rnd.to_json()
    with pytest.raises(IllegalActionError, match="more than your balance"):
        rnd.next_round()
    assert rnd.to_json() == before


@pytest.mark.parametrize("rules", [EUROPEAN, DELUXE], ids=["european", "deluxe"])
def test_rounds_played_on_one_round_net_as_new_rounds_do(rules: Rules) -> None:
    """A simulation's rounds (no history, no balances): the same nets, round by round, from
    one `Round` gone on to the next as from a new `Round` each time."""

    def nets(reuse: bool) -> list[Chips]:
        shoe = Shoe.for_rules(rules, random.Random(11))
        played: list[Chips] = []
        rnd: Round | None = None
        for _ in range(400):
            if reuse and rnd is not None:
                rnd.next_round()
            else:
                rnd = Round(rules, shoe, keep_history=False)
                rnd.place_bet(seat=1, amount=4, owner="bot")
            rnd.deal()
            while rnd.phase in DECIDING:
                rnd.apply(normal(rnd.view()))
            played.append(rnd.net("bot"))
        return played

    assert nets(reuse=True) == nets(reuse=False)
