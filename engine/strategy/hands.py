"""Every player hand the analysis needs, as rank-count vectors with their successors."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
import numpy.typing as npt

__all__ = ["HandSet", "count_keys", "hands_containing", "hands_reached"]

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class HandSet:
    """Hands (multisets of ranks, hard total at most 21) closed under drawing a card.

    ``after[q, r]`` is the index of hand ``q`` plus a card of rank ``r`` (0 = ace), or -1
    when that card busts it; ``before[q, r]`` the index of hand ``q`` less a card of rank
    ``r``, or -1 when it holds none or the set lacks the smaller hand. Hands are ordered by
    hard total, highest first, so a pass in index order meets every successor before the
    hand itself.
    """

    counts: Ints
    hard: Ints
    has_ace: npt.NDArray[np.bool_]
    cards: Ints
    after: Ints
    before: Ints
    index: dict[tuple[int, ...], int]

    @cached_property
    def total(self) -> Ints:
        """Best total: an ace counts 11 unless that busts the hand."""
        soft = self.has_ace & (self.hard <= 11)
        return np.asarray(self.hard + 10 * soft, dtype=np.int64)

    @cached_property
    def soft(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.has_ace & (self.hard <= 11))

    @cached_property
    def by_hard_total(self) -> list[Ints]:
        """Index groups of equal hard total, highest first (successors come earlier)."""
        return [np.flatnonzero(self.hard == hard) for hard in range(21, 0, -1)]


@lru_cache(maxsize=11)  # every key: each rank, or None
def hands_containing(rank: int | None) -> HandSet:
    """All hands with hard total ≤ 21 holding at least one ``rank`` card (index), or all.

    >>> len(hands_containing(None).counts), len(hands_containing(9).counts)
    (3082, 194)
    """
    if rank is not None:
        every = hands_containing(None).counts
        return _hand_set(every[every[:, rank] > 0])  # still highest hard total first
    found: list[tuple[int, ...]] = []
    counts = [0] * 10

    def walk(position: int, budget: int) -> None:
        if position < 0:
            if sum(counts):
                found.append(tuple(counts))
            return
        points = position + 1
        for k in range(budget // points + 1):
            counts[position] = k
            walk(position - 1, budget - k * points)
        counts[position] = 0

    walk(9, 21)
    found.sort(key=lambda hand: -sum((r + 1) * k for r, k in enumerate(hand)))
    return _hand_set(np.array(found, dtype=np.int64))


def hands_reached(starts: Ints) -> HandSet:
    """The hands ``starts`` (rank counts) and every hand drawing on from them reaches: all
    that their stand, hit and double EVs read, so an analysis of some two-card hands only
    (the index plays') need not work out the others.

    >>> len(hands_reached(np.array([[0] * 9 + [2]])).counts)  # ten, ten; and an ace more
    2
    """
    every = hands_containing(None)
    wanted = np.zeros(len(every.counts), dtype=np.bool_)
    frontier = np.array([every.index[tuple(hand)] for hand in starts.tolist()], dtype=np.int64)
    while len(frontier):
        wanted[frontier] = True
        after = every.after[frontier].ravel()
        frontier = np.unique(after[after >= 0])
        frontier = frontier[~wanted[frontier]]
    return _hand_set(every.counts[wanted])  # still highest hard total first


#: More than any rank count the analysis meets: 21 aces, or a hand's pair cards and 5 more.
_RADIX = 32
_PLACES = _RADIX ** np.arange(10, dtype=np.int64)


def count_keys(counts: Ints) -> Ints:
    """One integer per row of rank counts (each below 32), to look many rows up at once."""
    return np.asarray(counts @ _PLACES, dtype=np.int64)


def _hand_set(array: Ints) -> HandSet:
    """The hands of ``array`` (rank counts, highest hard total first) and their successors."""
    keys = count_keys(array)
    order = np.argsort(keys)
    in_order = keys[order]

    def found(wanted: Ints) -> Ints:
        at = np.minimum(np.searchsorted(in_order, wanted), len(keys) - 1)
        return np.where(in_order[at] == wanted, order[at], -1)

    after = found(keys[:, None] + _PLACES[None, :])  # (hand, rank): the hand with a card more
    before = np.where(array > 0, found(keys[:, None] - _PLACES[None, :]), -1)
    hard = array @ np.arange(1, 11)
    return HandSet(
        counts=array,
        hard=hard,
        has_ace=array[:, 0] > 0,
        cards=array.sum(axis=1),
        after=after,
        before=before,
        index={hand: i for i, hand in enumerate(map(tuple, array.tolist()))},
    )
