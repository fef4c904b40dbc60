"""Grading a decision of any round (engine/grading.py): the chart cell of a view, the right
play, the EV given up, at a first decision, after a split, after a hit and at insurance.

Expected values are worked out here: EVs from `strategy_for(rules).ev` for the hand's own
cards, insurance from a count of the ten-values the player has not seen.
"""

from __future__ import annotations

import pytest

from engine import (
    DELUXE,
    EUROPEAN,
    Action,
    IllegalActionError,
    Phase,
    PlayerView,
    Round,
    Rules,
    Shoe,
)
from engine.grading import INSURANCE_ROW, chart_cell, grade_decision
from engine.strategy import strategy_for

HIT, STAND, DOUBLE, SPLIT = Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT


def view_after(cards: str, *actions: Action, rules: Rules = EUROPEAN) -> PlayerView:
    """The view of the decision awaited once one seat is dealt ``cards`` (player, up,
    player, hole, then draws in order) and has taken ``actions``."""
    rnd = Round(rules, Shoe.stacked(cards))
    rnd.place_bet(seat=1, amount=10)
    rnd.deal()
    for action in actions:
        rnd.apply(action)
    assert rnd.phase in (Phase.PLAYER_TURNS, Phase.INSURANCE)
    return rnd.view()


# The chart cell ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "actions", "rules", "cell"),
    [
        ("10s 9h 6d 7c", (), EUROPEAN, ("hard 16", "9")),
        ("As Kh 7d 7c", (), EUROPEAN, ("soft 18", "10")),
        ("8s Ah 8d 7c", (), EUROPEAN, ("pair 8", "A")),
        ("As 6h Ad 7c", (), EUROPEAN, ("pair A", "6")),
        # With one hand allowed a pair is its total; A,A is a soft 12.
        ("8s 6h 8d 7c", (), EUROPEAN.replace(max_hands=1), ("hard 16", "6")),
        ("As 6h Ad 7c", (), EUROPEAN.replace(max_hands=1), ("soft 12", "6")),
        # After a hit: A,5,2 is soft 18 on three cards.
        ("As 6h 5d 7c 2s", (HIT,), EUROPEAN, ("soft 18", "6")),
        # A split hand gets its second card: 8,3 is hard 11.
        ("8s 6h 8d 7c 3s", (SPLIT,), EUROPEAN, ("hard 11", "6")),
        # Deluxe's insurance decision under an ace.
        ("10s Ah 6d 7c", (), DELUXE, (INSURANCE_ROW, "A")),
    ],
)
def test_a_decision_falls_in_its_chart_cell(cards, actions, rules, cell):
    assert chart_cell(view_after(cards, *actions, rules=rules)) == cell


# Grades --------------------------------------------------------------------------------


def test_a_first_decision_is_graded_by_the_chart_and_the_hands_evs():
    view = view_after("10s 10h 6d 7c")  # 10,6 against a ten
    strategy = strategy_for(EUROPEAN)
    evs = strategy.ev("10,6", "10")
    for chosen in view.legal:
        grade = grade_decision(view, chosen)
        assert (grade.correct, grade.code, grade.row, grade.up) == (HIT, "H", "hard 16", "10")
        assert grade.evs == evs
        assert grade.ev_lost == pytest.approx(
            max(0.0, evs.hit - evs.as_dict()[chosen.value]), abs=1e-12
        )
        assert grade.is_correct is (chosen is HIT)
    assert grade_decision(view, "hit").ev_lost == 0


def test_a_later_decision_is_graded_on_the_evs_of_its_own_cards():
    # 2,3 then a 7: hard 12 on three cards against a 10, where the chart hits. Only stand
    # and hit have EVs on three cards.
    view = view_after("2s 10h 3d 7c 7s", HIT)
    evs = strategy_for(EUROPEAN).ev("2,3,7", "10")
    assert evs.double is None and evs.split is None
    grade = grade_decision(view, STAND)
    assert (grade.correct, grade.code, grade.row) == (HIT, "H", "hard 12")
    assert grade.evs == evs
    assert grade.ev_lost == pytest.approx(evs.hit - evs.stand, abs=1e-12)
    assert grade.ev_lost > 0


def test_a_split_hand_is_graded_as_if_dealt_its_two_cards():
    # 8,8 split against a 6; the first hand draws a 3: 8,3, which the chart doubles.
    view = view_after("8s 6h 8d 7c 3s", SPLIT)
    assert view.legal == (HIT, STAND, DOUBLE)  # doubling after a split is allowed
    evs = strategy_for(EUROPEAN).ev("8,3", "6")
    grade = grade_decision(view, HIT)
    assert (grade.correct, grade.code) == (DOUBLE, "D")
    assert grade.ev_lost == pytest.approx(evs.double - evs.hit, abs=1e-12)


@pytest.mark.parametrize(
    ("cards", "tens_seen"), [("10s Ah 6d 7c", 1), ("9s Ah 7d 7c", 0), ("Ks Ah Qd 7c", 2)]
)
def test_insurance_costs_what_its_ev_falls_short_of_zero(cards, tens_seen):
    # Deluxe: 8 decks, 128 ten-values. Unseen: 416 cards less the player's two and the up
    # card. Insurance of half the bet wins 1 (2:1) with p, loses 0.5 else: 1.5p - 0.5.
    view = view_after(cards, rules=DELUXE)
    p = (128 - tens_seen) / (416 - 3)
    declined = grade_decision(view, Action.NO_INSURANCE)
    taken = grade_decision(view, Action.INSURE)
    for grade in (declined, taken):
        assert (grade.correct, grade.code, grade.row, grade.up) == (
            Action.NO_INSURANCE,
            "",
            INSURANCE_ROW,
            "A",
        )
        assert grade.evs is None
    assert declined.is_correct and declined.ev_lost == 0
    assert not taken.is_correct
    assert taken.ev_lost == pytest.approx(0.5 - 1.5 * p, abs=1e-12)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("surrender", "you cannot surrender here"),
        ("split", "you cannot split here"),
        ("insure", "you cannot insure here"),
        ("double", "you cannot double here"),  # not on three cards
        ("fold", "'fold' is not an action"),
        ("", "'' is not an action"),
    ],
)
def test_grading_an_action_not_legal_at_the_decision_is_refused(action, message):
    view = view_after("2s 10h 3d 7c 7s", HIT)
    with pytest.raises(IllegalActionError, match=f"^{message}$"):
        grade_decision(view, action)
