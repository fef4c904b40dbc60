"""The running-count drill's deck and grading (engine/counting/drill.py), with decks built
by hand: each expected count below is the Hi-Lo tags added up card by card."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import CARDS
from engine.counting.drill import checkpoints, counts_after, deck_to_count, grade_count
from engine.counting.systems import HI_LO, KO, RED_7, SYSTEMS, WONG_HALVES

#: Hi-Lo after each card: +1, +2, +1, +1, +2, +1, 0, 0, −1, 0.
CARDS_10 = ["5h", "2c", "Kd", "8s", "6d", "As", "Qc", "9h", "Jh", "3s"]


def test_the_count_after_each_card_adds_the_tags_in_order() -> None:
    assert counts_after(HI_LO, CARDS_10) == [1, 2, 1, 1, 2, 1, 0, 0, -1, 0]


def test_an_unbalanced_count_starts_at_its_single_deck_count() -> None:
    # Red 7 starts at −2 in one deck; a red seven counts +1, a black one 0.
    assert counts_after(RED_7, ["7h", "7s", "5c"]) == [-1, -1, 0]
    assert counts_after(KO, ["7s"]) == [1]  # KO starts at 0 in one deck; sevens count +1


def test_halves_are_counted_exactly() -> None:
    assert counts_after(WONG_HALVES, ["2c", "5d", "9h"]) == [Fraction(1, 2), 2, Fraction(3, 2)]


def test_an_exact_count_has_no_stretch_to_show() -> None:
    grade = grade_count(HI_LO, CARDS_10, Fraction(0), {5: Fraction(2)})
    assert grade.exact and grade.off_by == 0 and grade.first_wrong is None


def test_the_first_wrong_checkpoint_names_the_cards_since_the_last_right_one() -> None:
    # Right after card 3 (+1), wrong after card 6 (said +2, it was +1), wrong at the end.
    grade = grade_count(
        HI_LO, CARDS_10, Fraction(2), {3: Fraction(1), 6: Fraction(2), 9: Fraction(0)}
    )
    assert grade.first_wrong == (4, 6)
    assert grade.off_by == 2 and grade.truth == 0


def test_checkpoints_all_right_but_the_end_wrong_points_past_the_last_checkpoint() -> None:
    grade = grade_count(HI_LO, CARDS_10, Fraction(-1), {5: Fraction(2)})
    assert grade.first_wrong == (6, 10) and grade.off_by == -1


def test_a_wrong_count_with_no_checkpoint_cannot_say_where() -> None:
    grade = grade_count(HI_LO, CARDS_10, Fraction(3))
    assert not grade.exact and grade.first_wrong is None


def test_a_checkpoint_past_the_deck_is_refused() -> None:
    with pytest.raises(ValueError, match="card 11"):
        grade_count(HI_LO, CARDS_10, Fraction(0), {11: Fraction(0)})


def test_checkpoints_fall_every_so_many_cards_before_the_end() -> None:
    assert checkpoints(44, 10) == (10, 20, 30, 40)
    assert checkpoints(40, 10) == (10, 20, 30)  # the end asks anyway
    assert checkpoints(51, 20) == (20, 40)
    assert checkpoints(51, 0) == ()


@given(seed=st.integers(0, 2**32))
def test_a_dealt_deck_is_a_deck_less_one_to_eight_distinct_cards(seed: int) -> None:
    deck = deck_to_count(random.Random(seed))
    assert 44 <= len(deck) <= 51
    assert len(set(deck)) == len(deck) and set(deck) <= {str(card) for card in CARDS}


@given(
    seed=st.integers(0, 2**32),
    system=st.sampled_from(sorted(SYSTEMS)),
    marks=st.lists(st.integers(1, 43), max_size=4, unique=True),
    slip=st.integers(-3, 3),
)
def test_the_truth_is_the_systems_count_and_a_slip_is_found_where_it_happened(
    seed: int, system: str, marks: list[int], slip: int
) -> None:
    """Whatever the deck and system: the end's truth is the system's running count of the
    cards, and a player who slips by ``slip`` right after one checkpoint's card and is
    right until then is pointed to the stretch that holds the slip."""
    counting = SYSTEMS[system]
    deck = deck_to_count(random.Random(seed))
    truth = counts_after(counting, deck)
    assert truth[-1] == counting.running_count(" ".join(deck), decks=1)
    marks.sort()
    right = {card: truth[card - 1] for card in marks}
    grade = grade_count(counting, deck, truth[-1] + slip, right)
    assert grade.exact == (slip == 0)
    if marks and slip:
        assert grade.first_wrong == (marks[-1] + 1, len(deck))
    if marks:
        slipped = dict(right) | {marks[0]: right[marks[0]] + 1}
        assert grade_count(counting, deck, truth[-1], slipped).first_wrong == (1, marks[0])
