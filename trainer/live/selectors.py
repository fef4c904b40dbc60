"""Reads of the live tables: the lobby's tables, a table's version (all a poll reads when
nothing changed), the table itself, and the names of the accounts at it."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from engine.live_public import LivePublic
from engine.live_table import LiveTable
from trainer.live.table import LiveSnapshot
from trainer.models import SharedTable
from trainer.shared.owners import Owner
from trainer.shared.unit_of_work import NotFound


def player_names(public: LivePublic) -> dict[str, str]:
    """The user names of the accounts at the table, by engine owner name (one query)."""
    owners = {seat.owner for seat in public.seats} | {owner for owner, _c in public.balances}
    people = (Owner.named(name) for name in owners)
    ids = [person.user_id for person in people if person is not None and person.user_id]
    users = get_user_model().objects.filter(pk__in=ids).values_list("pk", "username")
    return {Owner.account(pk).name: name for pk, name in users}


def open_tables(limit: int = 50) -> list[SharedTable]:
    """The lobby's tables: open ones, the newest first."""
    return list(SharedTable.objects.filter(closed_at__isnull=True).order_by("-opened_at")[:limit])


def table_version(table_id: int) -> int | None:
    """The table's stored version (None if there is no such table): all a poll reads
    when nothing changed."""
    return SharedTable.objects.filter(pk=table_id).values_list("version", flat=True).first()


def table_snapshot(table_id: int) -> LiveSnapshot:
    """The stored table, parsed once (`NotFound` if there is none)."""
    row = SharedTable.objects.filter(pk=table_id).first()
    if row is None:
        raise NotFound(_("There is no such table."))
    return LiveSnapshot(row, LiveTable.from_json(row.state))
