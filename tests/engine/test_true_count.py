"""The true count: decks left after the burn, each estimate and conversion at its edges."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.counting import (
    DEFAULT_METHOD,
    HI_LO,
    Conversion,
    CountingError,
    DeckEstimate,
    TrueCountMethod,
    decks_remaining,
    true_count,
)
from engine.counting.true_count import raw_true_count
from engine.rules import Burn, Rules
from engine.shoe import Shoe


def test_hi_los_default_is_the_half_deck_estimate_and_the_floor() -> None:
    assert TrueCountMethod(DeckEstimate.HALF, Conversion.FLOOR) == DEFAULT_METHOD


def test_the_cards_left_are_counted_after_the_burn() -> None:
    """One deck, the burn card's value burns more: a 6 burns seven cards in all."""
    rules = Rules(decks=1, burn=Burn.FIRST_CARD_VALUE)
    shoe = Shoe.for_rules(rules, random.Random(4))
    burned = shoe.prepare_round(rules)
    assert burned is not None and len(burned) > 1
    left = 52 - len(burned)
    assert shoe.remaining == left
    assert decks_remaining(shoe.remaining, DeckEstimate.EXACT) == Fraction(left, 52)
    # The burned cards are unseen: they leave the shoe but not the count.
    assert true_count(4, shoe.remaining, TrueCountMethod(DeckEstimate.EXACT)) == math.floor(
        Fraction(4 * 52, left)
    )


def test_minus_a_half_floors_to_minus_one_and_truncates_to_zero() -> None:
    # Four decks left, running count -2: the true count is exactly -0.5.
    assert raw_true_count(-2, 208) == Fraction(-1, 2)
    assert true_count(-2, 208) == -1
    assert true_count(-2, 208, TrueCountMethod(conversion=Conversion.TRUNCATE)) == 0
    assert true_count(-2, 208, TrueCountMethod(conversion=Conversion.ROUND)) == -1
    assert true_count(2, 208, TrueCountMethod(conversion=Conversion.ROUND)) == 1


@pytest.mark.parametrize(
    ("quotient", "floor", "truncate", "rounded"),
    [
        (Fraction(5, 2), 2, 2, 3),
        (Fraction(-5, 2), -3, -2, -3),
        (Fraction(3, 2), 1, 1, 2),
        (Fraction(-3, 2), -2, -1, -2),
        (Fraction(19, 10), 1, 1, 2),
        (Fraction(-19, 10), -2, -1, -2),
        (Fraction(0), 0, 0, 0),
        (Fraction(-1, 10), -1, 0, 0),
    ],
)
def test_each_conversion_at_its_edges(
    quotient: Fraction, floor: int, truncate: int, rounded: int
) -> None:
    """Rounding sends a half away from zero, as a player rounds, never to the even."""
    assert Conversion.FLOOR.apply(quotient) == floor
    assert Conversion.TRUNCATE.apply(quotient) == truncate
    assert Conversion.ROUND.apply(quotient) == rounded


@pytest.mark.parametrize(
    ("cards_left", "estimate", "decks"),
    [
        (312, DeckEstimate.HALF, 6),
        (52, DeckEstimate.HALF, 1),
        (40, DeckEstimate.HALF, 1),  # 0.77 decks: nearer one than a half
        (39, DeckEstimate.HALF, 1),  # exactly 0.75: halfway goes to the larger
        (38, DeckEstimate.HALF, Fraction(1, 2)),
        (13, DeckEstimate.HALF, Fraction(1, 2)),
        (12, DeckEstimate.HALF, Fraction(1, 2)),  # below a quarter deck: still a half
        (1, DeckEstimate.HALF, Fraction(1, 2)),
        (0, DeckEstimate.HALF, Fraction(1, 2)),
        (25, DeckEstimate.FULL, 1),  # the last deck by the full deck is one deck
        (78, DeckEstimate.FULL, 2),  # 1.5: halfway goes up
        (77, DeckEstimate.FULL, 1),
        (6, DeckEstimate.QUARTER, Fraction(1, 4)),
        (33, DeckEstimate.QUARTER, Fraction(3, 4)),
        (32, DeckEstimate.QUARTER, Fraction(1, 2)),
        (10, DeckEstimate.EXACT, Fraction(10, 52)),
        (0, DeckEstimate.EXACT, Fraction(1, 52)),
    ],
)
def test_the_deck_estimate_at_its_edges_and_in_the_last_deck(
    cards_left: int, estimate: DeckEstimate, decks: Fraction | int
) -> None:
    assert decks_remaining(cards_left, estimate) == decks


def test_the_last_half_deck_doubles_the_count_instead_of_dividing_by_zero() -> None:
    assert true_count(3, 5) == 6
    assert true_count(-3, 5) == -6


@pytest.mark.parametrize("bad", [-1, 2.5, "52", True, None])
def test_bad_cards_left_are_refused(bad: object) -> None:
    with pytest.raises(CountingError, match="^cards left must be a whole number, 0 or more"):
        decks_remaining(bad)  # type: ignore[arg-type]


@given(cards_left=st.integers(0, 416), estimate=st.sampled_from(DeckEstimate))
def test_an_estimate_is_a_whole_number_of_steps_within_half_a_step_or_the_first(
    cards_left: int, estimate: DeckEstimate
) -> None:
    decks = decks_remaining(cards_left, estimate)
    exact = Fraction(cards_left, 52)
    steps = decks / estimate.step
    assert steps.denominator == 1 and steps >= 1
    assert abs(decks - exact) <= estimate.step / 2 or decks == estimate.step


@given(
    running=st.fractions(-40, 40, max_denominator=2),
    cards_left=st.integers(0, 416),
    estimate=st.sampled_from(DeckEstimate),
)
def test_the_conversions_keep_their_promises(
    running: Fraction, cards_left: int, estimate: DeckEstimate
) -> None:
    quotient = raw_true_count(running, cards_left, estimate)
    floor, trunc, rounded = (
        true_count(running, cards_left, TrueCountMethod(estimate, conversion))
        for conversion in Conversion
    )
    assert floor <= quotient < floor + 1
    assert abs(trunc) <= abs(quotient) < abs(trunc) + 1 and trunc * quotient >= 0
    assert abs(rounded - quotient) <= Fraction(1, 2)
    # A count read the other way round is the same number of the other sign.
    assert true_count(-running, cards_left, TrueCountMethod(estimate, Conversion.ROUND)) == (
        -rounded
    )


def test_a_hand_built_shoe_from_running_count_to_true_count() -> None:
    """Two decks, a quarter dealt: 26 cards seen, 78 left (1.5 decks by the half deck)."""
    seen = "2c 3d 4h 5s 6c 2d 3h 4s 5c 6d Kh 9s 8c 7d 2h 3s 4c 5d 6h Qc As Jd 10h 9c 8d 7h"
    running = HI_LO.running_count(seen)
    assert running == 15 - 5
    assert true_count(running, 104 - 26) == 6  # 10 / 1.5 = 6.67, floored
    assert true_count(running, 104 - 26, TrueCountMethod(DeckEstimate.FULL)) == 5  # 10 / 2
