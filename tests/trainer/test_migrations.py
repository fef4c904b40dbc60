"""Migrations that change data, run over data of the kind they meet in a deployment."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.database
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


@pytest.mark.django_db(transaction=True)
def test_the_account_answers_index_applies_and_reverts_over_answers() -> None:
    """The index on an account's answers is built over answers already stored (and
    dropped again on the way back), on whichever database the suite runs on; the answers
    read the same through it."""
    before, after = (
        [("trainer", "0011_preferences_letter_keys")],
        [("trainer", "0012_account_answers_index")],
    )
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    user = old.get_model("auth", "User").objects.create(username="ada")
    hand = {"user_id": user.pk, "rules_name": "european", "rules_version": "1", "cards": "10s 6h"}
    old.get_model("trainer", "Drill").objects.create(
        **hand, up="10d", answered_at=timezone.now(), action="hit", correct_action="hit"
    )

    def indexes() -> set[str]:
        with connection.cursor() as cursor:
            return set(connection.introspection.get_constraints(cursor, "trainer_drill"))

    assert "drill_account_answers" not in indexes()
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    assert "drill_account_answers" in indexes()
    drills = executor.loader.project_state(after).apps.get_model("trainer", "Drill")
    answered = drills.objects.filter(user_id=user.pk, rules_name="european")
    assert list(answered.exclude(answered_at=None).values_list("action", flat=True)) == ["hit"]

    executor = MigrationExecutor(connection)
    executor.migrate(before)
    assert "drill_account_answers" not in indexes()
    MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_rule_changes_typed_as_text_become_the_engines_fields_and_back() -> None:
    """Each account's changes as typed become fields and values (the malformed parts of
    the text, which no form ever stored, are dropped); going back writes them out again."""
    from django.contrib.auth import get_user_model

    before = [("trainer", "0014_count_tallies")]
    after = [("trainer", "0015_preferences_rule_changes")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("trainer", "Preferences")
    users = get_user_model().objects
    typed = old.objects.create(
        user_id=users.create_user("ann").pk, custom_rules="decks=2; dealer_hits_soft_17 = true"
    )
    plain = old.objects.create(user_id=users.create_user("bob").pk, custom_rules="")
    odd = old.objects.create(
        user_id=users.create_user("cy").pk, custom_rules="decks, =3, surrender=late"
    )

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps.get_model("trainer", "Preferences")
    assert new.objects.get(pk=typed.pk).rule_changes == {
        "decks": "2",
        "dealer_hits_soft_17": "true",
    }
    assert new.objects.get(pk=plain.pk).rule_changes == {}
    assert new.objects.get(pk=odd.pk).rule_changes == {"surrender": "late"}

    executor = MigrationExecutor(connection)
    executor.migrate(before)
    back = executor.loader.project_state(before).apps.get_model("trainer", "Preferences")
    assert back.objects.get(pk=typed.pk).custom_rules == "decks=2, dealer_hits_soft_17=true"
    assert back.objects.get(pk=plain.pk).custom_rules == ""

    MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes())
