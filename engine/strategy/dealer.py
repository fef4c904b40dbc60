"""The dealer's final-total probabilities for any shoe composition, computed exactly.

Every way the dealer can draw from an up card to a standing total is enumerated once, and
grouped by the multiset of ranks drawn (the hole card included): all orderings of one
multiset have the same probability, ``prod_r ff(n_r, k_r) / ff(N, k)`` with ``ff`` the
falling factorial, so a shoe's probabilities are a sum over a fixed table. Only the ways
to stand are summed (about half of the multisets); busting is the rest of the
probability, since the dealer always finishes before the shoe runs out. Each multiset's
probability is that product of a few factors (one per rank it holds, one for its length:
4.3 on average), so for thousands of shoes at once it is a few row gathers and
multiplications of a (factor × shoe) table, then one matrix product with the multisets'
orderings per outcome. The shoes go through in blocks, so the (multisets × shoes)
intermediate stays a few megabytes whatever the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

__all__ = [
    "NATURAL",
    "OUTCOMES",
    "RANK_POINTS",
    "DealerPaths",
    "dealer_distributions",
    "dealer_paths",
]

#: Ranks by point value: index 0 is the ace, index 9 every ten-value.
RANK_POINTS: tuple[int, ...] = tuple(range(1, 11))
#: The dealer's outcomes, in the column order of every distribution.
OUTCOMES: tuple[str, ...] = ("17", "18", "19", "20", "21", "bust", "natural")
NATURAL = 6
BUST = 5
#: No dealer draws more than 12 cards, nor more than 11 of one rank.
_DEPTH = 16
#: Shoes per block: 128 × at most ~1,050 multisets is about 1 MB of intermediate values,
#: and no slower than bigger blocks (the product stays in the processor's cache).
BLOCK = 128

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class DealerPaths:
    """The multisets of cards a dealer can draw from one up card to stand (or to a natural);
    the ways to bust are not kept.

    ``counts[m, r]`` is how many cards of rank ``r`` multiset ``m`` holds, ``orderings[m]``
    in how many valid orders the dealer draws it, ``outcome[m]`` the index in `OUTCOMES`.
    Its probability is the product of the rows ``factors[m]`` of a shoe's factor table
    (`_factor_table`); multisets come most factors first, and ``sharing[j]`` of them have a
    factor ``j`` (the rest of ``factors[m]`` is padding).
    """

    up: int
    counts: Ints
    orderings: Ints
    outcome: Ints
    factors: Ints
    sharing: Ints

    @property
    def lengths(self) -> Ints:
        return np.asarray(self.counts.sum(axis=1), dtype=np.int64)

    @property
    def most_of_rank(self) -> Ints:
        """The most cards of each rank any multiset holds."""
        return np.asarray(self.counts.max(axis=0), dtype=np.int64)


@lru_cache(maxsize=20)  # every key: ten up cards, soft 17 hit or not
def dealer_paths(up: int, hits_soft_17: bool) -> DealerPaths:
    """Enumerate the dealer's drawing sequences from ``up`` (points, ace = 1) that end
    standing or in a natural, grouped by the multiset drawn.

    >>> paths = dealer_paths(10, False)
    >>> int(paths.orderings[paths.outcome == NATURAL].sum())  # only the ace as hole card
    1
    """
    found: dict[tuple[int, ...], list[int]] = {}  # multiset → [outcome, orderings]
    # The multisets drawn so far with the dealer still to draw, and in how many valid
    # orders each is drawn: a card at a time, which merges the orders of one multiset.
    drawing: dict[tuple[int, ...], int] = {(0,) * 10: 1}
    cards = 0
    while drawing:
        cards += 1
        following: dict[tuple[int, ...], int] = {}
        for drawn, orderings in drawing.items():
            before = up + sum(points * k for points, k in zip(RANK_POINTS, drawn, strict=True))
            for rank, points in enumerate(RANK_POINTS):
                hard = before + points
                soft = (up == 1 or drawn[0] > 0 or points == 1) and hard <= 11
                total = hard + 10 if soft else hard
                more = (*drawn[:rank], drawn[rank] + 1, *drawn[rank + 1 :])
                if cards == 1 and total == 21:
                    outcome = NATURAL
                elif total > 21:
                    continue  # a bust: the rest of the probability
                elif total > 17 or (total == 17 and not (hits_soft_17 and soft)):
                    outcome = total - 17
                else:
                    following[more] = following.get(more, 0) + orderings
                    continue
                found.setdefault(more, [outcome, 0])[1] += orderings
        drawing = following
    counts = np.array(list(found), dtype=np.int64)
    factors = _factor_rows(counts)
    order = np.argsort(-(factors >= 0).sum(axis=1), kind="stable")  # most factors first
    counts, factors = counts[order], factors[order]
    present = factors >= 0
    entries = [found[tuple(hand)] for hand in counts.tolist()]
    return DealerPaths(
        up=up,
        counts=counts,
        orderings=np.array([entry[1] for entry in entries], dtype=np.int64),
        outcome=np.array([entry[0] for entry in entries], dtype=np.int64),
        factors=np.where(present, factors, 0),
        sharing=present.sum(axis=0),
    )


def _factor_rows(counts: Ints) -> Ints:
    """Per multiset, the rows of `_factor_table` whose product is its probability: one
    per rank it holds (``ff(n_r, k_r)``), then its length's (``1 / ff(N, k)``); -1 pads."""
    offsets = np.concatenate([[0], np.cumsum(counts.max(axis=0))])  # (rank, k) at offset + k - 1
    length = offsets[-1] + counts.sum(axis=1) - 1
    absent = length.max() + 1  # sorts after every row
    rows = np.where(counts > 0, offsets[:-1] + counts - 1, absent)
    rows = np.sort(np.concatenate([rows, length[:, None]], axis=1), axis=1)  # ranks, length
    rows = rows[:, : int((rows < absent).sum(axis=1).max())]
    return np.where(rows < absent, rows, -1)


def dealer_distributions(paths: DealerPaths, shoes: Ints, *, block: int = BLOCK) -> Floats:
    """The outcome probabilities (columns as `OUTCOMES`) for each shoe (row of rank counts).

    A shoe that cannot hold the cards (a negative count) gets all zeros. Busting is one
    less the other outcomes: the shoes must hold the cards for every draw (a shoe the
    dealer could run out of would count running out as a bust). ``block`` shoes are
    evaluated at a time, which bounds the memory without changing the result.

    >>> full = np.array([[4] * 9 + [16]])
    >>> dist = dealer_distributions(dealer_paths(6, False), full - np.eye(10, dtype=int)[5])
    >>> round(float(dist.sum()), 12), round(float(dist[0, BUST]), 4)
    (1.0, 0.4208)
    """
    by_rank = np.ascontiguousarray(shoes.T)  # (rank, shoe): each rank's counts in one piece
    valid = (by_rank >= 0).all(axis=0)
    table = _factor_table(paths, np.where(valid, by_rank, 0))
    weights = np.zeros((len(OUTCOMES), len(paths.counts)))
    weights[paths.outcome, np.arange(len(paths.counts))] = paths.orderings
    probabilities = np.empty((len(OUTCOMES), len(shoes)))
    for start in range(0, len(shoes), block):
        factors = table[:, start : start + block]
        product = factors[paths.factors[:, 0]]  # (multiset, shoe)
        for j in range(1, paths.factors.shape[1]):
            sharing = paths.sharing[j]
            product[:sharing] *= factors[paths.factors[:sharing, j]]
        probabilities[:, start : start + block] = weights @ product
    probabilities[BUST] = 1.0 - np.delete(probabilities, BUST, axis=0).sum(axis=0)
    probabilities[:, ~valid] = 0.0
    return probabilities.T


def _factor_table(paths: DealerPaths, by_rank: Ints) -> Floats:
    """(factor, shoe): ``ff(n_r, k)`` for each rank ``r`` and ``k`` up to the most any
    multiset holds, then ``1 / ff(N, k)`` for each length ``k`` (0 where ``k > N``), for
    the shoes ``by_rank`` (rank, shoe)."""
    totals = by_rank.sum(axis=0)
    table = _falling_factorials(max(int(totals.max(initial=0)), 1))
    rows = [
        table[1 : most + 1].take(by_rank[rank], axis=1)
        for rank, most in enumerate(paths.most_of_rank.tolist())
    ]
    ways = table[1 : int(paths.lengths.max()) + 1].take(totals, axis=1)
    rows.append(np.divide(1.0, ways, out=np.zeros_like(ways), where=ways > 0))
    return np.concatenate(rows)


def _falling_factorials(top: int) -> Floats:
    """``table[k, n] = n (n-1) … (n-k+1)`` for n ≤ ``top`` at least and every k a dealer
    can draw, 0 where k > n (by k first, so that each k's row is read in one piece)."""
    # Shoe sizes rounded up to powers of two, so four tables serve every deck count allowed.
    return _falling_factorials_table(1 << max(top, 1).bit_length())


@lru_cache(maxsize=8)  # 8 decks need a table of 17 × 513, under 70 kB
def _falling_factorials_table(top: int) -> Floats:
    table = np.ones((_DEPTH + 1, top + 1))
    n = np.arange(top + 1, dtype=np.float64)
    for k in range(1, _DEPTH + 1):
        table[k] = table[k - 1] * np.maximum(n - k + 1, 0)
    table.setflags(write=False)
    return table
