"""The tallies of every answer stored so far, and SQLite's trigger counting each answer
from now on: after 0013, whose unique indexes (which the upserts name) exist only once
that migration has ended."""

from __future__ import annotations

from django.db import migrations

from trainer.shared import tallies


def count_every_answer(apps, schema_editor):
    """The tallies of every answer stored so far (the same upserts as every later answer)."""
    tallies.rebuild(using=schema_editor.connection.alias)


def create_trigger(apps, schema_editor):
    """SQLite counts a drill answer by a trigger (it has no data-modifying CTEs)."""
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(tallies.sqlite_trigger(schema_editor.connection))


def drop_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute("DROP TRIGGER IF EXISTS drill_answer_tallied")


class Migration(migrations.Migration):
    dependencies = [("trainer", "0013_tallies")]

    operations = [
        migrations.RunPython(count_every_answer, migrations.RunPython.noop),
        migrations.RunPython(create_trigger, drop_trigger),
    ]
