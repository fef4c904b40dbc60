"""The true count: the running count divided by the decks a player judges are left.

Two settings make it, each as players really do it: the **deck estimate** (to the full,
half or quarter deck, as read from the discard tray, or exact) and the **conversion** of
the quotient to a whole number (floor, truncate toward zero, or round). Hi-Lo's default,
Blackjack Attack's method, is a half-deck estimate and the floor (`DEFAULT_METHOD`).

Decks left are the cards still in the shoe: not those dealt, and not the burn card(s),
which leave the shoe unseen (`engine.shoe.Shoe.remaining` counts exactly those).

An estimate is the nearest multiple of its step, a halfway case going to the larger
(which gives the smaller, safer true count), and is never less than one step: in the last
half deck a half-deck estimate says half a deck, never none.

>>> true_count(-1, cards_left=104)  # -0.5 floored
-1
>>> true_count(-1, cards_left=104, method=TrueCountMethod(conversion=Conversion.TRUNCATE))
0
>>> decks_remaining(10), decks_remaining(10, DeckEstimate.EXACT)
(Fraction(1, 2), Fraction(5, 26))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from engine.counting.systems import CountingError

__all__ = [
    "DEFAULT_METHOD",
    "Conversion",
    "DeckEstimate",
    "TrueCountMethod",
    "decks_remaining",
    "raw_true_count",
    "true_count",
]

CARDS_PER_DECK = 52


class DeckEstimate(StrEnum):
    """How finely a player judges the decks left."""

    FULL = "full"
    HALF = "half"
    QUARTER = "quarter"
    EXACT = "exact"

    @property
    def step(self) -> Fraction:
        """The smallest amount of decks this estimate tells apart."""
        return _STEPS[self]


_STEPS = {
    DeckEstimate.FULL: Fraction(1),
    DeckEstimate.HALF: Fraction(1, 2),
    DeckEstimate.QUARTER: Fraction(1, 4),
    DeckEstimate.EXACT: Fraction(1, CARDS_PER_DECK),
}


class Conversion(StrEnum):
    """How the quotient becomes the whole number a player bets and plays by."""

    #: Down to the whole number below: −0.5 is −1 (Blackjack Attack).
    FLOOR = "floor"
    #: Toward zero: −0.5 is 0, +1.9 is +1.
    TRUNCATE = "truncate"
    #: To the nearest, a half away from zero: +2.5 is +3, −2.5 is −3, as people round.
    ROUND = "round"

    def apply(self, quotient: Fraction) -> int:
        """The whole true count of an exact quotient.

        >>> [Conversion.ROUND.apply(Fraction(q, 2)) for q in (-5, -3, -1, 1, 3)]
        [-3, -2, -1, 1, 2]
        """
        if self is Conversion.FLOOR:
            return math.floor(quotient)
        if self is Conversion.TRUNCATE:
            return math.trunc(quotient)
        whole = math.floor(abs(quotient) + Fraction(1, 2))
        return whole if quotient >= 0 else -whole


@dataclass(frozen=True, slots=True)
class TrueCountMethod:
    """A player's way of making the true count: the deck estimate and the conversion."""

    estimate: DeckEstimate = DeckEstimate.HALF
    conversion: Conversion = Conversion.FLOOR


#: Hi-Lo's method (Blackjack Attack): decks to the half deck, the quotient floored.
DEFAULT_METHOD = TrueCountMethod()


def decks_remaining(cards_left: int, estimate: DeckEstimate = DeckEstimate.HALF) -> Fraction:
    """The decks a player judges are left from ``cards_left`` cards still in the shoe.

    >>> [decks_remaining(n) for n in (312, 39, 38, 1, 0)]
    [Fraction(6, 1), Fraction(1, 1), Fraction(1, 2), Fraction(1, 2), Fraction(1, 2)]
    """
    if isinstance(cards_left, bool) or not isinstance(cards_left, int) or cards_left < 0:
        raise CountingError(f"cards left must be a whole number, 0 or more: {cards_left!r}")
    steps = Fraction(cards_left, CARDS_PER_DECK) / estimate.step
    nearest = math.floor(steps + Fraction(1, 2))  # a halfway case goes up
    return max(nearest, 1) * estimate.step


def raw_true_count(
    running: Fraction | int, cards_left: int, estimate: DeckEstimate = DeckEstimate.HALF
) -> Fraction:
    """The running count over the estimated decks left, before any conversion.

    >>> raw_true_count(7, cards_left=90)  # 1.73 decks: 1.5 to the half deck
    Fraction(14, 3)
    """
    return Fraction(running) / decks_remaining(cards_left, estimate)


def true_count(
    running: Fraction | int, cards_left: int, method: TrueCountMethod = DEFAULT_METHOD
) -> int:
    """The whole true count a player using ``method`` bets and plays by.

    >>> true_count(7, cards_left=90), true_count(-7, cards_left=90)
    (4, -5)
    """
    return method.conversion.apply(raw_true_count(running, cards_left, method.estimate))
