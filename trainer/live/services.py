"""The live tables' writes: opening a table, applying passed deadlines, and each person's
request, every change through `trainer.shared.unit_of_work` on the table's aggregate
(`trainer.live.table`).

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
person has cashed out the table closes; so does a table where no person has sat for
`IDLE` (everyone there cashed out), when the next request — the lobby's included — finds
it so. One account may have at most `MOST_OPEN` tables open that it opened and is still at.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import BooleanField, ExpressionWrapper, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.errors import IllegalActionError
from engine.live_public import Stage
from engine.live_table import PACES, LiveTable
from engine.rules import DELUXE
from engine.shoe import Shoe
from engine.table import BotSeat
from engine.values import Action
from trainer.live import selectors
from trainer.live.selectors import Head
from trainer.live.table import LiveChange, LiveSnapshot, deadline_of, locked, moment
from trainer.models import SharedTable
from trainer.shared import unit_of_work
from trainer.shared.owners import Owner
from trainer.shared.refusals import refusal
from trainer.shared.unit_of_work import Moved, Refused

#: The chips a person may bring to a table (as a practice table's bankroll).
BUY_INS: tuple[int, ...] = (500, 1000, 5000)
#: A table where no person has sat for this long closes (the lobby says so).
IDLE = timedelta(minutes=10)
#: The open tables one account may have opened and still be at.
MOST_OPEN = 2


def _due(now: datetime) -> Q:
    """A table with a deadline passed, or empty of players for `IDLE`: something to apply
    (indexed columns; nothing parsed otherwise)."""
    return Q(closed_at__isnull=True) & (Q(deadline__lte=now) | Q(empty_since__lte=now - IDLE))


def apply_deadlines(table_id: int, now: datetime) -> bool:
    """Apply the deadlines passed by ``now``, and close the table if no person has sat
    at it for `IDLE`, if its stored columns say either is due. Whether it changed."""
    if not SharedTable.objects.filter(_due(now), pk=table_id).exists():
        return False
    return _deadlines_applied(table_id, now) is not None


def current_head(table_id: int, now: datetime) -> Head | None:
    """The table's `Head` as of ``now`` (None if there is no such table), the deadlines
    passed applied first: what a view reads before anything else, in one query when
    nothing is due (the version, and whether something is due, read together)."""
    due = ExpressionWrapper(_due(now), output_field=BooleanField())
    found = (
        SharedTable.objects.filter(pk=table_id)
        .annotate(due=due)
        .values_list("version", "opened_at", "due")
        .first()
    )
    if found is None:
        return None
    version, opened_at, is_due = found
    if not is_due:
        return Head(version, opened_at)
    applied = _deadlines_applied(table_id, now)
    return Head(applied, opened_at) if applied is not None else selectors.table_head(table_id)


def _deadlines_applied(table_id: int, now: datetime) -> int | None:
    """Apply what is due at the table, under its lock; its new version, or None if
    nothing was left to apply (another request applied it first)."""
    with transaction.atomic():
        change = locked(table_id, now)
        if change.row.closed_at is not None:  # another request closed it first
            return None
        before = change.table.deadline
        change.table.advance(now)
        change.record_settled()
        closed = _close_if_idle(change.table, now)
        if change.table.deadline == before and not closed:  # another applied them first
            return None
        change.save()
        _kept_once_committed(change)
    return change.row.version


def _kept_once_committed(change: LiveChange) -> None:
    """The version written is kept for this process's viewers once it is committed: the
    next to draw it (this process's streams first of all) neither reads nor parses it."""
    transaction.on_commit(lambda: selectors.keep(change.snapshot()))


def _close_if_idle(table: LiveTable, now: datetime) -> bool:
    """Cash out every person at a table no person has sat at for `IDLE` (not while a
    round is in play: it ends first). The save then closes it, as at the last cash-out."""
    since = table.empty_since
    if since is None or now.timestamp() - since < IDLE.total_seconds():
        return False
    if table.stage is Stage.PLAYING:
        return False
    for name in [name for name in table.balances if Owner.named(name) is not None]:
        table.cash_out(name, now=now)
    return True


def tables_brought_up(table_ids: list[int], now: datetime) -> bool:
    """Apply what is due at each of these tables (the lobby's page) so that what it
    shows is current. Whether any changed.

    Only where a count could move: a deadline passed with a person seated (who may be
    unseated), or an idle close. A table nobody sits at opens and closes an empty window
    every 15 s, which changes none of its figures: left to the next request at it."""
    seated = Q(deadline__lte=now, empty_since__isnull=True)
    counts = Q(closed_at__isnull=True) & (seated | Q(empty_since__lte=now - IDLE))
    due = SharedTable.objects.filter(counts, pk__in=table_ids).values_list("pk", flat=True)
    changed = [apply_deadlines(table_id, now) for table_id in list(due)]  # each, not the first
    return any(changed)


def idle_tables_closed(now: datetime, *, most: int = 50) -> int:
    """Close up to ``most`` tables empty of players for `IDLE` (the lobby's read: no
    background worker does it). How many closed."""
    idle = SharedTable.objects.filter(closed_at__isnull=True, empty_since__lte=now - IDLE)
    ids = list(idle.values_list("pk", flat=True)[:most])
    return sum(apply_deadlines(table_id, now) for table_id in ids)


def open_table(
    *, user_id: int, bots: list[BotSeat], seats: list[int], buy_in: int, now: datetime,
    pace: int = PACES[0], shoe: Shoe | None = None,
) -> SharedTable:  # fmt: skip
    """A new Deluxe table: its bots seated, its opener bought in and in ``seats``, each
    decision given ``pace`` seconds."""
    owner = Owner.account(user_id).name
    if buy_in not in BUY_INS:
        raise Refused(
            _("Not allowed: %(reason)s.") % {"reason": _("Choose one of the buy-ins offered")}
        )
    if pace not in PACES:
        raise Refused(
            _("Not allowed: %(reason)s.") % {"reason": _("Choose one of the paces offered")}
        )
    with transaction.atomic():
        # The account's row, locked: its openings take turns, so that two at once cannot
        # both find one table open and each make a second.
        get_user_model().objects.select_for_update().filter(pk=user_id).first()
        if _tables_at(user_id, owner, now) >= MOST_OPEN:
            raise Refused(
                ngettext(
                    "You have %(count)s table open already: cash out of it to open another.",
                    "You have %(count)s tables open already: cash out of one to open another.",
                    MOST_OPEN,
                )
                % {"count": MOST_OPEN}
            )
        return _opened(owner, user_id, bots, seats, buy_in, now, pace, shoe)


def _tables_at(user_id: int, owner: str, now: datetime) -> int:
    """The open tables the account opened and is still at (those found idle closed)."""
    opened = SharedTable.objects.filter(opened_by_id=user_id, closed_at__isnull=True)
    for table_id in opened.values_list("pk", flat=True):
        apply_deadlines(table_id, now)
    states = opened.values_list("state", flat=True)
    return sum(owner in LiveTable.from_json(state).balances for state in states)


def _opened(
    owner: str, user_id: int, bots: list[BotSeat], seats: list[int], buy_in: int,
    now: datetime, pace: int, shoe: Shoe | None,
) -> SharedTable:  # fmt: skip
    try:
        table = LiveTable.new(DELUXE, now=now, bots=bots, shoe=shoe, decision_seconds=pace)
        table.buy_in(owner, buy_in, now=now)
        for seat in seats:
            table.sit(owner, seat, now=now)
    except IllegalActionError as error:
        raise Refused(refusal(error)) from None
    return SharedTable.objects.create(
        rules_name=DELUXE.name,
        rules_version=DELUXE.version,
        state=table.to_json(),
        deadline=deadline_of(table),
        seats_taken=len(table.holders),
        people=1,  # the opener, bought in
        empty_since=None if table.empty_since is None else moment(table.empty_since),
        decision_seconds=pace,
        minimum_bet=table.limits.minimum,
        maximum_bet=table.limits.maximum,
        opened_by_id=user_id,
        opened_at=now,
    )


class LiveOp(StrEnum):
    """A request a live table takes."""

    JOIN = "join"
    CASH_OUT = "cash_out"
    SIT = "sit"
    LEAVE_SEAT = "leave_seat"
    SIT_OUT = "sit_out"
    BET = "bet"
    BEHIND = "behind"
    PAIR = "pair"
    CLEAR = "clear"
    ACT = "act"
    PRESELECT = "preselect"

    @property
    def needs(self) -> tuple[str, ...]:
        """The order's fields this request must carry."""
        return _NEEDS.get(self, ())


_NEEDS: dict[LiveOp, tuple[str, ...]] = {
    LiveOp.JOIN: ("amount",),
    LiveOp.SIT: ("seat",),
    LiveOp.LEAVE_SEAT: ("seat",),
    LiveOp.SIT_OUT: ("seat",),
    LiveOp.BET: ("seat", "amount"),
    LiveOp.BEHIND: ("seat", "amount"),
    LiveOp.PAIR: ("seat", "amount"),
    LiveOp.ACT: ("action", "version"),
    LiveOp.PRESELECT: ("seat",),
}


@dataclass(frozen=True)
class LiveOrder:
    """One request at a live table, as its form checked it."""

    op: LiveOp
    #: The version the order was made from: an action's alone (see the module's doc).
    version: int | None = None
    seat: int | None = None
    amount: int | None = None
    action: str | None = None


def _apply(table: LiveTable, owner: Owner, order: LiveOrder, now: datetime) -> None:
    """Hand the order to the engine (which refuses what the rules do not allow)."""
    name = owner.name
    seat, amount = order.seat or 0, order.amount or 0
    match order.op:
        case LiveOp.JOIN:
            if name in table.balances:
                raise Refused(_("You are at this table already."))
            if amount not in BUY_INS:
                raise Refused(_("Choose one of the buy-ins offered."))
            table.buy_in(name, amount, now=now)
        case LiveOp.CASH_OUT:
            if name not in table.balances:
                raise Refused(_("You have no chips at this table."))
            table.cash_out(name, now=now)
        case LiveOp.SIT:
            table.sit(name, seat, now=now, may_sit=owner.user_id is not None)
        case LiveOp.LEAVE_SEAT:
            table.leave(name, seat, now=now)
        case LiveOp.SIT_OUT:
            table.sit_out(name, seat, now=now)
        case LiveOp.BET:
            table.bet(name, seat, amount, now=now)
        case LiveOp.BEHIND:
            table.bet_behind(name, seat, amount, now=now)
        case LiveOp.PAIR:
            table.pair_bet(name, seat, amount, now=now)
        case LiveOp.CLEAR:
            table.clear_bets(name, now=now)
        case LiveOp.ACT:
            table.act(name, Action(order.action or ""), now=now)
        case LiveOp.PRESELECT:  # no action clears the choice
            chosen = Action(order.action) if order.action else None
            table.preselect(name, seat, chosen, now=now)


def _changing(table_id: int, now: datetime) -> AbstractContextManager[LiveChange]:
    """The locked table, saved whole or not at all (`trainer.shared.unit_of_work`)."""
    return unit_of_work.changing(lambda: locked(table_id, now), name=f"live table {table_id}")


def live_request(*, owner: Owner, table_id: int, order: LiveOrder, now: datetime) -> LiveSnapshot:
    """Carry out one person's request at the table, the deadlines passed applied first
    (and kept, even if the request is refused)."""
    apply_deadlines(table_id, now)
    with _changing(table_id, now) as change:
        if change.row.closed_at is not None:
            raise Refused(_("This table is closed."))
        if order.op is LiveOp.ACT and order.version != change.row.version:
            raise Moved(_("The table had moved on: here it is now."))
        change.table.advance(now)
        change.record_settled()
        _apply(change.table, owner, order, now)
        change.record_settled()
        _kept_once_committed(change)  # saved as the block ends, or nothing is
    return change.snapshot()
