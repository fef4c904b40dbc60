"""Reads of the practice pages, every one scoped to its owner: a table, the player's sessions,
and a session's record for its summary."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Q, Sum
from django.http import Http404

from engine.bots import Bot, hard_bot
from engine.counting.deviations import counted_bot
from engine.counting.index_store import IndexTablePending, load_indices
from engine.table import PublicTable
from trainer.models import (
    CasinoCheck,
    CountCheck,
    Drill,
    PracticeRound,
    PracticeSession,
)
from trainer.practice.counting import CountingMode, CountingView
from trainer.practice.table import TableSnapshot
from trainer.shared import analyses
from trainer.shared.owners import Owner


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
    #: Counting mode: the table's count, question and grades (None without it).
    counting: CountingView | None = None


def table_on_show(session: PracticeSession, table: PublicTable | None = None) -> TableOnShow:
    """The table page's reads: the rounds dealt, and the held-back decision or the hint's
    bot (its strategy read from the analyses' store) when there is one to show.

    ``table`` is the session's table as a change just left it (`trainer.practice.services`); without
    it the session's stored table is read.
    """
    if table is None:
        table = TableSnapshot.of(session).table
    held = None
    if session.held_action:
        held = Drill.objects.filter(practice_round__session=session).order_by("-pk").first()
    hinted = session.hints and table.decision is not None
    hint_bot = hard_bot(table.rules) if hinted else None
    counting = None
    if session.counting is not None:
        mode = CountingMode.from_json(session.counting, table.rules)
        if hint_bot is not None:
            hint_bot = _counted(hint_bot, mode, table)
        counting = CountingView.of(
            mode,
            table,
            unit=table.limits.minimum,
            last_round=session.rounds.order_by("-number").first(),
            last_check=session.count_checks.order_by("-pk").first(),
            casino_check=CasinoCheck.objects.filter(session=session)
            .values_list("pk", flat=True)
            .first(),
            indices_ready=analyses.indices_ready(mode.index_request(table.rules)),
        )
    return TableOnShow(
        session=session,
        table=table,
        rounds_dealt=session.rounds.count(),
        held=held,
        hint_bot=hint_bot,
        counting=counting,
    )


def _counted(bot: Bot, mode: CountingMode, table: PublicTable) -> Bot:
    """A counting table's hint: the index play where the count calls for a deviation, as
    the play is graded (the chart's alone while the index table is not worked out)."""
    try:
        indices = load_indices(mode.index_request(table.rules), compute_inline=False)
    except IndexTablePending:
        return bot
    return counted_bot(bot, indices.entries, mode.now(table)[1])


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
    #: Counting mode: the counts the table asked for, and the answers; the advantage per
    #: unit bet at each true count of the session's game, once a simulation has measured
    #: it (trainer.shared.analyses.advantage_by_count).
    count_checks: list[CountCheck]
    advantage: dict[int, float] | None


def session_record(session: PracticeSession) -> SessionRecord:
    """The summary page's reads, in six queries whatever the session's length."""
    decisions = Drill.objects.filter(practice_round__session=session).select_related(
        "practice_round"
    )
    table = TableSnapshot.of(session).table
    advantage = None
    if session.counting is not None:
        mode = CountingMode.from_json(session.counting, table.rules)
        advantage = analyses.advantage_by_count(mode.index_request(table.rules))
    return SessionRecord(
        session=session,
        table=table,
        rounds=list(session.rounds.all()),
        decisions=list(decisions.order_by("pk")),
        totals=session_totals(session),
        count_checks=list(session.count_checks.all()),
        advantage=advantage,
    )


def session_totals(session: PracticeSession) -> dict[str, Any]:
    """Rounds, net chips, decisions, accuracy and EV given up over the session. Every
    decision graded counts, a mistake the coach held back and the player took back too
    ("it counts as a mistake either way"), as the progress tallies count it."""
    rounds = session.rounds.exclude(net__isnull=True).aggregate(count=Count("id"), net=Sum("net"))
    graded = Drill.objects.filter(practice_round__session=session, answered_at__isnull=False)
    counted = graded.aggregate(
        count=Count("id"),
        right=Count("id", filter=Q(action=F("correct_action"), late=False)),
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
