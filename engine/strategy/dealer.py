"""The dealer's final-total probabilities for any shoe composition, computed exactly.

Every way the dealer can draw from an up card to a standing total is enumerated once, and
grouped by the multiset of ranks drawn (the hole card included): all orderings of one
multiset have the same probability, ``prod_r ff(n_r, k_r) / ff(N, k)`` with ``ff`` the
falling factorial, so a shoe's probabilities are a sum over a fixed table. That sum is
evaluated for thousands of shoes at once as ``exp(A @ B) @ W`` in the log domain (A: log
falling factorials of each shoe, B: which rank counts each multiset has), so the exact
analysis of a whole rule set takes a fraction of a second in numpy. The shoes go through
in blocks, so the (shoes × multisets) intermediate stays a few megabytes whatever the rules.
"""

from __future__ import annotations

import math
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
_IMPOSSIBLE = -1.0e4  # a log-probability whose exp is exactly 0.0
#: No dealer draws more than 12 cards, nor more than 11 of one rank.
_DEPTH = 16
#: Shoes per block: 128 × ~2,100 multisets is about 2 MB of intermediate values, and no
#: slower than bigger blocks (the product stays in the processor's cache).
BLOCK = 128

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class DealerPaths:
    """The multisets of cards a dealer can draw from one up card before standing.

    ``counts[m, r]`` is how many cards of rank ``r`` multiset ``m`` holds, ``orderings[m]``
    in how many valid orders the dealer draws it, ``outcome[m]`` the index in `OUTCOMES`.
    """

    up: int
    counts: Ints
    orderings: Ints
    outcome: Ints

    @property
    def lengths(self) -> Ints:
        return np.asarray(self.counts.sum(axis=1), dtype=np.int64)


@lru_cache(maxsize=20)  # every key: ten up cards, soft 17 hit or not
def dealer_paths(up: int, hits_soft_17: bool) -> DealerPaths:
    """Enumerate the dealer's drawing sequences from ``up`` (points, ace = 1).

    >>> paths = dealer_paths(10, False)
    >>> int(paths.orderings[paths.outcome == NATURAL].sum())  # only the ace as hole card
    1
    """
    found: dict[tuple[int, ...], list[int]] = {}
    drawn = [0] * 10

    def walk(hard: int, ace: bool, cards: int) -> None:
        soft = ace and hard <= 11
        total = hard + 10 if soft else hard
        if cards == 1 and total == 21:
            outcome = NATURAL
        elif total > 21:
            outcome = BUST
        elif total > 17 or (total == 17 and not (hits_soft_17 and soft)):
            outcome = total - 17
        else:
            for rank in RANK_POINTS:
                drawn[rank - 1] += 1
                walk(hard + rank, ace or rank == 1, cards + 1)
                drawn[rank - 1] -= 1
            return
        key = tuple(drawn)
        entry = found.setdefault(key, [outcome, 0])
        entry[1] += 1

    walk(up, up == 1, 0)
    keys = list(found)
    return DealerPaths(
        up=up,
        counts=np.array(keys, dtype=np.int64),
        orderings=np.array([found[key][1] for key in keys], dtype=np.int64),
        outcome=np.array([found[key][0] for key in keys], dtype=np.int64),
    )


def dealer_distributions(paths: DealerPaths, shoes: Ints, *, block: int = BLOCK) -> Floats:
    """The outcome probabilities (columns as `OUTCOMES`) for each shoe (row of rank counts).

    A shoe that cannot hold the cards (a negative count) gets all zeros. ``block`` shoes
    are evaluated at a time, which bounds the memory without changing the result.

    >>> full = np.array([[4] * 9 + [16]])
    >>> dist = dealer_distributions(dealer_paths(6, False), full - np.eye(10, dtype=int)[5])
    >>> round(float(dist.sum()), 12), round(float(dist[0, BUST]), 4)
    (1.0, 0.4208)
    """
    valid = (shoes >= 0).all(axis=1)
    shoes = np.where(valid[:, None], shoes, 0)
    counts = paths.counts
    lengths = paths.lengths
    top = max(int(shoes.max()), int(shoes.sum(axis=1).max()), 1)
    log_ff = _log_falling_factorials(top, int(max(counts.max(), lengths.max())))
    columns_a: list[Floats] = []
    columns_b: list[npt.NDArray[np.bool_]] = []
    for rank in range(10):
        for k in range(1, int(counts[:, rank].max()) + 1):
            columns_a.append(log_ff[shoes[:, rank], k])
            columns_b.append(counts[:, rank] == k)
    totals = shoes.sum(axis=1)
    for length in range(1, int(lengths.max()) + 1):
        # A path longer than the shoe is already impossible through its rank counts; its
        # denominator must not turn that huge negative back into a finite number.
        denominator = log_ff[totals, length]
        columns_a.append(-np.where(denominator == _IMPOSSIBLE, 0.0, denominator))
        columns_b.append(lengths == length)
    a = np.stack(columns_a, axis=1)
    b = np.stack(columns_b, axis=0).astype(np.float64)
    weights = np.zeros((len(counts), len(OUTCOMES)))
    weights[np.arange(len(counts)), paths.outcome] = paths.orderings
    probabilities = np.empty((len(shoes), len(OUTCOMES)))
    for start in range(0, len(shoes), block):
        rows = slice(start, start + block)
        logs = a[rows] @ b
        probabilities[rows] = np.exp(logs, out=logs) @ weights
    probabilities[~valid] = 0.0
    return probabilities


def _log_falling_factorials(top: int, depth: int) -> Floats:
    """``table[n, k] = log(n (n-1) … (n-k+1))`` for n ≤ ``top`` and k ≤ ``depth`` at least,
    impossible (k > n) as a huge negative."""
    # Shoe sizes rounded up to powers of two, so four tables serve every deck count allowed.
    return _log_falling_factorials_table(1 << max(top, 1).bit_length(), max(depth, _DEPTH))


@lru_cache(maxsize=8)  # 8 decks need a table of 513 × 17, under 70 kB
def _log_falling_factorials_table(top: int, depth: int) -> Floats:
    table = np.full((top + 1, depth + 1), _IMPOSSIBLE)
    table[:, 0] = 0.0
    for n in range(top + 1):
        running = 0.0
        for k in range(1, min(n, depth) + 1):
            running += math.log(n - k + 1)
            table[n, k] = running
    table.setflags(write=False)
    return table
