"""The true-count drill: a shoe part dealt, whose discards a player judges in decks, and a
running count they turn into a true count by their own method (`engine.counting.true_count`).

A question is a shoe of some decks with some cards dealt (between a few cards and the cut
card at five sixths), and the running count of those cards (Hi-Lo's tags, so that the
count is one a table really gives at that depth). The player answers in two steps: the
decks left, judged from the discard tray to their estimate's step, then the true count of
the running count over the decks left, converted their way. Each is graded exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from engine.cards import CARDS
from engine.counting.systems import HI_LO
from engine.counting.true_count import (
    CARDS_PER_DECK,
    DeckEstimate,
    TrueCountMethod,
    decks_remaining,
    true_count,
)

#: Shoes a player may drill with, in decks.
SHOE_DECKS = (1, 2, 4, 6, 8)
#: The deepest a question deals: the cut card at five sixths of the shoe.
DEEPEST = Fraction(5, 6)


@dataclass(frozen=True)
class ShoeSeen:
    """A shoe of ``decks`` decks with ``dealt`` cards gone to the discard tray, and the
    running count of those cards."""

    decks: int
    dealt: int
    running: int

    @property
    def cards_left(self) -> int:
        return self.decks * CARDS_PER_DECK - self.dealt

    def decks_left(self, estimate: DeckEstimate) -> Fraction:
        """The decks left a player judges from the tray, to ``estimate``'s step."""
        return decks_remaining(self.cards_left, estimate)

    def true_count(self, method: TrueCountMethod) -> int:
        return true_count(self.running, self.cards_left, method)


def shoe_seen(rng: random.Random, decks: int) -> ShoeSeen:
    """A shoe part dealt at random: at least one card, at most to the cut card; the cards
    gone drawn from the shoe as a shuffle deals them, and counted."""
    if decks not in SHOE_DECKS:
        raise ValueError(f"a shoe of {decks} decks is not drilled: {SHOE_DECKS}")
    total = decks * CARDS_PER_DECK
    dealt = rng.randint(1, int(total * DEEPEST))
    shoe = [card for card in CARDS for _ in range(decks)]
    gone = rng.sample(shoe, dealt)
    return ShoeSeen(decks, dealt, int(sum(HI_LO.tag(card) for card in gone)))
