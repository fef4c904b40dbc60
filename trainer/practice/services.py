"""Practice sessions: the practice table's use cases, each one transaction.

Each change to a table is one of `PracticeTable`'s operations inside `changing`
(trainer/practice/table.py), which loads the table once, locked and checked against the
version the request was made from, and saves it once: of two racing or replayed requests
exactly one takes effect. Each returns the table as it now stands, for the page to show.

A player has one open table at most: the database holds it (a partial unique constraint
per account and per guest), and a new table ends the open one under its lock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from engine.errors import IllegalActionError
from engine.rules import Rules
from engine.shoe import Shoe
from engine.table import BotSeat, Table
from trainer.models import CasinoCheck, PracticeSession
from trainer.practice.counting import CountingMode
from trainer.practice.table import PracticeTable, TableSnapshot, changing
from trainer.shared.owners import Owner
from trainer.shared.refusals import refusal
from trainer.shared.seats import Sitter
from trainer.shared.unit_of_work import NotFound, Refused

BANKROLLS: tuple[int, ...] = (500, 1000, 5000)
#: How often a new table is tried again after a racing start took the one open place.
START_ATTEMPTS = 3


@dataclass(frozen=True)
class SeatChoice:
    """Who sits where at the start: the player, or a bot of a tier."""

    seat: int
    sitter: Sitter


def practice_start(
    *,
    owner: Owner,
    rules: Rules,
    bankroll: int,
    seats: Sequence[SeatChoice],
    hints: bool = False,
    coach: bool = False,
    counting: CountingMode | None = None,
    casino_check: bool = False,
    shoe: Shoe | None = None,
) -> PracticeSession:
    """Sit down at a new table; a session still open is ended first (one table at a time).

    ``counting`` plays it in counting mode (trainer/practice/counting.py); ``casino_check``
    makes it an attempt at the casino-ready check (trainer/counting/casino.py). ``shoe`` is for
    tests and demos only (a stacked shoe); by default the shoe is shuffled with the system
    CSPRNG.
    """
    players = [choice.seat for choice in seats if choice.sitter is Sitter.YOU]
    if len(players) != 1:
        raise Refused(_("Choose exactly one seat for yourself."))
    bots = [
        BotSeat(choice.seat, choice.sitter.tier)
        for choice in seats
        if choice.sitter.tier is not None
    ]
    try:
        table = Table.new(rules, player_seat=players[0], bots=bots, bankroll=bankroll, shoe=shoe)
    except IllegalActionError as error:
        raise Refused(refusal(error)) from None
    for _attempt in range(START_ATTEMPTS):
        try:
            with transaction.atomic():
                _end_open_tables(owner)
                session = PracticeSession.objects.create(
                    **owner.fields(),
                    rules_name=rules.name,
                    rules_version=rules.version,
                    bankroll=bankroll,
                    balance=bankroll,
                    next_bet=table.limits.minimum,
                    state=table.to_json(),
                    hints=hints,
                    coach=coach,
                    counting=None if counting is None else counting.to_json(),
                )
                if casino_check:
                    CasinoCheck.objects.create(session=session)
                return session
        except IntegrityError:
            # A racing start opened a table after we looked (the one-open-table constraint
            # held): look again, and end that one in turn.
            continue
    raise Refused(_("Another table was being opened at the same moment. Please try again."))


def _end_open_tables(owner: Owner) -> None:
    """End the owner's open table, locked first (a racing action waits, then finds it
    over); refused while a round is in play there, its bet neither settled nor refunded."""
    for open_session in PracticeSession.objects.filter(
        **owner.filter(), ended_at__isnull=True
    ).select_for_update():
        table = PracticeTable(open_session)
        if table.in_play:
            raise Refused(_("Finish the round at your open table first."))
        table.end()
        table.save()


def practice_chip(
    *, owner: Owner, session_id: int, version: int, chip: int | None
) -> TableSnapshot:
    """Add a chip to the next bet (``None`` clears it): past the table maximum it brings the
    bet to the maximum; past the balance it is refused."""
    with changing(owner=owner, session_id=session_id, version=version) as table:
        table.chip(chip)
    return table.snapshot()


def practice_deal(
    *,
    owner: Owner,
    session_id: int,
    version: int,
    pair: int = 0,
    behind: Mapping[int, int] | None = None,
) -> TableSnapshot:
    """Deal a round at the next bet, with the player's pair bet on their seat and bets
    behind bots' seats, if any; the bots play up to the player's first decision."""
    with changing(owner=owner, session_id=session_id, version=version) as table:
        table.deal(pair=pair, behind=behind or {})
    return table.snapshot()


def practice_act(*, owner: Owner, session_id: int, version: int, action: str) -> TableSnapshot:
    """Take the player's decision, graded against the hard tier and recorded (source play);
    in coach mode a wrong one is held back (`PracticeTable.act`)."""
    with changing(owner=owner, session_id=session_id, version=version) as table:
        table.act(action)
    return table.snapshot()


def practice_count(
    *, owner: Owner, session_id: int, version: int, running: Fraction, true: int
) -> TableSnapshot:
    """Counting mode: answer the count the table asked for (`PracticeTable.count`)."""
    with changing(owner=owner, session_id=session_id, version=version) as table:
        table.count(running, true)
    return table.snapshot()


def practice_take_back(*, owner: Owner, session_id: int, version: int) -> TableSnapshot:
    """Coach mode: drop the held-back mistake and decide again."""
    with changing(owner=owner, session_id=session_id, version=version) as table:
        table.take_back()
    return table.snapshot()


def practice_options(*, owner: Owner, session_id: int, hints: bool, coach: bool) -> None:
    """Turn hints and coach mode on or off; they change no game state, so any version."""
    updated = PracticeSession.objects.filter(**owner.filter(), pk=session_id).update(
        hints=hints, coach=coach
    )
    if not updated:
        raise NotFound(_("That table is not yours."))


def practice_end(*, owner: Owner, session_id: int, version: int) -> TableSnapshot:
    """End the session; a round in play must be finished first."""
    with changing(owner=owner, session_id=session_id, version=version) as table:
        table.end()
    return table.snapshot()


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
            table = PracticeTable(session)
            table.void(_("another table was opened"))
            table.save()
        return PracticeSession.objects.filter(guests).update(user_id=user_id, guest_token="")


def practice_adopt_guest(
    sender: object, *, guest_token: str, user_id: int, **kwargs: object
) -> None:
    """`guest_adopted`'s receiver: `practice_adopt`."""
    practice_adopt(guest_token=guest_token, user_id=user_id)
