"""Why a chart cell differs from the common chart (engine/explain.py), and dealing one row
or one cell (engine/drills.py `deal_in_cell`).

The expected cells are docs/strategy.md's, worked out against published charts: European
differs from the common 4–8 deck S17 DAS chart in 11 v 10, 8,8 v 10, 8,8 v A and A,A v A,
Deluxe in 16 v 9 (surrender). The charts compared are read from the analyses here, cell by
cell, not from the code under test.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import AMERICAN, DELUXE, EUROPEAN, Action, DoubleOn, Surrender
from engine.bots import hard_bot
from engine.chart_vocabulary import ROWS, UP_CARDS
from engine.drills import DRILLABLE_ROWS, Situation, deal_in_cell
from engine.explain import CONTROL, Reason, cell_changes, chart_changes, explain, reason_for
from engine.strategy import strategy_for

HIT, DOUBLE, SPLIT, SURRENDER = Action.HIT, Action.DOUBLE, Action.SPLIT, Action.SURRENDER


def test_the_control_is_the_american_preset_and_differs_from_nothing_in_itself():
    assert CONTROL == AMERICAN
    assert cell_changes(AMERICAN) == {}


def test_european_differs_in_the_four_published_cells_for_want_of_a_hole_card():
    changes = cell_changes(EUROPEAN)
    assert {cell: (c.code, c.common_code, c.reason) for cell, c in changes.items()} == {
        ("hard 11", "10"): ("H", "D", Reason.NO_HOLE_CARD_DOUBLE),
        ("pair 8", "10"): ("H", "P", Reason.NO_HOLE_CARD_SPLIT),
        ("pair 8", "A"): ("H", "P", Reason.NO_HOLE_CARD_SPLIT),
        ("pair A", "A"): ("H", "P", Reason.NO_HOLE_CARD_SPLIT),
    }


def test_deluxe_differs_in_sixteen_against_nine_for_its_surrender():
    (change,) = cell_changes(DELUXE).values()
    assert (change.row, change.up, change.code, change.common_code) == ("hard 16", "9", "R", "H")
    assert change.reason is Reason.SURRENDER


def test_the_changes_are_exactly_the_cells_where_the_two_analyses_differ():
    rules = EUROPEAN.replace(decks=2, dealer_hits_soft_17=True)
    ours, common = strategy_for(rules), strategy_for(AMERICAN)
    differing = {
        (row, up) for row in ROWS for up in UP_CARDS if ours.chart[row][up] != common.chart[row][up]
    }
    changes = chart_changes(ours, common)
    assert set(changes) == differing and len(differing) > 4
    for (row, up), change in changes.items():
        assert (change.row, change.up) == (row, up)
        assert (change.code, change.common_code) == (ours.chart[row][up], common.chart[row][up])
    # The no-peek cells keep their reason; the rest come from the soft-17 rule.
    assert {c.reason for c in changes.values()} == {
        Reason.NO_HOLE_CARD_DOUBLE, Reason.NO_HOLE_CARD_SPLIT, Reason.DEALER_HITS_SOFT_17,
    }  # fmt: skip


def test_a_double_restriction_changes_only_cells_the_common_chart_doubles():
    rules = AMERICAN.replace(double_on=DoubleOn.TEN_OR_ELEVEN)
    changes = cell_changes(rules)
    assert changes, "hard 9 and the soft doubles are lost"
    for change in changes.values():
        assert change.common_code in ("D", "Ds") and change.reason is Reason.DOUBLE_RESTRICTED
        assert change.row not in ("hard 10", "hard 11")


@pytest.mark.parametrize(
    ("changes", "row", "up", "code", "common", "reason"),
    [
        ({"dealer_peeks": False, "insurance": False}, "hard 11", "A", "H", "D",
         Reason.NO_HOLE_CARD_DOUBLE),
        ({"dealer_peeks": False, "insurance": False}, "pair 8", "A", "H", "P",
         Reason.NO_HOLE_CARD_SPLIT),
        # Against a 9 a hole card cannot matter: the no-peek reason is the last resort.
        ({"dealer_peeks": False, "insurance": False}, "hard 11", "9", "H", "D",
         Reason.NO_HOLE_CARD),
        ({"surrender": Surrender.LATE}, "hard 16", "10", "R", "H", Reason.SURRENDER),
        ({"double_on": DoubleOn.NINE_TO_ELEVEN}, "soft 17", "4", "H", "D",
         Reason.DOUBLE_RESTRICTED),
        ({"double_after_split": False}, "pair 4", "5", "H", "P", Reason.NO_DOUBLE_AFTER_SPLIT),
        ({"max_hands": 2}, "pair 2", "2", "H", "P", Reason.SPLIT_RULES),
        # A split rule says nothing about a hard row.
        ({"max_hands": 2, "decks": 2}, "hard 12", "3", "S", "H", Reason.DECKS),
        ({"dealer_hits_soft_17": True}, "soft 19", "6", "Ds", "S", Reason.DEALER_HITS_SOFT_17),
        ({"blackjack_pays": 1}, "hard 12", "4", "H", "S", Reason.OTHER),
    ],
)  # fmt: skip
def test_each_reason_is_chosen_where_its_rule_can_change_the_cell(
    changes: dict[str, object], row: str, up: str, code: str, common: str, reason: Reason
) -> None:
    assert reason_for(row, up, code, common, AMERICAN.replace(**changes), AMERICAN) is reason


def test_a_hole_card_reason_needs_the_common_chart_to_put_more_money_out():
    # Against a ten without a hole card, a stand for the common chart's hit is the decks'
    # doing: the no-peek reasons are for doubles and splits the rules take back.
    rules = AMERICAN.replace(dealer_peeks=False, insurance=False, decks=2)
    assert reason_for("hard 12", "10", "S", "H", rules, AMERICAN) is Reason.DECKS


def test_surrender_is_the_reason_only_where_the_rules_in_play_bring_it():
    # Late surrender offered, but this cell changed by the decks: not a surrender's doing.
    rules = AMERICAN.replace(surrender=Surrender.LATE, decks=2)
    assert reason_for("hard 12", "3", "S", "H", rules, AMERICAN) is Reason.DECKS
    # Both charts surrender here and differ only in the fallback: the soft-17 rule's doing.
    rules = AMERICAN.replace(surrender=Surrender.LATE, dealer_hits_soft_17=True)
    control = AMERICAN.replace(surrender=Surrender.LATE)
    assert reason_for("hard 17", "A", "Rs", "R", rules, control) is Reason.DEALER_HITS_SOFT_17


def test_an_explanation_is_against_the_control_it_is_given():
    # Against the European chart, the American game's double of 11 v 10 is the change.
    explained = explain(Situation.parse(AMERICAN, "6s 5h", "Kd"), control=EUROPEAN)
    assert explained is not None
    assert (explained.play, explained.common_play) == (DOUBLE, HIT)


def test_the_direction_of_a_rule_is_in_its_reason():
    # The control without double after split and hitting soft 17: the rules in play restore both.
    control = AMERICAN.replace(double_after_split=False, dealer_hits_soft_17=True)
    assert reason_for("pair 4", "5", "P", "H", AMERICAN, control) is Reason.DOUBLE_AFTER_SPLIT
    assert reason_for("soft 19", "6", "S", "Ds", AMERICAN, control) is (
        Reason.DEALER_STANDS_SOFT_17
    )


def test_a_hole_card_does_not_matter_where_a_natural_takes_only_the_original_bet():
    rules = EUROPEAN.replace(original_bets_only=True)
    assert reason_for("hard 11", "10", "H", "D", rules, AMERICAN) is Reason.OTHER


def test_a_drill_in_a_changed_cell_is_explained_with_that_hands_evs():
    drill = Situation.parse(EUROPEAN, "6s 5h", "Kd")
    explained = explain(drill)
    assert explained is not None
    assert (explained.play, explained.common_play) == (HIT, DOUBLE)
    evs = drill.evs
    assert (explained.ev, explained.common_ev) == (evs.hit, evs.double)
    assert explained.ev > explained.common_ev and explained.cards_agree
    assert explained.change.reason is Reason.NO_HOLE_CARD_DOUBLE


def test_a_pair_split_by_the_common_chart_is_explained_against_its_split():
    explained = explain(Situation.parse(EUROPEAN, "As Ad", "Ah"))
    assert explained is not None
    assert (explained.play, explained.common_play) == (HIT, SPLIT)


def test_deluxe_explains_its_surrender():
    explained = explain(Situation.parse(DELUXE, "10s 6h", "9d"))
    assert explained is not None
    assert (explained.play, explained.common_play) == (SURRENDER, HIT)


@pytest.mark.parametrize(
    ("rules", "cards", "up"),
    [(EUROPEAN, "10s 6h", "10d"), (AMERICAN, "6s 5h", "Kd"), (DELUXE, "6s 5h", "Kd")],
)
def test_a_cell_the_rules_leave_alone_has_no_explanation(rules, cards, up) -> None:
    assert explain(Situation.parse(rules, cards, up)) is None


def test_a_changed_cell_whose_play_ends_up_the_same_has_no_explanation():
    # Doubling only on 10 or 11: the common chart's D for 9 v 3 falls back to a hit, the
    # play the rules in play chart too.
    rules = AMERICAN.replace(double_on=DoubleOn.TEN_OR_ELEVEN)
    assert ("hard 9", "3") in cell_changes(rules)
    assert explain(Situation.parse(rules, "5s 4h", "3d")) is None


@settings(max_examples=60, deadline=None)
@given(
    rules=st.sampled_from([EUROPEAN, DELUXE, EUROPEAN.replace(decks=2, dealer_hits_soft_17=True)]),
    row=st.sampled_from(sorted(DRILLABLE_ROWS)),
    up=st.sampled_from(UP_CARDS),
    seed=st.integers(0, 2**32),
)
def test_an_explanation_names_the_graded_play_and_the_common_charts(rules, row, up, seed):
    drill = Situation.for_cell(rules, row, up, random.Random(seed))
    explained = explain(drill)
    changed = (drill.row, drill.up_column) in cell_changes(rules)
    if explained is None:
        # Unchanged, or changed in a way that leads to the same play for these cards.
        assert not changed or hard_bot(AMERICAN)(drill.view()) is drill.correct_action()
        return
    assert changed
    assert explained.play is drill.correct_action() is drill.grade("hit").correct
    assert explained.common_play is not explained.play
    evs = drill.evs.as_dict()
    assert (explained.ev, explained.common_ev) == (
        evs[explained.play.value], evs[explained.common_play.value],
    )  # fmt: skip


# One row, one cell ------------------------------------------------------------------------


def test_a_cell_is_dealt_in_that_cell():
    rng = random.Random(30)
    for _ in range(20):
        dealt = deal_in_cell(EUROPEAN, "pair 8", "10", rng)
        assert (dealt.row, dealt.up_column) == ("pair 8", "10") and dealt.is_decision


def test_a_row_is_dealt_against_up_cards_as_the_shoe_deals_them():
    rng = random.Random(31)
    draws = 1300
    ups = Counter(deal_in_cell(EUROPEAN, "hard 16", rng=rng).up_column for _ in range(draws))
    assert set(ups) == set(UP_CARDS)
    # Ten-values are 4 in 13 (400 expected, sd 17), every other up card 1 in 13 (100, sd 10).
    assert 300 <= ups["10"] <= 500, ups
    assert all(50 <= ups[up] <= 150 for up in UP_CARDS if up != "10"), ups
