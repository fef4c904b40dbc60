"""Practice sessions: the practice table's use cases, each one transaction.

A session keeps the engine's `Table` as JSON with a version number. Every change locks
the session's row, checks the version the request was made from, lets the engine decide,
and writes the table back one version on, all in one transaction: of two racing or
replayed requests (a double click) exactly one takes effect, and the other waits for it,
then is told the table moved on and changes nothing. Anything that fails half-way rolls
the whole transaction back and is refused with a message, never let through as an error.

A player has one open table at most: the database holds it (a partial unique constraint
per account and per guest), and a new table ends the open one under its lock.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.errors import IllegalActionError
from engine.grading import Grade, grade_decision
from engine.round import Phase
from engine.round_codec import history_to_json
from engine.rules import Rules
from engine.shoe import Shoe
from engine.table import PLAYER, BotSeat, Table
from engine.view import PlayerView
from trainer.models import Drill, PracticeRound, PracticeSession
from trainer.owners import Owner

__all__ = [
    "BANKROLLS",
    "CHIPS",
    "SeatChoice",
    "TableMoved",
    "TableRefused",
    "practice_act",
    "practice_adopt",
    "practice_chip",
    "practice_deal",
    "practice_end",
    "practice_options",
    "practice_start",
    "practice_take_back",
]

logger = logging.getLogger(__name__)

#: The chip buttons' values; the table's bets go in steps of the smallest.
CHIPS: tuple[int, ...] = (10, 50, 100, 500)
BANKROLLS: tuple[int, ...] = (500, 1000, 5000)
#: How often a new table is tried again after a racing start took the one open place.
START_ATTEMPTS = 3


class TableRefused(Exception):
    """A request the table cannot take; its message is fit to show the player."""


class TableMoved(TableRefused):
    """The request was made from an older state of the table (another tab, a replay)."""


@dataclass(frozen=True)
class SeatChoice:
    """Who sits where at the start: the player, or a bot of a tier."""

    seat: int
    tier: str  # "you" for the player


def practice_start(
    *,
    owner: Owner,
    rules: Rules,
    bankroll: int,
    seats: Sequence[SeatChoice],
    hints: bool = False,
    coach: bool = False,
    shoe: Shoe | None = None,
) -> PracticeSession:
    """Sit down at a new table; a session still open is ended first (one table at a time).

    ``shoe`` is for tests and demos only (a stacked shoe); by default the shoe is shuffled
    with the system CSPRNG.
    """
    players = [choice.seat for choice in seats if choice.tier == "you"]
    if len(players) != 1:
        raise TableRefused(_("Choose exactly one seat for yourself."))
    bots = [BotSeat(choice.seat, choice.tier) for choice in seats if choice.tier != "you"]
    try:
        table = Table.new(rules, player_seat=players[0], bots=bots, bankroll=bankroll, shoe=shoe)
    except IllegalActionError as error:
        raise TableRefused(_refusal(error)) from None
    for _attempt in range(START_ATTEMPTS):
        try:
            with transaction.atomic():
                _end_open_tables(owner)
                return PracticeSession.objects.create(
                    user_id=owner.user_id,
                    guest_token="" if owner.user_id is not None else owner.guest_token,
                    rules_name=rules.name,
                    rules_version=rules.version,
                    bankroll=bankroll,
                    balance=bankroll,
                    next_bet=table.limits.minimum,
                    state=table.to_json(),
                    hints=hints,
                    coach=coach,
                )
        except IntegrityError:
            # A racing start opened a table after we looked (the one-open-table constraint
            # held): look again, and end that one in turn.
            continue
    raise TableRefused(_("Another table was being opened at the same moment. Please try again."))


def _end_open_tables(owner: Owner) -> None:
    """End the owner's open table, locked first (a racing action waits, then finds it
    over); refused while a round is in play there, its bet neither settled nor refunded."""
    for open_session in PracticeSession.objects.filter(
        **owner.filter(), ended_at__isnull=True
    ).select_for_update():
        if Table.from_json(open_session.state).in_play:
            raise TableRefused(_("Finish the round at your open table first."))
        PracticeSession.objects.filter(pk=open_session.pk).update(
            ended_at=timezone.now(), version=F("version") + 1
        )


def practice_chip(*, owner: Owner, session_id: int, version: int, chip: int | None) -> None:
    """Add a chip to the next bet (``None`` clears it): past the table maximum it brings the
    bet to the maximum; past the balance it is refused."""

    def change(session: PracticeSession, table: Table) -> None:
        if table.in_play:
            raise TableRefused(_("Bets are closed until this round is over."))
        if chip is None:
            session.next_bet = 0
            return
        if chip not in CHIPS:
            raise TableRefused(_("There is no such chip."))
        maximum = table.limits.maximum
        if session.next_bet >= maximum:
            raise TableRefused(_("The table maximum is %(maximum)s chips.") % {"maximum": maximum})
        bet = min(session.next_bet + chip, maximum)  # a big chip tops the bet up to the maximum
        if bet > session.balance:
            raise TableRefused(_("That bet is more than your balance."))
        session.next_bet = bet

    _change(owner, session_id, version, change)


def practice_deal(*, owner: Owner, session_id: int, version: int) -> None:
    """Deal a round at the next bet; the bots play up to the player's first decision."""

    def change(session: PracticeSession, table: Table) -> None:
        table.deal(session.next_bet)
        number = PracticeRound.objects.filter(session=session).count() + 1
        record = PracticeRound.objects.create(session=session, number=number, bet=session.next_bet)
        _close_round_if_over(session, table, record)

    _change(owner, session_id, version, change)


def practice_act(*, owner: Owner, session_id: int, version: int, action: str) -> None:
    """Take the player's decision, graded against the hard tier and recorded (source play).

    In coach mode a wrong decision is held back instead of played: it is recorded as the
    mistake it is, and the player may take it back or play it anyway. Played anyway, it is
    not graded again; taken back, the play made instead is checked and graded like any.
    """

    def change(session: PracticeSession, table: Table) -> None:
        view = table.view()
        record = _current_round(session)
        if session.held_action:
            if action != session.held_action:
                raise TableRefused(_("Take your play back or make it anyway first."))
            session.held_action = ""  # made anyway: recorded already, as the mistake it is
        else:
            grade = grade_decision(view, action)
            _record_decision(session, table, record, view, grade)
            if session.coach and not grade.is_correct:
                session.held_action = grade.chosen.value
                return
        table.act(action)
        _close_round_if_over(session, table, record)

    _change(owner, session_id, version, change)


def practice_take_back(*, owner: Owner, session_id: int, version: int) -> None:
    """Coach mode: drop the held-back mistake and decide again.

    The mistake stays recorded (it was the player's answer), marked as taken back so that
    the round's record shows the play made instead.
    """

    def change(session: PracticeSession, table: Table) -> None:
        if not session.held_action:
            raise TableRefused(_("There is no decision to take back."))
        held = Drill.objects.filter(practice_round__session=session).latest("pk")
        Drill.objects.filter(pk=held.pk).update(taken_back=True)
        session.held_action = ""

    _change(owner, session_id, version, change)


def practice_options(*, owner: Owner, session_id: int, hints: bool, coach: bool) -> None:
    """Turn hints and coach mode on or off; they change no game state, so any version."""
    session = _owned(owner, session_id)
    PracticeSession.objects.filter(pk=session.pk).update(hints=hints, coach=coach)


def practice_end(*, owner: Owner, session_id: int, version: int) -> None:
    """End the session; a round in play must be finished first."""

    def change(session: PracticeSession, table: Table) -> None:
        if table.in_play:
            raise TableRefused(_("Finish this round before you leave the table."))
        session.ended_at = timezone.now()

    _change(owner, session_id, version, change)


def practice_adopt(*, guest_token: str, user_id: int) -> int:
    """Give a guest's practice sessions to the account they signed up or logged in as.

    One table stays open, the one played last; any other is ended, and a round in play
    there is void, every bet in it refunded (the engine's void: it cannot be completed).
    """
    guests = Q(user__isnull=True, guest_token=guest_token)
    with transaction.atomic():
        # Closed before they move: the account may never hold two open tables.
        still_open = PracticeSession.objects.filter(
            guests | Q(user_id=user_id), ended_at__isnull=True
        )
        for session in list(still_open.select_for_update().order_by("-changed_at"))[1:]:
            _close(session, _("another table was opened"))
        return PracticeSession.objects.filter(guests).update(user_id=user_id, guest_token="")


def _close(session: PracticeSession, reason: str) -> None:
    """End a session, voiding its round in play (every bet refunded)."""
    table = Table.from_json(session.state)
    if table.in_play and table.round is not None:
        table.round.void(reason)
        _close_round_if_over(session, table, _current_round(session))
    PracticeSession.objects.filter(pk=session.pk).update(
        state=table.to_json(),
        version=session.version + 1,
        balance=table.balances[PLAYER],
        held_action="",
        ended_at=timezone.now(),
    )


# The one way a session changes ---------------------------------------------------------


def _owned(owner: Owner, session_id: int, *, lock: bool = False) -> PracticeSession:
    sessions = PracticeSession.objects.filter(**owner.filter(), pk=session_id)
    session = (sessions.select_for_update() if lock else sessions).first()
    if session is None:
        raise TableRefused(_("That table is not yours."))
    return session


def _change(
    owner: Owner,
    session_id: int,
    version: int,
    change: Callable[[PracticeSession, Table], None],
) -> None:
    """Apply one change to the table, whole or not at all (see the module doc)."""
    try:
        with transaction.atomic():
            _apply(owner, session_id, version, change)
    except TableRefused:
        raise
    except Exception:
        # A fault of ours (or a stacked shoe run out): the transaction is rolled back, so
        # the table is as it was; the player is told, the operator gets the traceback.
        logger.exception("practice table %s: an action failed and was undone", session_id)
        raise TableRefused(_("Something went wrong at the table. Nothing was changed.")) from None


def _apply(
    owner: Owner,
    session_id: int,
    version: int,
    change: Callable[[PracticeSession, Table], None],
) -> None:
    # Locked until the transaction ends: a racing request for this table waits here, and
    # then reads the version this one wrote.
    session = _owned(owner, session_id, lock=True)
    if session.ended_at is not None:
        raise TableRefused(_("This session is over; start a new one."))
    if session.version != version:
        raise TableMoved(_("The table had moved on (another tab?): here it is now."))
    table = Table.from_json(session.state)
    try:
        change(session, table)
    except IllegalActionError as error:
        raise TableRefused(_refusal(error)) from None
    balance = table.balances[PLAYER]
    if type(balance) is not int:  # bets in steps of 10 keep every payout whole
        raise AssertionError(f"a balance of {balance!r} chips is not whole")
    updated = PracticeSession.objects.filter(pk=session.pk, version=version).update(
        state=table.to_json(),
        version=version + 1,
        balance=balance,
        next_bet=session.next_bet,
        held_action=session.held_action,
        ended_at=session.ended_at,
        changed_at=timezone.now(),
    )
    if not updated:  # only a write outside these services can get here: undo everything
        raise TableMoved(_("The table had moved on (another tab?): here it is now."))


def _refusal(error: IllegalActionError) -> str:
    """The engine's reason, in a sentence the page can show."""
    reason = str(error)
    return _("Not allowed: %(reason)s.") % {"reason": reason[:1].upper() + reason[1:]}


def _current_round(session: PracticeSession) -> PracticeRound:
    """The round in play (the view has checked that one is)."""
    return PracticeRound.objects.filter(session=session).latest("number")


def _record_decision(
    session: PracticeSession, table: Table, record: PracticeRound, view: PlayerView, grade: Grade
) -> None:
    now = timezone.now()
    Drill.objects.create(
        user_id=session.user_id,
        guest_token=session.guest_token,
        rules_name=session.rules_name,
        rules_version=session.rules_version,
        rules=table.rules.to_json(),
        cards=" ".join(str(card) for card in view.hand),
        up=str(view.up_card),
        row=grade.row,
        up_column=grade.up,
        source=Drill.Source.PLAY,
        practice_round=record,
        answered_at=now,
        action=grade.chosen.value,
        correct_action=grade.correct.value,
        correct_code=grade.code,
        ev_lost=Decimal(f"{grade.ev_lost:.6f}"),
        response_ms=max(0, int((now - session.changed_at).total_seconds() * 1000)),
    )


def _close_round_if_over(session: PracticeSession, table: Table, record: PracticeRound) -> None:
    """Once the round is over: its net and history go on record, and the next bet is
    brought within the balance."""
    rnd = table.round
    if rnd is None or rnd.phase not in (Phase.SETTLED, Phase.VOIDED):
        return
    record.net = int(rnd.net(PLAYER))
    record.balance_after = int(table.balances[PLAYER])
    record.history = history_to_json(rnd.history())
    record.save(update_fields=["net", "balance_after", "history"])
    balance = int(table.balances[PLAYER])
    step = table.limits.step
    session.next_bet = min(session.next_bet, balance - balance % step, table.limits.maximum)
