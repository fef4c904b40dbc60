"""Reads: what a page needs, fetched the one way it should be, every one scoped to its owner.

Each page's reads are together under its heading below. The view-models (`drill_view`,
`progress`, `table_view`, `summary`) take what these return and run no query of their own,
so a page's queries are all here, counted in one place.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, F, Q, QuerySet, Sum
from django.http import Http404, HttpRequest
from django.utils import timezone

from engine.bots import Bot, hard_bot
from engine.chart_vocabulary import Chart
from engine.drills import Situation
from engine.errors import EngineError
from engine.explain import Explanation, explain
from engine.rules import PRESETS, Rules, preset
from engine.strategy import Strategy, strategy_for
from engine.table import PublicTable
from trainer.export import READ_FIELDS
from trainer.models import (
    Bet,
    CellTally,
    DayTally,
    Drill,
    PracticeRound,
    PracticeSession,
    ResponseTally,
)
from trainer.owners import Owner
from trainer.practice_table import TableSnapshot

# The histogram's steps, counted by the tallies (the progress page reads them from here).
from trainer.tallies import RESPONSE_BUCKET_MS as RESPONSE_BUCKET_MS
from trainer.tallies import RESPONSE_CAP_MS as RESPONSE_CAP_MS

if TYPE_CHECKING:  # bet_history reads the table's labels, whose module reads these
    from trainer.bet_history import SeatKey

# Whose data a request sees ---------------------------------------------------------------

GUEST_KEY = "guest_owner"


def owner_of(request: HttpRequest) -> Owner:
    """The account owning this request's drills, or for a guest a token kept in the session.

    The token lives in the session's data, not its key, because logging in gives the
    session a new key: that way the guest's drills can follow them into their account.
    """
    if request.user.is_authenticated:
        return Owner(user_id=request.user.pk, guest_token="")
    token = request.session.get(GUEST_KEY)
    if token is None:
        token = request.session[GUEST_KEY] = secrets.token_urlsafe(24)
    return Owner(user_id=None, guest_token=token)


# The chart page ---------------------------------------------------------------------------


def strategy_for_preset(name: str) -> Strategy:
    """The exact analysis of a named preset (from the store); an unknown name is a 404."""
    rules = PRESETS.get(name)
    if rules is None:
        raise Http404(f"no rules preset called {name!r}")
    return strategy_for(rules)


# The drill page ---------------------------------------------------------------------------


def latest_drill(owner: Owner) -> Drill | None:
    """The owner's most recently issued drill, answered or not (practice decisions aside)."""
    return (
        Drill.objects.filter(**owner.filter(), source=Drill.Source.DRILL)
        .order_by("-issued_at", "-pk")
        .first()
    )


def situation_of(drill: Drill) -> Situation:
    """The situation a drill was dealt, under the rules it was dealt under."""
    rules = Rules.from_json(drill.rules) if drill.rules else preset(drill.rules_name)
    return Situation.parse(rules, drill.cards, drill.up)


def situation_or_none(drill: Drill) -> Situation | None:
    """The drill's situation, or None when it was dealt under rules (or cards) that the
    engine no longer accepts: stored data must never stop a page."""
    try:
        return situation_of(drill)
    except (EngineError, ValueError):
        return None


@dataclass(frozen=True)
class DealtDrill:
    """A drill with all that showing it takes: the situation dealt, and the exact strategy
    of its rules (its chart row, and once answered every play's EV)."""

    drill: Drill
    situation: Situation
    strategy: Strategy
    #: Answered, in a cell where these rules' chart parts from the common chart: why.
    explanation: Explanation | None = None


def dealt_drill(drill: Drill) -> DealtDrill:
    """The drill and its strategy, read from the analyses' store unless this process holds
    it already; `AnalysisPending` while its rules are still being worked out.

    Once answered, the explanation compares the chart with the common one, the American
    preset's analysis: read once per process, then kept with the comparison."""
    situation = situation_of(drill)
    strategy = strategy_for(situation.rules)
    explanation = explain(situation) if drill.answered_at else None
    return DealtDrill(drill, situation, strategy, explanation)


# The progress page ------------------------------------------------------------------------

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
    tallies (`trainer.tallies`), and of the answers only the latest few, by index.

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
    """Every answered decision of the owner's, oldest first, as `trainer.export` reads them:
    fetched a chunk at a time (a server-side cursor on PostgreSQL), so a history of any
    length streams in bounded memory."""
    answered = Drill.objects.filter(**owner.filter(), answered_at__isnull=False)
    rows = answered.order_by("answered_at", "pk").values_list(*READ_FIELDS)
    return rows.iterator(chunk_size=EXPORT_CHUNK)


# The practice pages -----------------------------------------------------------------------


def practice_session(owner: Owner, session_id: int) -> PracticeSession:
    """One of the owner's practice sessions; anyone else's, or none, is a 404."""
    session = PracticeSession.objects.filter(**owner.filter(), pk=session_id).first()
    if session is None:
        raise Http404("no such practice table")
    return session


def practice_sessions(owner: Owner, limit: int = 10) -> list[PracticeSession]:
    """The owner's latest practice sessions, the open one (if any) first."""
    sessions = PracticeSession.objects.filter(**owner.filter()).order_by(
        F("ended_at").desc(nulls_first=True), "-started_at"
    )
    return list(sessions[:limit])


def practice_table(owner: Owner, session_id: int) -> TableSnapshot:
    """One of the owner's practice tables, its state parsed once (a 404 if not theirs)."""
    return TableSnapshot.of(practice_session(owner, session_id))


@dataclass(frozen=True)
class TableOnShow:
    """A practice table with all that its page shows beyond the session's row."""

    session: PracticeSession
    #: What the player may see of the table: never the shoe, nor the hole card unturned.
    table: PublicTable
    rounds_dealt: int
    #: Coach mode: the decision held back (the latest recorded at this table).
    held: Drill | None
    #: Hints on, at the player's turn: the hard tier, whose play the hint is.
    hint_bot: Bot | None


def table_on_show(session: PracticeSession, table: PublicTable | None = None) -> TableOnShow:
    """The table page's reads: the rounds dealt, and the held-back decision or the hint's
    bot (its strategy read from the analyses' store) when there is one to show.

    ``table`` is the session's table as a change just left it (`trainer.practice`); without
    it the session's stored table is read.
    """
    if table is None:
        table = TableSnapshot.of(session).table
    held = None
    if session.held_action:
        held = Drill.objects.filter(practice_round__session=session).order_by("-pk").first()
    hinted = session.hints and table.decision is not None
    return TableOnShow(
        session=session,
        table=table,
        rounds_dealt=session.rounds.count(),
        held=held,
        hint_bot=hard_bot(table.rules) if hinted else None,
    )


@dataclass(frozen=True)
class SessionRecord:
    """A practice session as it was played: its rounds, every decision taken in them (each
    with its round), and its totals (see `session_totals`)."""

    session: PracticeSession
    #: Its table as a player may see it: the seats, and the rules.
    table: PublicTable
    rounds: list[PracticeRound]
    decisions: list[Drill]
    totals: dict[str, Any]


def session_record(session: PracticeSession) -> SessionRecord:
    """The summary page's reads, in four queries whatever the session's length."""
    decisions = Drill.objects.filter(practice_round__session=session).select_related(
        "practice_round"
    )
    return SessionRecord(
        session=session,
        table=TableSnapshot.of(session).table,
        rounds=list(session.rounds.all()),
        decisions=list(decisions.order_by("pk")),
        totals=session_totals(session),
    )


def session_totals(session: PracticeSession) -> dict[str, Any]:
    """Rounds, net chips, decisions, accuracy and EV given up over the session: the plays
    made (a mistake taken back in coach mode was not)."""
    rounds = session.rounds.exclude(net__isnull=True).aggregate(count=Count("id"), net=Sum("net"))
    made = Drill.objects.filter(practice_round__session=session, taken_back=False)
    counted = made.aggregate(
        count=Count("id"),
        right=Count("id", filter=Q(action=F("correct_action"))),
        lost=Sum("ev_lost"),
    )
    count, right = counted["count"], counted["right"]
    return {
        "rounds": rounds["count"] or 0,
        "net": rounds["net"] or 0,
        "decisions": count,
        "right": right,
        "accuracy": right / count if count else None,
        "ev_lost": float(counted["lost"] or 0),
    }


# The bet history page ---------------------------------------------------------------------

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
