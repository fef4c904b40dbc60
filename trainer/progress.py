"""A player's progress, read from their answers: over time, by kind of hand, by cell."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Count, F, Q, Sum
from django.db.models.functions import TruncDate, TruncWeek
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from engine.rules import EUROPEAN
from engine.strategy import ROWS, UP_CARDS, strategy_for
from trainer.charts import ACTIONS, row_title
from trainer.models import Drill
from trainer.owners import Owner

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
    code: str
    family: str
    tally: Tally | None

    @property
    def percent(self) -> int | None:
        return None if self.tally is None else round(100 * self.tally.accuracy)


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
                f"{point.day.isoformat()}: {round(100 * point.tally.accuracy)}%",
            )
            for i, point in enumerate(days)
        )
        return cls(points=" ".join(f"{x},{y}" for x, y, _ in dots), dots=dots)


@dataclass(frozen=True)
class Progress:
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


def progress_of(owner: Owner, period: str = "day") -> Progress:
    """Every figure of the progress page, in three queries whatever the history's length.

    Drill answers and practice-round decisions count alike; ``period`` is "day" or "week".
    """
    answered = Drill.objects.filter(**owner.filter(), answered_at__isnull=False)
    right = Count("pk", filter=Q(action=F("correct_action")))
    by_period: dict[date, list[Tally]] = {}
    by_source: dict[str, list[Tally]] = {}
    for row in (
        answered.annotate(day=PERIODS[period]("answered_at"))
        .values("day", "source")
        .annotate(n=Count("pk"), right=right, lost=Sum("ev_lost"))
        .order_by("day")
    ):
        tally = Tally(row["n"], row["right"], float(row["lost"] or 0))
        day = row["day"].date() if isinstance(row["day"], datetime) else row["day"]
        by_period.setdefault(day, []).append(tally)
        by_source.setdefault(row["source"], []).append(tally)
    days = tuple(DayPoint(day, _sum(tallies)) for day, tallies in by_period.items())
    cells = {
        (row["row"], row["up_column"]): Tally(row["n"], row["right"], float(row["lost"] or 0))
        for row in answered.filter(rules_name=EUROPEAN.name)
        .values("row", "up_column")
        .annotate(n=Count("pk"), right=right, lost=Sum("ev_lost"))
    }
    recent = answered.order_by("-answered_at").values_list("action", "correct_action")
    streak = 0
    for action, correct in recent[:STREAK_WINDOW]:
        if action != correct:
            break
        streak += 1
    return Progress(
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
        heat_rows=_heat_rows(cells),
        up_cards=UP_CARDS,
    )


def _sum(tallies: Iterable[Tally]) -> Tally:
    items = list(tallies)
    return Tally(
        answered=sum(t.answered for t in items),
        correct=sum(t.correct for t in items),
        ev_lost=sum(t.ev_lost for t in items),
    )


def _heat_rows(cells: dict[tuple[str, str], Tally]) -> tuple[tuple[str, tuple[HeatCell, ...]], ...]:
    chart = strategy_for(EUROPEAN).chart
    return tuple(
        (
            row_title(row),
            tuple(
                HeatCell(
                    up=up,
                    code=chart[row][up],
                    family=ACTIONS[chart[row][up]][1],
                    tally=cells.get((row, up)),
                )
                for up in UP_CARDS
            ),
        )
        for row in ROWS
    )
