"""The exact strategy analysis of any `Rules`: the hard-tier chart, EVs and the edge.

``strategy_for(rules)`` runs the combinatorial analysis (under a second) once per rules
value — per process, and across processes through a store (a folder by default, see
`engine.strategy.store`) — and keeps its results: the chart every drill is graded against, the EV
of every action for every two-card hand against every up card, and the expected return of
playing the chart (and of composition-dependent optimal play) off the top of a full shoe.

>>> from engine.rules import AMERICAN
>>> american = strategy_for(AMERICAN)
>>> american.chart["hard 16"]["10"], american.chart["pair 8"]["A"], american.chart["soft 18"]["3"]
('H', 'P', 'Ds')
>>> evs = american.ev("10,6", "10")
>>> round(evs.stand, 4), round(evs.hit, 4), evs.split
(-0.541, -0.5347, None)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from engine.chart_vocabulary import ROWS, UP_CARDS, Chart, rank_index
from engine.errors import EngineError
from engine.rules import Rules
from engine.strategy.analysis import ActionEVs, Analysis
from engine.strategy.chart import build_chart, chart_csv, chart_text, expected_return

__all__ = [
    "ActionEVs",
    "AnalysisPending",
    "Strategy",
    "chart_csv",
    "chart_differences",
    "chart_text",
    "compute_strategy",
    "strategy_for",
]


class AnalysisPending(EngineError):
    """The analysis of these rules is not stored, and this process may not compute it
    (a web server leaves that to a background job)."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(f"the strategy of {rules.label} has not been worked out yet")
        self.rules = rules


@dataclass(frozen=True)
class Strategy:
    """What the analysis of one rule set yields; every lookup is a dictionary read."""

    rules: Rules
    chart: dict[str, dict[str, str]]
    #: (lower rank index, higher rank index, up rank index) → EVs; rank index 0 is the ace.
    evs: dict[tuple[int, int, int], ActionEVs]
    #: Hands of three or more cards under 21, by rank counts → (stand, hit) per up card.
    multi_card_evs: dict[tuple[int, ...], tuple[tuple[float, float], ...]]
    expected_return: float
    cd_expected_return: float
    #: Seconds each part of the cold computation took.
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    def ev(self, hand: str, up: str) -> ActionEVs:
        """The EVs of a hand written as ranks (``"10,6"``, ``"A,K"``, ``"4,2,10"``) against
        an up card (``"10"``, ``"A"``); suits do not matter, and J, Q, K are tens.

        With a peek, EVs are conditioned on the dealer not having a natural. A hand of three
        or more cards can only stand or hit, so only those two EVs are given for it.

        >>> from engine.rules import EUROPEAN
        >>> evs = strategy_for(EUROPEAN).ev("2,3,7", "10")
        >>> evs.hit > evs.stand, evs.double
        (True, None)
        """
        ranks = [rank_index(text) for text in hand.replace(" ", "").split(",")]
        up_index = rank_index(up)
        if len(ranks) == 2:
            first, second = sorted(ranks)
            return self.evs[first, second, up_index]
        counts = [0] * 10
        for rank in ranks:
            counts[rank] += 1
        found = self.multi_card_evs.get(tuple(counts)) if len(ranks) > 2 else None
        if found is None:
            raise EngineError(f"no decision is taken on a hand of {hand!r}")
        stand, hit = found[up_index]
        return ActionEVs(stand=stand, hit=hit, double=None, split=None, surrender=None)

    def edge_json(self) -> dict[str, Any]:
        """The ``edge`` command's object."""
        return {
            "rules": self.rules.name,
            "version": self.rules.version,
            "expected_return": self.expected_return,
            "house_edge_percent": -100 * self.expected_return,
            "rtp_percent": 100 * (1 + self.expected_return),
            "cd_expected_return": self.cd_expected_return,
        }


def compute_strategy(rules: Rules) -> Strategy:
    """Run the analysis now, whatever has been computed before (see `strategy_for`)."""
    started = time.perf_counter()
    analysis = Analysis(rules)
    analysed = time.perf_counter()
    chart = build_chart(analysis)
    charted = time.perf_counter()
    evs = {
        (first, second, up): analysis.two_card_evs(first, second, up)
        for first in range(10)
        for second in range(first, 10)
        for up in range(10)
    }
    evaluated = time.perf_counter()
    chart_return = expected_return(analysis, chart)
    optimal_return = expected_return(analysis)
    finished = time.perf_counter()
    return Strategy(
        rules=rules,
        chart=chart,
        evs=evs,
        multi_card_evs=analysis.multi_card_evs(),
        expected_return=chart_return,
        cd_expected_return=optimal_return,
        timings={
            "dealer and hand EVs": analysed - started,
            "chart": charted - analysed,
            "two-card EVs": evaluated - charted,
            "edge": finished - evaluated,
            "total": finished - started,
        },
    )


@lru_cache(maxsize=32)  # bounded: players may analyse rules of their own
def strategy_for(rules: Rules) -> Strategy:
    """The analysis of ``rules``: kept in this process, read from the store if any process
    has computed it, else computed now and stored — or, where the process may not compute
    it (see `engine.strategy.store.use_store`), `AnalysisPending`."""
    from engine.strategy.store import load_strategy  # the store builds on this module

    return load_strategy(rules)


def chart_differences(chart: Chart, other: Chart) -> list[tuple[str, str, str, str]]:
    """The cells where two charts differ: (row, up card, this code, other code).

    >>> from engine.bots import NORMAL_CHART
    >>> chart_differences(NORMAL_CHART, NORMAL_CHART)
    []
    """
    return [
        (row, up, chart[row][up], other[row][up])
        for row in ROWS
        for up in UP_CARDS
        if chart[row][up] != other[row][up]
    ]
