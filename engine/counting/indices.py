"""Index plays computed from the exact analysis, for any rules, counting system, true-count
method and penetration.

An index says: at a true count at or above it, play this; below it, the other. Books give
them for one rule set and one system, worked out by simulation or from effects of removal
taken as linear. Here they come from exact expectations of shoes actually depleted to each
count:

1. **Shoes.** A pool of shoes as a player meets them: a depth (cards dealt before the
   round) drawn uniformly from the top of the shoe to the cut card, then that many cards
   drawn at random from the full shoe (a multivariate hypergeometric draw, exactly what a
   shuffled shoe deals). Each pool shoe's true count is worked out as the player does
   (running count over the estimated decks left, converted by the chosen rounding).
2. **Compositions analysed.** From the pool, up to ``per_count`` shoes are taken at random
   for each true count of the range, and each is analysed exactly
   (`engine.strategy.analysis.Analysis`: every hand's stand, hit, double, split and
   surrender EVs against every up card). A shoe stands for its share of the pool (its
   count's pool frequency over the shoes taken), so averages follow the counts as they
   come at the table.
3. **Situations.** For a chart cell, every two-card hand making the row against the up
   card is a situation, weighed by its chance of being dealt from that shoe; its true
   count includes the hand and the up card (the player counts them before deciding).
   The EV difference of two actions at a true count is the weighed average over the
   situations at that count (conditioned on no dealer natural where the dealer peeks).
4. **The index.** Against the cell's basic-strategy action (the full shoe's best), each
   other action's index is the threshold whose rule ("this play at or above it, the other
   below", or the other way round for plays right as the count falls) earns the most over
   the situations of the range: the one a player should use, found without fitting a line.

Insurance is worked out from the whole pool (the ten-values left against the ace up are all
it needs), with the player's own two cards not counted.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from engine.chart_vocabulary import ROWS, RowKind, RowLabel
from engine.counting.effects import RANK_KEYS
from engine.errors import EngineError
from engine.rules import Rules
from engine.strategy.analysis import Analysis, up_key
from engine.strategy.chart import deal_probability, two_card_hands

__all__ = [
    "ESTIMATES",
    "ROUNDINGS",
    "IndexEntry",
    "IndexTable",
    "compute_indices",
    "true_counts",
]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

#: How finely a player estimates the decks left, in decks (None: exactly).
ESTIMATES: dict[str, float | None] = {"full": 1.0, "half": 0.5, "quarter": 0.25, "exact": None}
Rounding = Literal["floor", "truncate", "round"]
ROUNDINGS: tuple[str, ...] = ("floor", "truncate", "round")
ACTIONS: tuple[str, ...] = ("stand", "hit", "double", "split", "surrender")


def true_counts(
    running: Floats, cards_left: Ints, *, estimate: str = "half", rounding: str = "floor"
) -> Floats:
    """True counts as a player works them out: the running count over the decks left,
    estimated to the nearest ``estimate`` (never below one step), then converted.

    >>> counts = true_counts(np.array([-1.0, 7.0, 5.0]), np.array([104, 78, 26]))
    >>> counts.tolist()
    [-1.0, 4.0, 10.0]
    >>> true_counts(np.array([-1.0]), np.array([104]), rounding="truncate").tolist()
    [-0.0]
    """
    if estimate not in ESTIMATES:
        raise EngineError(f"estimate is one of {', '.join(ESTIMATES)}, not {estimate!r}")
    if rounding not in ROUNDINGS:
        raise EngineError(f"rounding is one of {', '.join(ROUNDINGS)}, not {rounding!r}")
    decks = cards_left / 52
    step = ESTIMATES[estimate]
    if step is not None:
        decks = np.maximum(np.floor(decks / step + 0.5) * step, step)
    exact = running / np.maximum(decks, 1 / 52)
    if rounding == "floor":
        return np.floor(exact)
    if rounding == "truncate":
        return np.trunc(exact)
    return np.floor(exact + 0.5)


@dataclass(frozen=True)
class IndexEntry:
    """One index play: ``play`` at a true count at or above ``index``, ``otherwise`` below."""

    row: str
    up: str
    play: str
    otherwise: str
    index: int
    #: True count → EV of ``play`` less EV of ``otherwise``, in initial bets.
    ev_difference: dict[int, float]
    #: True count → how many analysed shoes the difference is averaged over.
    shoes: dict[int, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "row": self.row,
            "up": self.up,
            "play": self.play,
            "otherwise": self.otherwise,
            "index": self.index,
            "ev_difference": {str(t): d for t, d in self.ev_difference.items()},
            "shoes": {str(t): n for t, n in self.shoes.items()},
        }


@dataclass(frozen=True)
class IndexTable:
    """Every index play found for one rules set, system and true-count method."""

    rules: Rules
    system: str
    estimate: str
    rounding: str
    penetration: Fraction
    counts: tuple[int, ...]
    per_count: int
    seed: int
    entries: tuple[IndexEntry, ...]
    #: The insurance bet's break-even true count, unrounded (exact decks left).
    insurance_break_even: float
    shoes_analysed: int
    seconds: float = field(compare=False, default=0.0)

    def find(self, row: str, up: str, play: str) -> IndexEntry | None:
        """The entry for ``play`` in the cell, if the range holds its index."""
        return next(
            (e for e in self.entries if (e.row, e.up) == (row, up) and play in (e.play, e.otherwise)),
            None,
        )

    def to_json(self) -> dict[str, Any]:
        """The ``indices`` command's object."""
        return {
            "rules": self.rules.name,
            "system": self.system,
            "estimate": self.estimate,
            "rounding": self.rounding,
            "penetration": float(self.penetration),
            "true_counts": [min(self.counts), max(self.counts)],
            "method": {
                "shoes_analysed": self.shoes_analysed,
                "per_true_count": self.per_count,
                "depth": "uniform from the top of the shoe to the cut card",
                "seed": self.seed,
            },
            "insurance_break_even": self.insurance_break_even,
            "seconds": self.seconds,
            "indices": [entry.to_json() for entry in self.entries],
        }


#: Tags in the analysis's rank order (index 0 the ace, 9 the ten-values).
def _by_index(tags: Mapping[str, float]) -> Floats:
    missing = [rank for rank in RANK_KEYS if rank not in tags]
    if missing:
        raise EngineError(f"a tag is needed for every rank: {', '.join(missing)}")
    order = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
    return np.array([float(tags[rank]) for rank in order])


def _candidate_rows(rules: Rules, rows: Iterable[str] | None) -> list[str]:
    wanted = list(ROWS) if rows is None else list(rows)
    splits = rules.max_hands >= 2
    return [
        row
        for row in wanted
        if row in ROWS
        and two_card_hands(row)
        and (splits or RowLabel.of(row).kind is not RowKind.PAIR)
    ]


class _Sums:
    """Per cell and true count: situation weight, weight with no dealer natural, and the
    weighed raw EV of each action; and how many shoes met it."""

    def __init__(self, counts: tuple[int, ...]) -> None:
        self.low = min(counts)
        size = len(counts)
        self.weight: dict[tuple[str, int], Floats] = {}
        self.no_natural: dict[tuple[str, int], Floats] = {}
        self.ev: dict[tuple[str, int], dict[str, Floats]] = {}
        self.shoes: dict[tuple[str, int], Ints] = {}
        self.size = size

    def add(self, cell: tuple[str, int], t: int, weight: float, no_natural: float,
            evs: Mapping[str, float | None], shoe_seen: bool) -> None:  # fmt: skip
        at = t - self.low
        if cell not in self.weight:
            self.weight[cell] = np.zeros(self.size)
            self.no_natural[cell] = np.zeros(self.size)
            self.shoes[cell] = np.zeros(self.size, dtype=np.int64)
            self.ev[cell] = {}
        self.weight[cell][at] += weight
        self.no_natural[cell][at] += weight * no_natural
        if not shoe_seen:
            self.shoes[cell][at] += 1
        for action, ev in evs.items():
            if ev is not None:
                self.ev[cell].setdefault(action, np.zeros(self.size))[at] += weight * ev


def compute_indices(
    rules: Rules,
    tags: Mapping[str, float],
    *,
    system: str = "custom",
    initial_running_count: float = 0.0,
    estimate: str = "half",
    rounding: str = "floor",
    penetration: Fraction | None = None,
    counts: Iterable[int] = range(-4, 9),
    per_count: int = 12,
    rows: Iterable[str] | None = None,
    pool: int = 40_000,
    seed: int = 26,
) -> IndexTable:
    """The index table of ``rules`` for a system's ``tags`` (keys "2" … "10", "A"), from
    ``per_count`` exactly analysed shoes per true count of ``counts`` (see the module)."""
    started = time.perf_counter()
    true_count_range = tuple(sorted(set(counts)))
    if not true_count_range or per_count < 1 or pool < 1:
        raise EngineError("give at least one true count, one shoe per count and a pool")
    penetration = rules.penetration if penetration is None else Fraction(penetration)
    if not 0 < penetration < 1:
        raise EngineError(f"penetration is a share of the shoe between 0 and 1, not {penetration}")
    by_index = _by_index(tags)
    true_counts(np.zeros(1), np.ones(1, dtype=np.int64), estimate=estimate, rounding=rounding)
    full = Analysis(rules)
    shoe = full.full
    size = int(shoe.sum())
    cut = max(int(penetration * size), 1)
    rng = np.random.default_rng(seed)

    # 1. The pool: depths uniform to the cut card, then that many cards dealt at random.
    depths = np.sort(rng.integers(0, cut + 1, size=pool))
    dealt = np.zeros((pool, 10), dtype=np.int64)
    unique, starts = np.unique(depths, return_index=True)
    bounds = [*starts[1:].tolist(), pool]
    for depth, start, stop in zip(unique.tolist(), starts.tolist(), bounds, strict=True):
        dealt[start:stop] = rng.multivariate_hypergeometric(shoe, depth, size=stop - start)
    running = initial_running_count + dealt @ by_index
    left = size - depths

    insurance = _insurance(rules, shoe, dealt, running, left, by_index, estimate, rounding)

    # 2. Shoes to analyse: up to per_count at random for each count (a margin either side,
    # as the hand and the up card move a situation's count off its shoe's).
    prior = true_counts(running, left, estimate=estimate, rounding=rounding)
    low, high = min(true_count_range), max(true_count_range)
    chosen: list[int] = []
    weights: list[float] = []
    for t in range(low - 1, high + 2):
        members = np.flatnonzero(prior == t)
        if not len(members):
            continue
        taken = rng.choice(members, size=min(per_count, len(members)), replace=False)
        chosen += taken.tolist()
        weights += [len(members) / len(taken) / pool] * len(taken)

    # 3. Every situation of every analysed shoe, by cell and true count.
    candidate_rows = _candidate_rows(rules, rows)
    sums = _Sums(true_count_range)
    for member, weight in zip(chosen, weights, strict=True):
        remaining = shoe - dealt[member]
        analysis = Analysis(rules, remaining.tolist())
        met: set[tuple[str, int, int]] = set()  # (row, up, count): this shoe counted there
        for row in candidate_rows:
            for first, second in two_card_hands(row):
                hand = np.zeros(10, dtype=np.int64)
                hand[first] += 1
                hand[second] += 1
                if (hand > remaining).any():
                    continue
                q = analysis.base.hands.index[tuple(hand.tolist())]
                seen = running[member] + by_index[first] + by_index[second]
                for up in range(10):
                    if (hand + (np.arange(10) == up) > remaining).any():
                        continue
                    t = int(
                        true_counts(
                            np.array([seen + by_index[up]]),
                            np.array([left[member] - 3]),
                            estimate=estimate,
                            rounding=rounding,
                        )[0]
                    )
                    if not low <= t <= high:
                        continue
                    chance = deal_probability(analysis, tuple(hand.tolist()), up)
                    evs = analysis.two_card_evs(first, second, up, raw=True).as_dict()
                    no_natural = float(analysis.base.no_natural[q, up])
                    sums.add((row, up), t, weight * chance, no_natural, evs,
                             shoe_seen=(row, up, t) in met)  # fmt: skip
                    met.add((row, up, t))

    # 4. Against each cell's basic-strategy action, the threshold that earns the most.
    entries = [insurance[0]] if insurance[0] is not None else []
    for row in candidate_rows:
        for up in range(10):
            entries += _cell_entries(full, sums, row, up, true_count_range)
    return IndexTable(
        rules=rules,
        system=system,
        estimate=estimate,
        rounding=rounding,
        penetration=penetration,
        counts=true_count_range,
        per_count=per_count,
        seed=seed,
        entries=tuple(entries),
        insurance_break_even=insurance[1],
        shoes_analysed=len(chosen),
        seconds=time.perf_counter() - started,
    )


def _basic_action(full: Analysis, row: str, up: int) -> tuple[str, dict[str, float]]:
    """The full shoe's best action for the cell, over its two-card hands as dealt."""
    totals: dict[str, float] = {}
    for first, second in two_card_hands(row):
        counts = [0] * 10
        counts[first] += 1
        counts[second] += 1
        weight = deal_probability(full, counts, up)
        for action, ev in full.two_card_evs(first, second, up, raw=True).as_dict().items():
            if ev is not None:
                totals[action] = totals.get(action, 0.0) + weight * ev
    return max(totals, key=totals.__getitem__), totals


def _threshold(
    difference: Floats, frequency: Floats, counts: tuple[int, ...]
) -> tuple[int, bool, float] | None:
    """The best rule on one action against another: (index, whether the action is played
    at or above it — else below it —, what the rule earns). None when it never pays."""
    best: tuple[int, bool, float] | None = None
    earned = frequency * difference
    for at in range(1, len(counts)):  # a threshold inside the range only
        for above in (True, False):
            gain = float(earned[at:].sum() if above else earned[:at].sum())
            if gain > 0 and (best is None or gain > best[2]):
                best = (counts[at], above, gain)
    return best


def _cell_entries(
    full: Analysis, sums: _Sums, row: str, up: int, counts: tuple[int, ...]
) -> list[IndexEntry]:
    cell = (row, up)
    if cell not in sums.weight:
        return []
    basic, _ = _basic_action(full, row, up)
    seen = sums.no_natural[cell] > 0
    norm = np.where(seen, sums.no_natural[cell], 1.0)
    evs = sums.ev[cell]
    found = []
    for action, values in evs.items():
        if action == basic or basic not in evs:
            continue
        difference = np.where(seen, (values - evs[basic]) / norm, 0.0)
        rule = _threshold(difference, sums.weight[cell], counts)
        if rule is None:
            continue
        index, above, _ = rule
        play, otherwise = (action, basic) if above else (basic, action)
        sign = 1.0 if above else -1.0
        found.append(
            IndexEntry(
                row=row,
                up=up_key(up),
                play=play,
                otherwise=otherwise,
                index=index,
                ev_difference={
                    t: sign * float(d)
                    for t, d, ok in zip(counts, difference, seen, strict=True)
                    if ok
                },
                shoes={
                    t: int(n) for t, n in zip(counts, sums.shoes[cell], strict=True) if n
                },
            )
        )
    return found


def _insurance(
    rules: Rules,
    shoe: Ints,
    dealt: Ints,
    running: Floats,
    left: Ints,
    by_index: Floats,
    estimate: str,
    rounding: str,
) -> tuple[IndexEntry | None, float]:
    """Insurance against the ace up, over the whole pool: its entry, and the unrounded
    true count (exact decks left) at which it breaks even."""
    if not rules.insurance:
        return None, math.nan
    remaining = shoe - dealt
    possible = remaining[:, 0] > 0
    remaining, running, left = remaining[possible], running[possible], left[possible]
    seen = running + by_index[0]  # the ace up is counted
    unseen = left - 1
    pays = float(rules.insurance_pays)
    # The insurance bet is half the initial bet: it wins `pays` to one on a ten-value hole.
    ten = remaining[:, 9] / unseen
    difference = 0.5 * ((pays + 1) * ten - 1)
    rounded = true_counts(seen, unseen, estimate=estimate, rounding=rounding)
    exact = seen / (unseen / 52)
    low, high = int(rounded.min()), int(rounded.max())
    counts = tuple(range(max(low, -10), min(high, 15) + 1))
    means = np.array([difference[rounded == t].mean() if (rounded == t).any() else 0.0
                      for t in counts])  # fmt: skip
    frequency = np.array([(rounded == t).sum() for t in counts], dtype=np.float64)
    rule = _threshold(means, frequency, counts)
    break_even = _break_even(exact, difference)
    if rule is None:
        return None, break_even
    index, above, _ = rule
    entry = IndexEntry(
        row="insurance",
        up="A",
        play="insure" if above else "decline",
        otherwise="decline" if above else "insure",
        index=index,
        ev_difference={
            t: float(m) if above else -float(m)
            for t, m, n in zip(counts, means, frequency, strict=True)
            if n
        },
        shoes={t: int(n) for t, n in zip(counts, frequency, strict=True) if n},
    )
    return entry, break_even


def _break_even(exact: Floats, difference: Floats) -> float:
    """Where the average difference crosses zero as the unrounded count rises: the pool
    binned by a quarter of a count, the crossing between the two bins that straddle it."""
    bins = np.floor(exact * 4)
    keys, inverse = np.unique(bins, return_inverse=True)
    totals = np.bincount(inverse, weights=difference)
    sizes = np.bincount(inverse)
    where = np.bincount(inverse, weights=exact) / sizes
    means = totals / sizes
    enough = sizes >= 50
    where, means = where[enough], means[enough]
    for at in range(1, len(means)):
        if means[at - 1] < 0 <= means[at]:
            share = -means[at - 1] / (means[at] - means[at - 1])
            return float(where[at - 1] + share * (where[at] - where[at - 1]))
    return math.nan
