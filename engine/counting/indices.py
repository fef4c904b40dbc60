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
   (`engine.strategy.analysis.Analysis`: the stand, hit, double, split and surrender EVs
   against every up card of the rows' two-card hands, worked out from only the hands they
   reach and the splits of the rows' pairs). A shoe stands for its share of the pool (its
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
it needs), each shoe weighed by its chance of dealing the ace up, with the ace counted and
the player's own two cards not.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.chart_vocabulary import ROWS, RowKind, RowLabel
from engine.counting.systems import HI_LO, CountingSystem
from engine.counting.true_count import (
    CARDS_PER_DECK,
    DEFAULT_METHOD,
    Conversion,
    TrueCountMethod,
)
from engine.errors import EngineError
from engine.rules import Rules
from engine.strategy.analysis import Analysis, up_key
from engine.strategy.chart import deal_probability, two_card_hands

__all__ = [
    "ANALYSIS_RANKS",
    "IndexEntry",
    "IndexTable",
    "ShoePool",
    "basic_action",
    "candidate_rows",
    "compute_indices",
    "hands_of",
    "insurance_break_even",
    "mean_tags",
    "rank_tags",
    "true_counts",
]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def true_counts(
    running: Floats, cards_left: Ints, method: TrueCountMethod = DEFAULT_METHOD
) -> Floats:
    """`engine.counting.true_count.true_count` for many shoes at once: the running count
    over the decks left as the player estimates them, converted as the player does.

    Exact like it: the decks are a whole number ``k`` of estimate steps of ``1/s`` deck,
    so the quotient is ``running * s / k``, exact in floating point whenever it is a whole
    number or a half, the only places where a conversion can go either way.

    >>> from engine.counting.true_count import true_count
    >>> counts = true_counts(np.array([-1.0, 7.0, 5.0]), np.array([104, 90, 26]))
    >>> counts.tolist() == [true_count(-1, 104), true_count(7, 90), true_count(5, 26)]
    True
    """
    per_deck = int(1 / method.estimate.step)  # estimate steps per deck: 1, 2, 4 or 52
    steps = np.maximum(np.floor(cards_left * per_deck / CARDS_PER_DECK + 0.5), 1)
    quotient = running * per_deck / steps
    if method.conversion is Conversion.FLOOR:
        return np.floor(quotient)
    if method.conversion is Conversion.TRUNCATE:
        return np.trunc(quotient)
    return np.sign(quotient) * np.floor(np.abs(quotient) + 0.5)


def mean_tags(system: CountingSystem) -> dict[str, float]:
    """Each rank's tag averaged over its cards (Red 7's sevens: half of them count +1).

    >>> from engine.counting.systems import RED_7
    >>> mean_tags(RED_7)["7"], mean_tags(HI_LO)["7"]
    (0.5, 0.0)
    """
    red = dict(system.red_tags)
    return {
        rank: float((tag + red[rank]) / 2) if rank in red else float(tag)
        for rank, tag in system.tags_by_rank.items()
    }


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
    system: CountingSystem
    method: TrueCountMethod
    penetration: Fraction
    counts: tuple[int, ...]
    per_count: int
    seed: int
    entries: tuple[IndexEntry, ...]
    #: The insurance bet's break-even true count, unrounded (exact decks left).
    insurance_break_even: float
    shoes_analysed: int
    seconds: float = field(compare=False, default=0.0)

    def to_json(self) -> dict[str, Any]:
        """The ``indices`` command's object."""
        return {
            "rules": self.rules.name,
            "system": self.system.key,
            "estimate": self.method.estimate.value,
            "rounding": self.method.conversion.value,
            "penetration": float(self.penetration),
            "true_counts": [min(self.counts), max(self.counts)],
            "method": {
                "shoes_analysed": self.shoes_analysed,
                "per_true_count": self.per_count,
                "depth": "uniform from the top of the shoe to the cut card",
                "seed": self.seed,
            },
            "insurance_break_even": (
                None if math.isnan(self.insurance_break_even) else self.insurance_break_even
            ),
            "seconds": self.seconds,
            "indices": [entry.to_json() for entry in self.entries],
        }


#: The analysis's rank order (index 0 the ace, 9 the ten-values) as a count names ranks.
ANALYSIS_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")


@dataclass(frozen=True)
class ShoePool:
    """Shoes as a player meets them: cards dealt (rank counts, the analysis's order) and
    the running count of each, drawn with every card's own tag (Red 7's red sevens)."""

    shoe: Ints
    dealt: Ints
    running: Floats
    left: Ints

    @classmethod
    def draw(
        cls, shoe: Ints, system: CountingSystem, decks: int, penetration: Fraction, size: int,
        rng: np.random.Generator,
    ) -> ShoePool:  # fmt: skip
        """Depths uniform from the top to the cut card, then that many cards at random."""
        tags = system.tags_by_rank
        red = dict(system.red_tags)
        # Kinds of card with one tag each: a rank, or its black and its red halves.
        kinds: list[tuple[int, int, float]] = []  # (rank index, cards, tag)
        for index, rank in enumerate(ANALYSIS_RANKS):
            if rank in red:
                half = int(shoe[index]) // 2
                kinds += [(index, half, float(tags[rank])), (index, half, float(red[rank]))]
            else:
                kinds.append((index, int(shoe[index]), float(tags[rank])))
        cards = np.array([kind[1] for kind in kinds], dtype=np.int64)
        kind_tags = np.array([kind[2] for kind in kinds])
        to_rank = np.zeros((len(kinds), 10), dtype=np.int64)
        to_rank[np.arange(len(kinds)), [kind[0] for kind in kinds]] = 1
        total = int(shoe.sum())
        cut = max(int(penetration * total), 1)
        depths = np.sort(rng.integers(0, cut + 1, size=size))
        drawn = np.zeros((size, len(kinds)), dtype=np.int64)
        unique, starts = np.unique(depths, return_index=True)
        stops = [*starts[1:].tolist(), size]
        for depth, start, stop in zip(unique.tolist(), starts.tolist(), stops, strict=True):
            drawn[start:stop] = rng.multivariate_hypergeometric(cards, depth, size=stop - start)
        running = float(system.initial_count(decks)) + drawn @ kind_tags
        return cls(shoe, drawn @ to_rank, running, total - depths)


def insurance_break_even(
    rules: Rules,
    system: CountingSystem = HI_LO,
    *,
    penetration: Fraction | None = None,
    pool: int = 200_000,
    seed: int = 26,
) -> float:
    """The unrounded true count (exact decks left) at which insurance breaks even, from
    ``pool`` shoes as a player meets them (see the module); NaN if it never does there.

    >>> from engine.rules import AMERICAN
    >>> round(insurance_break_even(AMERICAN, pool=20_000), 1)
    3.1
    """
    full = np.array([4 * rules.decks] * 9 + [16 * rules.decks], dtype=np.int64)
    shoes = ShoePool.draw(full, system, rules.decks, _penetration(rules, penetration), pool,
                          np.random.default_rng(seed))  # fmt: skip
    return _insurance(rules, shoes, rank_tags(system), DEFAULT_METHOD)[1]


def _penetration(rules: Rules, penetration: Fraction | float | None) -> Fraction:
    found = rules.penetration if penetration is None else Fraction(penetration)
    if not 0 < found < 1:
        raise EngineError(f"penetration is a share of the shoe between 0 and 1, not {found}")
    return found


def rank_tags(system: CountingSystem) -> Floats:
    """Mean tags in the analysis's rank order."""
    tags = mean_tags(system)
    return np.array([tags[rank] for rank in ANALYSIS_RANKS])


def candidate_rows(rules: Rules, rows: Iterable[str] | None) -> list[str]:
    wanted = list(ROWS) if rows is None else list(rows)
    splits = rules.max_hands >= 2
    unknown = [row for row in wanted if row not in ROWS]
    if unknown:
        raise EngineError(f"not a chart row: {', '.join(unknown)}")
    return [
        row
        for row in wanted
        if two_card_hands(row) and (splits or RowLabel.of(row).kind is not RowKind.PAIR)
    ]


class _Sums:
    """Per cell (row, up) and true count: the situations' weight, their weight with no
    dealer natural, the weighed raw EV of each action, and how many shoes met them."""

    def __init__(self, counts: tuple[int, ...]) -> None:
        self.low = min(counts)
        self.size = len(counts)
        self.weight: dict[tuple[str, int], Floats] = {}
        self.no_natural: dict[tuple[str, int], Floats] = {}
        self.ev: dict[tuple[str, int], dict[str, Floats]] = {}
        self.shoes: dict[tuple[str, int], Ints] = {}

    def add(self, cell: tuple[str, int], t: int, weight: float, no_natural: float,
            evs: Mapping[str, float | None], new_shoe: bool) -> None:  # fmt: skip
        at = t - self.low
        if cell not in self.weight:
            self.weight[cell] = np.zeros(self.size)
            self.no_natural[cell] = np.zeros(self.size)
            self.shoes[cell] = np.zeros(self.size, dtype=np.int64)
            self.ev[cell] = {}
        self.weight[cell][at] += weight
        self.no_natural[cell][at] += weight * no_natural
        self.shoes[cell][at] += new_shoe
        for action, ev in evs.items():
            if ev is None:
                continue
            self.ev[cell].setdefault(action, np.zeros(self.size))[at] += weight * ev


def compute_indices(
    rules: Rules,
    system: CountingSystem = HI_LO,
    *,
    method: TrueCountMethod = DEFAULT_METHOD,
    penetration: Fraction | float | None = None,
    counts: Iterable[int] = range(-4, 9),
    per_count: int = 12,
    rows: Iterable[str] | None = None,
    pool: int = 40_000,
    seed: int = 26,
) -> IndexTable:
    """The index table of ``rules`` for ``system`` counted by ``method``, from
    ``per_count`` exactly analysed shoes per true count of ``counts`` drawn from ``pool``
    shoes (see the module); ``rows`` limits it to some chart rows (all by default)."""
    started = time.perf_counter()
    true_count_range = tuple(sorted(set(counts)))
    if len(true_count_range) < 2 or per_count < 1 or pool < 1:
        raise EngineError("give two true counts or more, one shoe per count and a pool")
    wanted = candidate_rows(rules, rows)
    full = Analysis(rules)
    rng = np.random.default_rng(seed)
    shoes = ShoePool.draw(full.full, system, rules.decks, _penetration(rules, penetration),
                          pool, rng)  # fmt: skip
    tags = rank_tags(system)
    insurance, break_even = _insurance(rules, shoes, tags, method)

    # Shoes to analyse: up to per_count at random for each count (a margin either side,
    # as the hand and the up card move a situation's count off its shoe's).
    prior = true_counts(shoes.running, shoes.left, method)
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

    sums = _Sums(true_count_range)
    for member, weight in zip(chosen, weights, strict=True):
        _add_situations(rules, shoes, member, weight, tags, method, wanted, sums)

    entries = [] if insurance is None else [insurance]
    for row in wanted:
        for up in range(10):
            entries += _cell_entries(full, sums, row, up, true_count_range)
    return IndexTable(
        rules=rules,
        system=system,
        method=method,
        penetration=_penetration(rules, penetration),
        counts=true_count_range,
        per_count=per_count,
        seed=seed,
        entries=tuple(entries),
        insurance_break_even=break_even,
        shoes_analysed=len(chosen),
        seconds=time.perf_counter() - started,
    )


def _add_situations(
    rules: Rules,
    shoes: ShoePool,
    member: int,
    weight: float,
    tags: Floats,
    method: TrueCountMethod,
    rows: list[str],
    sums: _Sums,
) -> None:
    """Analyse one pool shoe exactly and add each of its situations to ``sums``."""
    remaining = shoes.shoe - shoes.dealt[member]
    analysis = Analysis(rules, remaining.tolist(), only=hands_of(rows))
    low, high = sums.low, sums.low + sums.size - 1
    met: set[tuple[str, int, int]] = set()  # (row, up, count) this shoe has added to
    for row in rows:
        for first, second in two_card_hands(row):
            hand = np.zeros(10, dtype=np.int64)
            hand[first] += 1
            hand[second] += 1
            if (hand > remaining).any():
                continue
            q = analysis.base.hands.index[tuple(hand.tolist())]
            seen = shoes.running[member] + tags[first] + tags[second] + tags
            counts = true_counts(seen, np.full(10, shoes.left[member] - 3), method)
            for up in range(10):
                t = int(counts[up])
                if not low <= t <= high or hand[up] + 1 > remaining[up]:
                    continue
                chance = deal_probability(analysis, hand.tolist(), up)
                evs = analysis.two_card_evs(first, second, up, raw=True).as_dict()
                no_natural = float(analysis.base.no_natural[q, up])
                sums.add((row, up), t, weight * chance, no_natural, evs,
                         new_shoe=(row, up, t) not in met)  # fmt: skip
                met.add((row, up, t))


def hands_of(rows: list[str]) -> list[tuple[int, int]]:
    """The two-card hands (lower rank first) that make ``rows``: all a shoe's analysis
    must work out for them (`Analysis`'s ``only``)."""
    return sorted({(min(pair), max(pair)) for row in rows for pair in two_card_hands(row)})


def basic_action(full: Analysis, row: str, up: int) -> tuple[str, dict[str, float]]:
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
    basic, _ = basic_action(full, row, up)
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
                shoes={t: int(n) for t, n in zip(counts, sums.shoes[cell], strict=True) if n},
            )
        )
    return found


def _insurance(
    rules: Rules, shoes: ShoePool, tags: Floats, method: TrueCountMethod
) -> tuple[IndexEntry | None, float]:
    """Insurance against the ace up, over the whole pool: its entry, and the unrounded
    true count (exact decks left) at which it breaks even.

    Each shoe is weighed by its chance of dealing the ace up (its aces over its cards):
    a shoe that has dealt its aces seldom asks the question. Unweighed, the shoes short of
    aces would count as often as the others; their low running count owes nothing to the
    tens, so the break-even came out lower (1.8 in place of 2.4 for two decks)."""
    if not rules.insurance:
        return None, math.nan
    remaining = shoes.shoe - shoes.dealt
    chance = remaining[:, 0] / shoes.left
    asked = chance > 0
    remaining, chance = remaining[asked], chance[asked]
    # The ace up is seen and counted before the player decides.
    seen = shoes.running[asked] + tags[0]
    unseen = shoes.left[asked] - 1
    pays = float(rules.insurance_pays)
    # The insurance bet is half the initial bet: it wins `pays` to one on a ten-value hole.
    ten = remaining[:, 9] / unseen
    difference = 0.5 * ((pays + 1) * ten - 1)
    rounded = true_counts(seen, unseen, method)
    exact = seen * CARDS_PER_DECK / unseen
    counts = tuple(range(max(int(rounded.min()), -10), min(int(rounded.max()), 15) + 1))
    frequency = np.array([chance[rounded == t].sum() for t in counts])
    means = np.array([np.average(difference[rounded == t], weights=chance[rounded == t])
                      if n else 0.0 for t, n in zip(counts, frequency, strict=True)])  # fmt: skip
    rule = _threshold(means, frequency, counts)
    break_even = _break_even(exact, difference, chance)
    if rule is None:
        return None, break_even
    index, above, _ = rule
    sign = 1.0 if above else -1.0
    asked_at = [np.count_nonzero(rounded == t) for t in counts]
    entry = IndexEntry(
        row="insurance",
        up="A",
        play="insure" if above else "decline",
        otherwise="decline" if above else "insure",
        index=index,
        ev_difference={
            t: sign * float(m) for t, m, n in zip(counts, means, frequency, strict=True) if n
        },
        shoes={t: int(n) for t, n in zip(counts, asked_at, strict=True) if n},
    )
    return entry, break_even


def _break_even(exact: Floats, difference: Floats, weight: Floats) -> float:
    """Where the difference, as a function of the unrounded count, crosses zero: found
    from the pool's weighed average by tenths of a count, then a straight line fitted by
    weighed least squares to every shoe within one count of that first crossing (the
    difference is close to linear there; a line through two bins' averages would follow
    their noise)."""
    bins = np.floor(exact * 10)
    keys, inverse = np.unique(bins, return_inverse=True)
    sizes = np.bincount(inverse)
    means = np.bincount(inverse, weights=weight * difference) / np.bincount(inverse, weight)
    enough = sizes >= 20
    places, means = (keys[enough] + 0.5) / 10, means[enough]
    rising = np.flatnonzero((means[:-1] < 0) & (means[1:] >= 0))
    if not len(rising):
        return math.nan
    near = np.abs(exact - places[rising[0]]) <= 1
    # polyfit weighs residuals, so the square root of each shoe's weight.
    slope, intercept = np.polyfit(exact[near], difference[near], 1, w=np.sqrt(weight[near]))
    return float(-intercept / slope)
