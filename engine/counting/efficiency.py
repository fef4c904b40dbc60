"""Playing efficiency by Griffin's linear method: how much of the gain of varying play
with the exact shoe a counting system's indices capture, computed from effects of removal.
It is the rating the published tables quote; what a computed index table really gains on
shoes as dealt is measured by simulation (`engine.counting.simulated_efficiency`).

For every two-card hand against every up card, and every action other than the full shoe's
best for that hand, the EV difference (that action less the best) is analysed exactly for
the full shoe and for the full shoe less one card of each rank: its value off the top ``m``
and its effect of removal per rank. With ``n`` cards gone, the difference is close to
normal with mean ``m`` and a spread ``s`` set by those effects (sampling without
replacement); a player who knew it would gain E[max(0, X)]. A count knows only the part of
it correlated with its tags, ``ρ·s``: its gain is the same formula with ``ρ·s``. Playing
efficiency is the count's gain over the perfect linear player's, summed over the hands
weighed by how often they are dealt, and over depths from the top to the cut card.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from engine.counting.effects import RANK_KEYS, rank_share
from engine.counting.ratings import correlation
from engine.errors import EngineError
from engine.rules import Rules
from engine.strategy.analysis import Analysis
from engine.strategy.chart import deal_probability

__all__ = ["Decision", "decisions", "linear_gain", "playing_efficiency"]


@dataclass(frozen=True)
class Decision:
    """One hand's choice between its best action off the top and another."""

    first: int  # rank indexes, 0 = ace
    second: int
    up: int
    action: str
    #: How often the hand and up card are dealt, off the top.
    weight: float
    #: The action's EV less the best one's off the top (≤ 0), per initial bet.
    mean: float
    #: Rank key → the change in that difference when one card of the rank is removed.
    effects: dict[str, float]


def linear_gain(mean: float, spread: float) -> float:
    """E[max(0, X)] for X normal with that mean and standard deviation: what playing the
    other action whenever it is better gains on average.

    >>> round(linear_gain(0.0, 1.0), 4)
    0.3989
    """
    if spread <= 0:
        return max(0.0, mean)
    z = mean / spread
    density = math.exp(-z * z / 2) / math.sqrt(2 * math.pi)
    return spread * density + mean * 0.5 * (1 + math.erf(z / math.sqrt(2)))


@lru_cache(maxsize=8)  # 11 analyses each (seconds): worth keeping for a session's few rules
def decisions(rules: Rules) -> tuple[Decision, ...]:
    """Every two-card decision with its exact linear effects (11 analyses of the game)."""
    full = Analysis(rules)
    depleted: dict[str, Analysis] = {}
    for rank in RANK_KEYS:
        shoe = full.full.copy()
        shoe[0 if rank == "A" else int(rank) - 1] -= 1
        depleted[rank] = Analysis(rules, shoe.tolist())
    found: list[Decision] = []
    for up in range(10):
        for first in range(10):
            for second in range(first, 10):
                if (first, second) == (0, 9):
                    continue  # a natural: nothing to decide
                evs = _evs(full, first, second, up)
                best = max(evs, key=evs.__getitem__)
                counts = [0] * 10
                counts[first] += 1
                counts[second] += 1
                weight = deal_probability(full, counts, up)
                removed = {rank: _evs(depleted[rank], first, second, up) for rank in RANK_KEYS}
                for action, value in evs.items():
                    if action == best:
                        continue
                    effects = {
                        rank: (after[action] - after[best]) - (value - evs[best])
                        for rank, after in removed.items()
                    }
                    found.append(
                        Decision(first, second, up, action, weight, value - evs[best], effects)
                    )
    return tuple(found)


def _evs(analysis: Analysis, first: int, second: int, up: int) -> dict[str, float]:
    evs = analysis.two_card_evs(first, second, up, raw=True).as_dict()
    return {name: ev for name, ev in evs.items() if ev is not None}


def playing_efficiency(
    tags: Mapping[str, float],
    rules: Rules,
    found: tuple[Decision, ...] | None = None,
    penetration: Fraction | None = None,
    depths: int = 24,
) -> float:
    """The share of the perfect linear player's gain from varying play that indices for a
    count with these ``tags`` capture (keys "2" … "10", "A"; `mean_tags` of a preset), at
    ``depths`` depths spread evenly from the top of the shoe to the cut card."""
    if depths < 1:
        raise EngineError("depths is a positive number of steps")
    found = decisions(rules) if found is None else found
    cards = 52 * rules.decks
    dealt = float(penetration if penetration is not None else rules.penetration) * cards
    weights = [rank_share(rank) for rank in RANK_KEYS]
    captured = perfect = 0.0
    by_hand: dict[tuple[int, int, int], list[tuple[float, float, float, float]]] = {}
    for decision in found:
        values = [decision.effects[rank] for rank in RANK_KEYS]
        mean = sum(w * v for w, v in zip(weights, values, strict=True))
        spread = math.sqrt(sum(w * (v - mean) ** 2 for w, v in zip(weights, values, strict=True)))
        rho = correlation(tags, decision.effects) if spread > 0 else 0.0
        key = (decision.first, decision.second, decision.up)
        by_hand.setdefault(key, []).append((decision.weight, decision.mean, spread, rho))
    for step in range(depths):
        gone = dealt * (step + 0.5) / depths
        scale = math.sqrt(gone * (cards - gone) / (cards - 1))
        for choices in by_hand.values():
            weight = choices[0][0]
            perfect += weight * max(linear_gain(m, scale * s) for _, m, s, _ in choices)
            captured += weight * max(
                linear_gain(m, scale * abs(rho) * s) for _, m, s, rho in choices
            )
    return captured / perfect
