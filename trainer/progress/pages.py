"""A player's progress as its page shows it: over time, by kind of hand, by cell.

Everything is shown for one rules set at a time (a preset, or the player's own changes to
one, by its name): a cell's right play depends on the rules, and the totals then count the
very answers the breakdowns count.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from engine.chart_vocabulary import ROWS, UP_CARDS, Chart
from engine.drills import DRILLABLE_ROWS
from trainer.models import Drill
from trainer.progress.selectors import RESPONSE_BUCKET_MS, ProgressAnswers
from trainer.shared.charts import ACTIONS, row_title
from trainer.shared.rules_words import RulesWords
from trainer.shared.shares import share

KINDS: dict[str, Promise] = {"hard": _("Hard totals"), "soft": _("Soft totals"), "pair": _("Pairs")}
#: How many days (or weeks) the accuracy line draws, the latest.
SHOWN_PERIODS = 90
SOURCES: dict[str, Promise] = {
    Drill.Source.DRILL: _("Drills"),
    Drill.Source.PLAY: _("Practice rounds"),
}


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
class HeatRow:
    """A chart row of the heat map: its title, its cells, and its name for the link that
    drills one of its cells (empty for a row no two-card hand is dealt in)."""

    title: str
    cells: tuple[HeatCell, ...]
    drill_row: str


@dataclass(frozen=True)
class RulesSet:
    """A rules set the player has answers under (one choice on the page)."""

    name: str
    answered: int

    @property
    def words(self) -> RulesWords:
        return RulesWords.named(self.name)


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
    rules_words: RulesWords
    rules_sets: tuple[RulesSet, ...]
    total: Tally
    period: str
    #: The latest `SHOWN_PERIODS` periods, drawn and listed; ``earlier`` counts the rest
    #: (in the totals, not drawn: two years by day would be a line nobody can read).
    days: tuple[DayPoint, ...]
    earlier: int
    line: Line
    kinds: tuple[tuple[Promise, Tally], ...]
    sources: tuple[tuple[Promise, Tally], ...]
    streak: int
    weakest: tuple[tuple[str, str, Tally], ...]
    heat_rows: tuple[HeatRow, ...]
    up_cards: tuple[str, ...]
    #: Drill answers' median response time per week (from Monday), in seconds.
    response_weeks: tuple[tuple[date, float], ...]

    @classmethod
    def of(cls, answers: ProgressAnswers) -> Progress:
        """Every figure of the page, from the answers as read
        (`trainer.progress.selectors.progress_answers`), built without a query."""
        counts = answers.answered_by_rules
        rules_sets = tuple(
            RulesSet(name, n) for name, n in sorted(counts.items(), key=lambda c: (-c[1], c[0]))
        )
        by_period: dict[date, list[Tally]] = {}
        by_source: dict[str, list[Tally]] = {}
        for row in answers.by_period:
            if row["rules_name"] != answers.rules_name:
                continue
            tally = Tally(row["n"], row["right"], float(row["lost"] or 0))
            day = row["day"].date() if isinstance(row["day"], datetime) else row["day"]
            by_period.setdefault(day, []).append(tally)
            by_source.setdefault(row["source"], []).append(tally)
        days = tuple(DayPoint(day, _sum(tallies)) for day, tallies in by_period.items())
        shown = days[-SHOWN_PERIODS:]
        cells = {
            (row["row"], row["up_column"]): Tally(row["n"], row["right"], float(row["lost"] or 0))
            for row in answers.by_cell
        }
        streak = 0
        for action, correct, late in answers.recent:
            if action != correct or late:
                break
            streak += 1
        return cls(
            rules_name=answers.rules_name,
            rules_words=RulesWords.named(answers.rules_name),
            rules_sets=rules_sets,
            total=_sum(point.tally for point in days),
            period=answers.period,
            days=shown,
            earlier=len(days) - len(shown),
            line=Line.of(shown),
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
            heat_rows=_heat_rows(cells, answers.chart),
            up_cards=UP_CARDS,
            response_weeks=_weekly_medians(answers.response_times),
        )


def _sum(tallies: Iterable[Tally]) -> Tally:
    items = list(tallies)
    return Tally(
        answered=sum(t.answered for t in items),
        correct=sum(t.correct for t in items),
        ev_lost=sum(t.ev_lost for t in items),
    )


def _heat_rows(cells: dict[tuple[str, str], Tally], chart: Chart | None) -> tuple[HeatRow, ...]:
    def cell(row: str, up: str) -> HeatCell:
        code = chart[row][up] if chart is not None else ""
        family = ACTIONS[code][1] if code else ""
        return HeatCell(up=up, code=code, family=family, tally=cells.get((row, up)))

    return tuple(
        HeatRow(
            title=row_title(row),
            cells=tuple(cell(row, up) for up in UP_CARDS),
            drill_row=row if row in DRILLABLE_ROWS else "",
        )
        for row in ROWS
        # A row no drill deals (hard 20, the 21s) only once a practice round has filled it.
        if row in DRILLABLE_ROWS or any(seen_row == row for seen_row, _up in cells)
    )


def _weekly_medians(histogram: Iterable[Mapping[str, Any]]) -> tuple[tuple[date, float], ...]:
    """Each week's median response time from its histogram (`ProgressAnswers`), in
    seconds: the middle of the step where half the week's answers are counted."""
    weeks: dict[date, list[tuple[int, int]]] = {}
    for row in histogram:
        week = row["week"].date() if isinstance(row["week"], datetime) else row["week"]
        weeks.setdefault(week, []).append((int(row["bucket"]), row["n"]))
    medians = []
    for week, buckets in weeks.items():
        half, counted = sum(n for _, n in buckets) / 2, 0
        for bucket, n in sorted(buckets):
            counted += n
            if counted >= half:
                medians.append((week, (bucket + 0.5) * RESPONSE_BUCKET_MS / 1000))
                break
    return tuple(medians)
