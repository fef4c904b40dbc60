"""Every player hand the analysis needs, as rank-count vectors with their successors."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

__all__ = ["HandSet", "hands_containing"]

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class HandSet:
    """Hands (multisets of ranks, hard total at most 21) closed under drawing a card.

    ``after[q, r]`` is the index of hand ``q`` plus a card of rank ``r`` (0 = ace), or -1
    when that card busts it. Hands are ordered by hard total, highest first, so a pass in
    index order meets every successor before the hand itself.
    """

    counts: Ints
    hard: Ints
    has_ace: npt.NDArray[np.bool_]
    cards: Ints
    after: Ints
    index: dict[tuple[int, ...], int]

    @property
    def total(self) -> Ints:
        """Best total: an ace counts 11 unless that busts the hand."""
        soft = self.has_ace & (self.hard <= 11)
        return np.asarray(self.hard + 10 * soft, dtype=np.int64)

    @property
    def soft(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.has_ace & (self.hard <= 11))


@lru_cache(maxsize=11)  # every key: each rank, or None
def hands_containing(rank: int | None) -> HandSet:
    """All hands with hard total ≤ 21 holding at least one ``rank`` card (index), or all.

    >>> len(hands_containing(None).counts), len(hands_containing(9).counts)
    (3082, 194)
    """
    found: list[tuple[int, ...]] = []
    counts = [0] * 10

    def walk(position: int, budget: int) -> None:
        if position < 0:
            if sum(counts) and (rank is None or counts[rank]):
                found.append(tuple(counts))
            return
        points = position + 1
        for k in range(budget // points + 1):
            counts[position] = k
            walk(position - 1, budget - k * points)
        counts[position] = 0

    walk(9, 21)
    found.sort(key=lambda hand: -sum((r + 1) * k for r, k in enumerate(hand)))
    index = {hand: i for i, hand in enumerate(found)}
    array = np.array(found, dtype=np.int64)
    after = np.full((len(found), 10), -1, dtype=np.int64)
    for i, hand in enumerate(found):
        for r in range(10):
            bigger = list(hand)
            bigger[r] += 1
            after[i, r] = index.get(tuple(bigger), -1)
    hard = array @ np.arange(1, 11)
    return HandSet(
        counts=array,
        hard=hard,
        has_ace=array[:, 0] > 0,
        cards=array.sum(axis=1),
        after=after,
        index=index,
    )
