"""The total-dependent basic-strategy chart of a rule set, and the edge of playing it.

A cell's action is the one with the best EV summed over the two-card hands that make the
row's total, each weighted by its probability off the top of a full shoe against that up
card. Rows a two-card hand cannot make (hard 20 but for a pair of tens, hard 21, soft 21)
are decided between hit and stand over the three-card hands that make them.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.chart_vocabulary import ROWS, UP_CARDS, Chart, RowKind, RowLabel, resolve
from engine.strategy.analysis import ActionEVs, Analysis, chart_code, up_key
from engine.values import Action

__all__ = [
    "build_chart",
    "chart_csv",
    "chart_text",
    "deal_probability",
    "expected_return",
    "two_card_hands",
]


def two_card_hands(row: str) -> list[tuple[int, int]]:
    """The two-card hands (rank indexes, 0 = ace) that make a chart row."""
    label = RowLabel.of(row)
    if label.kind is RowKind.PAIR:
        rank = label.points - 1
        return [(rank, rank)]
    total = label.points
    if label.kind is RowKind.SOFT:
        other = total - 11
        return [(0, other - 1)] if 2 <= other <= 9 else []
    return [(a - 1, total - a - 1) for a in range(2, 11) if a < total - a <= 10]


def _three_card_hands(row: str) -> list[tuple[int, ...]]:
    """Rank counts of the three-card hands (no pair rule) that make a hard or soft row."""
    label = RowLabel.of(row)
    total = label.points
    found = []
    for a in range(10):
        for b in range(a, 10):
            for c in range(b, 10):
                hard = a + b + c + 3
                soft = 0 in (a, b, c) and hard <= 11
                if (hard + 10 if soft else hard) == total and soft == (label.kind is RowKind.SOFT):
                    counts = [0] * 10
                    for rank in (a, b, c):
                        counts[rank] += 1
                    found.append(tuple(counts))
    return found


def deal_probability(analysis: Analysis, counts: tuple[int, ...] | list[int], up: int) -> float:
    """Probability, off the top of a full shoe, of this up card and these player cards."""
    shoe: list[int] = analysis.full.tolist()
    left = sum(shoe)
    probability = shoe[up] / left
    shoe[up] -= 1
    left -= 1
    drawn = 0
    ways = 1.0
    for rank, k in enumerate(counts):
        for i in range(k):
            probability *= (shoe[rank] - i) / (left - drawn)
            drawn += 1
            ways *= (drawn) / (i + 1)
    return probability * ways


def build_chart(analysis: Analysis) -> dict[str, dict[str, str]]:
    """The hard-tier chart of the analysed rules: row → up card → code."""
    splits = analysis.rules.max_hands >= 2
    chart = {
        row: {up_key(up): _cell(analysis, row, up, splits) for up in range(10)}
        for row in ROWS
        if RowLabel.of(row).kind is not RowKind.PAIR
    }
    if splits:
        # The chart's edge plays split hands by these rows: their split EVs are worked out
        # with the best play's, which the pair rows need, and share every table with them.
        analysis.work_out_splits(None, chart)
    for row in ROWS:
        if RowLabel.of(row).kind is RowKind.PAIR:
            chart[row] = {up_key(up): _cell(analysis, row, up, splits) for up in range(10)}
    return chart


def _cell(analysis: Analysis, row: str, up: int, splits: bool) -> str:
    if row.endswith(" 21"):
        return "S"
    hands = two_card_hands(row)
    if not hands:
        return _hit_or_stand(analysis, row, up)
    totals: dict[str, float] = {}
    for first, second in hands:
        counts = [0] * 10
        counts[first] += 1
        counts[second] += 1
        weight = deal_probability(analysis, counts, up)
        evs = analysis.two_card_evs(first, second, up, raw=True)
        for name, ev in evs.as_dict().items():
            if ev is not None and (name != "split" or splits):
                totals[name] = totals.get(name, 0.0) + weight * ev
    best = max(totals, key=totals.__getitem__)
    if best == "double":
        return "D" if totals["hit"] >= totals["stand"] else "Ds"
    if best == "surrender":
        rest = {name: ev for name, ev in totals.items() if name in ("hit", "stand", "split")}
        return {"hit": "R", "stand": "Rs", "split": "Rp"}[max(rest, key=rest.__getitem__)]
    return {"split": "P", "hit": "H", "stand": "S"}[best]


def _hit_or_stand(analysis: Analysis, row: str, up: int) -> str:
    base = analysis.base
    stand = hit = 0.0
    for counts in _three_card_hands(row):
        q = base.hands.index.get(counts)
        if q is None:
            continue
        weight = deal_probability(analysis, counts, up)
        stand += weight * float(base.stand[q, up])
        hit += weight * float(base.hit[q, up])
    return "H" if hit > stand else "S"


def expected_return(analysis: Analysis, chart: Chart | None = None) -> float:
    """Expected return per initial bet off the top: by ``chart``, or composition-optimal."""
    rules = analysis.rules
    base = analysis.base
    play = None if chart is None else _ChartPlay(analysis, chart)
    total = 0.0
    for up in range(10):
        for first in range(10):
            for second in range(first, 10):
                counts = [0] * 10
                counts[first] += 1
                counts[second] += 1
                q = base.hands.index[tuple(counts)]
                no_natural = float(base.no_natural[q, up])
                if (first, second) == (0, 9):  # a player natural: paid unless the dealer has one
                    value = no_natural * float(rules.blackjack_pays)
                else:
                    evs = analysis.two_card_evs(first, second, up, raw=True)
                    if play is None:
                        value = max(ev for ev in evs.as_dict().values() if ev is not None)
                    else:
                        value = play.value(evs, counts, q, up)
                    if analysis.peek:
                        value -= 1 - no_natural  # the dealer's natural takes the bet at once
                total += deal_probability(analysis, counts, up) * value
    return total


class _ChartPlay:
    """How a chart plays each two-card hand, with the values of its hits and splits (the
    same for every hand, so looked up once)."""

    def __init__(self, analysis: Analysis, chart: Chart) -> None:
        self.chart = chart
        self.rules = analysis.rules
        self.hits = analysis.chart_hits(chart, analysis.base)
        self.splits = analysis.split_evs(chart) if self.rules.max_hands >= 2 else {}

    def value(self, evs: ActionEVs, counts: list[int], q: int, up: int) -> float:
        """The value of the two-card hand ``counts`` (index ``q`` of the analysis's hands)
        against ``up``, played by the chart; ``evs`` its raw EVs."""
        pair = counts.count(2) == 1
        code = chart_code(self.chart, counts, up, pair_splittable=pair and bool(self.splits))
        offered = {
            Action.DOUBLE: evs.double,
            Action.SURRENDER: evs.surrender,
            Action.SPLIT: evs.split,
        }
        action = resolve(
            code,
            allowed={action for action, ev in offered.items() if ev is not None},
            double_after_split=self.rules.double_after_split,
        )
        if action == "hit":
            return float(self.hits[q, up])
        if action == "split":
            return float(self.splits[counts.index(2)][up])
        value = getattr(evs, action.value)
        assert value is not None
        return float(value)


def chart_rows(chart: Chart) -> Iterator[tuple[str, list[str]]]:
    for row in ROWS:
        yield row, [chart[row][up] for up in UP_CARDS]


def chart_csv(chart: Chart) -> str:
    """``hand,2,…,10,A`` then one line per row, as the command line prints it."""
    lines = ["hand," + ",".join(UP_CARDS)]
    lines += [f"{row}," + ",".join(cells) for row, cells in chart_rows(chart)]
    return "\n".join(lines) + "\n"


def chart_text(chart: Chart) -> str:
    """A plain aligned table for a terminal."""
    lines = ["hand     " + " ".join(f"{up:>3}" for up in UP_CARDS)]
    lines += [f"{row:<8} " + " ".join(f"{c:>3}" for c in cells) for row, cells in chart_rows(chart)]
    return "\n".join(lines) + "\n"
