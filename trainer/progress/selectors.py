"""Reads of the progress pages, every one scoped to its owner: the tallies the accuracy charts
count, the decisions to export, and the bet history."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from engine.chart_vocabulary import Chart
from engine.errors import EngineError
from engine.rules import PRESETS, Rules
from engine.strategy import strategy_for
from trainer.models import (
    Bet,
    CellTally,
    DayTally,
    Drill,
    ResponseTally,
)
from trainer.progress.bet_lines import SeatKey
from trainer.progress.export import READ_FIELDS
from trainer.shared.owners import Owner

# The histogram's steps, counted by the tallies (the progress page reads them from here).
from trainer.shared.tallies import RESPONSE_BUCKET_MS as RESPONSE_BUCKET_MS
from trainer.shared.tallies import RESPONSE_CAP_MS as RESPONSE_CAP_MS

#: The accuracy line's periods: a point a day, or a point a week (from Monday).
PERIODS = ("day", "week")


#: How far back the streak is looked for (a longer one shows as "at least").
STREAK_WINDOW = 500


#: How many weeks of answer times the page shows, the latest (a year).
RESPONSE_WEEKS = 52


@dataclass(frozen=True)
class ProgressAnswers:
    """A player's answers as the progress page counts them, under one rules set."""

    #: The rules set shown, and how many answers the player has under each set.
    rules_name: str
    answered_by_rules: dict[str, int]
    period: str
    #: Per period, source and rules set (every set): ``day``, ``source``, ``rules_name``,
    #: ``n``, ``right``, ``lost``; in the order of the periods.
    by_period: Sequence[Mapping[str, Any]]
    #: Per chart cell of the set shown: ``row``, ``up_column``, ``n``, ``right``, ``lost``.
    by_cell: Sequence[Mapping[str, Any]]
    #: (action, right action, late) of the set's latest answers, the latest first.
    recent: list[tuple[str, str, bool]]
    #: The set's chart, or None when its analysis is not available.
    chart: Chart | None
    #: Drill answers' response times per week, as a histogram: ``week``, ``bucket`` (the
    #: time in tenths of a second, longer ones in the last), ``n``; in week order.
    response_times: Sequence[Mapping[str, Any]] = ()


def progress_answers(
    owner: Owner,
    period: str = "day",
    rules_name: str | None = None,
    today: date | None = None,
) -> ProgressAnswers:
    """Every answer the progress page counts, in four queries whatever the history's
    length (five for a set of the player's own rules, to find its chart): the player's
    tallies (`trainer.shared.tallies`), and of the answers only the latest few, by index.

    Drill answers and practice-round decisions count alike; ``period`` is "day" or "week";
    ``rules_name`` defaults to (and an unknown one falls back to) the most trained set;
    answer times are read for the `RESPONSE_WEEKS` up to ``today`` (UTC; default now).
    """
    today = today or timezone.now().date()
    days = DayTally.objects.filter(**owner.filter()).order_by("day")
    by_period = _by_period(
        days.values_list("day", "source", "rules_name", "answered", "correct", "lost"), period
    )
    counts: dict[str, int] = {}
    for row in by_period:
        counts[row["rules_name"]] = counts.get(row["rules_name"], 0) + row["n"]
    if rules_name not in counts:
        rules_name = min(counts, key=lambda name: (-counts[name], name), default="")
    cells = CellTally.objects.filter(**owner.filter(), rules_name=rules_name)
    by_cell = [
        {"row": row, "up_column": up, "n": n, "right": right, "lost": lost}
        for row, up, n, right, lost in cells.values_list(
            "row", "up_column", "answered", "correct", "lost"
        )
    ]
    response_times = list(
        ResponseTally.objects.filter(
            **owner.filter(), rules_name=rules_name, week__gte=_first_week_shown(today)
        )
        .order_by("week", "bucket")
        .values("week", "bucket", n=F("answered"))
    )
    answered = Drill.objects.filter(
        **owner.filter(), rules_name=rules_name, answered_at__isnull=False
    )
    recent = answered.order_by("-answered_at").values_list("action", "correct_action", "late")
    return ProgressAnswers(
        rules_name=rules_name,
        answered_by_rules=counts,
        period=period,
        by_period=by_period,
        by_cell=by_cell,
        recent=list(recent[:STREAK_WINDOW]),
        chart=_chart_of(answered, rules_name) if by_cell else None,
        response_times=response_times,
    )


def _first_week_shown(today: date) -> date:
    """The Monday `RESPONSE_WEEKS` weeks back, this week included."""
    return today - timedelta(days=today.weekday(), weeks=RESPONSE_WEEKS - 1)


def _by_period(
    days: Iterable[tuple[date, str, str, int, int, Decimal]], period: str
) -> list[dict[str, Any]]:
    """The day tallies as the accuracy line counts them: per day, or summed per week
    (from Monday); in the periods' order."""
    if period != "week":
        return [
            {"day": d, "source": s, "rules_name": r, "n": n, "right": c, "lost": lost}
            for d, s, r, n, c, lost in days
        ]
    weeks: dict[tuple[date, str, str], dict[str, Any]] = {}
    for day, source, rules_name, n, right, lost in days:
        monday = day - timedelta(days=day.weekday())
        week = weeks.setdefault(
            (monday, source, rules_name),
            {"day": monday, "source": source, "rules_name": rules_name, "n": 0, "right": 0,
             "lost": Decimal(0)},
        )  # fmt: skip
        week["n"] += n
        week["right"] += right
        week["lost"] += lost
    return list(weeks.values())


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


#: How many decisions the export fetches from the database at a time.
EXPORT_CHUNK = 2000


def decisions_for_export(owner: Owner) -> Iterator[tuple[Any, ...]]:
    """Every answered decision of the owner's, oldest first, as `trainer.progress.export`
    reads them: fetched a chunk at a time (a server-side cursor on PostgreSQL), so a history
    of any length streams in bounded memory."""
    answered = Drill.objects.filter(**owner.filter(), answered_at__isnull=False)
    rows = answered.order_by("answered_at", "pk").values_list(*READ_FIELDS)
    return rows.iterator(chunk_size=EXPORT_CHUNK)


#: Bets on one page of the history.
BETS_PER_PAGE = 25


def bet_history(owner: Owner, page: str | int | None) -> Page[Bet]:
    """One page of the owner's settled bets, newest first; a page number out of range (or
    not a number) gives the nearest page there is."""
    bets = Bet.objects.filter(**owner.filter()).select_related("practice_round")
    return Paginator(bets, BETS_PER_PAGE).get_page(page)


def split_seats(owner: Owner, bets: Iterable[Bet]) -> frozenset[SeatKey]:
    """The `seat_key` of each seat split in the rounds of these bets (at a practice table
    or a live one): the seats whose hands the history numbers."""
    bets = list(bets)
    rounds = {bet.practice_round_id for bet in bets if bet.practice_round_id is not None}
    tables = {bet.live_table_id for bet in bets if bet.live_table_id is not None}
    mine = Bet.objects.filter(**owner.filter(), hand__gt=0)
    split = mine.filter(Q(practice_round__in=rounds) | Q(live_table__in=tables))
    rows = split.values_list("practice_round_id", "live_table_id", "live_round", "seat")
    return frozenset(
        (practice, None, seat) if practice is not None else (live, number, seat)
        for practice, live, number, seat in rows.distinct()
    )
