"""The index-play drill: a hand, an up card and a true count from a computed index table
(`engine.counting.indices`), and the grading of the player's play in expected value.

Each question is one of the table's index plays at a true count near its index (three
either side, where the table has the EV difference there), so that the count decides:
the player chooses between the two plays the index separates. The grade says the right
play at that count, what the wrong one gives up there (in initial bets, from the table's
own EV differences), and why: the index, and the differences either side of it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.counting.indices import IndexEntry, IndexTable

#: How far from its index a question's true count may be.
SPREAD = 3
_SUITS = "cdhs"
_TENS = ("10", "J", "Q", "K")


@dataclass(frozen=True)
class IndexQuestion:
    """One index play put to the player: the entry, the true count, and two cards that
    make the entry's row (the up card is the entry's)."""

    entry: IndexEntry
    true_count: int
    cards: tuple[str, str]


@dataclass(frozen=True)
class IndexGrade:
    """The right play at the question's count, and what the player's gave up there."""

    right_play: str
    given_up: float

    @property
    def right(self) -> bool:
        return self.given_up == 0


def index_question(
    rng: random.Random, table: IndexTable, entry: IndexEntry | None = None
) -> IndexQuestion:
    """An index play of ``table`` (``entry``, or one drawn at random) at a true count near
    its index, with a hand for it."""
    entry = entry or rng.choice(table.entries)
    near = [t for t in entry.ev_difference if abs(t - entry.index) <= SPREAD]
    return IndexQuestion(entry, rng.choice(near), cards_for(entry.row, rng))


def right_play(entry: IndexEntry, true_count: int) -> str:
    """``play`` at a true count at or above the index, ``otherwise`` below it."""
    return entry.play if true_count >= entry.index else entry.otherwise


def grade_index(entry: IndexEntry, true_count: int, answer: str) -> IndexGrade:
    """Grade ``answer`` (one of the entry's two plays) at ``true_count``: what it gives up
    is the EV difference there when it is the wrong one, else 0."""
    if answer not in (entry.play, entry.otherwise):
        raise ValueError(f"{answer!r} is neither {entry.play!r} nor {entry.otherwise!r}")
    right = right_play(entry, true_count)
    given_up = 0.0 if answer == right else abs(entry.ev_difference[true_count])
    return IndexGrade(right, given_up)


def cards_for(row: str, rng: random.Random) -> tuple[str, str]:
    """Two cards that make ``row`` ("hard 16", "soft 18", "pair 10", "insurance"), as card
    texts. A hard total is never a pair (a pair is played by its pair row) nor holds an
    ace; insurance takes any two cards but a natural.

    >>> sorted(card[:-1] for card in cards_for("soft 18", random.Random(1)))
    ['7', 'A']
    """
    kind, _, total = row.partition(" ")
    if kind == "pair":
        pair = (rng.choice(_TENS) if total == "10" else total for _ in range(2))
        return _suited(next(pair), rng), _suited(next(pair), rng)
    if kind == "soft":
        return _suited("A", rng), _suited(_rank_of(int(total) - 11, rng), rng)
    if kind == "hard":
        value = int(total)
        low = rng.choice([v for v in range(2, 11) if 2 <= value - v <= 10 and value - v != v])
        return _suited(_rank_of(low, rng), rng), _suited(_rank_of(value - low, rng), rng)
    if row == "insurance":
        ranks = ["2", "3", "4", "5", "6", "7", "8", "9", *_TENS, "A"]
        while True:
            first, second = rng.choice(ranks), rng.choice(ranks)
            if "A" in (first, second) and {first, second} & set(_TENS):
                continue  # a natural: even money is asked, not insurance
            return _suited(first, rng), _suited(second, rng)
    raise ValueError(f"no hand makes the row {row!r}")


def _rank_of(value: int, rng: random.Random) -> str:
    return rng.choice(_TENS) if value == 10 else str(value)


def _suited(rank: str, rng: random.Random) -> str:
    return rank + rng.choice(_SUITS)
