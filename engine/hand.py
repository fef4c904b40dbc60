"""Hand values (hard and soft totals, naturals, pairs) and the mutable hand of a round."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from engine.cards import POINTS, Card

__all__ = ["HandValue", "hand_value", "is_natural", "is_pair"]


@dataclass(frozen=True, slots=True)
class HandValue:
    """A hand's best total, and whether an ace in it still counts 11 (a soft total)."""

    total: int
    soft: bool

    @property
    def bust(self) -> bool:
        return self.total > 21


def hand_value(cards: Iterable[Card]) -> HandValue:
    """The best total of some cards: an ace counts 11 unless that takes the hand over 21.

    >>> hand_value([Card("A", "s"), Card("6", "h")])
    HandValue(total=17, soft=True)
    >>> hand_value([Card("A", "s"), Card("6", "h"), Card("K", "d")])
    HandValue(total=17, soft=False)
    >>> hand_value([Card("A", "s"), Card("A", "h")])
    HandValue(total=12, soft=True)
    """
    hard = 0
    ace = False
    for card in cards:
        hard += card.points
        ace = ace or card.is_ace
    return HandValue(hard + 10, True) if ace and hard <= 11 else HandValue(hard, False)


def is_natural(cards: Iterable[Card]) -> bool:
    """An ace and a ten-value as the only two cards (the caller rules out split hands).

    >>> is_natural([Card("A", "s"), Card("K", "h")]), is_natural([Card("A", "s"), Card("9", "h")])
    (True, False)
    """
    cards = list(cards)
    return len(cards) == 2 and sorted(card.points for card in cards) == [1, 10]


def is_pair(cards: Iterable[Card]) -> bool:
    """Two cards of the same point value, so that 10 and K are a pair.

    >>> is_pair([Card("10", "s"), Card("K", "h")]), is_pair([Card("9", "s"), Card("8", "h")])
    (True, False)
    """
    cards = list(cards)
    return len(cards) == 2 and cards[0].points == cards[1].points


class Hand:
    """One hand of a seat while a round is played: cards as codes, with running totals.

    Internal to the round (the public API hands out `Card` tuples); totals are kept up to
    date on every card so that no decision recounts the hand. No ``__slots__``: CPython
    3.13 builds only instances with a plain ``__dict__`` on its fast path, and a round
    builds its hands anew.
    """

    def __init__(self, stake: int | Fraction) -> None:
        """An empty hand with ``stake`` riding on it; `add` deals it its cards (every
        round's first hands start empty, and a loop over no cards still costs)."""
        self.cards: list[int] = []
        self.hard = 0
        self.has_ace = False
        self.stake = stake
        self.doubled = self.from_split = self.split_aces = False
        self.closed = self.surrendered = self.natural = False

    def add(self, code: int) -> None:
        self.cards.append(code)
        points = POINTS[code]
        self.hard += points
        if points == 1:
            self.has_ace = True

    @property
    def total(self) -> int:
        hard = self.hard
        return hard + 10 if self.has_ace and hard <= 11 else hard

    @property
    def soft(self) -> bool:
        return self.has_ace and self.hard <= 11
