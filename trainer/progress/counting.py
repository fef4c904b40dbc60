"""Counting on the progress page (issue 27): the counting drills' figures week by week,
so a player sees the count getting faster and surer: decks counted exactly and how fast,
the decks left and the true count right (and how far off a wrong true count was), index
plays right and what the wrong ones gave up, bets right by the player's ramp; and the
index plays as a heat map, hand by hand against each up card."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from fractions import Fraction

from django.utils import timezone
from django.utils.translation import gettext as _

from engine.chart_vocabulary import UP_CARDS
from engine.counting.conversion import ShoeSeen
from engine.counting.index_table import chart_order
from engine.counting.true_count import Conversion, DeckEstimate, TrueCountMethod
from trainer.models import BetQuestion, CountingRun, IndexPlayQuestion, TrueCountQuestion
from trainer.shared.charts import row_title
from trainer.shared.owners import Owner
from trainer.shared.shares import share

#: How many weeks back the table goes (the latest first).
WEEKS = 12


@dataclass
class CountingWeek:
    """One week's counting, from Monday."""

    week: date
    decks: int = 0
    exact: int = 0
    deck_seconds: list[float] = field(default_factory=list)
    decks_left: int = 0
    decks_left_right: int = 0
    true_counts: int = 0
    true_counts_right: int = 0
    true_count_misses: list[int] = field(default_factory=list)
    index_plays: int = 0
    index_right: int = 0
    given_up: float = 0.0
    bets: int = 0
    bets_right: int = 0

    @property
    def median_deck_seconds(self) -> float | None:
        """The median time of the decks counted exactly."""
        return statistics.median(self.deck_seconds) if self.deck_seconds else None

    @property
    def true_count_error(self) -> float | None:
        """How far off a wrong true count was, on average (whole counts)."""
        return statistics.fmean(self.true_count_misses) if self.true_count_misses else None


def counting_weeks(owner: Owner, now: datetime | None = None) -> list[CountingWeek]:
    """The owner's counting drills of the last `WEEKS` weeks, week by week, the latest
    first; only the weeks with something done."""
    now = now or timezone.now()
    since = now - timedelta(weeks=WEEKS)
    weeks: dict[date, CountingWeek] = {}

    def week_of(moment: datetime) -> CountingWeek:
        day = timezone.localdate(moment)
        monday = day - timedelta(days=day.weekday())
        return weeks.setdefault(monday, CountingWeek(monday))

    answered = {**owner.filter(), "answered_at__gte": since}
    for run in CountingRun.objects.filter(**answered).only("exact", "shown_at", "answered_at"):
        assert run.answered_at is not None and run.shown_at is not None
        week = week_of(run.answered_at)
        week.decks += 1
        if run.exact:
            week.exact += 1
            week.deck_seconds.append((run.answered_at - run.shown_at) / timedelta(seconds=1))
    for question in TrueCountQuestion.objects.filter(**answered):
        assert question.answered_at is not None
        week = week_of(question.answered_at)
        if question.kind == TrueCountQuestion.Kind.DECKS:
            week.decks_left += 1
            week.decks_left_right += bool(question.right)
            continue
        week.true_counts += 1
        if question.right:
            week.true_counts_right += 1
        else:
            seen = ShoeSeen(question.decks, question.dealt, question.running)
            method = TrueCountMethod(
                DeckEstimate(question.estimate), Conversion(question.conversion)
            )
            week.true_count_misses.append(
                abs(int(Fraction(question.answer)) - seen.true_count(method))
            )
    for play in IndexPlayQuestion.objects.filter(**answered).only(
        "answered_at", "right", "given_up"
    ):
        assert play.answered_at is not None
        week = week_of(play.answered_at)
        week.index_plays += 1
        week.index_right += bool(play.right)
        week.given_up += play.given_up or 0.0
    for bet in BetQuestion.objects.filter(**answered).only("answered_at", "right"):
        assert bet.answered_at is not None
        week = week_of(bet.answered_at)
        week.bets += 1
        week.bets_right += bool(bet.right)
    return [weeks[monday] for monday in sorted(weeks, reverse=True)]


@dataclass(frozen=True)
class IndexCell:
    """The player's answers to the index plays of one hand against one up card."""

    up: str
    answered: int
    right: int

    @property
    def share(self) -> str:
        return share(self.right, self.answered)

    @property
    def level(self) -> str:
        """How well the plays are known, for the cell's colour (as the chart's heat map)."""
        accuracy = self.right / self.answered
        return "good" if accuracy >= 0.9 else "fair" if accuracy >= 0.6 else "poor"


@dataclass(frozen=True)
class IndexRow:
    """A hand of the index-play heat map: its title, and a cell per up card (None where
    the player has not met an index play)."""

    title: str
    cells: tuple[IndexCell | None, ...]


def index_heat_rows(owner: Owner) -> list[IndexRow]:
    """The index plays the owner has answered, hand by hand against each up card, in
    chart order (insurance, hard, soft, pairs; the highest total first)."""
    tallies: dict[str, dict[str, list[int]]] = {}
    answers = IndexPlayQuestion.objects.filter(**owner.filter(), answered_at__isnull=False)
    for row, up, right in answers.values_list("row", "up", "right"):
        tally = tallies.setdefault(row, {}).setdefault(up, [0, 0])
        tally[0] += 1
        tally[1] += bool(right)

    return [
        IndexRow(
            title=str(_("Insurance")) if row == "insurance" else row_title(row),
            cells=tuple(
                IndexCell(up, *tallies[row][up]) if up in tallies[row] else None for up in UP_CARDS
            ),
        )
        for row in sorted(tallies, key=chart_order)
    ]
