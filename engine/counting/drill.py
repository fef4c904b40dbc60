"""The running-count drill: a deck to count down, and the grading of a player's count.

A player counts a single deck, shown a few cards at a time or laid out whole, and says the
running count at the end, and, if they like, at checkpoints on the way. What a trainer
owes them is the truth (the count after every card), how far off they were, and where
their count first went wrong: a count that was right at one checkpoint and off at the next
went wrong among the cards between them.

The deck is dealt less a few cards held back unseen (one to eight), so that a balanced
count does not always end at 0 and the answer cannot be known without counting.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.cards import CARDS
from engine.counting.systems import CountingSystem

#: How many cards of the deck are held back unseen, at least and at most.
HELD_BACK = (1, 8)
#: Cards shown at a time, and checkpoints every so many cards, that a drill may ask for.
GROUPS = (1, 2, 3)
CHECKPOINTS = (0, 10, 20)


def deck_to_count(rng: random.Random) -> tuple[str, ...]:
    """A shuffled deck less one to eight cards, as card texts ("10h", "As")."""
    deck = [str(card) for card in CARDS]
    rng.shuffle(deck)
    return tuple(deck[: len(deck) - rng.randint(*HELD_BACK)])


def counts_after(system: CountingSystem, cards: Sequence[str]) -> list[Fraction]:
    """The running count after each card, from a single deck's initial count."""
    count = system.initial_count(1)
    found = []
    for card in cards:
        count += system.tag(card)
        found.append(count)
    return found


def checkpoints(cards: int, every: int) -> tuple[int, ...]:
    """After which cards (counted from 1) the drill asks for the count: every ``every``
    cards, the last card excepted (the end asks anyway); none when ``every`` is 0.

    >>> checkpoints(47, 10), checkpoints(40, 20), checkpoints(47, 0)
    ((10, 20, 30, 40), (20,), ())
    """
    if every <= 0:
        return ()
    return tuple(range(every, cards, every))


@dataclass(frozen=True)
class CountGrade:
    """A player's count graded: the true count at the end, theirs, and where theirs first
    departed from the truth (the first and last card of that stretch, counted from 1)."""

    truth: Fraction
    answer: Fraction
    first_wrong: tuple[int, int] | None

    @property
    def exact(self) -> bool:
        return self.answer == self.truth

    @property
    def off_by(self) -> Fraction:
        """Theirs less the truth: above 0 for a count too high."""
        return self.answer - self.truth


def grade_count(
    system: CountingSystem,
    cards: Sequence[str],
    answer: Fraction,
    at_checkpoints: Mapping[int, Fraction] | None = None,
) -> CountGrade:
    """Grade ``answer``, the running count after all ``cards``, and the counts given
    ``at_checkpoints`` (after card n: count). The stretch where the count first went wrong
    starts after the last checkpoint answered right before the first one answered wrong
    (or the end); it is None when every answer is right, or when the answer is wrong but
    no checkpoint was answered (it could be anywhere)."""
    truth = counts_after(system, cards)
    given = sorted((at_checkpoints or {}).items())
    start = 1
    for card, count in given:
        if not 1 <= card <= len(cards):
            raise ValueError(f"no checkpoint after card {card} of {len(cards)}")
        if count != truth[card - 1]:
            return CountGrade(truth[-1], answer, (start, card))
        start = card + 1
    wrong = answer != truth[-1] and bool(given)
    return CountGrade(truth[-1], answer, (start, len(cards)) if wrong else None)
