"""A player's progress, read from their answers: over time, by kind of hand, by cell.

Everything is shown for one rules set at a time (a preset, or the player's own changes to
one, by its name): a cell's right play depends on the rules, and the totals then count the
very answers the breakdowns count.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Count, F, Q, QuerySet, Sum
from django.db.models.functions import TruncDate, TruncWeek
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from engine.chart_vocabulary import ROWS, UP_CARDS, Chart
from engine.errors import EngineError
from engine.rules import PRESETS, Rules
from engine.strategy import strategy_for
from trainer.charts import ACTIONS, row_title
from trainer.models import Drill
from trainer.owners import Owner
from trainer.shares import share

KINDS: dict[str, Promise] = {"hard": _("Hard totals"), "soft": _("Soft totals"), "pair": _("Pairs")}
SOURCES: dict[str, Promise] = {
    Drill.Source.DRILL: _("Drills"),
    Drill.Source.PLAY: _("Practice rounds"),
}
#: The accuracy line's periods: a point a day, or a point a week (from Monday).
PERIODS = {"day": TruncDate, "week": TruncWeek}
#: How far back the streak is looked for (a longer one shows as "at least").
STREAK_WINDOW = 500


@dataclass(frozen=True)
class Tally:
    answered: int
    correct: int
    ev_lost: float

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0


@dataclass(frozen=True)
class DayPoint:
    day: date
    tally: Tally


@dataclass(frozen=True)
class HeatCell:
    up: str
    #: The chart's play here, or "" when the rules set's analysis is not available.
    code: str
    family: str
    tally: Tally | None

    @property
    def share(self) -> str:
        return "" if self.tally is None else share(self.tally.correct, self.tally.answered)

    @property
    def level(self) -> str:
        """How well the cell is known, for its colour."""
        accuracy = 0.0 if self.tally is None else self.tally.accuracy
        return "good" if accuracy >= 0.9 else "fair" if accuracy >= 0.6 else "poor"


@dataclass(frozen=True)
class RulesSet:
    """A rules set the player has answers under (one choice on the page)."""

    name: str
    answered: int


@dataclass(frozen=True)
class Line:
    """Accuracy by day as an SVG polyline in a 0-100 by 0-100 box (drawn without JS)."""

    points: str
    dots: tuple[tuple[float, float, str], ...]

    @classmethod
    def of(cls, days: tuple[DayPoint, ...]) -> Line:
        if not days:
            return cls(points="", dots=())
        step = 100 / max(len(days) - 1, 1)
        dots = tuple(
            (
                round(i * step if len(days) > 1 else 50, 2),
                round(100 - 100 * point.tally.accuracy, 2),
                f"{point.day.isoformat()}: {share(point.tally.correct, point.tally.answered)}",
            )
            for i, point in enumerate(days)
        )
        return cls(points=" ".join(f"{x},{y}" for x, y, _ in dots), dots=dots)


@dataclass(frozen=True)
class Progress:
    #: The rules set shown, and every one the player may choose, the most trained first.
    rules_name: str
    rules_sets: tuple[RulesSet, ...]
    total: Tally
    period: str
    days: tuple[DayPoint, ...]
    line: Line
    kinds: tuple[tuple[Promise, Tally], ...]
    sources: tuple[tuple[Promise, Tally], ...]
    streak: int
    weakest: tuple[tuple[str, str, Tally], ...]
    heat_rows: tuple[tuple[str, tuple[HeatCell, ...]], ...]
    up_cards: tuple[str, ...]


def progress_of(owner: Owner, period: str = "day", rules_name: str | None = None) -> Progress:
    """Every figure of the progress page under one rules set, in three queries whatever
    the history's length (four for a set of the player's own rules, to find its chart).

    Drill answers and practice-round decisions count alike; ``period`` is "day" or "week";
    ``rules_name`` defaults to (and an unknown one falls back to) the most trained set.
    """
    answered = Drill.objects.filter(**owner.filter(), answered_at__isnull=False)
    right = Count("pk", filter=Q(action=F("correct_action")))
    # One query for every rules set: the choices' counts come with the chosen set's rows.
    rows = list(
        answered.annotate(day=PERIODS[period]("answered_at"))
        .values("day", "source", "rules_name")
        .annotate(n=Count("pk"), right=right, lost=Sum("ev_lost"))
        .order_by("day")
    )
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["rules_name"]] = counts.get(row["rules_name"], 0) + row["n"]
    rules_sets = tuple(
        RulesSet(name, n) for name, n in sorted(counts.items(), key=lambda c: (-c[1], c[0]))
    )
    if rules_name not in counts:
        rules_name = rules_sets[0].name if rules_sets else ""
    answered = answered.filter(rules_name=rules_name)

    by_period: dict[date, list[Tally]] = {}
    by_source: dict[str, list[Tally]] = {}
    for row in rows:
        if row["rules_name"] != rules_name:
            continue
        tally = Tally(row["n"], row["right"], float(row["lost"] or 0))
        day = row["day"].date() if isinstance(row["day"], datetime) else row["day"]
        by_period.setdefault(day, []).append(tally)
        by_source.setdefault(row["source"], []).append(tally)
    days = tuple(DayPoint(day, _sum(tallies)) for day, tallies in by_period.items())
    cells = {
        (row["row"], row["up_column"]): Tally(row["n"], row["right"], float(row["lost"] or 0))
        for row in answered.values("row", "up_column").annotate(
            n=Count("pk"), right=right, lost=Sum("ev_lost")
        )
    }
    recent = answered.order_by("-answered_at").values_list("action", "correct_action")
    streak = 0
    for action, correct in recent[:STREAK_WINDOW]:
        if action != correct:
            break
        streak += 1
    return Progress(
        rules_name=rules_name,
        rules_sets=rules_sets,
        total=_sum(point.tally for point in days),
        period=period,
        days=days,
        line=Line.of(days),
        kinds=tuple(
            (title, _sum(t for (row, _up), t in cells.items() if row.startswith(kind)))
            for kind, title in KINDS.items()
        ),
        sources=tuple(
            (title, _sum(by_source[source]))
            for source, title in SOURCES.items()
            if source in by_source
        ),
        streak=streak,
        weakest=tuple(
            (row_title(row), up, tally)
            for (row, up), tally in sorted(
                cells.items(), key=lambda item: (item[1].accuracy, -item[1].ev_lost)
            )[:10]
            if tally.correct < tally.answered
        ),
        heat_rows=_heat_rows(cells, _chart_of(answered, rules_name) if cells else None),
        up_cards=UP_CARDS,
    )


def _chart_of(answered: QuerySet[Drill], rules_name: str) -> Chart | None:
    """The rules set's chart: its preset's, or that of the rules its latest answer was
    graded under; None when the analysis is not available (stored rules that the engine no
    longer accepts, say), so that the page shows the answers without it."""
    try:
        rules = PRESETS.get(rules_name)
        if rules is None:
            stored = answered.order_by("-answered_at").values_list("rules", flat=True).first()
            if not stored:
                return None
            rules = Rules.from_json(stored)
        return strategy_for(rules).chart
    except EngineError:
        return None


def _sum(tallies: Iterable[Tally]) -> Tally:
    items = list(tallies)
    return Tally(
        answered=sum(t.answered for t in items),
        correct=sum(t.correct for t in items),
        ev_lost=sum(t.ev_lost for t in items),
    )


def _heat_rows(
    cells: dict[tuple[str, str], Tally], chart: Chart | None
) -> tuple[tuple[str, tuple[HeatCell, ...]], ...]:
    def cell(row: str, up: str) -> HeatCell:
        code = chart[row][up] if chart is not None else ""
        family = ACTIONS[code][1] if code else ""
        return HeatCell(up=up, code=code, family=family, tally=cells.get((row, up)))

    return tuple((row_title(row), tuple(cell(row, up) for up in UP_CARDS)) for row in ROWS)
