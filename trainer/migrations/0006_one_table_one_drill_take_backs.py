"""One open practice table and one hand waiting to be answered per player, held by the
database. Duplicates left by earlier races are resolved first: the extra open tables are
ended (all but the one played last), the extra unanswered hands dropped (all but the
latest; nothing answered is lost).

A coach's mistake taken back is marked on its drill (``taken_back``) instead of on the
session (``decision_graded``, which said the decision awaited was graded already): a
session awaiting the play after a take-back has that mark moved to its mistake.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import migrations, models
from django.db.models import Count
from django.utils import timezone


def _duplicates(rows: Any, **where: object) -> list[dict[str, Any]]:
    """The owners (account or guest) with more than one row matching ``where``."""
    return list(
        rows.filter(**where)
        .values("user_id", "guest_token")
        .annotate(count=Count("id"))
        .filter(count__gt=1)
    )


def _of(owner: dict[str, Any]) -> dict[str, Any]:
    if owner["user_id"] is not None:
        return {"user_id": owner["user_id"]}
    return {"user__isnull": True, "guest_token": owner["guest_token"]}


def resolve_duplicates(apps: Any, schema_editor: Any) -> None:
    sessions = apps.get_model("trainer", "PracticeSession").objects
    for owner in _duplicates(sessions, ended_at__isnull=True):
        still_open = sessions.filter(**_of(owner), ended_at__isnull=True)
        for session in still_open.order_by("-changed_at")[1:]:
            sessions.filter(pk=session.pk).update(ended_at=timezone.now())
    drills = apps.get_model("trainer", "Drill").objects
    for owner in _duplicates(drills, answered_at__isnull=True, source="drill"):
        pending = drills.filter(**_of(owner), answered_at__isnull=True, source="drill")
        drills.filter(pk__in=[drill.pk for drill in pending.order_by("-pk")[1:]]).delete()


def mark_taken_back(apps: Any, schema_editor: Any) -> None:
    sessions = apps.get_model("trainer", "PracticeSession").objects
    drills = apps.get_model("trainer", "Drill").objects
    for session in sessions.filter(decision_graded=True, held_action=""):
        mistake = drills.filter(practice_round__session=session).order_by("-pk").first()
        if mistake is not None:
            drills.filter(pk=mistake.pk).update(taken_back=True)


class Migration(migrations.Migration):
    dependencies = [
        ("trainer", "0005_cache_table"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="drill",
            name="taken_back",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_taken_back, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name="practicesession",
            name="decision_graded",
        ),
        migrations.RunPython(resolve_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="drill",
            constraint=models.UniqueConstraint(
                condition=models.Q(("answered_at__isnull", True), ("source", "drill")),
                fields=("user",),
                name="one_pending_drill_per_account",
            ),
        ),
        migrations.AddConstraint(
            model_name="drill",
            constraint=models.UniqueConstraint(
                condition=models.Q(
                    ("answered_at__isnull", True), ("source", "drill"), ("user__isnull", True)
                ),
                fields=("guest_token",),
                name="one_pending_drill_per_guest",
            ),
        ),
        migrations.AddConstraint(
            model_name="practicesession",
            constraint=models.UniqueConstraint(
                condition=models.Q(("ended_at__isnull", True)),
                fields=("user",),
                name="one_open_table_per_account",
            ),
        ),
        migrations.AddConstraint(
            model_name="practicesession",
            constraint=models.UniqueConstraint(
                condition=models.Q(("ended_at__isnull", True), ("user__isnull", True)),
                fields=("guest_token",),
                name="one_open_table_per_guest",
            ),
        ),
    ]
