"""Migrations that change data, run over data of the kind they meet in a deployment."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("trainer", "0005_cache_table")]
AFTER = [("trainer", "0006_one_table_one_drill_take_backs")]


@pytest.mark.django_db(transaction=True)
def test_duplicates_left_by_old_races_are_resolved_before_the_constraints() -> None:
    """Two open tables and two pending drills (what racing requests could leave before):
    the table played last stays open, the latest drill stays pending, answers stay; and a
    mistake taken back before the migration is marked as such."""
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    session_model, drill_model = (
        old.get_model("trainer", name) for name in ("PracticeSession", "Drill")
    )
    round_model = old.get_model("trainer", "PracticeRound")
    guest = {"guest_token": "g1", "rules_name": "european", "rules_version": "1"}
    table = {**guest, "bankroll": 1000, "balance": 1000, "state": {}}
    earlier = session_model.objects.create(**table)
    later = session_model.objects.create(**table, decision_graded=True)
    session_model.objects.filter(pk=earlier.pk).update(
        changed_at=timezone.now() - timedelta(hours=1)
    )
    hand = {**guest, "cards": "10s 6h", "up": "10d"}
    first, latest = (drill_model.objects.create(**hand) for _ in range(2))
    answered = drill_model.objects.create(**hand, answered_at=timezone.now(), action="hit")
    played = round_model.objects.create(session=later, number=1, bet=10)
    mistake = drill_model.objects.create(
        **hand, source="play", practice_round=played, answered_at=timezone.now(), action="stand"
    )

    executor = MigrationExecutor(connection)  # reloaded: the graph has moved on
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    sessions, drills = (
        new.get_model("trainer", "PracticeSession"),
        new.get_model("trainer", "Drill"),
    )
    assert list(sessions.objects.filter(ended_at__isnull=True).values_list("pk", flat=True)) == [
        later.pk
    ]
    pending = drills.objects.filter(source="drill", answered_at__isnull=True)
    assert list(pending.values_list("pk", flat=True)) == [latest.pk]
    assert not drills.objects.filter(pk=first.pk).exists()
    assert drills.objects.filter(pk=answered.pk).exists()
    assert drills.objects.get(pk=mistake.pk).taken_back

    MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes())
