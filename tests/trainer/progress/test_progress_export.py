"""Progress: every decision as CSV (scoped to its owner, streamed) and the median response
time by week."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.http import StreamingHttpResponse
from django.test import Client
from django.utils import timezone
from pytest_django.asserts import assertContains

from engine.rules import EUROPEAN
from trainer.models import Drill

pytestmark = [pytest.mark.django_db, pytest.mark.database]
EXPORT = "/progress/decisions.csv"


def answered(
    user: User, *, action: str = "hit", when: datetime | None = None, ms: int | None = 1500,
    late: bool = False, cards: str = "10s 6h", up: str = "10d", source: str = "drill",
) -> Drill:  # fmt: skip
    """An answered decision, made directly: the export and the page read what is stored."""
    return Drill.objects.create(
        user=user, rules_name="european", rules_version="1.0.0", rules=EUROPEAN.to_json(),
        cards=cards, up=up, row="hard 16", up_column="10", source=source,
        answered_at=when or timezone.now(), action=action, correct_action="hit",
        correct_code="H", ev_lost=Decimal("0") if action == "hit" else Decimal("0.005800"),
        response_ms=ms, late=late,
    )  # fmt: skip


def login(client: Client, name: str) -> User:
    user = get_user_model().objects.create_user(name, password="pw-long-enough-1")
    client.force_login(user)
    return user


def rows(client: Client) -> list[dict[str, str]]:
    response = client.get(EXPORT)
    assert response.status_code == 200
    assert isinstance(response, StreamingHttpResponse)
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    text = b"".join(response.streaming_content).decode()
    return list(csv.DictReader(io.StringIO(text)))


def test_every_decision_is_exported_oldest_first_with_what_was_asked(client: Client) -> None:
    ann = login(client, "ann")
    earlier = timezone.now() - timedelta(days=3)
    answered(ann, action="stand", when=earlier, cards="9s 7h", up="Kd")
    answered(ann, late=True, ms=4200)
    answered(ann, source="play", ms=None)
    first, late, played = rows(client)
    assert first == {
        "answered_at": earlier.astimezone(UTC).isoformat(timespec="milliseconds"),
        "source": "drill", "rules": "european", "rules_version": "1.0.0",
        "hand": "9s 7h", "up_card": "Kd", "row": "hard 16", "up_column": "10",
        "answer": "stand", "right_play": "hit", "right": "no", "late": "no",
        "ev_given_up": "0.005800", "response_ms": "1500",
    }  # fmt: skip
    # The right play, but late: a miss.
    assert (late["answer"], late["right"], late["late"], late["response_ms"]) == (
        "hit", "no", "yes", "4200",
    )  # fmt: skip
    assert (played["source"], played["right"], played["response_ms"]) == ("play", "yes", "")


def test_the_export_holds_only_the_owners_decisions(client: Client) -> None:
    bob = get_user_model().objects.create_user("bob", password="pw-long-enough-1")
    answered(bob, action="stand")
    ann = login(client, "ann")
    answered(ann)
    assert [row["answer"] for row in rows(client)] == ["hit"]
    # A guest has their own (none yet), never the accounts'.
    assert rows(Client()) == []


def test_an_unanswered_hand_is_not_exported(client: Client) -> None:
    client.post("/drill/", {"deal": "1"})  # deals one
    assert Drill.objects.count() == 1
    assert rows(client) == []


def test_a_long_history_streams_in_chunks(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from trainer.progress import selectors

    monkeypatch.setattr(selectors, "EXPORT_CHUNK", 7)
    ann = login(client, "ann")
    start = timezone.now() - timedelta(hours=1)
    for i in range(30):
        answered(ann, when=start + timedelta(seconds=i))
    exported = rows(client)
    assert len(exported) == 30
    assert [row["answered_at"] for row in exported] == sorted(
        row["answered_at"] for row in exported
    )


def test_the_progress_page_links_the_export(client: Client) -> None:
    answered(login(client, "ann"))
    assertContains(client.get("/progress/"), f'href="{EXPORT}"')


# Response times ---------------------------------------------------------------------------


def test_the_median_response_time_is_shown_week_by_week(client: Client) -> None:
    ann = login(client, "ann")
    now = timezone.now().replace(hour=12)
    monday = now - timedelta(weeks=2, days=now.weekday())
    for offset, ms in ((0, 900), (1, 2300), (2, 12000)):  # median 2300: its step 2.3–2.4 s
        answered(ann, when=monday + timedelta(days=offset), ms=ms)
    answered(ann, when=monday + timedelta(days=7), ms=1250)  # the next week: 1.2–1.3 s
    answered(ann, when=monday + timedelta(days=7), ms=None)  # no time stored: left out
    answered(ann, when=monday + timedelta(days=8), ms=500, source="play")  # drills only
    progress = client.get("/progress/").context["progress"]
    assert [(week, seconds) for week, seconds in progress.response_weeks] == [
        (monday.date(), pytest.approx(2.35)),
        ((monday + timedelta(days=7)).date(), pytest.approx(1.25)),
    ]
    assertContains(client.get("/progress/"), "2.35 s")


def test_answer_times_are_shown_for_the_latest_year(client: Client) -> None:
    ann = login(client, "ann")
    now = timezone.now()
    answered(ann, when=now - timedelta(weeks=53), ms=4000)
    answered(ann, when=now - timedelta(weeks=50), ms=3000)
    answered(ann, when=now, ms=2000)
    progress = client.get("/progress/").context["progress"]
    assert [seconds for _, seconds in progress.response_weeks] == [
        pytest.approx(3.05), pytest.approx(2.05),
    ]  # fmt: skip
    assert progress.total.answered == 3  # every answer counts in the totals


def test_very_long_answers_count_at_the_cap() -> None:
    from trainer.progress.pages import _weekly_medians
    from trainer.progress.selectors import RESPONSE_BUCKET_MS, RESPONSE_CAP_MS

    cap = RESPONSE_CAP_MS // RESPONSE_BUCKET_MS
    week = datetime(2026, 11, 16).date()
    histogram = [{"week": week, "bucket": 3, "n": 1}, {"week": week, "bucket": cap, "n": 2}]
    ((median_week, seconds),) = _weekly_medians(histogram)
    assert median_week == week and seconds == pytest.approx((cap + 0.5) / 10)
