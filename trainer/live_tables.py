"""Live tables as aggregates: a `SharedTable` row and the engine's `LiveTable`, loaded
once and saved once, like a practice table (`trainer.practice_table`).

Several people change one table, so every change locks its row (``select_for_update``):
racing requests take turns, each reading what the one before wrote. The engine reads no
clock: a request reads ``timezone.now()`` once and hands it to every call. Deadlines are
applied by the next request that touches the table (`apply_deadlines`, then every
change), each as of its own time — the engine plays the table on exactly as if someone
had been looking — so nothing lives in a process's memory and any app server may serve
any request.

An action on a hand (``act``) must be made from the table's current version: a double
click, or a click on a table that moved on, changes nothing. The other requests set
absolute values (a bet of 50, seat 3) and are taken from any version.

Chips: a person buys in on joining (`BUY_INS`) and the chips stay at that table;
cashing out leaves with them, to nowhere (virtual chips, no wallet). When the last
person has cashed out the table closes.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from engine.errors import IllegalActionError
from engine.events import StakeSettled
from engine.live_public import LivePublic
from engine.live_table import LiveTable
from engine.round import Phase
from engine.rules import DELUXE
from engine.shoe import Shoe
from engine.table import BotSeat
from engine.values import Action
from trainer.models import Bet, SharedTable
from trainer.owners import Owner
from trainer.practice_table import refusal

__all__ = [
    "BUY_INS",
    "OPS",
    "LiveOrder",
    "LiveMoved",
    "LiveNotFound",
    "LiveRefused",
    "LiveSnapshot",
    "apply_deadlines",
    "live_request",
    "open_table",
    "open_tables",
    "player_names",
    "seat_owner",
    "table_snapshot",
    "table_version",
]

logger = logging.getLogger(__name__)

#: The chips a person may bring to a table (as a practice table's bankroll).
BUY_INS: tuple[int, ...] = (500, 1000, 5000)
_OVER = (Phase.SETTLED, Phase.VOIDED)


def seat_owner(owner: Owner) -> str:
    """The engine's name for a person: ``account <id>``, or ``guest <token>``."""
    if owner.user_id is not None:
        return f"account {owner.user_id}"
    return f"guest {owner.guest_token}"


def _record_owner(name: str) -> dict[str, object] | None:
    """The bet record's owner fields for an engine owner name (None for a bot)."""
    kind, _space, key = name.partition(" ")
    if kind == "account":
        return {"user_id": int(key), "guest_token": ""}
    if kind == "guest":
        return {"user_id": None, "guest_token": key}
    return None


def _moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)


@dataclass(frozen=True)
class LiveSnapshot:
    """A table's row and its engine table at one moment (server-side: the page shows
    only ``table.public(viewer)``)."""

    row: SharedTable
    table: LiveTable

    def public(self, owner: Owner) -> LivePublic:
        return self.table.public(seat_owner(owner))


class LiveRefused(Exception):
    """A request the table cannot take; the message is fit to show. ``shown`` is the
    table as it stands, when it was read on the way."""

    def __init__(self, message: str, *, shown: LiveSnapshot | None = None) -> None:
        super().__init__(message)
        self.shown = shown


class LiveMoved(LiveRefused):
    """An action made from an older version of the table (a double click, a replay)."""


class LiveNotFound(LiveRefused):
    """No table has that id."""


class _Change:
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
            whose = _record_owner(event.owner)
            if whose is None:
                continue
            self._bets.append(
                Bet.settled(
                    event,
                    **whose,
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
        people = [owner for owner in table.balances if not owner.startswith("bot ")]
        changes = {
            "state": table.to_json(),
            "version": loaded + 1,
            "deadline": _moment(table.deadline),
            "seats_taken": len(table.holders),
            "rounds_recorded": self.rounds_recorded,
            "closed_at": None if people else self.now,
        }
        updated = SharedTable.objects.filter(pk=self.row.pk, version=loaded).update(**changes)
        if not updated:  # only a write outside the lock can get here: undo everything
            raise LiveMoved(_("The table had moved on: here it is now."))
        Bet.objects.bulk_create(self._bets)
        self._bets = []
        for name, value in changes.items():
            setattr(self.row, name, value)


def _locked(table_id: int, now: datetime) -> _Change:
    row = SharedTable.objects.select_for_update().filter(pk=table_id).first()
    if row is None:
        raise LiveNotFound(_("There is no such table."))
    return _Change(row, now)


def player_names(public: LivePublic) -> dict[str, str]:
    """The user names of the accounts at the table, by engine owner name (one query)."""
    owners = {seat.owner for seat in public.seats} | {owner for owner, _c in public.balances}
    ids = [int(o.removeprefix("account ")) for o in owners if o.startswith("account ")]
    users = get_user_model().objects.filter(pk__in=ids).values_list("pk", "username")
    return {f"account {pk}": name for pk, name in users}


def open_tables(limit: int = 50) -> list[SharedTable]:
    """The lobby's tables: open ones, the newest first."""
    return list(SharedTable.objects.filter(closed_at__isnull=True).order_by("-opened_at")[:limit])


def table_version(table_id: int) -> int | None:
    """The table's stored version (None if there is no such table): all a poll reads
    when nothing changed."""
    return SharedTable.objects.filter(pk=table_id).values_list("version", flat=True).first()


def table_snapshot(table_id: int) -> LiveSnapshot:
    """The stored table, parsed once (`LiveNotFound` if there is none)."""
    row = SharedTable.objects.filter(pk=table_id).first()
    if row is None:
        raise LiveNotFound(_("There is no such table."))
    return LiveSnapshot(row, LiveTable.from_json(row.state))


def apply_deadlines(table_id: int, now: datetime) -> bool:
    """Apply the deadlines passed by ``now``, if the stored deadline says one has (a
    query on an indexed column; no parsing otherwise). Whether the table changed."""
    due = SharedTable.objects.filter(pk=table_id, deadline__lte=now, closed_at__isnull=True)
    if not due.exists():
        return False
    with transaction.atomic():
        change = _locked(table_id, now)
        before = change.table.deadline
        change.table.advance(now)
        if change.table.deadline == before:  # another request applied them first
            return False
        change.record_settled()
        change.save()
    return True


def open_table(
    *, user_id: int, bots: list[BotSeat], seats: list[int], buy_in: int, now: datetime,
    shoe: Shoe | None = None,
) -> SharedTable:  # fmt: skip
    """A new Deluxe table: its bots seated, its opener bought in and in ``seats``."""
    owner = f"account {user_id}"
    if buy_in not in BUY_INS:
        raise LiveRefused(
            _("Not allowed: %(reason)s.") % {"reason": _("Choose one of the buy-ins offered")}
        )
    try:
        table = LiveTable.new(DELUXE, now=now, bots=bots, shoe=shoe)
        table.buy_in(owner, buy_in, now=now)
        for seat in seats:
            table.sit(owner, seat, now=now)
    except IllegalActionError as error:
        raise LiveRefused(refusal(error)) from None
    return SharedTable.objects.create(
        rules_name=DELUXE.name,
        rules_version=DELUXE.version,
        state=table.to_json(),
        deadline=_moment(table.deadline),
        seats_taken=len(table.holders),
        minimum_bet=table.limits.minimum,
        maximum_bet=table.limits.maximum,
        opened_by_id=user_id,
        opened_at=now,
    )


@dataclass(frozen=True)
class LiveOrder:
    """One request at a live table, as its form checked it."""

    op: str
    version: int
    seat: int | None = None
    amount: int | None = None
    action: str | None = None


#: The requests a table takes, each with the fields it needs.
OPS: dict[str, tuple[str, ...]] = {
    "join": ("amount",),
    "cash_out": (),
    "sit": ("seat",),
    "leave_seat": ("seat",),
    "sit_out": ("seat",),
    "bet": ("seat", "amount"),
    "behind": ("seat", "amount"),
    "pair": ("seat", "amount"),
    "clear": (),
    "act": ("action",),
    "preselect": ("seat",),
}


def _apply(table: LiveTable, owner: Owner, order: LiveOrder, now: datetime) -> None:
    """Hand the order to the engine (which refuses what the rules do not allow)."""
    name = seat_owner(owner)
    seat, amount = order.seat or 0, order.amount or 0
    match order.op:
        case "join":
            if name in table.balances:
                raise LiveRefused(_("You are at this table already."))
            if amount not in BUY_INS:
                raise LiveRefused(_("Choose one of the buy-ins offered."))
            table.buy_in(name, amount, now=now)
        case "cash_out":
            if name not in table.balances:
                raise LiveRefused(_("You have no chips at this table."))
            table.cash_out(name, now=now)
        case "sit":
            table.sit(name, seat, now=now, may_sit=owner.user_id is not None)
        case "leave_seat":
            table.leave(name, seat, now=now)
        case "sit_out":
            table.sit_out(name, seat, now=now)
        case "bet":
            table.bet(name, seat, amount, now=now)
        case "behind":
            table.bet_behind(name, seat, amount, now=now)
        case "pair":
            table.pair_bet(name, seat, amount, now=now)
        case "clear":
            table.clear_bets(name, now=now)
        case "act":
            table.act(name, Action(order.action or ""), now=now)
        case "preselect":  # no action clears the choice
            chosen = Action(order.action) if order.action else None
            table.preselect(name, seat, chosen, now=now)
        case _:
            raise LiveRefused(_("The table does not take that request."))


@contextmanager
def _changing(*, table_id: int, now: datetime) -> Iterator[_Change]:
    """The locked table, saved whole or not at all; any refusal carries it as it stands."""
    shown: LiveSnapshot | None = None
    try:
        with transaction.atomic():
            change = _locked(table_id, now)
            shown = change.snapshot()
            if change.row.closed_at is not None:
                raise LiveRefused(_("This table is closed."), shown=shown)
            try:
                yield change
            except IllegalActionError as error:
                raise LiveRefused(refusal(error), shown=shown) from None
            except LiveRefused as refused:
                refused.shown = refused.shown or shown
                raise
            change.save()
    except LiveRefused:
        raise
    except Exception:
        logger.exception("live table %s: a request failed and was undone", table_id)
        raise LiveRefused(
            _("Something went wrong at the table. Nothing was changed."), shown=shown
        ) from None


def live_request(*, owner: Owner, table_id: int, order: LiveOrder, now: datetime) -> LiveSnapshot:
    """Carry out one person's request at the table, the deadlines passed applied first
    (and kept, even if the request is refused)."""
    apply_deadlines(table_id, now)
    with _changing(table_id=table_id, now=now) as change:
        if order.op == "act" and order.version != change.row.version:
            raise LiveMoved(_("The table had moved on: here it is now."))
        change.table.advance(now)
        change.record_settled()
        _apply(change.table, owner, order, now)
        change.record_settled()
    return change.snapshot()
