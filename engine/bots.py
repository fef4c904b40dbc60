"""The three strategy tiers, as functions of a `PlayerView` (never of the round itself).

The normal and hard tiers play charts (see `engine.chart_vocabulary` for their rows,
columns and codes): a code becomes the first legal action of its fallbacks.

>>> NORMAL_CHART["hard 11"]["A"], NORMAL_CHART["soft 18"]["2"], NORMAL_CHART["pair 9"]["7"]
('H', 'S', 'S')
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from functools import lru_cache

from engine.chart_vocabulary import UP_CARDS, Chart, RowKind, RowLabel, fallbacks
from engine.rules import Rules
from engine.strategy import strategy_for
from engine.values import Action
from engine.view import PlayerView

__all__ = [
    "BOTS",
    "NORMAL_CHART",
    "Bot",
    "chart_bot",
    "easy",
    "hard",
    "hard_bot",
    "normal",
]

Bot = Callable[[PlayerView], Action]

_UP_POINTS = dict(zip(UP_CARDS, range(2, 12), strict=True))
HIT, STAND = Action.HIT, Action.STAND


def _row(*cells: tuple[str, str]) -> dict[str, str]:
    """A chart row from (up cards, code) pairs; up cards as ``"2-6"``, ``"7"`` or ``"all"``."""
    row: dict[str, str] = {}
    for ups, code in cells:
        if ups == "all":
            chosen: tuple[str, ...] = UP_CARDS
        elif "-" in ups:
            low, high = ups.split("-")
            chosen = UP_CARDS[UP_CARDS.index(low) : UP_CARDS.index(high) + 1]
        else:
            chosen = tuple(ups.split(","))
        row.update(dict.fromkeys(chosen, code))
    return row


def _normal_chart() -> dict[str, dict[str, str]]:
    """The common multi-deck chart, typed in from RULES.md §3 (the only chart typed in)."""
    chart: dict[str, dict[str, str]] = {}
    for total in range(5, 22):
        chart[f"hard {total}"] = _row(("all", "S" if total >= 17 else "H"))
    chart["hard 9"].update(_row(("3-6", "D")))
    chart["hard 10"].update(_row(("2-9", "D")))
    chart["hard 11"].update(_row(("2-10", "D")))
    chart["hard 12"].update(_row(("4-6", "S")))
    for total in range(13, 17):
        chart[f"hard {total}"].update(_row(("2-6", "S")))
    for total in range(13, 22):
        chart[f"soft {total}"] = _row(("all", "S" if total >= 19 else "H"))
    for total in (13, 14):
        chart[f"soft {total}"].update(_row(("5-6", "D")))
    for total in (15, 16):
        chart[f"soft {total}"].update(_row(("4-6", "D")))
    chart["soft 17"].update(_row(("3-6", "D")))
    chart["soft 18"].update(_row(("3-6", "Ds"), ("2,7,8", "S")))
    splits = {
        "2": "2-7", "3": "2-7", "4": "5-6", "5": "", "6": "2-6", "7": "2-7", "8": "all",
        "9": "2-6,8,9", "10": "", "A": "all",
    }  # fmt: skip
    for rank, ups in splits.items():
        points = 11 if rank == "A" else int(rank)
        as_total = chart.get(f"hard {2 * points}", _row(("all", "H")))
        row = dict(as_total) if rank != "A" else _row(("all", "H"))
        for part in filter(None, ups.split(",")):
            row.update(_row((part, "P")))
        chart[f"pair {rank}"] = row
    chart["pair 9"].update(_row(("7,10,A", "S")))
    return chart


NORMAL_CHART: Chart = _normal_chart()

NO_INSURANCE = Action.NO_INSURANCE
_HIT = (HIT, STAND)


class _ChartBot:
    """A chart compiled for fast lookup, with and without double after split."""

    __slots__ = ("_with_das", "_without_das")

    def __init__(self, chart: Chart) -> None:
        self._without_das = _Table(chart, False)
        self._with_das = _Table(chart, True)

    def decide(self, view: PlayerView) -> Action:
        if view.hand_index is None:
            return NO_INSURANCE  # the insurance decision: basic strategy never insures
        table = self._with_das if view.rules.double_after_split else self._without_das
        pair = view.pair_points
        if pair:
            choices = table.pairs[pair][view.up_points]
        elif view.soft:
            choices = table.soft[view.total][view.up_points]
        else:
            choices = table.hard[view.total][view.up_points]
        legal = view.legal
        for action in choices:
            if action in legal:
                return action
        return STAND


class _Table:
    """A chart compiled for one DAS rule into tuples indexed by the view's numbers:
    ``hard[total][up]``, ``soft[total][up]`` and ``pairs[points][up]``
    (up cards 2–11, an ace as 11; pair points 1–10, an ace as 1) give the actions to try
    in order. A row the chart leaves out hits."""

    __slots__ = ("hard", "pairs", "soft")

    def __init__(self, chart: Chart, double_after_split: bool) -> None:
        def actions(code: str, row_if_not_split: tuple[Action, ...]) -> tuple[Action, ...]:
            return fallbacks(code, double_after_split=double_after_split, unsplit=row_if_not_split)

        rows: dict[RowKind, list[list[tuple[Action, ...]]]] = {
            kind: [[_HIT] * 12 for _ in range(32)] for kind in RowKind
        }
        for name, row in chart.items():
            label = RowLabel.of(name)
            if label.kind is not RowKind.PAIR:
                for up, code in row.items():
                    rows[label.kind][label.points][_UP_POINTS[up]] = actions(code, _HIT)
        for name, row in chart.items():
            label = RowLabel.of(name)
            if label.kind is not RowKind.PAIR:
                continue
            points = label.points
            for up, code in row.items():
                up_points = _UP_POINTS[up]
                # Unsplittable, the pair plays as its total: A,A as soft 12 (a hit).
                as_total = _HIT if points == 1 else rows[RowKind.HARD][2 * points][up_points]
                rows[RowKind.PAIR][points][up_points] = actions(code, as_total)
        self.hard, self.soft, self.pairs = (
            tuple(tuple(cells) for cells in rows[kind]) for kind in RowKind
        )


def chart_bot(chart: Chart) -> Bot:
    """A bot that plays a chart, falling back as its codes say when an action is not legal."""
    return _ChartBot(chart).decide


def easy(view: PlayerView) -> Action:
    """Hit below 17, otherwise stand; never doubles, splits or insures."""
    if Action.NO_INSURANCE in view.legal:
        return Action.NO_INSURANCE
    return HIT if view.total < 17 and HIT in view.legal else STAND


#: The common published multi-deck chart of RULES.md §3, the same for every preset.
normal: Bot = chart_bot(NORMAL_CHART)


@lru_cache(maxsize=64)
def hard_bot(rules: Rules) -> Bot:
    """The bot that plays the exact basic strategy of ``rules`` (computed on first use)."""
    return chart_bot(strategy_for(rules).chart)


def hard(view: PlayerView) -> Action:
    """The exact basic strategy of the rules in play, from the engine's own analysis."""
    return hard_bot(view.rules)(view)


class Tier(StrEnum):
    """A bot's strength: it plays a fixed simple policy, the common chart, or the exact
    basic strategy of the rules in play."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


BOTS: dict[Tier, Bot] = {Tier.EASY: easy, Tier.NORMAL: normal, Tier.HARD: hard}
