"""Bad input gets a clear error and changes nothing."""

from __future__ import annotations

import pytest

from engine import DELUXE, EUROPEAN, Action, DoubleOn, IllegalActionError, Round, Shoe


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


@pytest.mark.parametrize("amount", [1, 10])
def test_a_bet_from_an_owner_without_a_balance_is_refused_as_above_it(amount):
    balances = {"player": 50}
    rnd = fresh(balances)
    with pytest.raises(IllegalActionError, match="^that bet is more than your balance$"):
        rnd.place_bet(seat=1, amount=amount, owner="stranger")
    assert balances == {"player": 50} and rnd.seats == []


@pytest.mark.parametrize("seat", [0, 8, -1])
def test_a_seat_that_does_not_exist_is_refused(seat):
    with pytest.raises(IllegalActionError, match=f"^there is no seat {seat} at this table$"):
        fresh().place_bet(seat=seat, amount=10)


def test_a_taken_seat_is_refused():
    rnd = fresh()
    rnd.place_bet(seat=1, amount=10, owner="a")
    with pytest.raises(IllegalActionError, match="^seat 1 already has a bet$"):
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


RESPLIT_ACES = EUROPEAN.replace(max_hands=3, resplit_aces=True)


@pytest.mark.parametrize(
    ("rules", "cards", "funds", "before", "action", "reason"),
    [
        # Deluxe insurance under an ace, with nothing left to stake on it.
        (DELUXE, "10s Ah 6d 7c", 10, (), "insure", "your balance does not cover insurance"),
        (DELUXE, "10s Ah 6d 7c", None, (), "hit", "first decide on insurance"),
        (EUROPEAN, "10s 9h 6d 7c", None, (), "insure", "insurance is not on offer now"),
        # A split ace that drew an ace may be split again, or stand: not hit.
        (
            RESPLIT_ACES,
            "As 9h Ad 7c Ah 5c",
            None,
            ("split",),
            "hit",
            "split aces take one card only",
        ),
        (EUROPEAN, "10s 9h 6d 7c", None, (), "surrender", "this table has no surrender"),
        (
            DELUXE,
            "2s 9h 3d 7c 4h",
            None,
            ("hit",),
            "surrender",
            "surrender is only allowed on the first two cards, before any other action",
        ),
        (
            EUROPEAN,
            "2s 9h 3d 7c 4h",
            None,
            ("hit",),
            "double",
            "you can only double on your first two cards",
        ),
        (
            EUROPEAN,
            "8s 9h 8d 7c",
            10,
            (),
            "double",
            "your balance does not cover another bet to double",
        ),
        (
            EUROPEAN,
            "8s 9h 8d 7c",
            10,
            (),
            "split",
            "your balance does not cover another bet to split",
        ),
        (
            EUROPEAN.replace(double_on=DoubleOn.TEN_OR_ELEVEN),
            "5s 9h 4d 7c",
            None,
            (),
            "double",
            "you cannot double this hand",
        ),
        (
            EUROPEAN,
            "9s 9h 8d 7c",
            None,
            (),
            "split",
            "you can only split two cards of the same value, up to the hand limit",
        ),
    ],
)
def test_a_refused_action_says_why_and_changes_nothing(rules, cards, funds, before, action, reason):
    rnd = Round(rules, Shoe.stacked(cards), balances=None if funds is None else {"ann": funds})
    rnd.place_bet(seat=1, amount=10, owner="ann")
    rnd.deal()
    for earlier in before:
        rnd.apply(earlier)
    state = rnd.to_json()
    with pytest.raises(IllegalActionError) as refused:
        rnd.apply(action)
    assert str(refused.value) == reason
    assert rnd.to_json() == state


def test_rounds_are_equal_only_in_the_same_state():
    def dealt() -> Round:
        rnd = fresh()
        rnd.place_bet(seat=1, amount=10)
        rnd.deal()
        return rnd

    assert dealt() == dealt()
    stood = dealt()
    stood.apply(Action.STAND)
    assert stood != dealt()
    assert fresh() != dealt()
    assert dealt() != dealt().to_json()
