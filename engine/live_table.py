"""A live Deluxe table (RULES.md §2): several owners and bots at seven seats, in real time.

The table owns what lasts between rounds — the shoe, every owner's chips at the table,
who holds which seat, the bets of the open betting window — and the round in play. It
reads no clock: every public method takes ``now``, seconds since the epoch as a float
(``time.time()``, ``timezone.now().timestamp()``) or a timezone-aware `datetime`, and
first applies every deadline passed up to then (`advance`), each as of its own time. So a
table nobody looked at has played on exactly as if someone had, when next touched, and
its state (`to_json`) holds its deadlines.

The cycle: a betting window (`Stage.BETTING`, ``betting_seconds``), then the round, each
decision with its own deadline (``decision_seconds``; when it passes, `Round.auto_play`),
bots and holders who left played at once, then the result shown (``result_seconds``).
A new table's first window has no deadline (``deadline`` is infinite) until a first bet is
placed: the opener, just arrived, is not unseated by a countdown that ran while the page
loaded. Every later window runs its countdown from when it opens.

Owners are opaque strings ("account 17"); ``"bot N"`` names the bot in seat N. Bad input
or a move out of turn raises `IllegalActionError`, in a short English sentence, and
changes nothing (beyond the deadlines `advance` applied first).

>>> from engine.rules import DELUXE
>>> from engine.shoe import Shoe
>>> table = LiveTable.new(DELUXE, now=0.0, shoe=Shoe.stacked("10s 9h 8d 7c 10h 5d"))
>>> table.buy_in("ann", 100, now=1.0)
>>> table.sit("ann", 3, now=2.0)
>>> table.advance(60.0), table.deadline   # the first window waits for a first bet
([], inf)
>>> table.bet("ann", 3, 20, now=3.0)   # every seated person has bet: the round is dealt
>>> table.stage, table.public("ann").turn.owner, "stand" in table.public("ann").legal
(<Stage.PLAYING: 'playing'>, 'ann', True)
>>> [notice.kind.value for notice in table.advance(13.0)]  # ann does not act in time
['timed_out']
>>> table.stage, table.balances["ann"]   # auto-play stands on 18; the dealer's 16 busts
(<Stage.RESULT: 'result'>, 120)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from engine.bots import BOTS, Tier
from engine.cards import CARDS
from engine.chips import Chips
from engine.errors import IllegalActionError, StateError
from engine.events import Event, ShoeShuffled, dealer_cards
from engine.live_public import (
    LivePublic,
    LiveSeat,
    Notice,
    NoticeKind,
    Preselection,
    PublicBehind,
    SideBet,
    Stage,
)
from engine.refusals import Refusal, refused
from engine.round import Phase, Round
from engine.rules import DELUXE, Rules
from engine.seat import paired_bet
from engine.shoe import Shoe
from engine.table import TIERS, BotSeat, Limits, PublicHand, bot_owner
from engine.table_state import table_state_from_json, table_state_to_json
from engine.values import Action

__all__ = [
    "BEHIND_PER_SEAT",
    "BETTING_SECONDS",
    "DECISION_SECONDS",
    "FAULT_GRACE_SECONDS",
    "FAULT_RETRY_SECONDS",
    "RESULT_SECONDS",
    "Fault",
    "Holder",
    "LiveTable",
    "Now",
    "PACES",
    "seconds",
]

#: A moment: seconds since the epoch, or a timezone-aware datetime.
Now = float | int | datetime
#: The most bets behind one seat takes (each owner one): what a table stores and reads on
#: every request stays bounded. Their questions never lengthen a round (`_play_on`).
BEHIND_PER_SEAT = 50
#: A table's countdowns unless it is given its own: the betting window, each decision's
#: window, and the pause that shows a round's result (seconds).
BETTING_SECONDS = 15.0
DECISION_SECONDS = 10.0
RESULT_SECONDS = 5.0
#: The paces a live table's opener chooses from: seconds for each decision (WCAG 2.2.1,
#: timing adjustable).
PACES: tuple[int, ...] = (10, 20, 30)
#: How long a round paused by a fault may wait to be put right before it is voided and
#: every bet in it refunded (RULES.md §2, malfunction: "resolved quickly").
FAULT_GRACE_SECONDS = 60.0
#: How often a paused round tries the step that failed again.
FAULT_RETRY_SECONDS = 5.0


def seconds(now: Now) -> float:
    """A moment as seconds since the epoch; a naive datetime is refused (whose time?)."""
    if isinstance(now, datetime):
        if now.tzinfo is None:
            raise refused(Refusal.TIME_ZONE)
        return now.timestamp()
    if type(now) not in (int, float) or not math.isfinite(now):
        raise refused(Refusal.TIME_SECONDS)
    return float(now)


class Holder:
    """Who holds a seat between rounds, and how the seat stands with the rules."""

    __slots__ = ("leaving", "owner", "played", "rounds_out", "sitting_out", "tier")

    def __init__(
        self,
        owner: str,
        tier: str | None = None,
        *,
        sitting_out: bool = False,
        rounds_out: int = 0,
        leaving: bool = False,
        played: bool = False,
    ) -> None:
        self.owner = owner
        #: The bot's tier; None for a person.
        self.tier = tier
        #: Announced, in this betting window, to sit out the coming round.
        self.sitting_out = sitting_out
        #: Rounds sat out in a row (announced, or kept without a bet).
        self.rounds_out = rounds_out
        #: Left during the round in play: freed when it ends, played by auto-play.
        self.leaving = leaving
        #: The seat has played a round (with a seat bet) since it was taken: a window
        #: closing without its bet then keeps it for that round (RULES.md §2).
        self.played = played

    def to_json(self) -> list[Any]:
        return [
            self.owner, self.tier, self.sitting_out, self.rounds_out, self.leaving, self.played
        ]  # fmt: skip


class Fault:
    """A round paused by a fault: since when, the step that failed (to try again, as JSON
    values: ``["deal", seat bets, bets behind, pair bets]``, ``["act", owner, action]``
    or ``["play"]``, the bots' and auto-play's decisions), and the error's words."""

    __slots__ = ("reason", "since", "step")

    def __init__(self, since: float, step: list[Any], reason: str) -> None:
        self.since = since
        self.step = step
        self.reason = reason

    def to_json(self) -> list[Any]:
        return [self.since, self.step, self.reason]


_PLAY: list[Any] = ["play"]


class LiveTable:
    """The state of one live table (see the module doc); build one with `new`."""

    def __init__(
        self,
        rules: Rules,
        shoe: Shoe,
        *,
        balances: dict[str, Chips],
        holders: dict[int, Holder],
        limits: Limits,
        bot_bankroll: int,
        betting_seconds: float,
        decision_seconds: float,
        result_seconds: float,
        max_seats_per_owner: int,
        stage: Stage,
        deadline: float,
        current: Round | None = None,
    ) -> None:
        self.rules = rules
        self.shoe = shoe
        #: Every owner's chips at the table; shared with the round in play, which takes
        #: stakes from it and pays settlements into it.
        self.balances = balances
        self.holders = holders
        self.limits = limits
        self.bot_bankroll = bot_bankroll
        self.betting_seconds = betting_seconds
        self.decision_seconds = decision_seconds
        self.result_seconds = result_seconds
        self.max_seats_per_owner = max_seats_per_owner
        self.stage = stage
        #: When the current stage, or the awaited decision, ends (infinite: not yet known,
        #: while a new table's first window waits for its first bet).
        self.deadline = deadline
        #: The round in play, or the last one played (shown until the next deal).
        self.round = current
        #: Rounds dealt at this table.
        self.rounds = 0
        #: The betting window's bets, not yet taken from the balances.
        self.seat_bets: dict[int, int] = {}
        self.behind: list[SideBet] = []
        self.pairs: list[SideBet] = []
        #: What the table did since the window before the round shown opened.
        self.notices: list[Notice] = []
        self._fresh: list[Notice] = []
        #: Since when no person has held a seat (None while one does): how long the
        #: table has stood empty of players, for its caller to close it when idle.
        self.empty_since: float | None = None
        #: Owners absent from the round in play: a decision of theirs timed out, so the
        #: system finishes the rest of their round at once (RULES.md §2, timeout).
        self.absent: set[str] = set()
        #: The step (seat, hand; hand None for insurance) whose decision window the
        #: deadline closes: the questions its bettors behind are asked share it.
        self.window: tuple[int, int | None] | None = None
        #: The fault the round in play is paused by, or None.
        self.fault: Fault | None = None

    @classmethod
    def new(
        cls,
        rules: Rules = DELUXE,
        *,
        now: Now,
        bots: Iterable[BotSeat] = (),
        bot_bankroll: int = 1000,
        limits: Limits | None = None,
        betting_seconds: float = BETTING_SECONDS,
        decision_seconds: float = DECISION_SECONDS,
        result_seconds: float = RESULT_SECONDS,
        max_seats_per_owner: int | None = None,
        shoe: Shoe | None = None,
        rng: random.Random | None = None,
    ) -> LiveTable:
        """A table with a fresh shoe (the system CSPRNG unless ``rng`` is given), its bots
        seated with ``bot_bankroll`` chips each, and its first betting window open, with
        no deadline until a first bet is placed."""
        start = seconds(now)
        limits = limits if limits is not None else Limits()
        timings = (betting_seconds, decision_seconds, result_seconds)
        if any(type(t) not in (int, float) or not 0 < t < 3600 for t in timings):
            raise refused(Refusal.COUNTDOWNS)
        most = rules.seats_per_account if max_seats_per_owner is None else max_seats_per_owner
        if type(most) is not int or not 1 <= most <= rules.seats_per_account:
            raise refused(Refusal.OWNER_SEATS, seats=rules.seats_per_account)
        holders: dict[int, Holder] = {}
        for bot in bots:
            if type(bot.seat) is not int or not 1 <= bot.seat <= rules.max_seats:
                raise refused(Refusal.SEAT_NUMBERS, seats=rules.max_seats)
            if bot.seat in holders:
                raise refused(Refusal.BOTS_SHARE_SEAT)
            if bot.tier not in TIERS:
                raise refused(Refusal.BOT_TIER, tier=repr(bot.tier), tiers=", ".join(TIERS))
            holders[bot.seat] = Holder(bot_owner(bot.seat), bot.tier)
        if type(bot_bankroll) is not int or bot_bankroll < limits.minimum:
            raise refused(Refusal.BOTS_BANKROLL, chips=limits.minimum)
        table = cls(
            rules,
            shoe if shoe is not None else Shoe.for_rules(rules, rng),
            balances={holder.owner: bot_bankroll for holder in holders.values()},
            holders=holders,
            limits=limits,
            bot_bankroll=bot_bankroll,
            betting_seconds=float(betting_seconds),
            decision_seconds=float(decision_seconds),
            result_seconds=float(result_seconds),
            max_seats_per_owner=most,
            stage=Stage.BETTING,
            deadline=math.inf,
        )
        table.empty_since = start
        return table

    # The clock -------------------------------------------------------------------------

    def advance(self, now: Now) -> list[Notice]:
        """Apply every deadline passed up to ``now``, each as of its own time: betting
        closes, a decision is auto-played, betting opens again. Returns what the table
        did then (the notices those deadlines added)."""
        horizon = seconds(now)
        self._fresh = []
        while self.deadline <= horizon:
            at = self.deadline
            if self.stage is Stage.BETTING:
                self._close_betting(at, horizon)
            elif self.stage is Stage.PLAYING and self.fault is not None:
                self._retry(at)
            elif self.stage is Stage.PLAYING:
                self._time_out(at)
            else:
                self._open_betting(at)
        fresh, self._fresh = self._fresh, []
        return fresh

    def _note(self, at: float, kind: NoticeKind, seat: int | None = None,
              owner: str | None = None, amount: int | None = None) -> None:  # fmt: skip
        notice = Notice(at, kind, seat, owner, amount)
        self.notices.append(notice)
        self._fresh.append(notice)

    def _open_betting(self, at: float) -> None:
        self.stage = Stage.BETTING
        self.deadline = at + self.betting_seconds
        self.notices = []
        for holder in self.holders.values():
            holder.sitting_out = False

    def _close_betting(self, at: float, horizon: float) -> None:
        """Betting closes at ``at``: unseat, sit out and free seats by the rules, return
        the side bets on seats not in the round, and deal it — or, without a person's
        stake in it, open betting again."""
        for number in sorted(self.holders):
            holder = self.holders[number]
            if holder.tier is not None:
                continue
            # A seat that played a round and has no bet in the next keeps its place for
            # that round and is freed after it (the document's rule), like one that
            # announced it sits out; a seat that never played is freed at once.
            kept = holder.played and holder.rounds_out == 0
            if number in self.seat_bets:
                holder.rounds_out = 0
                holder.played = True
            elif not (holder.sitting_out or kept):
                self._free(at, number, NoticeKind.UNSEATED)
            else:
                holder.rounds_out += 1
                if holder.rounds_out >= 2:
                    self._free(at, number, NoticeKind.FREED_SAT_OUT)
                elif self.balances.get(holder.owner, 0) < self.limits.minimum:
                    self._free(at, number, NoticeKind.FREED_SHORT)
                elif holder.sitting_out:
                    self._note(at, NoticeKind.SAT_OUT, number, holder.owner)
                else:
                    self._note(at, NoticeKind.KEPT_NO_BET, number, holder.owner)
            holder.sitting_out = False
        playing = set(self.seat_bets) | {n for n, h in self.holders.items() if h.tier}
        for kind, bets in ((NoticeKind.BEHIND_RETURNED, self.behind),
                           (NoticeKind.PAIR_RETURNED, self.pairs)):  # fmt: skip
            for bet in bets:
                if bet.seat not in playing:
                    self._note(at, kind, bet.seat, bet.owner, bet.amount)
        behind = [bet for bet in self.behind if bet.seat in playing]
        pairs = [bet for bet in self.pairs if bet.seat in playing]
        seat_bets, self.seat_bets, self.behind, self.pairs = self.seat_bets, {}, [], []
        if not (seat_bets or behind or pairs):
            # The next window opens at once: only what this closing did stays shown.
            self.notices = [notice for notice in self.notices if notice.at >= at]
            self._note(at, NoticeKind.NO_ROUND)
            self.deadline = at + self.betting_seconds
            if not any(holder.tier is None for holder in self.holders.values()):
                # Nobody is seated: skip the empty windows a quiet table would open.
                missed = math.floor((horizon - at) / self.betting_seconds)
                self.deadline += max(missed, 0) * self.betting_seconds
            return
        self._deal(at, seat_bets, behind, pairs)

    def _deal(
        self, at: float, seat_bets: dict[int, int], behind: list[SideBet], pairs: list[SideBet]
    ) -> None:
        rnd = Round(self.rules, self.shoe, balances=self.balances)
        self.round = rnd
        self.rounds += 1
        self.absent = set()
        self.window = None
        self.stage = Stage.PLAYING
        self._note(at, NoticeKind.DEALT, amount=self.rounds)
        for number in sorted(self.holders):
            holder = self.holders[number]
            if holder.tier is not None and self.balances.get(holder.owner, 0) < self.limits.minimum:
                self.balances[holder.owner] = self.bot_bankroll
                self._note(at, NoticeKind.BOT_BOUGHT_IN, number, holder.owner, self.bot_bankroll)

        step = [
            "deal",
            {str(n): bet for n, bet in sorted(seat_bets.items())},
            [[b.seat, b.owner, b.amount] for b in behind],
            [[b.seat, b.owner, b.amount] for b in pairs],
        ]
        if self._guarded(at, lambda: self._place_and_deal(rnd, seat_bets, behind, pairs), step):
            self._play_on(at)

    def _place_and_deal(
        self, rnd: Round, seat_bets: dict[int, int], behind: list[SideBet], pairs: list[SideBet]
    ) -> None:
        placed = set()
        for number in sorted(self.holders):
            holder = self.holders[number]
            bet = self.limits.minimum if holder.tier is not None else seat_bets.get(number)
            if bet is not None:
                rnd.place_bet(seat=number, amount=bet, owner=holder.owner)
                placed.add(number)
        # A seat freed while the deal was paused takes its side bets with it (never taken).
        for side in behind:
            if side.seat in placed:
                rnd.place_bet_behind(seat=side.seat, amount=side.amount, owner=side.owner)
        for side in pairs:
            if side.seat in placed:
                rnd.place_pair_bet(seat=side.seat, amount=side.amount, owner=side.owner)
        rnd.deal()

    def _time_out(self, at: float) -> None:
        """The decision awaited ran out of time: the system finishes that hand at once
        (RULES.md §2: hit at 11 or less, aces as 11 unless that busts, then stand; no to
        insurance and to following), and the rest of that owner's round too, with no
        countdown of its own (`_play_on`); the round goes on."""
        rnd = self.round
        assert rnd is not None
        turn = rnd.turn
        if turn is not None:
            self._note(at, NoticeKind.TIMED_OUT, turn.seat, turn.owner)
            self.absent.add(turn.owner)
            while rnd.turn == turn:  # the same hand still waits on the same player
                if not self._guarded(at, rnd.auto_play, _PLAY):
                    return
        self._play_on(at)

    def _play_on(self, at: float, *, decided: bool = True) -> None:
        """Play the bots' decisions and those of holders who left or are absent, at
        once, up to a person's decision or the end of the round.

        A holder's decision gets its own window (``decision_seconds``) when first
        awaited: ``decided`` says one was just taken (so the one awaited now is new);
        any taken here makes it new too. The questions a step puts to the seat's bettors
        behind (insurance, following a double or split) share the step's window: they
        never open one of their own while it runs, and once it is over the rest are
        answered with the document's default, no. So bettors behind never lengthen a
        round: a step lasts one window however many bet behind the seat."""
        rnd = self.round
        assert rnd is not None
        while self.stage is Stage.PLAYING:
            turn = rnd.turn
            if turn is None:
                self._end_round(at)
                return
            holder = self.holders.get(turn.seat)
            seat_holders = not turn.of_bettor_behind and holder is not None
            step = (turn.seat, turn.hand)
            if seat_holders and holder is not None and holder.tier is not None:
                bot = BOTS[Tier(holder.tier)]
                if not self._guarded(at, lambda bot=bot: rnd.apply(bot(rnd.view())), _PLAY):  # type: ignore[misc]
                    return
                self.window = None
            elif turn.owner in self.absent or (
                seat_holders and holder is not None and holder.leaving
            ):
                if not self._guarded(at, rnd.auto_play, _PLAY):
                    return
                if seat_holders:
                    self.window = None
            elif turn.of_bettor_behind and self.window == step:
                if self.deadline > at:
                    return  # the step's window runs on
                if not self._guarded(at, rnd.auto_play, _PLAY):  # the window is over: no
                    return
            else:
                if decided:
                    self.deadline = at + self.decision_seconds
                    self.window = step
                return
            decided = True

    def _end_round(self, at: float) -> None:
        self.stage = Stage.RESULT
        self.deadline = at + self.result_seconds
        for number in sorted(self.holders):
            if self.holders[number].leaving:
                self._free(at, number, NoticeKind.LEFT)

    def _guarded(self, at: float, operation: Callable[[], object], step: list[Any]) -> bool:
        """Run a step of the round (``step`` says how to run it again). A fault in it
        pauses the round as it stood before the step (RULES.md §2, malfunction): the
        step is tried again every `FAULT_RETRY_SECONDS`, and the round resumes where it
        stopped if it goes through; a fault still there `FAULT_GRACE_SECONDS` after the
        first voids the round, refunding every bet in it, and ends it. Whether the step
        went through."""
        rnd = self.round
        assert rnd is not None
        before = rnd.to_json()
        try:
            operation()
        except Exception as error:  # any fault at all: the step cannot be completed
            rnd = self._restored(before)
            reason = f"{type(error).__name__}: {error}"
            since = at if self.fault is None else self.fault.since
            if at - since >= FAULT_GRACE_SECONDS:
                self.fault = None
                rnd.void(reason)
                self._note(at, NoticeKind.VOIDED)
                self._end_round(at)
                return False
            if self.fault is None:
                self._note(at, NoticeKind.PAUSED)
            self.fault = Fault(since, step, reason)
            self.deadline = min(at + FAULT_RETRY_SECONDS, since + FAULT_GRACE_SECONDS)
            return False
        if self.fault is not None:  # a step tried again went through
            self.fault = None
            self._note(at, NoticeKind.RESUMED)
        return True

    def _restored(self, before: dict[str, Any]) -> Round:
        """The round as it stood before a failed step, with the chips and shoe it shares
        with the table: a half-done step leaves nothing behind."""
        rnd = Round.from_json(before, rng=self.shoe.rng)
        assert rnd.balances is not None
        self.round, self.shoe, self.balances = rnd, rnd.shoe, rnd.balances
        return rnd

    def _retry(self, at: float) -> None:
        """Try the step that paused the round again, and play on if it goes through."""
        fault, rnd = self.fault, self.round
        assert fault is not None and rnd is not None
        step = fault.step
        retried: Callable[[], object]
        if step[0] == "deal":
            seat_bets = {int(n): int(bet) for n, bet in step[1].items()}
            behind = [SideBet(int(n), str(o), int(a)) for n, o, a in step[2]]
            pairs = [SideBet(int(n), str(o), int(a)) for n, o, a in step[3]]
            retried = lambda: self._place_and_deal(rnd, seat_bets, behind, pairs)  # noqa: E731
        elif step[0] == "act":
            owner, action = str(step[1]), Action(step[2])
            retried = lambda: rnd.apply(action, owner=owner)  # noqa: E731
        else:
            self._play_on(at)  # its first step is the one that failed
            return
        if self._guarded(at, retried, step):
            self._play_on(at)

    def _free(self, at: float, number: int, why: NoticeKind) -> None:
        holder = self.holders.pop(number)
        if self.empty_since is None and all(h.tier is not None for h in self.holders.values()):
            self.empty_since = at
        self.seat_bets.pop(number, None)
        self._note(at, why, number, holder.owner)
        if self.stage is Stage.BETTING:  # side bets on the seat go back now
            for kind, bets in ((NoticeKind.BEHIND_RETURNED, self.behind),
                               (NoticeKind.PAIR_RETURNED, self.pairs)):  # fmt: skip
                for bet in [bet for bet in bets if bet.seat == number]:
                    bets.remove(bet)
                    self._note(at, kind, bet.seat, bet.owner, bet.amount)

    # Seats and chips -------------------------------------------------------------------

    def buy_in(self, owner: str, chips: int, *, now: Now) -> None:
        """Bring ``chips`` to the table (the caller takes them from the owner's wallet)."""
        at = self._start(now)
        self._check_person(owner)
        if type(chips) is not int or chips <= 0:
            raise refused(Refusal.BUY_IN_WHOLE)
        self.balances[owner] = self.balances.get(owner, 0) + chips
        if self.round is not None:
            self.round.balances_changed()
        self._settle_window(at)

    def cash_out(self, owner: str, *, now: Now) -> Chips:
        """Leave the table with every chip: the owner's seats are freed, their bets in
        the betting window dropped, and their chips returned (for the caller's wallet).
        Refused while the owner has stakes in the round in play."""
        at = self._start(now)
        self._check_person(owner)
        if self.stage is Stage.PLAYING and self._in_play(owner):
            raise refused(Refusal.BETS_IN_PLAY)
        for number in sorted(self.holders):
            if self.holders[number].owner == owner:
                self._free(at, number, NoticeKind.LEFT)
        self._drop_bets(owner)
        return self.balances.pop(owner, 0)

    def sit(self, owner: str, seat: int, *, now: Now, may_sit: bool = True) -> None:
        """Take an empty seat (from the next deal if a round is in play). ``may_sit`` is
        the caller's word on whether this owner may sit at all (guests may not)."""
        at = self._start(now)
        self._check_person(owner)
        if not may_sit:
            raise refused(Refusal.GUESTS_CANNOT_SIT)
        if type(seat) is not int or not 1 <= seat <= self.rules.max_seats:
            raise refused(Refusal.NO_SUCH_SEAT, seat=seat)
        if seat in self.holders:
            raise refused(Refusal.SEAT_TAKEN, seat=seat)
        if sum(h.owner == owner for h in self.holders.values()) >= self.max_seats_per_owner:
            raise refused(Refusal.SEATS_PER_PLAYER, seats=self.max_seats_per_owner)
        if self.balances.get(owner, 0) < self.limits.minimum:
            raise refused(Refusal.BUY_IN_TO_SIT, chips=self.limits.minimum)
        self.holders[seat] = Holder(owner)
        self.empty_since = None
        self._settle_window(at)

    def leave(self, owner: str, seat: int, *, now: Now) -> None:
        """Give up a seat. With the seat in the round in play, its hands are finished by
        auto-play and it is freed when the round ends; otherwise at once, and the bets
        behind it and on its pair are returned."""
        at = self._start(now)
        self._own_seat(owner, seat)
        rnd = self.round
        in_round = rnd is not None and any(taken.number == seat for taken in rnd.seats)
        if self.stage is Stage.PLAYING and in_round:
            self.holders[seat].leaving = True
            if self.fault is None:  # a paused round plays the seat out when it resumes
                self._play_on(at, decided=False)
            return
        self._free(at, seat, NoticeKind.LEFT)
        self._settle_window(at)

    # Betting ---------------------------------------------------------------------------

    def bet(self, owner: str, seat: int, amount: int, *, now: Now) -> None:
        """Place or change the seat bet of one's seat in the betting window. An owner on
        two seats bets the same on both (`engine.seat.paired_bet`, as `Round.change_bet`)."""
        at = self._start(now)
        holder = self._own_seat(owner, seat)
        self._check_window()
        self.limits.check(amount, amount)  # limits and steps; the balance is checked below
        free = self._free_chips(owner)
        pair = [n for n, h in self.holders.items() if h.owner == owner and n in self.seat_bets]
        current = self.seat_bets.get(seat)
        other = next((n for n in pair if n != seat), None)
        if other is None:
            if amount - (current or 0) > free:
                raise refused(Refusal.OVER_BALANCE)
            self.seat_bets[seat] = amount
        elif current is None:
            if amount != self.seat_bets[other]:
                raise refused(Refusal.SAME_BET_BOTH_SEATS, chips=self.seat_bets[other])
            if amount > free:
                raise refused(Refusal.OVER_BALANCE)
            self.seat_bets[seat] = amount
        else:
            both = paired_bet(current, amount, free, self.limits.step)
            self.seat_bets[seat] = self.seat_bets[other] = both
        holder.sitting_out = False
        self._settle_window(at)

    def sit_out(self, owner: str, seat: int, *, now: Now) -> None:
        """Announce that one's seat sits out the coming round (its bet, if any, is
        withdrawn). A second round sat out in a row frees the seat."""
        at = self._start(now)
        holder = self._own_seat(owner, seat)
        self._check_window()
        self.seat_bets.pop(seat, None)
        holder.sitting_out = True
        self._settle_window(at)

    def bet_behind(self, owner: str, seat: int, amount: int, *, now: Now) -> None:
        """Place or change a bet behind another's seat (a person's or a bot's)."""
        at = self._start(now)
        if not self.rules.bet_behind:
            raise refused(Refusal.NO_BET_BEHIND)
        if seat not in self.holders:
            raise refused(Refusal.SEAT_EMPTY, seat=seat)
        if self.holders[seat].owner == owner:
            raise refused(Refusal.BEHIND_OWN_SEAT)
        others = [bet for bet in self.behind if bet.seat == seat and bet.owner != owner]
        if len(others) >= BEHIND_PER_SEAT:
            raise refused(Refusal.BEHIND_FULL, seat=seat, bets=BEHIND_PER_SEAT)
        self._place_side(self.behind, owner, seat, amount)
        self._settle_window(at)

    def pair_bet(self, owner: str, seat: int, amount: int, *, now: Now) -> None:
        """Place or change a pair side bet on any held seat, one's own included."""
        at = self._start(now)
        if not self.rules.pair_bet:
            raise refused(Refusal.NO_PAIR_BET)
        if seat not in self.holders:
            raise refused(Refusal.SEAT_EMPTY, seat=seat)
        self._place_side(self.pairs, owner, seat, amount)
        self._settle_window(at)

    def clear_bets(self, owner: str, *, now: Now) -> None:
        """Withdraw every bet the owner placed in this betting window."""
        at = self._start(now)
        self._check_window()
        self._drop_bets(owner)
        self._settle_window(at)

    def _place_side(self, bets: list[SideBet], owner: str, seat: int, amount: int) -> None:
        self._check_person(owner)
        self._check_window()
        if owner not in self.balances:
            raise refused(Refusal.BUY_IN_FIRST)
        index = next((i for i, b in enumerate(bets) if b.seat == seat and b.owner == owner), None)
        current = 0 if index is None else bets[index].amount
        self.limits.check(amount, self._free_chips(owner) + current)
        if index is None:
            bets.append(SideBet(seat, owner, amount))
        else:
            bets[index] = SideBet(seat, owner, amount)

    def _drop_bets(self, owner: str) -> None:
        for number, holder in self.holders.items():
            if holder.owner == owner:
                self.seat_bets.pop(number, None)
        self.behind = [bet for bet in self.behind if bet.owner != owner]
        self.pairs = [bet for bet in self.pairs if bet.owner != owner]

    def _settle_window(self, at: float) -> None:
        """Start the first window's countdown at its first bet; close betting early once
        every seated person has bet or sits out (with at least one person seated): nobody
        seated has anything left to decide."""
        first_bet = self.seat_bets or self.behind or self.pairs
        if self.stage is Stage.BETTING and math.isinf(self.deadline) and first_bet:
            self.deadline = at + self.betting_seconds
        people = [n for n, h in self.holders.items() if h.tier is None]
        if (
            self.stage is Stage.BETTING
            and people
            and all(n in self.seat_bets or self.holders[n].sitting_out for n in people)
        ):
            self._close_betting(at, at)

    # Play ------------------------------------------------------------------------------

    def act(self, owner: str, action: Action | str, *, now: Now) -> None:
        """The owner's awaited decision: on their seat's hand or insurance, or as a
        bettor behind (insure, follow a double or split, or not)."""
        at = self._start(now)
        rnd = self._round_in_play()
        if self.fault is not None:
            raise refused(Refusal.ROUND_PAUSED)
        rnd.verify(action, owner=owner)
        step = ["act", owner, Action(action).value]
        if self._guarded(at, lambda: rnd.apply(action, owner=owner), step):
            self._play_on(at)

    def preselect(self, owner: str, seat: int, action: Action | str | None, *, now: Now) -> None:
        """Choose one's seat's first decision before its turn comes (None clears it)."""
        self._start(now)
        self._own_seat(owner, seat)
        rnd = self._round_in_play()
        if not any(taken.number == seat for taken in rnd.seats):
            raise refused(Refusal.NO_HAND_FOR_SEAT, seat=seat)
        rnd.preselect(seat=seat, action=action)

    def _round_in_play(self) -> Round:
        if self.stage is not Stage.PLAYING or self.round is None:
            raise refused(Refusal.NO_ROUND)
        return self.round

    # Checks ----------------------------------------------------------------------------

    def _start(self, now: Now) -> float:
        """Every public change starts here: the clock is applied first."""
        at = seconds(now)
        self.advance(at)
        return at

    def _check_person(self, owner: object) -> None:
        if not isinstance(owner, str) or not owner or owner.startswith("bot "):
            raise refused(Refusal.NOT_A_NAME)

    def _check_window(self) -> None:
        if self.stage is not Stage.BETTING:
            raise refused(Refusal.BETS_CLOSED)

    def _own_seat(self, owner: str, seat: int) -> Holder:
        holder = self.holders.get(seat)
        if holder is None or holder.owner != owner:
            raise refused(Refusal.SEAT_NOT_YOURS, seat=seat)
        return holder

    def _free_chips(self, owner: str) -> Chips:
        """The owner's chips beyond the bets placed in this window."""
        return self.balances.get(owner, 0) - self._committed(owner)

    def _committed(self, owner: str) -> int:
        seats = sum(bet for n, bet in self.seat_bets.items() if self.holders[n].owner == owner)
        sides = sum(bet.amount for bet in (*self.behind, *self.pairs) if bet.owner == owner)
        return seats + sides

    def _in_play(self, owner: str) -> bool:
        """Whether the owner has a stake in the round in play: a seat's, behind or a pair
        (or one in a deal paused by a fault, to be placed when it is tried again)."""
        fault = self.fault
        if fault is not None and fault.step[0] == "deal":
            _deal, seat_bets, behind, pairs = fault.step
            holders = {str(n): h.owner for n, h in self.holders.items()}
            if any(holders.get(n) == owner for n in seat_bets) or any(
                bettor == owner for _seat, bettor, _amount in (*behind, *pairs)
            ):
                return True
        return any(
            seat.owner == owner
            or any(behind.owner == owner for behind in seat.behind)
            or any(bettor == owner for bettor, _ in seat.pair_bets)
            for seat in self._round_in_play().seats
        )

    # Reading the table -----------------------------------------------------------------

    def public(self, viewer: str | None = None) -> LivePublic:
        """What ``viewer`` (an owner, or None for a watcher) may see now: call `advance`
        first for the table as of now."""
        rnd = self.round
        in_round = {seat.number: seat for seat in rnd.seats} if rnd is not None else {}
        betting = self.stage is Stage.BETTING
        seats = []
        for number in sorted(self.holders):
            holder = self.holders[number]
            played = None if betting else in_round.get(number)
            if betting:
                bet = self.seat_bets.get(number)
                if holder.tier is not None:
                    bet = self.limits.minimum
                behind = tuple(
                    PublicBehind(b.owner, b.amount, (), None)
                    for b in self.behind
                    if b.seat == number
                )
                pairs = tuple(b for b in self.pairs if b.seat == number)
            else:
                bet = played.bet if played is not None else None
                behind = tuple(
                    PublicBehind(b.owner, b.amount, tuple(b.stakes), b.insurance)
                    for b in (played.behind if played is not None else ())
                )
                pairs = tuple(
                    SideBet(number, o, a) for o, a in (played.pair_bets if played else ())
                )
            hands = (
                tuple(
                    PublicHand(tuple(CARDS[code] for code in hand.cards), hand.stake)
                    for hand in played.hands
                )
                if played is not None and rnd is not None and rnd.phase is not Phase.BETTING
                else ()
            )
            seats.append(
                LiveSeat(
                    number,
                    holder.owner,
                    holder.tier,
                    holder.sitting_out,
                    holder.rounds_out,
                    holder.leaving,
                    bet,
                    hands,
                    behind,
                    pairs,
                )  # fmt: skip
            )
        history: tuple[Event, ...] = () if betting or rnd is None else tuple(rnd.history())
        paused = self.fault is not None
        turn = rnd.turn if rnd is not None and self.stage is Stage.PLAYING and not paused else None
        mine = turn is not None and viewer is not None and turn.owner == viewer
        return LivePublic(
            rules=self.rules,
            limits=self.limits,
            stage=self.stage,
            # Paused, the time that counts for a player is when the round is voided
            # unless the fault is put right (the retries in between are the table's).
            deadline=self.deadline
            if self.fault is None
            else self.fault.since + FAULT_GRACE_SECONDS,
            rounds=self.rounds,
            seats=tuple(seats),
            balances=tuple(sorted(self.balances.items())),
            dealer=tuple(dealer_cards(history)),
            history=history,
            phase=None if betting or rnd is None else rnd.phase,
            turn=turn,
            viewer=viewer,
            committed=self._committed(viewer) if viewer is not None else 0,
            decision=rnd.view() if mine and rnd is not None else None,
            preselections=self._preselections(viewer),
            notices=tuple(self.notices),
            cards_left=self.shoe.remaining,
            cut_card_out=self.shoe.cut_card_out,
            shuffled=next((event for event in history if isinstance(event, ShoeShuffled)), None),
            paused=paused,
        )

    def _preselections(self, viewer: str | None) -> tuple[Preselection, ...]:
        rnd = self.round
        if viewer is None or rnd is None or self.stage is not Stage.PLAYING:
            return ()
        return tuple(
            Preselection(seat.number, allowed, seat.preselected)
            for seat in rnd.seats
            if seat.owner == viewer and (allowed := rnd.preselect_actions(seat.number))
        )

    # State -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole table as JSON values, shoe and deadlines included: server-side only."""
        data: dict[str, Any] = {
            "limits": [self.limits.minimum, self.limits.maximum, self.limits.step],
            "bot_bankroll": self.bot_bankroll,
            "seconds": [self.betting_seconds, self.decision_seconds, self.result_seconds],
            "max_seats_per_owner": self.max_seats_per_owner,
            "stage": self.stage.value,
            "deadline": None if math.isinf(self.deadline) else self.deadline,
            "rounds": self.rounds,
            "holders": {str(n): h.to_json() for n, h in sorted(self.holders.items())},
            "seat_bets": {str(n): bet for n, bet in sorted(self.seat_bets.items())},
            "behind": [[b.seat, b.owner, b.amount] for b in self.behind],
            "pairs": [[b.seat, b.owner, b.amount] for b in self.pairs],
            "notices": [[n.at, n.kind.value, n.seat, n.owner, n.amount] for n in self.notices],
            "empty_since": self.empty_since,
            "absent": sorted(self.absent),
            "window": None if self.window is None else list(self.window),
            "fault": None if self.fault is None else self.fault.to_json(),
        }
        data.update(table_state_to_json(self.round, self.rules, self.shoe, self.balances))
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], *, rng: random.Random | None = None) -> LiveTable:
        """The inverse of `to_json`; the shoe's RNG is not state and is given anew."""
        try:
            current, rules, shoe, balances = table_state_from_json(data, rng=rng)
            betting, decision, result = (float(s) for s in data["seconds"])
            minimum, maximum, step = (int(v) for v in data["limits"])
            holders = {
                int(n): Holder(
                    str(o),
                    None if t is None else str(t),
                    sitting_out=bool(s),
                    rounds_out=int(r),
                    leaving=bool(lv),
                    played=bool(rest[0]) if rest else False,
                )  # fmt: skip
                for n, (o, t, s, r, lv, *rest) in data["holders"].items()
            }
            if any(h.tier is not None and h.tier not in TIERS for h in holders.values()):
                raise ValueError("unknown bot tier")
            table = cls(
                rules,
                shoe,
                balances=balances,
                holders=holders,
                limits=Limits(minimum, maximum, step),
                bot_bankroll=int(data["bot_bankroll"]),
                betting_seconds=betting,
                decision_seconds=decision,
                result_seconds=result,
                max_seats_per_owner=int(data["max_seats_per_owner"]),
                stage=Stage(data["stage"]),
                deadline=math.inf if data["deadline"] is None else float(data["deadline"]),
                current=current,
            )
            table.rounds = int(data["rounds"])
            table.seat_bets = {int(n): int(bet) for n, bet in data["seat_bets"].items()}
            table.behind = [SideBet(int(s), str(o), int(a)) for s, o, a in data["behind"]]
            table.pairs = [SideBet(int(s), str(o), int(a)) for s, o, a in data["pairs"]]
            table.notices = [
                Notice(float(at), NoticeKind(kind), seat, owner, amount)
                for at, kind, seat, owner, amount in data["notices"]
            ]
            # A table stored before this was kept, with nobody seated: empty for long.
            people = any(holder.tier is None for holder in holders.values())
            since = data.get("empty_since", None if people else 0.0)
            table.empty_since = None if since is None else float(since)
            # Tables stored before issue 25 have neither: nobody absent, no shared window.
            table.absent = {str(owner) for owner in data.get("absent", ())}
            window = data.get("window")
            if window is not None:
                seat, hand = window
                table.window = (int(seat), None if hand is None else int(hand))
            fault = data.get("fault")
            if fault is not None:
                paused, step, reason = fault
                table.fault = Fault(float(paused), list(step), str(reason))
        except (AttributeError, KeyError, TypeError, ValueError, IllegalActionError) as error:
            raise StateError(f"not a valid live table: {error}") from None
        return table

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LiveTable) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]
