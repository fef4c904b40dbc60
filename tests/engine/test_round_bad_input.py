"""Bad input gets a clear error and changes nothing."""

from __future__ import annotations

import pytest

from engine import EUROPEAN, Action, IllegalActionError, Round, Shoe


def fresh(balances=None) -> Round:
    return Round(EUROPEAN, Shoe.stacked("10s 9h 6d 7c 5s 5h"), balances=balances)


@pytest.mark.parametrize("amount", [0, -5, 10.5, True, "10"])
def test_a_bet_must_be_whole_chips_above_zero(amount):
    rnd = fresh()
    with pytest.raises(IllegalActionError, match="whole number"):
        rnd.place_bet(seat=1, amount=amount)
    assert rnd.seats == []


def test_a_bet_above_the_balance_is_refused_and_takes_nothing():
    balances = {"player": 50}
    rnd = fresh(balances)
    with pytest.raises(IllegalActionError, match="more than your balance"):
        rnd.place_bet(seat=1, amount=51)
    assert balances == {"player": 50}
    assert rnd.seats == []


@pytest.mark.parametrize("seat", [0, 8, -1])
def test_a_seat_that_does_not_exist_is_refused(seat):
    with pytest.raises(IllegalActionError, match="no seat"):
        fresh().place_bet(seat=seat, amount=10)


def test_a_taken_seat_is_refused():
    rnd = fresh()
    rnd.place_bet(seat=1, amount=10, owner="a")
    with pytest.raises(IllegalActionError, match="already has a bet"):
        rnd.place_bet(seat=1, amount=10, owner="b")


def test_no_action_before_the_deal_and_no_deal_without_a_bet():
    rnd = fresh()
    with pytest.raises(IllegalActionError, match="not been dealt"):
        rnd.apply(Action.HIT)
    with pytest.raises(IllegalActionError, match="place a bet"):
        rnd.deal()


def test_no_second_deal_and_no_bet_after_the_deal():
    rnd = fresh()
    rnd.place_bet(seat=1, amount=10)
    rnd.deal()
    before = rnd.to_json()
    with pytest.raises(IllegalActionError, match="already dealt"):
        rnd.deal()
    with pytest.raises(IllegalActionError, match="bets are closed"):
        rnd.place_bet(seat=2, amount=10, owner="other")
    assert rnd.to_json() == before


def test_an_out_of_turn_action_is_refused_and_changes_nothing():
    rnd = Round(EUROPEAN, Shoe.stacked("10s 10h 9d 6d 7c 7s 5h"))
    rnd.place_bet(seat=1, amount=10, owner="a")
    rnd.place_bet(seat=2, amount=10, owner="b")
    rnd.deal()
    before = rnd.to_json()
    with pytest.raises(IllegalActionError, match="seat 1's turn, not seat 2's"):
        rnd.apply(Action.STAND, seat=2)
    assert rnd.to_json() == before
    rnd.apply(Action.STAND, seat=1)
    assert rnd.turn is not None and rnd.turn.seat == 2


def test_an_unknown_action_is_refused():
    rnd = fresh()
    rnd.place_bet(seat=1, amount=10)
    rnd.deal()
    with pytest.raises(IllegalActionError, match="not an action"):
        rnd.apply("fold")


def test_acting_on_a_finished_round_is_refused():
    rnd = fresh()
    rnd.place_bet(seat=1, amount=10)
    rnd.deal()
    rnd.apply(Action.STAND)
    before = rnd.to_json()
    with pytest.raises(IllegalActionError, match="round is over"):
        rnd.apply(Action.HIT)
    assert rnd.to_json() == before


def test_the_outcome_is_not_known_before_the_round_is_over():
    rnd = fresh()
    rnd.place_bet(seat=1, amount=10)
    rnd.deal()
    with pytest.raises(IllegalActionError, match="not over"):
        rnd.outcome()
