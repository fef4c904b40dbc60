"""The index-play drill's questions and grading (engine/counting/index_drill.py), with an
index play built by hand: stand on 16 v T at +1 and above, hit below."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Card, rank_points
from engine.counting.index_drill import cards_for, grade_index, index_question, right_play
from engine.counting.indices import IndexEntry, IndexTable
from engine.counting.systems import HI_LO
from engine.counting.true_count import DEFAULT_METHOD
from engine.rules import AMERICAN

SIXTEEN = IndexEntry(
    row="hard 16", up="10", play="stand", otherwise="hit", index=1,
    ev_difference={-1: -0.012, 0: -0.004, 1: 0.003, 2: 0.011, 5: 0.04},
    shoes={},
)  # fmt: skip


def test_the_play_is_right_at_or_above_the_index_and_the_other_below() -> None:
    assert [right_play(SIXTEEN, count) for count in (0, 1, 2)] == ["hit", "stand", "stand"]


def test_a_wrong_play_gives_up_the_ev_difference_at_that_count() -> None:
    assert grade_index(SIXTEEN, 0, "stand").given_up == pytest.approx(0.004)
    assert grade_index(SIXTEEN, 2, "hit").given_up == pytest.approx(0.011)
    right = grade_index(SIXTEEN, 2, "stand")
    assert right.right and right.given_up == 0 and right.right_play == "stand"


def test_a_play_the_index_does_not_decide_is_refused() -> None:
    with pytest.raises(ValueError, match="double"):
        grade_index(SIXTEEN, 1, "double")


def test_a_question_is_asked_within_three_of_the_index_where_the_table_has_a_difference() -> None:
    table = IndexTable(
        rules=AMERICAN, system=HI_LO, method=DEFAULT_METHOD, penetration=Fraction(3, 4),
        counts=tuple(range(-4, 9)), per_count=1, seed=1, entries=(SIXTEEN,),
        insurance_break_even=3.0, shoes_analysed=1,
    )  # fmt: skip
    counts = {index_question(random.Random(seed), table).true_count for seed in range(60)}
    assert counts == {-1, 0, 1, 2}  # 5 is four from the index


def total(cards: tuple[str, str]) -> tuple[int, bool]:
    """The hand's total and whether it is soft (an ace counted 11)."""
    ranks = [Card.parse(card).rank for card in cards]
    points = sum(rank_points(rank) for rank in ranks)
    if "A" in ranks and points + 10 <= 21:
        return points + 10, True
    return points, False


@given(seed=st.integers(0, 2**32), value=st.integers(5, 19))
def test_a_hard_total_is_made_of_two_different_non_aces(seed: int, value: int) -> None:
    cards = cards_for(f"hard {value}", random.Random(seed))
    ranks = [Card.parse(card).rank for card in cards]
    assert total(cards) == (value, False) and "A" not in ranks
    assert rank_points(ranks[0]) != rank_points(ranks[1])  # never a pair


@given(seed=st.integers(0, 2**32), value=st.integers(13, 20))
def test_a_soft_total_is_an_ace_and_its_other_card(seed: int, value: int) -> None:
    assert total(cards_for(f"soft {value}", random.Random(seed))) == (value, True)


@given(seed=st.integers(0, 2**32), rank=st.sampled_from(["2", "5", "8", "9", "10", "A"]))
def test_a_pair_is_two_cards_of_one_value(seed: int, rank: str) -> None:
    first, second = (
        Card.parse(card).rank for card in cards_for(f"pair {rank}", random.Random(seed))
    )
    assert rank_points(first) == rank_points(second) == rank_points(rank)


@given(seed=st.integers(0, 2**32))
def test_an_insurance_question_is_never_asked_over_a_natural(seed: int) -> None:
    ranks = {Card.parse(card).rank for card in cards_for("insurance", random.Random(seed))}
    assert not ("A" in ranks and ranks & {"10", "J", "Q", "K"})
