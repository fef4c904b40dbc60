"""Reads of the live tables: the lobby's tables, a table's version (all a poll reads when
nothing changed), the table itself, and the names of the accounts at it."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import Case, IntegerField, Q, Value, When
from django.utils.translation import gettext as _

from engine.live_public import LivePublic
from engine.live_table import LiveTable
from engine.rules import DELUXE
from trainer.live.table import LiveSnapshot
from trainer.models import SharedTable
from trainer.shared.owners import Owner
from trainer.shared.unit_of_work import NotFound

MAX_SEATS = DELUXE.max_seats


def player_names(public: LivePublic) -> dict[str, str]:
    """The user names of the accounts at the table, by engine owner name (one query)."""
    owners = {seat.owner for seat in public.seats} | {owner for owner, _c in public.balances}
    people = (Owner.named(name) for name in owners)
    ids = [person.user_id for person in people if person is not None and person.user_id]
    users = get_user_model().objects.filter(pk__in=ids).values_list("pk", "username")
    return {Owner.account(pk).name: name for pk, name in users}


#: The lobby's tables a page.
LOBBY_PAGE = 50


def lobby_page(number: str | None) -> Page[SharedTable]:
    """A page of the open tables: first those with a seat free and people at them (the
    most people first), then the others; the newest first within each. A page number
    that is not one gives the first page, one past the end the last."""
    playing = Q(seats_taken__lt=MAX_SEATS, people__gt=0)
    joinable = Case(When(playing, then=Value(0)), default=Value(1), output_field=IntegerField())
    tables = SharedTable.objects.filter(closed_at__isnull=True).order_by(
        joinable.asc(), "-people", "-opened_at", "-pk"
    )
    return Paginator(tables, LOBBY_PAGE).get_page(number)


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
