"""The progress tallies (trainer/shared/tallies.py) against the answers they count.

The property test runs random histories through the app's own writes — drill answers
(right, wrong, late, refused, replayed), practice rounds, a guest's adoption into an
account, answers moved in time, guests expiring — and then counts the answers itself with
aggregate queries, the way progress counted them before the tallies: every tally must
equal that count.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import secrets
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.db.models import Count, F, Q, Sum, Value
from django.db.models.functions import Least, TruncDate, TruncWeek
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from engine.cards import CARDS
from engine.rules import EUROPEAN
from engine.shoe import Shoe
from engine.table import Table
from trainer.accounts.services import guests_expire
from trainer.drills import services
from trainer.models import CellTally, DayTally, Drill, PracticeSession, ResponseTally
from trainer.practice.services import (
    SeatChoice,
    practice_act,
    practice_adopt,
    practice_chip,
    practice_deal,
    practice_start,
    practice_take_back,
)
from trainer.shared import tallies
from trainer.shared.owners import Owner
from trainer.shared.seats import Sitter
from trainer.shared.unit_of_work import Refused

pytestmark = [pytest.mark.django_db, pytest.mark.database]
ACTIONS = ("hit", "stand", "double", "split", "surrender")
#: The oracle's steps: the response-time histogram as progress counted it.
BUCKET_MS, CAP_MS = 100, 60_000
CENT = Decimal("0.000001")

# The oracle -------------------------------------------------------------------------------


def _day(value: date | datetime) -> date:
    return value.date() if isinstance(value, datetime) else value


def counted_from_answers() -> dict[str, set[tuple[Any, ...]]]:
    """Every tally's rows, counted from the answers with the ORM's aggregates."""
    answered = Drill.objects.filter(answered_at__isnull=False)
    right = Count("pk", filter=Q(action=F("correct_action"), late=False))
    owner = ("user_id", "guest_token", "rules_name")
    days = answered.annotate(day=TruncDate("answered_at")).values(*owner, "day", "source")
    cells = answered.values(*owner, "row", "up_column")
    times = (
        answered.filter(source=Drill.Source.DRILL, response_ms__isnull=False)
        .annotate(
            week=TruncWeek("answered_at"),
            bucket=Least(F("response_ms"), Value(CAP_MS)) / BUCKET_MS,
        )
        .values(*owner, "week", "bucket")
    )
    return {
        "day": {
            (*(r[k] for k in owner), r["day"], r["source"], r["n"], r["right"], _lost(r["lost"]))
            for r in days.annotate(n=Count("pk"), right=right, lost=Sum("ev_lost"))
        },
        "cell": {
            (*(r[k] for k in owner), r["row"], r["up_column"], r["n"], r["right"], _lost(r["lost"]))
            for r in cells.annotate(n=Count("pk"), right=right, lost=Sum("ev_lost"))
        },
        "time": {
            (*(r[k] for k in owner), _day(r["week"]), int(r["bucket"]), r["n"])
            for r in times.annotate(n=Count("pk"))
        },
    }


def _lost(value: Decimal | None) -> Decimal:
    return Decimal(value or 0).quantize(CENT)


def tallied() -> dict[str, set[tuple[Any, ...]]]:
    owner = ("user_id", "guest_token", "rules_name")
    return {
        "day": {
            (*row[:-1], _lost(row[-1]))
            for row in DayTally.objects.values_list(
                *owner, "day", "source", "answered", "correct", "lost"
            )
        },
        "cell": {
            (*row[:-1], _lost(row[-1]))
            for row in CellTally.objects.values_list(
                *owner, "row", "up_column", "answered", "correct", "lost"
            )
        },
        "time": set(ResponseTally.objects.values_list(*owner, "week", "bucket", "answered")),
    }


# The writes -------------------------------------------------------------------------------


def answer(owner: Owner, action: str, *, late: bool, replay: bool) -> None:
    """Deal a drill and answer it (late: past a time limit); ``replay``: again."""
    drill = services.drill_issue(owner=owner)
    if late:  # not counted fields: the tallies stay as they are
        Drill.objects.filter(pk=drill.pk).update(
            time_limit=1, issued_at=F("issued_at") - timedelta(seconds=9)
        )
    for _ in range(1 + replay):
        with contextlib.suppress(services.DrillRefused):  # an illegal play, or a replay
            services.drill_answer(owner=owner, drill_id=drill.pk, action=action)


def play_a_round(owner: Owner, rng: random.Random, *, coach: bool) -> None:
    """A practice round at a table of one's own, played with random legal actions (a
    mistake held back in coach mode taken back or made anyway)."""
    cards = list(CARDS) * 2
    rng.shuffle(cards)
    session = practice_start(
        owner=owner, rules=EUROPEAN, bankroll=1000, seats=[SeatChoice(1, Sitter.YOU)],
        coach=coach, shoe=Shoe.stacked(cards),
    )  # fmt: skip
    practice_chip(owner=owner, session_id=session.pk, version=session.version, chip=10)
    practice_deal(owner=owner, session_id=session.pk, version=session.version + 1)
    for _ in range(60):
        session = PracticeSession.objects.get(pk=session.pk)
        table = Table.from_json(session.state)
        if not table.players_turn or table.round is None:
            return
        if session.held_action and rng.random() < 0.5:
            practice_take_back(owner=owner, session_id=session.pk, version=session.version)
            continue
        action = session.held_action or rng.choice(table.round.legal_actions()).value
        try:
            practice_act(owner=owner, session_id=session.pk, version=session.version, action=action)
        except Refused:
            return


def move_back(owner: Owner, minutes: int) -> None:
    """Everything of the owner's dealt and answered ``minutes`` earlier."""
    earlier = timedelta(minutes=minutes)
    Drill.objects.filter(**owner.filter(), answered_at__isnull=False).update(
        answered_at=F("answered_at") - earlier
    )
    Drill.objects.filter(**owner.filter()).update(issued_at=F("issued_at") - earlier)
    PracticeSession.objects.filter(**owner.filter()).update(changed_at=F("changed_at") - earlier)


def adopt(guest: Owner, account: Owner) -> None:
    """What signing in does with a guest's drills and tables."""
    assert account.user_id is not None
    services.drills_adopt(guest_token=guest.guest_token, user_id=account.user_id)
    practice_adopt(guest_token=guest.guest_token, user_id=account.user_id)


HISTORY = settings(
    # 50: with three seeds, the writes and tallies reached their last new branch at 29-48.
    max_examples=50,
    deadline=None,
    database=None,
    phases=(Phase.explicit, Phase.generate),  # examples are whole histories: no shrinking
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
WHO = st.integers(0, 3)  # two accounts, then two guests
ANSWER = st.tuples(st.just("answer"), WHO, st.sampled_from(ACTIONS), st.booleans(), st.booleans())
STEP = st.one_of(
    ANSWER,
    ANSWER,  # the commonest write, drawn as often as the rest together
    st.tuples(st.just("play"), WHO, st.integers(0, 2**32), st.booleans()),
    # Minutes back: up to two months, to any time of any weekday.
    st.tuples(st.just("move back"), WHO, st.integers(1, 60 * 24 * 60)),
    st.tuples(st.just("adopt"), st.integers(2, 3), st.integers(0, 1)),
    st.tuples(st.just("expire"), st.integers(1, 90)),
)


@HISTORY
@given(steps=st.lists(STEP, min_size=3, max_size=15))
@example(  # a guest gone: their tallies with them; one adopted: theirs into the account's
    steps=[
        ("answer", 2, "hit", False, False),
        ("answer", 3, "stand", True, True),
        ("play", 2, 7, True),
        ("move back", 2, 40 * 24 * 60),
        ("expire", 30),
        ("answer", 0, "stand", False, False),
        ("answer", 3, "hit", False, False),
        ("adopt", 3, 0),
    ]
)
def test_every_tally_is_the_count_of_the_answers_it_counts(steps: list[tuple[Any, ...]]) -> None:
    users = get_user_model().objects
    owners = [
        *(Owner(users.create_user(secrets.token_hex(8)).pk, "") for _ in range(2)),
        *(Owner(None, secrets.token_urlsafe(18)) for _ in range(2)),
    ]
    for step in steps:
        match step:
            case ("answer", who, action, late, replay):
                answer(owners[who], action, late=late, replay=replay)
            case ("play", who, seed, coach):
                play_a_round(owners[who], random.Random(seed), coach=coach)
            case ("move back", who, minutes):
                move_back(owners[who], minutes)
            case ("adopt", guest, account):
                adopt(owners[guest], owners[account])
            case ("expire", days):
                guests_expire(idle_since=timezone.now() - timedelta(days=days))
    assert tallied() == counted_from_answers()


#: A week's edges in UTC: the last instant of a Sunday, a Monday's first, and days between.
EDGES = [
    datetime(2026, 3, 1, 23, 59, 59, 999999, tzinfo=UTC),  # a Sunday
    datetime(2026, 3, 2, 0, 0, tzinfo=UTC),  # the Monday after
    datetime(2026, 3, 4, 12, 0, tzinfo=UTC),
    datetime(2026, 3, 7, 23, 30, tzinfo=UTC),  # the Saturday
    datetime(2026, 3, 8, 0, 0, 1, tzinfo=UTC),  # the Sunday, its week's last day
]


def test_answers_count_on_their_utc_day_and_week_from_monday(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    account = Owner(get_user_model().objects.create_user("ann").pk, "")
    for owner in (account, Owner(None, "a-guest")):
        for instant in EDGES:
            monkeypatch.setattr(timezone, "now", lambda instant=instant: instant)
            answer(owner, "stand", late=False, replay=False)
    counted = counted_from_answers()
    assert {row[3] for row in counted["day"]} == {edge.date() for edge in EDGES}
    assert {row[3] for row in counted["time"]} == {date(2026, 2, 23), date(2026, 3, 2)}
    assert tallied() == counted
    tallies.recount([account])  # counted again, all at once: the same
    assert tallied() == counted


def test_rebuilding_counts_what_was_written_around_the_app(client: Client) -> None:
    client.post(reverse("trainer:drill"), {"deal": "1"})
    drill = Drill.objects.get()
    client.post(reverse("trainer:drill"), {"drill": drill.pk, "action": "stand"})
    Drill.objects.bulk_create(  # an import: no tally sees it
        [Drill(guest_token="g", rules_name="european", rules_version="1", cards="10s 6h",
               up="10d", row="hard 16", up_column="10", answered_at=timezone.now(),
               action="hit", correct_action="hit", ev_lost=Decimal("0"), response_ms=1500)]
    )  # fmt: skip
    assert tallied() != counted_from_answers()
    call_command("tallies_rebuild", stdout=io.StringIO())
    assert tallied() == counted_from_answers()


# What progress reads ----------------------------------------------------------------------


@pytest.fixture
def history(client: Client) -> Iterator[None]:
    """An account with answers on two days, one of them a practice decision."""
    user = get_user_model().objects.create_user("ann", password="pw-long-enough-1")
    client.force_login(user)
    owner = Owner(user.pk, "")
    for action in ("hit", "stand", "hit"):
        answer(owner, action, late=False, replay=False)
    move_back(owner, 3 * 24 * 60)
    answer(owner, "stand", late=False, replay=False)
    play_a_round(owner, random.Random(1), coach=False)
    yield


@pytest.mark.usefixtures("history")
@pytest.mark.parametrize("period", ["day", "week"])
def test_progress_reads_the_answers_only_in_bounded_queries(client: Client, period: str) -> None:
    # The tallies hold the counts: of the answers themselves, progress reads only the
    # latest for the streak (and one for a chart of one's own rules), each by a LIMIT.
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/progress/", {"period": period})
    assert response.status_code == 200
    answered = Drill.objects.filter(answered_at__isnull=False).count()
    assert response.context["progress"].total.answered == answered
    reads = [q["sql"] for q in queries.captured_queries if '"trainer_drill"' in q["sql"]]
    assert reads, "the streak is read from the latest answers"
    assert all(re.search(r"\bLIMIT \d+", sql) for sql in reads), reads
