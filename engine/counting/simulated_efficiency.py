"""Playing efficiency by simulation: shoes drawn as a player meets them, each analysed
exactly, and every two-card decision in them played four ways.

1. **Shoes.** ``shoes`` shoes drawn as the index tables draw them (`ShoePool`: a depth
   uniform from the top to the cut card, then that many cards at random), the same shoes
   for every system, so that the systems are compared on the same cards.
2. **Decisions.** In each shoe, every two-card hand against every up card, weighed by its
   chance of being dealt from that shoe, with the exact EV of each action there
   (`Analysis` of the depleted shoe; insurance is rated apart, as the insurance
   correlation).
3. **Four players.** Basic strategy plays the chart's action (the full shoe's best for the
   row). A counter plays its index table's play at the situation's true count (its hand
   and the up card counted) where the table calls for a deviation, else the chart's.
   Perfect play takes the best action for that very hand and shoe. The perfect *linear*
   player predicts each action's EV from the shoe's cards by the action's exact effects of
   removal (`engine.counting.efficiency.decisions`) and plays the best prediction: the
   most any count, which is a linear function of the cards, can know (Griffin's yardstick).
4. **The efficiency** is the counter's gain over basic strategy as a share of perfect
   play's gain, and of the perfect linear player's, each summed over the decisions and
   averaged over the shoes; its standard error is the ratio's, from the spread of the
   shoes' gains (the delta method).

A counter's index table comes from the same kind of shoes but not these ones (its own
seed), so that the shoes' noise cannot pass for the count's skill.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.counting.effects import RANK_KEYS, rank_share
from engine.counting.efficiency import decisions
from engine.counting.index_drill import right_play
from engine.counting.indices import (
    ANALYSIS_RANKS,
    Floats,
    IndexEntry,
    IndexTable,
    ShoePool,
    basic_action,
    candidate_rows,
    hands_of,
    rank_tags,
    true_counts,
)
from engine.counting.systems import HI_LO
from engine.errors import EngineError
from engine.rules import Rules
from engine.strategy.analysis import Analysis, up_key
from engine.strategy.chart import deal_probability, two_card_hands

__all__ = ["SimulatedEfficiency", "SystemEfficiency", "simulated_efficiency"]


@dataclass(frozen=True)
class SystemEfficiency:
    """One counter's figures over the simulated shoes."""

    #: Its gain over basic strategy, per round, in initial bets.
    gain: float
    #: Its gain as a share of perfect play's, and that share's standard error.
    of_perfect: float
    of_perfect_error: float
    #: Its gain as a share of the perfect linear player's, and its standard error.
    of_linear: float
    of_linear_error: float

    def to_json(self) -> dict[str, float]:
        return {
            "gain": self.gain,
            "of_perfect": self.of_perfect,
            "of_perfect_error": self.of_perfect_error,
            "of_linear": self.of_linear,
            "of_linear_error": self.of_linear_error,
        }


@dataclass(frozen=True)
class SimulatedEfficiency:
    """The counters' playing efficiencies on one set of simulated shoes."""

    rules: Rules
    shoes: int
    seed: int
    #: Perfect play's and the perfect linear player's gain over basic strategy, per round.
    perfect_gain: float
    linear_gain: float
    systems: dict[str, SystemEfficiency]
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The ``efficiency`` command's object."""
        return {
            "rules": self.rules.name,
            "shoes": self.shoes,
            "seed": self.seed,
            "decisions": "every two-card hand against every up card, insurance apart",
            "perfect_gain": self.perfect_gain,
            "linear_gain": self.linear_gain,
            "systems": {key: found.to_json() for key, found in self.systems.items()},
            "seconds": self.seconds,
        }


def simulated_efficiency(
    tables: Sequence[IndexTable], *, shoes: int = 400, seed: int = 27
) -> SimulatedEfficiency:
    """The playing efficiency of each table's counter (see the module), on ``shoes``
    shoes of the tables' rules and penetration, which must be the same for all."""
    started = time.perf_counter()
    if not tables or shoes < 2:
        raise EngineError("give one index table or more, and two shoes or more")
    rules, penetration = tables[0].rules, tables[0].penetration
    if any((t.rules, t.penetration) != (rules, penetration) for t in tables):
        raise EngineError("the index tables must be of the same rules and penetration")
    full = Analysis(rules)
    rng = np.random.default_rng(seed)
    pool = ShoePool.draw(full.full, HI_LO, rules.decks, penetration, shoes, rng)
    counters = [_Counter(table, pool, rng) for table in tables]
    rows = candidate_rows(rules, None)
    basic = {(row, up): basic_action(full, row, up)[0] for row in rows for up in range(10)}
    linear = _LinearPlayer(rules, full)
    perfect = np.zeros(shoes)
    linear_gains = np.zeros(shoes)
    gains = np.zeros((len(counters), shoes))
    for shoe in range(shoes):
        remaining = pool.shoe - pool.dealt[shoe]
        analysis = Analysis(rules, remaining.tolist(), only=hands_of(rows))
        for row in rows:
            chart = [basic[row, up] for up in range(10)]
            for first, second in two_card_hands(row):
                hand = [0] * 10
                hand[first] += 1
                hand[second] += 1
                if any(hand[rank] > remaining[rank] for rank in range(10)):
                    continue
                plays = [c.plays(shoe, row, first, second, chart) for c in counters]
                for up in range(10):
                    if hand[up] + 1 > remaining[up]:
                        continue
                    evs = analysis.two_card_evs(first, second, up, raw=True).as_dict()
                    base = evs.get(chart[up])
                    if base is None:
                        continue
                    chance = deal_probability(analysis, hand, up)
                    offered = {action: ev for action, ev in evs.items() if ev is not None}
                    perfect[shoe] += chance * (max(offered.values()) - base)
                    chosen = linear.play(first, second, up, pool.dealt[shoe], set(offered))
                    linear_gains[shoe] += chance * (offered.get(chosen, base) - base)
                    for number, play in enumerate(plays):
                        gains[number, shoe] += chance * (offered.get(play[up], base) - base)
    return SimulatedEfficiency(
        rules=rules,
        shoes=shoes,
        seed=seed,
        perfect_gain=float(perfect.mean()),
        linear_gain=float(linear_gains.mean()),
        systems={
            counter.key: SystemEfficiency(
                float(gain.mean()), *_ratio(gain, perfect), *_ratio(gain, linear_gains)
            )
            for counter, gain in zip(counters, gains, strict=True)
        },
        seconds=time.perf_counter() - started,
    )


def _ratio(part: Floats, whole: Floats) -> tuple[float, float]:
    """mean(part) / mean(whole) over the shoes, and its standard error (delta method)."""
    if whole.mean() <= 0:
        return math.nan, math.nan
    ratio = part.mean() / whole.mean()
    spread = np.std(part - ratio * whole, ddof=1) / math.sqrt(len(part))
    return float(ratio), float(spread / whole.mean())


class _Counter:
    """A counter playing its index table: its running count in each pool shoe, and the
    plays its table calls for at a situation's true count."""

    def __init__(self, table: IndexTable, pool: ShoePool, rng: np.random.Generator) -> None:
        system = table.system
        self.key = system.key
        self.method = table.method
        self.left = pool.left
        self.tags = rank_tags(system)  # a Red 7 player's hand counted at the seven's mean
        by_rank = [float(system.tags_by_rank[rank]) for rank in ANALYSIS_RANKS]
        self.running = float(system.initial_count(table.rules.decks)) + pool.dealt @ by_rank
        red = dict(system.red_tags)
        if "7" in red:  # which of the sevens dealt were red: drawn as the shoe dealt them
            sevens = int(pool.shoe[6])
            red_dealt = rng.hypergeometric(sevens // 2, sevens - sevens // 2, pool.dealt[:, 6])
            self.running += red_dealt * float(red["7"] - system.tags_by_rank["7"])
        self.entries: dict[tuple[str, str], list[IndexEntry]] = {}
        for entry in table.entries:
            self.entries.setdefault((entry.row, entry.up), []).append(entry)

    def plays(self, shoe: int, row: str, first: int, second: int, chart: list[str]) -> list[str]:
        """Against each up card (analysis order), the play of the count: the index play
        where the table calls for a deviation from ``chart`` (the chart's plays of the
        row), else the chart's."""
        seen = self.running[shoe] + self.tags[first] + self.tags[second] + self.tags
        counts = true_counts(seen, np.full(10, self.left[shoe] - 3), self.method)
        return [
            _deviation(self.entries.get((row, up_key(up)), ()), int(counts[up]), chart[up])
            for up in range(10)
        ]


def _deviation(entries: Sequence[IndexEntry], true_count: int, chart: str) -> str:
    """Of the cell's index plays right at this count instead of the chart's, the one the
    table says gains most there (15 v T with surrender has two); else the chart's play."""
    best, played = 0.0, chart
    for entry in entries:
        right = right_play(entry, true_count)
        if right == chart:
            continue
        nearest = min(entry.ev_difference, key=lambda count: abs(count - true_count))
        gain = abs(entry.ev_difference[nearest])
        if played == chart or gain > best:
            best, played = gain, right
    return played


class _LinearPlayer:
    """The perfect linear player: each action's EV predicted from the cards dealt by its
    exact effects of removal, centred (a slice of the shoe in proportion changes nothing),
    and the best prediction played."""

    def __init__(self, rules: Rules, full: Analysis) -> None:
        shares = np.array([rank_share(rank) for rank in RANK_KEYS])
        order = [RANK_KEYS.index(rank) for rank in ANALYSIS_RANKS]
        #: Each hand's (lower rank first) and up card's other actions: how far each is
        #: below the best off the top, and its centred effects in analysis order.
        self.others: dict[tuple[int, int, int], list[tuple[str, float, Floats]]] = {}
        for decision in decisions(rules):
            effects = np.array([decision.effects[rank] for rank in RANK_KEYS])
            centred = (effects - shares @ effects)[order]
            key = (decision.first, decision.second, decision.up)
            self.others.setdefault(key, []).append((decision.action, decision.mean, centred))
        #: Each hand's and up card's best action off the top (the same for every shoe).
        self.best: dict[tuple[int, int, int], str] = {}
        for key in self.others:
            evs = full.two_card_evs(*key, raw=True).as_dict()
            top = {action: ev for action, ev in evs.items() if ev is not None}
            self.best[key] = max(top, key=top.__getitem__)

    def play(self, first: int, second: int, up: int, dealt: Floats, offered: set[str]) -> str:
        """The action predicted best: the full shoe's best for the hand unless another's
        prediction rises above it."""
        key = (min(first, second), max(first, second), up)
        chosen = self.best[key]
        edge = 0.0
        for action, mean, centred in self.others.get(key, ()):
            predicted = mean + float(centred @ dealt)
            if action in offered and predicted > edge:
                chosen, edge = action, predicted
        return chosen
