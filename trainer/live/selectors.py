"""Reads of the live tables: the lobby's tables, a table's version (all a poll reads when
nothing changed), the table itself, and the names of the accounts at it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import Case, IntegerField, Q, Value, When
from django.utils.translation import gettext as _

from engine.live_table import LiveTable
from engine.rules import DELUXE
from trainer.live.table import LiveSnapshot
from trainer.models import SharedTable
from trainer.shared.owners import Owner
from trainer.shared.unit_of_work import NotFound

MAX_SEATS = DELUXE.max_seats


def player_names(shown: LiveSnapshot) -> dict[str, str]:
    """The user names of the accounts at the table, by engine owner name: one query when
    the accounts at the table change, else none (`table_snapshot` keeps them with the
    version, and hands them on to the next while the same accounts are there: an
    account's name never changes)."""
    kept = _kept(shown.row.pk, _head_of(shown))
    if kept is not None and kept.names is not None:
        return kept.names
    users = get_user_model().objects.filter(pk__in=_account_ids(shown.table))
    names = {Owner.account(pk).name: name for pk, name in users.values_list("pk", "username")}
    if kept is not None and kept.shown is shown:
        kept.names = names
    return names


def _account_ids(table: LiveTable) -> frozenset[int]:
    """The accounts at the table: with chips at it, or holding a seat."""
    owners = set(table.balances) | {holder.owner for holder in table.holders.values()}
    people = (Owner.named(name) for name in owners)
    return frozenset(p.user_id for p in people if p is not None and p.user_id is not None)


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


class Head(NamedTuple):
    """What tells a table's version apart for good: its version, and its opening time
    (a database may hand a removed table's id out again)."""

    version: int
    opened_at: datetime


def _head_of(shown: LiveSnapshot) -> Head:
    return Head(shown.row.version, shown.row.opened_at)


def table_head(table_id: int) -> Head | None:
    """The table's `Head` (None if there is no such table): two columns, nothing parsed."""
    found = SharedTable.objects.filter(pk=table_id).values_list("version", "opened_at").first()
    return None if found is None else Head(*found)


def table_snapshot(table_id: int, head: Head | None = None) -> LiveSnapshot:
    """The stored table, parsed once per version in this process for all its viewers
    (`NotFound` if there is none). ``head`` is the one the caller has just read (else it
    is read here): a kept snapshot is served only if it is that version of that table,
    and every change writes a new version, so none is stale."""
    head = head or table_head(table_id)
    if head is not None:
        kept = _kept(table_id, head)
        if kept is not None:
            return kept.shown
    row = SharedTable.objects.filter(pk=table_id).first()
    if row is None:
        raise NotFound(_("There is no such table."))
    shown = LiveSnapshot(row, LiveTable.from_json(row.state))
    keep(shown)
    return shown


#: The tables kept parsed in this process: the latest few hundred asked for.
SNAPSHOTS_KEPT = 256


@dataclass
class _Kept:
    """One table's latest version read in this process, and its players' names (None
    until asked for), those of the accounts ``accounts``."""

    shown: LiveSnapshot
    accounts: frozenset[int]
    names: dict[str, str] | None = field(default=None)


_snapshots: OrderedDict[int, _Kept] = OrderedDict()
_snapshots_lock = threading.Lock()


def _kept(table_id: int, head: Head) -> _Kept | None:
    """The kept snapshot of this table at this head, if it is kept."""
    with _snapshots_lock:
        kept = _snapshots.get(table_id)
        if kept is None or _head_of(kept.shown) != head:
            return None
        _snapshots.move_to_end(table_id)
        return kept


def keep(shown: LiveSnapshot) -> None:
    """Keep the snapshot for the next viewers, unless a later version is kept already:
    one read here, or one this process has just written (committed)."""
    row = shown.row
    accounts = _account_ids(shown.table)
    names = None
    with _snapshots_lock:
        kept = _snapshots.get(row.pk)
        if kept is not None:
            was, new = _head_of(kept.shown), _head_of(shown)
            if was.opened_at == new.opened_at:
                if was.version > new.version:
                    return
                if kept.accounts == accounts:
                    names = kept.names  # the same people: the same names
        _snapshots[row.pk] = _Kept(shown, accounts, names)
        _snapshots.move_to_end(row.pk)
        while len(_snapshots) > SNAPSHOTS_KEPT:
            _snapshots.popitem(last=False)


def forget_snapshots() -> None:
    """Drop every kept snapshot (tests, whose databases hand out a table's id again)."""
    with _snapshots_lock:
        _snapshots.clear()
