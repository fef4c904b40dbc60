"""RULES.md §2, pre-selected actions: a seated player may choose (and change) an action
before the turn comes; it is carried out when the turn comes, and a double or split the
balance no longer covers then becomes a hit (a split: a hit at 11 or less, else a stand).

Two seats are dealt in order: seat 1's first card, seat 2's, the up card, seat 1's second,
seat 2's second, the hole card; then the cards drawn.
"""

from __future__ import annotations

import json

import pytest

from engine import DELUXE, EUROPEAN, Action, ActionTaken, IllegalActionError, Phase, Round, Shoe

BET = 10
HIT, STAND, DOUBLE, SPLIT, SURRENDER = (
    Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER,
)  # fmt: skip


def two_seats(cards: str, *, rules=DELUXE, balances=None, owners=("p1", "p2")) -> Round:
    rnd = Round(rules, Shoe.stacked(cards), balances=balances)
    rnd.place_bet(seat=1, amount=BET, owner=owners[0])
    rnd.place_bet(seat=2, amount=BET, owner=owners[1])
    rnd.deal()
    return rnd


def actions(events) -> list[tuple[int, object, object]]:
    return [(e.seat, e.action, e.effective) for e in events if isinstance(e, ActionTaken)]


def test_a_preselected_action_is_carried_out_when_the_turn_comes():
    # Seat 1: 10 7 = 17; seat 2: 5 4 = 9 against a 9 (hole 7). Seat 2 pre-selects a hit.
    rnd = two_seats("10s 5c 9h 7d 4h 7c 2s")
    rnd.preselect(seat=2, action=HIT)
    assert rnd.preselection(2) is HIT
    events = rnd.apply(STAND, seat=1)
    assert actions(events) == [(1, STAND, STAND), (2, HIT, HIT)]
    assert [str(card) for card in rnd.view().hand] == ["5c", "4h", "2s"]
    assert rnd.turn is not None and rnd.turn.seat == 2  # 11: the player decides on
    assert rnd.preselection(2) is None


def test_a_preselection_may_be_changed_and_cleared_before_the_turn_comes():
    rnd = two_seats("10s 5c 9h 7d 4h 7c 2s")
    rnd.preselect(seat=2, action=HIT)
    rnd.preselect(seat=2, action="stand")
    assert rnd.preselection(2) is STAND
    rnd.preselect(seat=2, action=None)
    assert rnd.preselection(2) is None
    rnd.apply(STAND, seat=1)
    assert rnd.turn is not None and rnd.turn.seat == 2  # nothing was carried out


def test_preselections_carry_out_one_after_another_to_the_dealer():
    rnd = Round(DELUXE, Shoe.stacked("10s 10c 5d 9h 7d 8h 9s 7c 2d"))
    for seat in (1, 2, 3):
        rnd.place_bet(seat=seat, amount=BET, owner=f"p{seat}")
    rnd.deal()
    rnd.preselect(seat=2, action=STAND)
    rnd.preselect(seat=3, action=STAND)
    events = rnd.apply(STAND, seat=1)
    assert actions(events) == [(1, STAND, STAND), (2, STAND, STAND), (3, STAND, STAND)]
    assert rnd.phase is Phase.SETTLED


def test_a_preselected_double_the_balance_still_covers_is_a_double():
    rnd = two_seats("10s 5c 9h 7d 6h 7c 10d 2d", balances={"p1": 100, "p2": 100})
    rnd.preselect(seat=2, action=DOUBLE)
    events = rnd.apply(STAND, seat=1)
    assert actions(events) == [(1, STAND, STAND), (2, DOUBLE, DOUBLE)]
    assert rnd.seats[1].hands[0].stake == 2 * BET


def test_a_preselected_double_becomes_a_hit_when_the_balance_has_become_short():
    # One account, two seats, chips for one more bet. Seat 1 doubles its 11 with them; the
    # double seat 2 pre-selected while they were there is carried out as a hit.
    balances = {"p1": 3 * BET}
    rnd = two_seats("6s 5c 9h 5d 6h 7c 10d 2s", balances=balances, owners=("p1", "p1"))
    rnd.preselect(seat=2, action=DOUBLE)
    events = rnd.apply(DOUBLE, seat=1)
    assert balances["p1"] == 0
    assert actions(events) == [(1, DOUBLE, DOUBLE), (2, DOUBLE, HIT)]
    hand = rnd.seats[1].hands[0]
    assert hand.stake == BET and not hand.doubled and hand.total == 13
    assert rnd.turn is not None and rnd.turn.seat == 2  # a hit: the hand is still open


@pytest.mark.parametrize(
    ("pair", "effective", "open_total"),
    # 8: 11 or less, a hit; 12 and 16: a stand
    [("4c 4h", HIT, 10), ("6c 6h", STAND, None), ("8c 8h", STAND, None)],
)
def test_a_preselected_split_becomes_a_hit_at_eleven_or_less_else_a_stand_when_short(
    pair, effective, open_total
):
    first, second = pair.split()
    balances = {"p1": 3 * BET}
    cards = f"6s {first} 9h 5d {second} 7c 10d 2s 9c"
    rnd = two_seats(cards, balances=balances, owners=("p1", "p1"))
    rnd.preselect(seat=2, action=SPLIT)
    events = rnd.apply(DOUBLE, seat=1)
    assert actions(events) == [(1, DOUBLE, DOUBLE), (2, SPLIT, effective)]
    assert len(rnd.seats[1].hands) == 1
    if open_total is None:
        assert rnd.phase is Phase.SETTLED
    else:
        assert rnd.seats[1].hands[0].total == open_total
        assert rnd.turn is not None and rnd.turn.seat == 2


def test_without_the_fallback_rule_a_short_preselected_double_lapses_and_the_player_decides():
    rules = EUROPEAN.replace(seats_per_account=2)
    balances = {"p1": 3 * BET}
    rnd = two_seats("6s 5c 9h 5d 6h 7c 10d", rules=rules, balances=balances, owners=("p1", "p1"))
    rnd.preselect(seat=2, action=DOUBLE)
    events = rnd.apply(DOUBLE, seat=1)
    assert actions(events) == [(1, DOUBLE, DOUBLE)]
    assert rnd.turn is not None and rnd.turn.seat == 2
    assert rnd.legal_actions() == (HIT, STAND)
    assert rnd.preselection(2) is None


def test_a_double_or_split_the_balance_does_not_cover_cannot_be_preselected():
    balances = {"p1": BET, "p2": BET}
    rnd = two_seats("10s 8c 9h 7d 8h 7c", balances=balances)
    assert rnd.preselect_actions(2) == (HIT, STAND, SURRENDER)
    for action in (DOUBLE, SPLIT):
        with pytest.raises(IllegalActionError, match="balance does not cover"):
            rnd.preselect(seat=2, action=action)
    assert rnd.preselection(2) is None


def test_only_what_the_hand_could_do_may_be_preselected():
    rnd = two_seats("10s 8c 9h 7d 9d 7c")  # seat 2: 17, no pair
    assert rnd.preselect_actions(2) == (HIT, STAND, DOUBLE, SURRENDER)
    with pytest.raises(IllegalActionError, match="same value"):
        rnd.preselect(seat=2, action=SPLIT)
    with pytest.raises(IllegalActionError, match="insurance"):
        rnd.preselect(seat=2, action=Action.INSURE)
    with pytest.raises(IllegalActionError, match="not an action"):
        rnd.preselect(seat=2, action="fold")


def test_nothing_is_preselected_once_the_turn_has_come_nor_for_a_natural_nor_before_the_deal():
    rnd = Round(DELUXE, Shoe.stacked("10s Ac 9h 7d Kd 7c"))
    rnd.place_bet(seat=1, amount=BET, owner="p1")
    rnd.place_bet(seat=2, amount=BET, owner="p2")
    assert rnd.preselect_actions(1) == ()
    with pytest.raises(IllegalActionError, match="no turn to come"):
        rnd.preselect(seat=1, action=STAND)
    rnd.deal()
    with pytest.raises(IllegalActionError, match="^seat 1's turn has come: decide now$"):
        rnd.preselect(seat=1, action=STAND)
    assert rnd.preselect_actions(2) == ()
    with pytest.raises(IllegalActionError, match="natural"):
        rnd.preselect(seat=2, action=STAND)
    with pytest.raises(IllegalActionError, match="no player"):
        rnd.preselect(seat=3, action=STAND)


def test_a_preselection_made_while_insurance_is_decided_meets_the_balance_insurance_left():
    # Against an ace: seat 1 pre-selects a double with chips for one more bet, then
    # insures, which takes half of them; the double is carried out as a hit.
    balances = {"p1": 2 * BET}
    rnd = Round(DELUXE, Shoe.stacked("6s As 5d 7c 2s"), balances=balances)
    rnd.place_bet(seat=1, amount=BET, owner="p1")
    rnd.deal()
    assert rnd.phase is Phase.INSURANCE
    rnd.preselect(seat=1, action=DOUBLE)
    events = rnd.apply(Action.INSURE)
    assert actions(events) == [(1, Action.INSURE, Action.INSURE), (1, DOUBLE, HIT)]
    assert rnd.seats[0].hands[0].total == 13 and balances["p1"] == BET // 2


def test_a_preselection_round_trips_through_json_and_old_rounds_have_none():
    rnd = two_seats("10s 5c 9h 7d 4h 7c 2s")
    rnd.preselect(seat=2, action=HIT)
    state = json.loads(json.dumps(rnd.to_json()))
    copy = Round.from_json(state)
    assert copy == rnd and copy.preselection(2) is HIT
    for seat in state["seats"]:
        del seat["preselected"]  # as stored before pre-selection
    assert Round.from_json(state).preselection(2) is None
