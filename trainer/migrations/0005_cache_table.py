"""The table of the database cache (settings.CACHES["default"]), so `migrate` alone
prepares a deployment; with another cache backend configured this does nothing."""

from __future__ import annotations

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps: object, schema_editor: object) -> None:
    call_command("createcachetable", verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("trainer", "0004_practice")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
