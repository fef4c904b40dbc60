"""A live table as one aggregate: its `SharedTable` row and the engine's `LiveTable`, loaded
once (locked) and saved once, with the bets its rounds settled."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import connection
from django.utils.translation import gettext as _

from engine.events import StakeSettled
from engine.live_public import LivePublic
from engine.live_table import LiveTable
from engine.round import Phase
from trainer.models import Bet, SharedTable
from trainer.shared.owners import Owner
from trainer.shared.unit_of_work import Moved, NotFound

_OVER = (Phase.SETTLED, Phase.VOIDED)


def moment(seconds: float) -> datetime:
    """The engine's clock reading (seconds since the epoch) as the database keeps times."""
    return datetime.fromtimestamp(seconds, tz=UTC)


def deadline_of(table: LiveTable) -> datetime | None:
    """The table's next deadline as the database keeps it: None while there is none (a
    new table's first window, waiting for its first bet)."""
    return None if math.isinf(table.deadline) else moment(table.deadline)


@dataclass(frozen=True)
class LiveSnapshot:
    """A table's row and its engine table at one moment (server-side: the page shows
    only ``table.public(viewer)``)."""

    row: SharedTable
    table: LiveTable

    def public(self, owner: Owner) -> LivePublic:
        return self.table.public(owner.name)


class LiveChange:
    """One table while a request changes it: the engine decides, `save` writes once."""

    def __init__(self, row: SharedTable, now: datetime) -> None:
        self.row = row
        self.now = now
        self.table = LiveTable.from_json(row.state)
        self.rounds_recorded = row.rounds_recorded
        self._bets: list[Bet] = []

    def snapshot(self) -> LiveSnapshot:
        return LiveSnapshot(self.row, self.table)

    def record_settled(self) -> None:
        """Put the last round's settled stakes on record once it is over (every person's,
        bots' aside). Called after each step that may end a round: at most one ends in
        a step, since a round needs bets placed in a window that opens after the last."""
        rnd, number = self.table.round, self.table.rounds
        if rnd is None or rnd.phase not in _OVER or number <= self.rounds_recorded:
            return
        for event in rnd.history():
            if not isinstance(event, StakeSettled):
                continue
            whose = Owner.named(event.owner)
            if whose is None:  # a bot's
                continue
            self._bets.append(
                Bet.settled(
                    event,
                    **whose.fields(),
                    live_table=self.row,
                    live_round=number,
                    rules_name=self.row.rules_name,
                    rules_version=self.row.rules_version,
                    settled_at=self.now,
                )
            )
        self.rounds_recorded = number

    def save(self) -> None:
        """The table one version on from the version loaded, and the bets it settled."""
        table, loaded = self.table, self.row.version
        people = [name for name in table.balances if Owner.named(name) is not None]
        changes = {
            "state": table.to_json(),
            "version": loaded + 1,
            "deadline": deadline_of(table),
            "seats_taken": len(table.holders),
            "people": len(people),
            "empty_since": None if table.empty_since is None else moment(table.empty_since),
            "rounds_recorded": self.rounds_recorded,
            "closed_at": None if people else self.now,
        }
        updated = SharedTable.objects.filter(pk=self.row.pk, version=loaded).update(**changes)
        if not updated:  # only a write outside the lock can get here: undo everything
            raise Moved(_("The table had moved on: here it is now."))
        Bet.objects.bulk_create(self._bets)
        self._bets = []
        for name, value in changes.items():
            setattr(self.row, name, value)
        notify_version(self.row.pk, loaded + 1)


#: The PostgreSQL channel on which live tables' new versions are announced
#: (`trainer.live.push`).
CHANNEL = "live_table"


def notify_version(table_id: int, version: int) -> None:
    """Tell every app server, when the current transaction commits, that the table is now
    at ``version`` (PostgreSQL's NOTIFY: nothing on a database without it)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{table_id}:{version}"])


def locked(table_id: int, now: datetime) -> LiveChange:
    """The table, its row locked until the transaction ends (`NotFound` if there is none)."""
    row = SharedTable.objects.select_for_update().filter(pk=table_id).first()
    if row is None:
        raise NotFound(_("There is no such table."))
    return LiveChange(row, now)
