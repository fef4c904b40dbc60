"""Counting mode at the practice table (issue 27): the shoe is played to the cut card with
the count never shown unless the player opens it; after a round drawn at random (about
one in `ASK_ONE_IN`) and at the end of each shoe, the table asks for the running and true
count before it deals again; each bet is graded against the player's ramp at the true
count it was made at; each decision is graded against the computed index table where the
count calls for a deviation (`engine.counting.deviations`, once the table for the rules,
system and method is worked out), otherwise against the chart.

The count is what a counter at the table could know (`engine.counting.table_count`): each
round's face-up cards, added once the round is over, and carried in the session's
``counting`` JSON from round to round.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from datetime import datetime
from fractions import Fraction
from typing import Any

from engine.counting.index_store import IndexRequest
from engine.counting.risk import BetRamp, parse_ramp
from engine.counting.systems import system_named
from engine.counting.table_count import TableCount, seen_cards
from engine.counting.true_count import Conversion, DeckEstimate, TrueCountMethod, true_count
from engine.rules import Rules
from engine.table import PublicTable
from trainer.models import CountCheck, Drill, PracticeRound
from trainer.shared.counts import count_text, ramp_text

#: After about one round in this many (drawn at random), and at each shoe's end, the
#: table asks for the count.
ASK_ONE_IN = 4
#: Draws the moments the table asks (tests put a seeded generator here).
_RNG = secrets.SystemRandom()


@dataclass(frozen=True)
class CountQuestion:
    """The count the table asked for after round ``after_round``, as a counter had it, and
    when it was asked."""

    after_round: int
    reason: str
    running: Fraction
    true_count: int
    asked_at: datetime


@dataclass(frozen=True)
class CountingMode:
    """A counting-mode session's settings and count, as kept in its ``counting`` JSON."""

    method: TrueCountMethod
    ramp: BetRamp
    count: TableCount
    question: CountQuestion | None = None

    @classmethod
    def start(
        cls, rules: Rules, *, system: str, method: TrueCountMethod, ramp: BetRamp
    ) -> CountingMode:
        return cls(method, ramp, TableCount.fresh(system_named(system), decks=rules.decks))

    @classmethod
    def from_json(cls, data: dict[str, Any], rules: Rules) -> CountingMode:
        asked = data["question"]
        count = TableCount(system_named(data["system"]), rules.decks, Fraction(data["running"]))
        return cls(
            method=TrueCountMethod(DeckEstimate(data["estimate"]), Conversion(data["conversion"])),
            ramp=parse_ramp(data["ramp"], int(data["below"])),
            count=count,
            question=None if asked is None else CountQuestion(
                asked["after_round"], asked["reason"], Fraction(asked["running"]), asked["true"],
                datetime.fromisoformat(asked["asked_at"]),
            ),
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        asked = self.question
        return {
            "system": self.count.system.key,
            "estimate": self.method.estimate.value,
            "conversion": self.method.conversion.value,
            "ramp": ",".join(f"{tc}:{bet}" for tc, bet in sorted(self.ramp.bets.items())),
            "below": self.ramp.below,
            "running": str(self.count.running),
            "question": None if asked is None else {
                "after_round": asked.after_round, "reason": asked.reason,
                "running": str(asked.running), "true": asked.true_count,
                "asked_at": asked.asked_at.isoformat(),
            },
        }  # fmt: skip

    def index_request(self, rules: Rules) -> IndexRequest:
        """The index table this mode grades deviations by, for a table of ``rules``."""
        return IndexRequest(rules, self.count.system, self.method)

    def now(self, table: PublicTable) -> tuple[Fraction, int]:
        """The running and true count a counter has now: the rounds before and the face-up
        cards of the round shown, over the cards not yet dealt (a hole card face down
        among them)."""
        count = self.count
        if not table.over:
            count = count.after(table.history)
        unseen = table.cards_left + sum(1 for card in table.dealer if card is None)
        return count.running, true_count(count.running, unseen, self.method)

    def at_the_bet(self, table: PublicTable) -> int:
        """The true count a bet is made at, the table between rounds: a shoe due to be
        shuffled is counted as the fresh shoe it will be."""
        if table.phase is None or table.cut_card_out:
            fresh = TableCount.fresh(self.count.system, decks=self.count.decks)
            return true_count(fresh.running, 52 * fresh.decks, self.method)
        return self.now(table)[1]

    def after_round(self, table: PublicTable, number: int, now: datetime) -> CountingMode:
        """The count once round ``number`` is over, and the question the table puts, if
        it asks now: at the shoe's end always, otherwise once in `ASK_ONE_IN`."""
        counted = replace(self, count=self.count.after(table.history))
        reason = "shuffle" if table.cut_card_out else None
        if reason is None and _RNG.randrange(ASK_ONE_IN) == 0:
            reason = "random"
        if reason is None or not seen_cards(table.history):
            return counted
        running, true = counted.now(table)
        asked = CountQuestion(number, reason, running, true, now)
        return replace(counted, question=asked)


@dataclass(frozen=True)
class CountingView:
    """Counting mode as the table's page shows it: the question the table asks (if any),
    the count a counter has (shown only when opened), the ramp, how the last bet stood
    against it and how the last count given stood."""

    asked: CountQuestion | None
    running: Fraction
    true_count: int
    ramp: str
    unit: int
    #: The latest round's bet, the ramp's bet and the true count it was made at (chips).
    last_bet: tuple[int, int, int] | None
    #: The latest count given, if it answered the latest question asked.
    last_check: CountCheck | None
    #: The casino-ready check this table is an attempt at, if it is one.
    casino_check: int | None = None
    #: The index table deviations are graded by is stored (until it is, the chart grades
    #: every play).
    indices_ready: bool = True

    @classmethod
    def of(
        cls,
        mode: CountingMode,
        table: PublicTable,
        *,
        unit: int,
        last_round: PracticeRound | None,
        last_check: CountCheck | None,
        casino_check: int | None = None,
        indices_ready: bool = True,
    ) -> CountingView:
        running, true = mode.now(table)
        bet = None
        if last_round is not None and last_round.ramp_bet is not None:
            assert last_round.true_count is not None  # set with the ramp's bet
            bet = (last_round.bet, last_round.ramp_bet, last_round.true_count)
        latest = (
            last_round is not None
            and last_check is not None
            and (last_check.after_round == last_round.number)
        )
        return cls(
            asked=mode.question,
            running=running,
            true_count=true,
            ramp=ramp_text(mode.ramp),
            unit=unit,
            last_bet=bet,
            last_check=last_check if latest else None,
            casino_check=casino_check,
            indices_ready=indices_ready,
        )

    @property
    def bet_count(self) -> str:
        """The true count the latest bet was made at, as a counter says it."""
        return "" if self.last_bet is None else count_text(Fraction(self.last_bet[2]))

    @property
    def bet_right(self) -> bool | None:
        return None if self.last_bet is None else self.last_bet[0] == self.last_bet[1]

    @property
    def check_right(self) -> bool | None:
        return None if self.last_check is None else self.last_check.is_right

    @property
    def the_count(self) -> tuple[str, str]:
        """The running and true count now, as a counter says them ("+3½", "−1")."""
        return count_text(self.running), count_text(Fraction(self.true_count))

    @property
    def check_counts(self) -> tuple[str, str, str, str]:
        """The latest count asked and the answer given: running and true count each."""
        check = self.last_check
        assert check is not None
        return (
            count_text(Fraction(check.running)),
            count_text(Fraction(check.true_count)),
            count_text(Fraction(check.running_answer)),
            count_text(Fraction(check.true_answer)),
        )


@dataclass(frozen=True)
class CountingTotals:
    """A counting-mode session's counts and bets, as its summary shows them."""

    asked: int
    running_right: int
    true_right: int
    #: The mean distance of the true counts given from the right ones.
    true_error: float | None
    bets: int
    bets_right: int
    #: Units bet off the ramp, in all (over or under).
    units_off: int
    #: The decisions where the count called for a deviation, those played right, and what
    #: the wrong ones gave up at their counts, in initial bets.
    deviations: int
    deviations_right: int
    deviations_lost: float
    #: What the bets off the ramp gave up, in chips expected (None until the game's
    #: advantage by count has been simulated): a bet under the ramp where the count
    #: favours the player, or over it where it does not, gives up its difference times
    #: the advantage there. A bet over the ramp where the count favours the player gains
    #: expectation and adds risk: an error, not a cost.
    bets_lost: float | None

    @classmethod
    def of(
        cls,
        checks: list[CountCheck],
        rounds: list[PracticeRound],
        decisions: list[Drill],
        unit: int,
        advantage: dict[int, float] | None = None,
    ) -> CountingTotals:
        graded = [played for played in rounds if played.ramp_bet is not None]
        errors = [abs(check.true_answer - check.true_count) for check in checks]
        called = [decision for decision in decisions if decision.deviation]
        return cls(
            asked=len(checks),
            running_right=sum(1 for check in checks if check.running_answer == check.running),
            true_right=sum(1 for error in errors if error == 0),
            true_error=sum(errors) / len(errors) if errors else None,
            bets=len(graded),
            bets_right=sum(1 for played in graded if played.on_ramp),
            units_off=sum(abs(played.bet - (played.ramp_bet or 0)) for played in graded) // unit,
            deviations=len(called),
            deviations_right=sum(1 for decision in called if decision.is_correct),
            deviations_lost=float(sum(decision.ev_lost or 0 for decision in called)),
            bets_lost=None if advantage is None else _bets_lost(graded, advantage),
        )


def _bets_lost(rounds: list[PracticeRound], advantage: dict[int, float]) -> float:
    """The chips expected that bets off the ramp gave up (`CountingTotals.bets_lost`)."""
    lowest, highest = min(advantage), max(advantage)
    lost = 0.0
    for played in rounds:
        assert played.ramp_bet is not None and played.true_count is not None
        edge = advantage[min(max(played.true_count, lowest), highest)]
        lost += max(0.0, (played.ramp_bet - played.bet) * edge)
    return lost
