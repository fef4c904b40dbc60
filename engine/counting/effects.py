"""Effects of removal: how the player's expectation moves when one card leaves the shoe.

Each effect is exact: the whole game (every hand, split and double, the dealer's natural)
is analysed again for the full shoe less one card of a rank (`engine.strategy.analysis`),
and the expected return per initial bet off the top compared with the full shoe's. The
player plays either the full shoe's basic strategy held fixed (``"fixed"``, the default:
the card changes the game, not the player's chart, which is what a count measures) or the
composition-dependent best play for the depleted shoe (``"optimal"``).

>>> from engine.rules import AMERICAN
>>> effects = effects_of_removal(AMERICAN)
>>> effects.strategy, round(effects.percent["5"], 2), round(effects.percent["10"], 2)
('fixed', 0.12, -0.08)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from engine.errors import EngineError
from engine.rules import Rules
from engine.strategy.analysis import Analysis
from engine.strategy.chart import build_chart, expected_return

__all__ = ["RANK_KEYS", "STRATEGIES", "EffectsOfRemoval", "effects_of_removal", "rank_share"]

#: The ranks as the counting tables key them: "2" … "10", then "A".
RANK_KEYS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")
Strategy = Literal["fixed", "optimal"]
#: The strategy a player keeps while the shoe changes, in words.
STRATEGIES: dict[str, str] = {
    "fixed": "the full shoe's basic strategy, held fixed",
    "optimal": "composition-dependent best play, re-optimised for the depleted shoe",
}


def _analysis_index(rank: str) -> int:
    """The analysis's rank index (0 = ace) of a counting key."""
    return 0 if rank == "A" else int(rank) - 1


def rank_share(rank: str) -> float:
    """The share of a full shoe that a rank makes up (4/13 for the ten-values).

    >>> rank_share("10"), round(rank_share("A"), 4)
    (0.3076923076923077, 0.0769)
    """
    return (4 if rank == "10" else 1) / 13


@dataclass(frozen=True)
class EffectsOfRemoval:
    """The change in expected return, in percent of the initial bet, per card removed."""

    rules: Rules
    strategy: Strategy
    #: The full shoe's expected return, in percent of the initial bet.
    full_shoe_percent: float
    #: Rank key ("2" … "10", "A") → change in percent when one card of it is removed.
    percent: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        """The ``eor`` command's object: one key per rank, then what was assumed."""
        return {
            **self.percent,
            "strategy": self.strategy,
            "strategy_assumed": STRATEGIES[self.strategy],
            "rules": self.rules.name,
            "full_shoe_percent": self.full_shoe_percent,
        }


@lru_cache(maxsize=8)  # 11 analyses each: worth keeping for a session's few rules
def effects_of_removal(rules: Rules, strategy: Strategy = "fixed") -> EffectsOfRemoval:
    """The effect of removing one card of each rank from the rules' full shoe."""
    if strategy not in STRATEGIES:
        raise EngineError(f"strategy is one of {', '.join(STRATEGIES)}, not {strategy!r}")
    full = Analysis(rules)
    chart = build_chart(full) if strategy == "fixed" else None
    base = expected_return(full, chart)
    percent = {}
    for rank in RANK_KEYS:
        shoe = full.full.copy()
        shoe[_analysis_index(rank)] -= 1
        depleted = Analysis(rules, shoe.tolist())
        percent[rank] = 100 * (expected_return(depleted, chart) - base)
    return EffectsOfRemoval(rules, strategy, 100 * base, percent)
