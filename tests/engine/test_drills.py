"""Drill situations (engine/drills.py): a first decision on two cards, its legal actions,
its chart cell, its grade, and how situations are dealt.

The right answers are read from the exact chart (`strategy_for(rules).chart`) and the EVs
from `strategy_for(rules).ev`, then compared with what a situation says; the chart codes'
fallbacks and the margins are worked out here, not taken from the code under test.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    CARDS,
    DELUXE,
    EUROPEAN,
    Action,
    Card,
    DoubleOn,
    IllegalActionError,
    Rules,
    drills,
)
from engine.chart_vocabulary import ROWS, UP_CARDS
from engine.drills import (
    CLOSE_MARGIN,
    DRILLABLE_ROWS,
    TRIVIAL_MARGIN,
    Situation,
    deal_situation,
)
from engine.strategy import strategy_for

HIT, STAND, DOUBLE, SPLIT, SURRENDER = (
    Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER,
)  # fmt: skip
#: One rank of each point value, an ace first.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
#: What each chart code plays first when that action is legal (RULES.md §3).
FIRST_ACTION = {
    "H": HIT,
    "S": STAND,
    "D": DOUBLE,
    "Ds": DOUBLE,
    "P": SPLIT,
    "R": SURRENDER,
    "Rs": SURRENDER,
    "Rp": SURRENDER,
}


def situation(cards: str, up: str, rules: Rules = EUROPEAN) -> Situation:
    return Situation.parse(rules, cards, up)


# Reading and writing a situation -------------------------------------------------------


@given(
    first=st.sampled_from(CARDS),
    second=st.sampled_from(CARDS),
    up=st.sampled_from(CARDS),
)
def test_a_situation_written_as_the_trainer_stores_it_reads_back_the_same(
    first: Card, second: Card, up: Card
) -> None:
    dealt = Situation(EUROPEAN, (first, second), up)
    stored = " ".join(str(card) for card in dealt.cards), str(up)  # as trainer.drills.services does
    assert Situation.parse(EUROPEAN, *stored) == dealt


def test_a_situation_reads_commas_and_t_for_ten():
    assert situation("Td,As", "kh") == Situation(
        EUROPEAN, (Card("10", "d"), Card("A", "s")), Card("K", "h")
    )


@pytest.mark.parametrize(
    ("cards", "up"), [("As", "9c"), ("As 7d 5c", "9c"), ("Ax 7d", "9c"), ("As 7d", "1c")]
)
def test_a_situation_that_is_not_two_cards_and_an_up_card_is_refused(cards, up):
    with pytest.raises(ValueError):
        Situation.parse(EUROPEAN, cards, up)


# Rows, columns and decisions ---------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "up", "row", "column"),
    [
        ("10s 6h", "10d", "hard 16", "10"),
        ("As 7d", "9c", "soft 18", "9"),
        ("7d As", "Kc", "soft 18", "10"),  # either order; a king is the ten column
        ("8s 8d", "Ah", "pair 8", "A"),
        ("As Ad", "5h", "pair A", "5"),
        ("Ks Qd", "6h", "pair 10", "6"),  # ten-values are a pair
        ("2s 3d", "7h", "hard 5", "7"),
    ],
)
def test_a_situation_names_its_chart_row_and_column(cards, up, row, column):
    dealt = situation(cards, up)
    assert (dealt.row, dealt.up_column) == (row, column)


def test_a_pair_is_played_as_its_total_where_the_rules_allow_no_split():
    no_split = EUROPEAN.replace(max_hands=1)
    assert situation("8s 8d", "6h", no_split).row == "hard 16"
    assert situation("As Ad", "6h", no_split).row == "soft 12"


@pytest.mark.parametrize(("up", "rules"), [("9c", EUROPEAN), ("Ah", DELUXE), ("Kh", DELUXE)])
def test_a_natural_is_no_decision(up, rules):
    assert not situation("As Kd", up, rules).is_decision


@pytest.mark.parametrize("up", ["Ah", "Kh", "10c"])
def test_the_face_down_card_never_makes_a_dealer_natural(up):
    # The stand-in hole card is chosen so that the dealer cannot end the drill by peeking.
    for rules in (EUROPEAN, DELUXE):
        assert situation("10s 6h", up, rules).is_decision


@pytest.mark.parametrize(
    ("cards", "up", "rules", "legal"),
    [
        ("10s 6h", "10d", EUROPEAN, (HIT, STAND, DOUBLE)),
        ("8s 8d", "6h", EUROPEAN, (HIT, STAND, DOUBLE, SPLIT)),
        ("Ks Qd", "6h", EUROPEAN, (HIT, STAND, DOUBLE, SPLIT)),
        ("8s 8d", "6h", EUROPEAN.replace(max_hands=1), (HIT, STAND, DOUBLE)),
        # Deluxe: late surrender, but not against an ace or a ten-value; insurance is
        # declined before the decision, so it is never among the actions.
        ("10s 6h", "9d", DELUXE, (HIT, STAND, DOUBLE, SURRENDER)),
        ("10s 6h", "Kd", DELUXE, (HIT, STAND, DOUBLE)),
        ("8s 8d", "Ad", DELUXE, (HIT, STAND, DOUBLE, SPLIT)),
        # Doubles only on 10 or 11.
        ("5s 4h", "6d", EUROPEAN.replace(double_on=DoubleOn.TEN_OR_ELEVEN), (HIT, STAND)),
        ("6s 4h", "6d", EUROPEAN.replace(double_on=DoubleOn.TEN_OR_ELEVEN), (HIT, STAND, DOUBLE)),
    ],
)
def test_a_situation_offers_exactly_the_plays_its_rules_allow(cards, up, rules, legal):
    assert situation(cards, up, rules).legal_actions() == legal


# Grading -------------------------------------------------------------------------------


def _every_two_card_situation(rules: Rules) -> list[Situation]:
    suits = {"A": "s", "10": "d"}
    return [
        dealt
        for first, second in combinations_with_replacement(RANKS, 2)
        for up in RANKS
        if (
            dealt := situation(f"{first}s {second}h", f"{up}{suits.get(up, 'c')}", rules)
        ).is_decision
    ]


@pytest.mark.parametrize("rules", [EUROPEAN, DELUXE], ids=["european", "deluxe"])
def test_every_situation_is_graded_against_its_chart_cell(rules: Rules) -> None:
    """The right play is the chart cell's first action (every code's first action is legal
    on the first two cards with chips to cover); the EV given up is the right play's EV
    less the chosen one's, from the exact EVs of the hand as dealt."""
    strategy = strategy_for(rules)
    wrong = []
    for dealt in _every_two_card_situation(rules):
        code = strategy.chart[dealt.row][dealt.up_column]
        evs = strategy.ev(",".join(card.rank for card in dealt.cards), dealt.up.rank).as_dict()
        want = FIRST_ACTION[code]
        for chosen in dealt.legal_actions():
            grade = dealt.grade(chosen)
            expected_loss = max(0.0, evs[want.value] - evs[chosen.value])
            got = (grade.correct, grade.code, grade.row, grade.up, grade.is_correct)
            if got != (want, code, dealt.row, dealt.up_column, chosen is want) or (
                grade.ev_lost != pytest.approx(expected_loss, abs=1e-12)
            ):
                wrong.append(f"{dealt.cards} v {dealt.up} {chosen}: {got}, lost {grade.ev_lost}")
        assert dealt.correct_action() is want
    assert wrong == []


@pytest.mark.parametrize(
    ("cards", "up", "right"),
    [
        ("10s 6h", "10d", HIT),
        # Not 10,2 v 4: the chart stands on 12 v 4, but those two cards do better hitting.
        ("10s 3h", "4d", STAND),
        ("6s 5h", "6d", DOUBLE),
        ("8s 8h", "6d", SPLIT),
        ("As Ah", "6d", SPLIT),
        ("10s Kh", "6d", STAND),
        ("As 7h", "3d", DOUBLE),
        ("As 7h", "2d", STAND),
    ],
)
def test_a_textbook_situation_is_graded_as_every_basic_strategy_chart_plays_it(cards, up, right):
    dealt = situation(cards, up)
    values = dealt.evs.as_dict()
    grade = dealt.grade(right)
    assert grade.is_correct and grade.ev_lost == 0
    assert grade.evs == dealt.evs
    # Here the right play is also the best EV of the hand as dealt.
    assert values[right.value] == max(values[a.value] for a in dealt.legal_actions())


def test_a_wrong_answer_gives_up_the_difference_in_ev():
    dealt = situation("10s 6h", "10d")
    values = dealt.evs.as_dict()
    grade = dealt.grade("stand")
    assert (grade.chosen, grade.correct, grade.is_correct) == (STAND, HIT, False)
    assert grade.ev_lost == pytest.approx(values["hit"] - values["stand"])
    assert grade.ev_lost > 0


@pytest.mark.parametrize(
    ("cards", "up", "action", "message"),
    [
        ("10s 6h", "10d", "surrender", "cannot surrender"),  # European: no surrender
        ("10s 6h", "10d", "split", "cannot split"),
        ("10s 6h", "10d", "insure", "cannot insure"),
        ("10s 6h", "10d", "fold", "not an action"),
        ("5s 4h", "6d", "double", "cannot double"),  # doubles on 10 or 11 only
    ],
)
def test_grading_an_action_the_situation_does_not_allow_is_refused(cards, up, action, message):
    rules = EUROPEAN.replace(double_on=DoubleOn.TEN_OR_ELEVEN)
    with pytest.raises(IllegalActionError, match=message):
        situation(cards, up, rules).grade(action)


# Margins ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "up"), [("10s 6h", "10d"), ("10s Kh", "6d"), ("8s 8h", "6d"), ("As 7h", "9d")]
)
def test_the_margin_is_the_best_legal_plays_lead_over_the_next(cards, up):
    dealt = situation(cards, up)
    values = dealt.evs.as_dict()
    best, second = sorted((values[a.value] for a in dealt.legal_actions()), reverse=True)[:2]
    assert dealt.margin() == pytest.approx(best - second)
    assert dealt.is_trivial() is (best - second > TRIVIAL_MARGIN)
    assert dealt.is_close() is (best - second <= CLOSE_MARGIN)


def test_with_only_two_plays_the_margin_is_between_them():
    no_doubles = EUROPEAN.replace(double_on=DoubleOn.TEN_OR_ELEVEN)
    dealt = situation("10s 6h", "10d", rules=no_doubles)
    assert dealt.legal_actions() == (HIT, STAND)
    assert dealt.margin() == pytest.approx(abs(dealt.evs.hit - dealt.evs.stand))


def test_a_natural_has_nothing_to_choose_and_no_margin():
    assert situation("As Kh", "6d").margin() == float("inf")


def test_a_margin_of_exactly_the_trivial_margin_is_not_trivial(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dealt = situation("10s Kh", "6d")
    monkeypatch.setattr(drills, "TRIVIAL_MARGIN", dealt.margin())
    assert not dealt.is_trivial()


def test_ten_values_are_dealt_as_any_of_10_j_q_k():
    rng = random.Random(14)
    ranks = {
        card.rank
        for _ in range(40)
        for card in Situation.for_cell(EUROPEAN, "pair 10", "10", rng).cards
    }
    assert ranks == {"10", "J", "Q", "K"}


def test_by_default_about_one_trivial_hand_in_five_is_kept():
    rng = random.Random(15)
    default = sum(deal_situation(EUROPEAN, rng).is_trivial() for _ in range(300))
    always = sum(deal_situation(EUROPEAN, rng, keep_trivial=1).is_trivial() for _ in range(300))
    assert default < always / 2


def test_twenty_against_a_six_is_trivial_and_sixteen_against_a_ten_is_close():
    assert situation("10s Kh", "6d").is_trivial()
    assert situation("10s 6h", "10d").is_close()


# Dealing -----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["hard", "soft", "pair"])
def test_a_mode_deals_only_its_kind_of_hand(mode: str) -> None:
    rng = random.Random(7)
    for _ in range(25):
        dealt = deal_situation(EUROPEAN, rng, mode=mode)
        assert dealt.is_decision and dealt.row.startswith(mode), dealt


def test_close_mode_deals_only_close_calls():
    rng = random.Random(8)
    for _ in range(5):
        assert deal_situation(EUROPEAN, rng, mode="close").margin() <= CLOSE_MARGIN


def test_every_mode_deals_no_natural():
    rng = random.Random(9)
    assert all(deal_situation(DELUXE, rng).is_decision for _ in range(200))


def test_trivial_situations_are_dealt_around_as_asked():
    rng = random.Random(10)
    assert not any(deal_situation(EUROPEAN, rng, keep_trivial=0).is_trivial() for _ in range(100))
    assert any(deal_situation(EUROPEAN, rng, keep_trivial=1).is_trivial() for _ in range(100))


def test_trivial_pairs_are_dealt_around_as_asked():
    # A pair of tens is trivial against every up card: it is always dealt in the end, so
    # the chance to keep one cannot be 0 here.
    rng = random.Random(12)
    seldom = [deal_situation(EUROPEAN, rng, mode="pair", keep_trivial=0.05) for _ in range(100)]
    assert sum(dealt.is_trivial() for dealt in seldom) < 30
    always = [deal_situation(EUROPEAN, rng, mode="pair", keep_trivial=1) for _ in range(100)]
    assert sum(dealt.is_trivial() for dealt in always) > 30


class DrawsFirst(random.Random):
    """A seeded generator whose first `random()` draws are the ones given; the cards are
    chosen with its bits, not with those draws."""

    def __init__(self, seed: int, draws: list[float]) -> None:
        super().__init__(seed)
        self.draws = draws

    def random(self) -> float:
        return self.draws.pop(0) if self.draws else super().random()

    def getrandbits(self, k: int) -> int:
        # Defined here, it is what `choice` and `sample` draw with, not `random`.
        return super().getrandbits(k)


@pytest.mark.parametrize("mode", ["all", "pair"])
def test_a_trivial_hand_is_kept_only_by_a_draw_below_the_chance_to_keep_it(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Situation, "is_trivial", lambda self: True)
    kept = deal_situation(EUROPEAN, DrawsFirst(3, [0.49]), mode=mode, keep_trivial=0.5)
    redealt = deal_situation(EUROPEAN, DrawsFirst(3, [0.5, 0.49]), mode=mode, keep_trivial=0.5)
    again = deal_situation(EUROPEAN, DrawsFirst(3, [0.5, 0.49]), mode=mode, keep_trivial=0.5)
    assert (redealt.cards, redealt.up) == (again.cards, again.up)  # the seed decides
    assert (redealt.cards, redealt.up) != (kept.cards, kept.up)  # a draw of 0.5 deals again


def test_pairs_are_dealt_from_the_generator_given():
    hands = [
        [deal_situation(EUROPEAN, rng, mode="pair") for _ in range(20)]
        for rng in (random.Random(13), random.Random(13))
    ]
    assert [(h.cards, h.up) for h in hands[0]] == [(h.cards, h.up) for h in hands[1]]


def test_a_margin_of_exactly_the_close_margin_is_close(monkeypatch: pytest.MonkeyPatch) -> None:
    dealt = situation("10s 6h", "10d")
    monkeypatch.setattr(drills, "CLOSE_MARGIN", dealt.margin())
    assert dealt.is_close()


def test_a_situation_is_dealt_from_the_rules_shoe():
    # One deck holds each card once: the two cards and the up card are three different ones.
    rng = random.Random(11)
    one_deck = EUROPEAN.replace(decks=1)
    for _ in range(300):
        dealt = deal_situation(one_deck, rng)
        assert len({*dealt.cards, dealt.up}) == 3, dealt


def test_an_unknown_mode_is_refused():
    modes = ", ".join(drills.MODES)
    with pytest.raises(ValueError, match=f"unknown drill mode 'weird': choose one of {modes}$"):
        deal_situation(EUROPEAN, random.Random(1), mode="weird")


@pytest.mark.parametrize("row", sorted(DRILLABLE_ROWS))
def test_a_situation_for_a_cell_is_dealt_in_that_cell(row: str) -> None:
    rng = random.Random(row)
    for up in UP_CARDS:
        for _ in range(3):  # the cards are random: a few draws per cell
            dealt = Situation.for_cell(EUROPEAN, row, up, rng)
            assert (dealt.row, dealt.up_column) == (row, up), dealt
            assert dealt.is_decision


def test_every_row_but_the_twenties_and_twenty_ones_can_be_drilled():
    # Hard 20 from two cards is a pair of ten-values, hard 21 needs three cards, and soft
    # 21 from two cards is a natural.
    assert set(ROWS) - DRILLABLE_ROWS == {"hard 20", "hard 21", "soft 21"}
    # Worked out afresh too: DRILLABLE_ROWS is worked out once, on import, where a mutation
    # test cannot switch a mutant on (docs/architecture.md).
    undrillable = {row for row in ROWS if not drills._drillable(Rules(), row)}
    assert undrillable == {"hard 20", "hard 21", "soft 21"}
    with pytest.raises(ValueError, match="no two-card hand makes hard 21"):
        Situation.for_cell(EUROPEAN, "hard 21", "6", random.Random(1))


# How often each hand is dealt (fixed seeds, bounds of five or more standard deviations) ---

PAIR_ROWS = [f"pair {rank}" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")]


def test_pairs_mode_deals_each_pair_about_equally_often():
    rng = random.Random(20)
    draws = 1000
    rows = Counter(deal_situation(EUROPEAN, rng, mode="pair").row for _ in range(draws))
    assert set(rows) == set(PAIR_ROWS)
    # 100 expected of each, with a standard deviation under 10.
    assert all(50 <= rows[row] <= 150 for row in PAIR_ROWS), rows


def test_all_hands_keeps_the_shoes_own_frequencies():
    # Off the top of six decks, without naturals (dealt again): a pair of ten-values is
    # 96/312 · 95/311 of the deals, a pair of aces 24/312 · 23/311, a ten up 96/312.
    rng = random.Random(21)
    draws = 3000
    dealt = [deal_situation(EUROPEAN, rng, keep_trivial=1) for _ in range(draws)]
    not_natural = 1 - 2 * (24 / 312) * (96 / 311)
    rows = Counter(situation.row for situation in dealt)
    tens_expected = draws * (96 / 312) * (95 / 311) / not_natural  # about 296
    aces_expected = draws * (24 / 312) * (23 / 311) / not_natural  # about 18
    assert 0.7 * tens_expected <= rows["pair 10"] <= 1.3 * tens_expected, rows
    assert 0.3 * aces_expected <= rows["pair A"] <= 2 * aces_expected, rows
    ten_up = sum(situation.up.points == 10 for situation in dealt)
    assert 0.85 * draws * 96 / 312 <= ten_up <= 1.15 * draws * 96 / 312
