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
    hand = Hand(0)
    for card in cards:
        hand.add(card.code)
    return HandValue(hand.total, hand.soft)


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

    Internal to the round (the public API hands out `Card` tuples). Its totals are worked
    out as each card is added, in `add` alone, so that no decision recounts the hand.
    The dealer's hand is one too.
    """

    def __init__(self, stake: int | Fraction) -> None:
        """An empty hand with ``stake`` riding on it; `add` deals it its cards."""
        self.cards: list[int] = []
        self.clear(stake)

    def clear(self, stake: int | Fraction) -> None:
        """Empty the hand, with ``stake`` riding on it: a hand kept for the next round."""
        self.cards.clear()
        #: The best total, and whether an ace in it counts 11 (a soft total).
        self.total = 0
        self.soft = False
        self.stake = stake
        self.doubled = self.from_split = self.split_aces = self.closed = False
        self.surrendered = False
        #: Two cards dealt at the start of the round (not after a split) that make 21.
        self.natural = False

    def add(self, code: int) -> None:
        """Deal the hand a card (by its code).

        An ace counts 11 unless that would take the hand over 21: an ace that fits counts
        11 (one is enough: two would make 22), and counts 1 again once a card would take
        the hand over 21.
        """
        self.cards.append(code)
        points = POINTS[code]
        total = self.total + points
        if self.soft and total > 21:
            total -= 10
            self.soft = False
        elif points == 1 and total <= 11:
            total += 10
            self.soft = True
        self.total = total

    @property
    def pair_points(self) -> int:
        """The point value (ace 1) of the hand's two cards if they are a pair, else 0."""
        if len(self.cards) == 2 and POINTS[self.cards[0]] == POINTS[self.cards[1]]:
            return POINTS[self.cards[0]]
        return 0
