"""The count a counter keeps at a practice table (issue 27), from what the table shows.

A counter sees every card dealt face up, the dealer's hole card once it is turned and the
first card burned after a shuffle (the others go face down); they never see the shoe.
So the count is carried from round to round by the trainer (`TableCount`), each round's
cards added from its public events (`seen_cards`): nothing here reads the shoe, and a
card face down cannot reach the count.

>>> from engine.cards import Card
>>> from engine.counting.systems import HI_LO
>>> count = TableCount.fresh(HI_LO, decks=6)
>>> count = count.after([CardDealt(1, 0, Card("5", "h")), CardDealt(0, 0, None)])
>>> count.running
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from engine.cards import Card
from engine.counting.systems import CountingSystem
from engine.events import CardDealt, Event, HoleCardRevealed, ShoeShuffled

__all__ = ["TableCount", "seen_cards"]


def seen_cards(history: Iterable[Event]) -> list[Card]:
    """The cards a round's events show face up: each card dealt face up, the hole card
    once turned, the burned card shown after a shuffle."""
    cards: list[Card] = []
    for event in history:
        match event:
            case CardDealt(card=Card() as card) | HoleCardRevealed(card=card):
                cards.append(card)
            case ShoeShuffled(shown=Card() as card):
                cards.append(card)
    return cards


@dataclass(frozen=True, slots=True)
class TableCount:
    """The running count of one shoe's cards seen so far."""

    system: CountingSystem
    decks: int
    running: Fraction

    @classmethod
    def fresh(cls, system: CountingSystem, *, decks: int) -> TableCount:
        """The count of a shoe just shuffled: the system's initial count, nothing seen."""
        return cls(system, decks, system.initial_count(decks))

    def after(self, history: Iterable[Event]) -> TableCount:
        """The count once a round's events are seen: a round that began with a shuffle
        starts from a fresh shoe's count."""
        events = list(history)
        start = self
        if any(isinstance(event, ShoeShuffled) for event in events):
            start = TableCount.fresh(self.system, decks=self.decks)
        tags = sum((self.system.tag(card) for card in seen_cards(events)), Fraction(0))
        return TableCount(self.system, self.decks, start.running + tags)
