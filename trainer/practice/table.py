"""A practice table as one aggregate: the session's row and the engine's table, loaded once
and saved once.

A session keeps the engine's `Table` as JSON with a version number. `changing` (through
`trainer.shared.unit_of_work`) is the one way a table changes: it locks the session's row,
checks the version the request was made from, parses the table once into a `PracticeTable`,
lets the caller run one of its operations (the engine decides), and writes the table back
one version on, with the records of its rounds and decisions, all in one transaction. Of
two racing or replayed requests (a double click) exactly one takes effect; the other waits
for it, then is told the table moved on and changes nothing. Anything that fails half-way
rolls the whole transaction back and is refused with a message, never let through as an
error.

A page is built from a `TableSnapshot`: the session's row and the table's `PublicTable`,
which cannot hold the shoe or the hole card.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from decimal import Decimal
from fractions import Fraction

from django.utils import timezone
from django.utils.translation import gettext as _

from engine.counting.deviations import grade_at_count
from engine.counting.index_store import IndexTablePending, load_indices
from engine.events import Event, StakeSettled
from engine.grading import Grade, grade_decision
from engine.round import Phase
from engine.round_codec import history_to_json
from engine.table import PLAYER, PublicTable, Table
from engine.view import PlayerView
from trainer.models import (
    Bet,
    CasinoCheck,
    CountCheck,
    Drill,
    PracticeRound,
    PracticeSession,
)
from trainer.practice.counting import CountingMode
from trainer.shared import unit_of_work
from trainer.shared.owners import Owner
from trainer.shared.unit_of_work import Moved, NotFound, Refused

#: The chip buttons' values; the table's bets go in steps of the smallest.
CHIPS: tuple[int, ...] = (10, 50, 100, 500)


@dataclass(frozen=True)
class TableSnapshot:
    """A session's row and what a player may see of its table, at one moment: what the
    table's page is built from (with the selectors' reads)."""

    session: PracticeSession
    table: PublicTable

    @classmethod
    def of(cls, session: PracticeSession) -> TableSnapshot:
        """The stored table, parsed once."""
        return PracticeTable(session).snapshot()


class PracticeTable:
    """One practice session's table while a request changes it.

    The operations (`chip`, `deal`, `act`, `take_back`, `end`, `void`) change it in memory
    only, the engine deciding; `save` writes it all once. Until then ``session`` is the row
    as it was loaded, so that a refused request can show the table as it stands.
    """

    def __init__(self, session: PracticeSession) -> None:
        #: The row as loaded (brought up to date by `save`).
        self.session = session
        self._table = Table.from_json(session.state)
        self.next_bet: int = session.next_bet
        self.held_action: str = session.held_action
        self.ended_at: datetime | None = session.ended_at
        #: The record of the round in play (or the last one), once read or made.
        self._round: PracticeRound | None = None
        self._round_changed = False
        #: Decisions to record in the round, and held-back ones taken back (by pk).
        self._decisions: list[Drill] = []
        self._taken_back: list[int] = []
        #: The player's stakes settled by this change, for the bet history.
        self._bets: list[Bet] = []
        #: Counting mode's settings and count (None without it), and a count answered.
        self.counting = (
            None
            if session.counting is None
            else CountingMode.from_json(session.counting, self._table.rules)
        )
        self._count_check: CountCheck | None = None

    @classmethod
    def locked(cls, *, owner: Owner, session_id: int) -> PracticeTable:
        """The owner's table, its row locked until the transaction ends: a racing request
        for it waits here, then reads what this one wrote."""
        session = (
            PracticeSession.objects.filter(**owner.filter(), pk=session_id)
            .select_for_update()
            .first()
        )
        if session is None:
            raise NotFound(_("That table is not yours."))
        return cls(session)

    # Reading -------------------------------------------------------------------------

    @property
    def in_play(self) -> bool:
        """A round is dealt and not yet over."""
        return self._table.in_play

    def snapshot(self) -> TableSnapshot:
        """The row and what a player may see of the table, as they are now."""
        return TableSnapshot(self.session, self._table.public())

    # Operations ----------------------------------------------------------------------

    def chip(self, chip: int | None) -> None:
        """Add a chip to the next bet (``None`` clears it): past the table maximum it brings
        the bet to the maximum; past the balance it is refused."""
        if self._table.in_play:
            raise Refused(_("Bets are closed until this round is over."))
        if chip is None:
            self.next_bet = 0
            return
        if chip not in CHIPS:
            raise Refused(_("There is no such chip."))
        maximum = self._table.limits.maximum
        if self.next_bet >= maximum:
            raise Refused(_("The table maximum is %(maximum)s chips.") % {"maximum": maximum})
        bet = min(self.next_bet + chip, maximum)  # a big chip tops the bet up to the maximum
        if bet > self.session.balance:
            raise Refused(_("That bet is more than your balance."))
        self.next_bet = bet

    def deal(self, *, pair: int = 0, behind: Mapping[int, int] | None = None) -> None:
        """Deal a round at the next bet, with a pair bet on the player's seat and bets
        behind bots' seats (the engine checks each against the limits and the balance);
        the bots play up to the player's first decision."""
        bots = {bot.seat for bot in self._table.bots}
        if any(seat not in bots for seat in behind or {}):
            raise Refused(_("A bet behind goes on a bot's seat."))
        pairs = {self._table.player_seat: pair} if pair else None
        counted = {}
        if self.counting is not None:
            if self.counting.question is not None:
                raise Refused(_("Give the count the table asked for first."))
            at = self.counting.at_the_bet(self._table.public())
            counted = {"true_count": at, "ramp_bet": self.counting.ramp.bet(at) * self.unit}
        self._table.deal(self.next_bet, behind=behind or None, pairs=pairs)
        number = PracticeRound.objects.filter(session=self.session).count() + 1
        self._round = PracticeRound(
            session=self.session, number=number, bet=self.next_bet, **counted
        )
        self._round_changed = True
        self._close_round_if_over()

    @property
    def unit(self) -> int:
        """Chips a betting unit is worth in counting mode: the table minimum."""
        return self._table.limits.minimum

    def count(self, running: Fraction, true: int) -> None:
        """Counting mode: the player's answer to the count the table asked for, kept with
        the count a counter had."""
        asked = None if self.counting is None else self.counting.question
        if self.counting is None or asked is None:
            raise Refused(_("The table has not asked for the count."))
        now = timezone.now()
        self._count_check = CountCheck(
            session=self.session,
            after_round=asked.after_round,
            reason=asked.reason,
            running=str(asked.running),
            true_count=asked.true_count,
            running_answer=str(running),
            true_answer=true,
            seconds=(now - asked.asked_at).total_seconds(),
        )
        self.counting = replace(self.counting, question=None)
        if asked.reason == "shuffle" and CasinoCheck.objects.filter(session=self.session).exists():
            self.ended_at = now  # the check's shoe is over: the attempt is graded

    def act(self, action: str) -> None:
        """Take the player's decision, graded against the hard tier and recorded.

        In coach mode a wrong decision is held back instead of played: it is recorded as
        the mistake it is, and the player may take it back or play it anyway. Played
        anyway, it is not graded again; taken back, the play made instead is graded like
        any.
        """
        view = self._table.view()
        if not view.decision.by_holder:
            # A decision of the player's bet behind a bot (insure it, follow a double or a
            # split): no strategy chart grades it.
            self._table.act(action)
            self._close_round_if_over()
            return
        if self.held_action:
            if action != self.held_action:
                raise Refused(_("Take your play back or make it anyway first."))
            self.held_action = ""  # made anyway: recorded already, as the mistake it is
        else:
            grade, deviation = self._grade(view, action)
            self._record_decision(view, grade, deviation=deviation)
            if self.session.coach and not grade.is_correct:
                self.held_action = grade.chosen.value
                return
        self._table.act(action)
        self._close_round_if_over()

    def _grade(self, view: PlayerView, action: str) -> tuple[Grade, bool]:
        """The decision graded against the chart, or in counting mode against the index
        play where the count calls for one (once the index table is worked out); second,
        whether it did."""
        grade = grade_decision(view, action)
        if self.counting is None:
            return grade, False
        mode = self.counting
        try:
            indices = load_indices(mode.index_request(self._table.rules), compute_inline=False)
        except IndexTablePending:
            return grade, False
        true = mode.now(self._table.public())[1]
        return grade_at_count(grade, indices.entries, true, view.legal)

    def take_back(self) -> None:
        """Coach mode: drop the held-back mistake and decide again. It stays recorded (it
        was the player's answer), marked as taken back beside the play made instead."""
        if not self.held_action:
            raise Refused(_("There is no decision to take back."))
        held = Drill.objects.filter(practice_round__session=self.session).latest("pk")
        self._taken_back.append(held.pk)
        self.held_action = ""

    def end(self) -> None:
        """End the session; a round in play must be finished first."""
        if self._table.in_play:
            raise Refused(_("Finish this round before you leave the table."))
        self.ended_at = timezone.now()

    def void(self, reason: str) -> None:
        """End the session whatever its state: a round in play is void, every bet in it
        refunded (the engine's void: it cannot be completed)."""
        rnd = self._table.round
        if self._table.in_play and rnd is not None:
            rnd.void(reason)
            self._close_round_if_over()
        self.held_action = ""
        self.ended_at = timezone.now()

    # Saving --------------------------------------------------------------------------

    def save(self) -> None:
        """Write the change once: the session one version on from the version loaded, then
        the records of its round and decisions."""
        balance = self._table.balances[PLAYER]
        if type(balance) is not int:  # bets in steps of 10 keep every payout whole
            raise AssertionError(f"a balance of {balance!r} chips is not whole")
        loaded = self.session.version
        changes = {
            "state": self._table.to_json(),
            "version": loaded + 1,
            "balance": balance,
            "next_bet": self.next_bet,
            "held_action": self.held_action,
            "counting": None if self.counting is None else self.counting.to_json(),
            "ended_at": self.ended_at,
            "changed_at": timezone.now(),
        }
        updated = PracticeSession.objects.filter(pk=self.session.pk, version=loaded).update(
            **changes
        )
        if not updated:  # only a write outside `changing` can get here: undo everything
            raise Moved(_("The table had moved on (another tab?): here it is now."))
        if self._round is not None and self._round_changed:
            self._round.save()
        for decision in self._decisions:
            decision.practice_round = self._round
            decision.save()
        if self._taken_back:
            Drill.objects.filter(pk__in=self._taken_back).update(taken_back=True)
        Bet.objects.bulk_create(self._bets)
        if self._count_check is not None:
            self._count_check.save()
        for name, value in changes.items():
            setattr(self.session, name, value)

    # The records ---------------------------------------------------------------------

    def _round_record(self) -> PracticeRound:
        """The record of the round in play (an operation has checked that one is)."""
        if self._round is None:
            self._round = PracticeRound.objects.filter(session=self.session).latest("number")
        return self._round

    def _record_decision(self, view: PlayerView, grade: Grade, *, deviation: bool) -> None:
        session = self.session
        now = timezone.now()
        self._round_record()
        self._decisions.append(
            Drill(
                user_id=session.user_id,
                guest_token=session.guest_token,
                rules_name=session.rules_name,
                rules_version=session.rules_version,
                rules=self._table.rules.to_json(),
                cards=" ".join(str(card) for card in view.hand),
                up=str(view.up_card),
                row=grade.row,
                up_column=grade.up,
                source=Drill.Source.PLAY,
                answered_at=now,
                action=grade.chosen.value,
                correct_action=grade.correct.value,
                correct_code=grade.code,
                ev_lost=Decimal(f"{grade.ev_lost:.6f}"),
                deviation=deviation,
                response_ms=max(0, int((now - session.changed_at).total_seconds() * 1000)),
            )
        )

    def _record_bets(self, record: PracticeRound, history: Iterable[Event]) -> None:
        """The player's settled stakes, one record each, as the round's settlement says."""
        session, now = self.session, timezone.now()
        self._bets = [
            Bet.settled(
                event,
                practice_round=record,
                user_id=session.user_id,
                guest_token=session.guest_token,
                rules_name=session.rules_name,
                rules_version=session.rules_version,
                settled_at=now,
            )
            for event in history
            if isinstance(event, StakeSettled) and event.owner == PLAYER
        ]

    def _close_round_if_over(self) -> None:
        """Once the round is over: its net and history go on record, and the next bet is
        brought within the balance."""
        rnd = self._table.round
        if rnd is None or rnd.phase not in (Phase.SETTLED, Phase.VOIDED):
            return
        record = self._round_record()
        balance = int(self._table.balances[PLAYER])
        record.net = int(rnd.net(PLAYER))
        record.balance_after = balance
        record.history = history_to_json(rnd.history())
        self._round_changed = True
        self._record_bets(record, rnd.history())
        if self.counting is not None:
            self.counting = self.counting.after_round(
                self._table.public(), record.number, timezone.now()
            )
        limits = self._table.limits
        self.next_bet = min(self.next_bet, balance - balance % limits.step, limits.maximum)


@contextmanager
def changing(*, owner: Owner, session_id: int, version: int) -> Iterator[PracticeTable]:
    """The owner's table made from ``version``, to change with one of its operations and
    save, whole or not at all (`trainer.shared.unit_of_work`): an ended session, or one
    moved on since ``version``, is refused as it stands."""

    def load() -> PracticeTable:
        return PracticeTable.locked(owner=owner, session_id=session_id)

    with unit_of_work.changing(load, name=f"practice table {session_id}") as table:
        if table.session.ended_at is not None:
            raise Refused(_("This session is over; start a new one."))
        if table.session.version != version:
            raise Moved(_("The table had moved on (another tab?): here it is now."))
        yield table
