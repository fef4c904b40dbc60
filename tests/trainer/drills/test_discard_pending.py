"""Dropping the pending drill on a change of settings costs the same however long the
player's history: its statement is the one the pending drill's own index answers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from trainer.drills.services import drills_discard_pending
from trainer.models import Drill
from trainer.shared.owners import Owner

pytestmark = [pytest.mark.django_db, pytest.mark.database]
#: Enough answered rows that a plan reading the owner's history costs more than one
#: reading the pending drill's index, so that the planner shows which it can use.
HISTORY = 3000
INDEX = {"account": "one_pending_drill_per_account", "guest": "one_pending_drill_per_guest"}


def drill(owner: Owner, **fields: object) -> Drill:
    return Drill(
        **owner.fields(), rules_name="european", rules_version="1", cards="10s 6h", up="10d",
        **fields,
    )  # fmt: skip


def with_history(owner: Owner) -> None:
    """``HISTORY`` answered decisions of the owner's, and one pending drill."""
    answered = timezone.now() - timedelta(days=1)
    Drill.objects.bulk_create(
        drill(owner, answered_at=answered, source=source)
        for source in [Drill.Source.DRILL, Drill.Source.PLAY] * (HISTORY // 2)
    )
    drill(owner).save()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def owner_of_kind(kind: str) -> Owner:
    if kind == "account":
        return Owner.account(get_user_model().objects.create_user("ann", password="pw-123456!").pk)
    return Owner.guest("guest-a")


def plan(sql: str) -> str:
    explain = "EXPLAIN" if connection.vendor == "postgresql" else "EXPLAIN QUERY PLAN"
    with connection.cursor() as cursor:
        cursor.execute(f"{explain} {sql}")
        return "\n".join(" ".join(str(part) for part in row) for row in cursor.fetchall())


@pytest.mark.parametrize("kind", ["account", "guest"])
def test_discarding_the_pending_drill_reads_its_index_not_the_history(kind: str) -> None:
    owner = owner_of_kind(kind)
    with_history(owner)
    with CaptureQueriesContext(connection) as queries:
        drills_discard_pending(owner=owner)
    statements = [q["sql"] for q in queries.captured_queries if "trainer_drill" in q["sql"]]
    (delete,) = statements  # one statement, not a read of the rows first
    assert delete.startswith("DELETE")
    assert INDEX[kind] in plan(delete)


@pytest.mark.parametrize("kind", ["account", "guest"])
def test_discarding_drops_the_pending_drill_and_nothing_else(kind: str) -> None:
    owner = owner_of_kind(kind)
    other = Owner.guest("guest-b")
    drill(owner, answered_at=timezone.now()).save()
    drill(owner).save()
    drill(other).save()
    drills_discard_pending(owner=owner)
    assert Drill.objects.filter(**owner.filter(), answered_at__isnull=True).count() == 0
    assert Drill.objects.filter(**owner.filter()).count() == 1
    assert Drill.objects.filter(**other.filter(), answered_at__isnull=True).count() == 1
