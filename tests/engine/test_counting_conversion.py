"""The true-count drill's shoes (engine/counting/conversion.py): what a player must answer
for a shoe part dealt, worked out by hand for a few and held for any by property."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.counting.conversion import DEEPEST, SHOE_DECKS, ShoeSeen, shoe_seen
from engine.counting.true_count import Conversion, DeckEstimate, TrueCountMethod

HALF_FLOOR = TrueCountMethod(DeckEstimate.HALF, Conversion.FLOOR)


def test_the_decks_left_are_judged_to_the_players_step() -> None:
    # Six decks, 195 cards dealt: 117 left, 2.25 decks: 2½ to the half deck (a halfway
    # case goes up), 2 to the whole deck, 2¼ to the quarter.
    seen = ShoeSeen(decks=6, dealt=195, running=9)
    assert seen.cards_left == 117
    assert seen.decks_left(DeckEstimate.HALF) == Fraction(5, 2)
    assert seen.decks_left(DeckEstimate.FULL) == 2
    assert seen.decks_left(DeckEstimate.QUARTER) == Fraction(9, 4)


def test_the_true_count_is_the_running_count_over_the_decks_left_the_players_way() -> None:
    # +9 over 2½ decks is +3.6: floored or truncated +3, rounded +4; −9 is −4, −3, −4.
    up, down = ShoeSeen(6, 195, 9), ShoeSeen(6, 195, -9)
    assert up.true_count(HALF_FLOOR) == 3 and down.true_count(HALF_FLOOR) == -4
    truncate = TrueCountMethod(DeckEstimate.HALF, Conversion.TRUNCATE)
    rounded = TrueCountMethod(DeckEstimate.HALF, Conversion.ROUND)
    assert (up.true_count(truncate), down.true_count(truncate)) == (3, -3)
    assert (up.true_count(rounded), down.true_count(rounded)) == (4, -4)


def test_a_shoe_not_drilled_is_refused() -> None:
    with pytest.raises(ValueError, match="3 decks"):
        shoe_seen(random.Random(1), 3)


@given(seed=st.integers(0, 2**32), decks=st.sampled_from(SHOE_DECKS))
def test_a_shoe_part_is_dealt_up_to_the_cut_card_and_its_count_is_possible(
    seed: int, decks: int
) -> None:
    """At least one card dealt and no more than five sixths of the shoe; the Hi-Lo count
    of those cards can be no further from 0 than the cards dealt, nor than the 20 low or
    20 high cards of each deck."""
    seen = shoe_seen(random.Random(seed), decks)
    assert 1 <= seen.dealt <= decks * 52 * DEEPEST
    assert abs(seen.running) <= min(seen.dealt, 20 * decks)
    assert seen.decks_left(DeckEstimate.HALF) >= Fraction(1, 2)
