"""The counting drills' reads: a player's own figures beside the standards."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import QuerySet

from engine.counting.index_store import IndexTablePending, load_indices
from engine.counting.indices import IndexTable
from trainer.counting.pages import DECK_SECONDS
from trainer.counting.services import IndexSettings
from trainer.models import BetQuestion, CountingRun, IndexPlayQuestion, TrueCountQuestion
from trainer.shared.owners import Owner

#: A question graded right or wrong (`answer_figures`).
type Graded = TrueCountQuestion | BetQuestion

#: How many of the latest decks the figures look at.
RECENT = 50


@dataclass(frozen=True)
class CountingFigures:
    """A player's latest decks: how many were counted, how many exactly, the current
    run of exact decks within the standard's time, the best such time, and the best time
    per card of an exact deck."""

    decks: int
    exact: int
    streak: int
    best_seconds: float | None
    best_per_card: float | None


def counting_figures(owner: Owner | None) -> CountingFigures:
    """The figures of ``owner``'s latest answered decks (none for a first visit)."""
    runs: list[CountingRun] = [] if owner is None else list(
        CountingRun.objects.filter(**owner.filter(), answered_at__isnull=False)
        .order_by("-answered_at")
        .only("cards", "exact", "shown_at", "answered_at")[:RECENT]
    )  # fmt: skip
    timed = []
    for run in runs:
        assert run.answered_at is not None and run.shown_at is not None  # answering shows
        seconds = (run.answered_at - run.shown_at) / timedelta(seconds=1)
        timed.append((bool(run.exact), seconds, len(run.cards.split())))
    streak = 0
    for exact, seconds, _cards in timed:
        if not (exact and seconds <= DECK_SECONDS):
            break
        streak += 1
    exact_times = [(seconds, cards) for exact, seconds, cards in timed if exact]
    return CountingFigures(
        decks=len(timed),
        exact=len(exact_times),
        streak=streak,
        best_seconds=min((s for s, _ in exact_times), default=None),
        best_per_card=min((s / n for s, n in exact_times), default=None),
    )


@dataclass(frozen=True)
class AnswerFigures:
    """A player's latest answers to one kind of true-count question: how many, how many
    right, and the median seconds of the right ones."""

    answered: int
    right: int
    median_seconds: float | None


def true_count_figures(owner: Owner | None) -> dict[str, AnswerFigures]:
    """Per kind of question ("decks", "convert"), the figures of the latest answers."""
    return {
        kind.value: answer_figures(TrueCountQuestion.objects.filter(kind=kind), owner)
        for kind in TrueCountQuestion.Kind
    }


def answer_figures(questions: QuerySet[Graded], owner: Owner | None) -> AnswerFigures:
    """How many of the owner's latest ``questions`` were answered and answered right, and
    the median seconds of the right ones (a first visit's: none)."""
    latest: list[Graded] = [] if owner is None else list(
        questions.filter(**owner.filter(), answered_at__isnull=False)
        .order_by("-answered_at")
        .only("right", "shown_at", "answered_at")[:RECENT]
    )  # fmt: skip
    right = []
    for question in latest:
        assert question.answered_at is not None and question.shown_at is not None
        if question.right:
            right.append((question.answered_at - question.shown_at) / timedelta(seconds=1))
    return AnswerFigures(
        answered=len(latest),
        right=len(right),
        median_seconds=statistics.median(right) if right else None,
    )


@dataclass(frozen=True)
class IndexFigures:
    """A player's latest index plays: how many, how many right, and what the wrong ones
    gave up in all, in initial bets."""

    answered: int
    right: int
    given_up: float


def index_figures(owner: Owner | None) -> IndexFigures:
    """The figures of ``owner``'s latest answered index plays."""
    found: list[IndexPlayQuestion] = [] if owner is None else list(
        IndexPlayQuestion.objects.filter(**owner.filter(), answered_at__isnull=False)
        .order_by("-answered_at")
        .only("right", "given_up")[:RECENT]
    )  # fmt: skip
    return IndexFigures(
        answered=len(found),
        right=sum(1 for question in found if question.right),
        given_up=sum(question.given_up or 0.0 for question in found),
    )


def index_table(settings: IndexSettings) -> IndexTable | None:
    """The stored index table of ``settings``, or None while it is not worked out (a read
    never starts one)."""
    try:
        return load_indices(settings.request(), compute_inline=False)
    except IndexTablePending:
        return None


def bet_figures(owner: Owner | None) -> AnswerFigures:
    """The figures of ``owner``'s latest bets: how many right, and the median seconds."""
    return answer_figures(BetQuestion.objects.all(), owner)
