"""A player's rule changes kept as the engine's rule fields and their values (a JSON
object) rather than as the text they were typed in."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models


def _read(text: str) -> dict[str, str]:
    """``decks=2, dealer_hits_soft_17=true`` as fields and values. Read as leniently as
    it was stored: whatever the engine no longer accepts is told to the player, with the
    preset's rules, when the drill deals."""
    pairs = (piece.partition("=") for piece in text.replace(";", ",").split(","))
    return {field.strip(): value.strip() for field, sep, value in pairs if sep and field.strip()}


def _write(changes: dict[str, str]) -> str:
    return ", ".join(f"{field}={value}" for field, value in changes.items())


def forwards(apps: Any, schema_editor: Any) -> None:
    Preferences = apps.get_model("trainer", "Preferences")
    for row in Preferences.objects.exclude(custom_rules=""):
        row.rule_changes = _read(row.custom_rules)
        row.save(update_fields=["rule_changes"])


def backwards(apps: Any, schema_editor: Any) -> None:
    Preferences = apps.get_model("trainer", "Preferences")
    for row in Preferences.objects.exclude(rule_changes={}):
        row.custom_rules = _write(row.rule_changes)
        row.save(update_fields=["custom_rules"])


class Migration(migrations.Migration):
    dependencies = [("trainer", "0014_count_tallies")]

    operations = [
        migrations.AddField(
            model_name="preferences",
            name="rule_changes",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="preferences", name="custom_rules"),
    ]
