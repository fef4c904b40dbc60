"""A practice session as its summary page shows it: the numbers, the biggest mistakes,
and every round as it was played, each of the player's decisions graded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise

from engine.cards import Card
from engine.events import Event, StakeSettled, seat_hands
from engine.round_codec import history_from_json
from engine.values import Action
from trainer.models import Drill
from trainer.practice.counting import CountingTotals
from trainer.practice.pages import dealer_cards, seat_names
from trainer.practice.selectors import SessionRecord
from trainer.shared.cards import CardFace
from trainer.shared.rules_words import RulesWords
from trainer.shared.story import BUTTONS, RESULT_LABELS, history_lines


@dataclass(frozen=True)
class Decision:
    """One of the player's decisions, graded: a play made, or a mistake taken back."""

    cards: tuple[CardFace, ...]
    up: CardFace
    chosen: Promise
    #: The right play by name, never a chart code.
    play: str
    is_correct: bool
    ev_lost: float
    round_number: int | None
    #: Coach mode: held back and taken back, so not the play made.
    taken_back: bool

    @classmethod
    def of(cls, drill: Drill, round_number: int | None = None) -> Decision:
        return cls(
            cards=tuple(CardFace.of(Card.parse(text)) for text in drill.cards.split()),
            up=CardFace.of(Card.parse(drill.up)),
            chosen=BUTTONS[Action(drill.action)][0],
            play=str(BUTTONS[Action(drill.correct_action)][0]),
            is_correct=drill.is_correct,
            ev_lost=float(drill.ev_lost or 0),
            round_number=round_number,
            taken_back=drill.taken_back,
        )


@dataclass(frozen=True)
class PlayedHand:
    cards: tuple[CardFace, ...]
    result: Promise | str
    net: int


@dataclass(frozen=True)
class RoundRecord:
    number: int
    bet: int
    net: int | None
    balance_after: int | None
    dealer: tuple[CardFace | None, ...]
    dealer_total: int | None
    hands: tuple[PlayedHand, ...]
    lines: tuple[str, ...]
    decisions: tuple[Decision, ...]


@dataclass(frozen=True)
class SessionSummary:
    id: int
    rules: RulesWords
    ended: bool
    bankroll: int
    balance: int
    totals: dict[str, Any]
    mistakes: tuple[Decision, ...]
    rounds: tuple[RoundRecord, ...]
    #: Counting mode's counts and bets (None without it).
    counting: CountingTotals | None

    @classmethod
    def of(cls, record: SessionRecord) -> SessionSummary:
        """The session as read (`trainer.practice.selectors.session_record`), built without
        a query."""
        session, table = record.session, record.table
        names = seat_names(table)
        decisions: dict[int, list[Decision]] = {}
        by_cost = []
        for drill in record.decisions:
            assert drill.practice_round is not None
            decision = Decision.of(drill, drill.practice_round.number)
            decisions.setdefault(drill.practice_round.number, []).append(decision)
            if not decision.is_correct:  # taken back or not, a mistake counts
                by_cost.append(decision)
        by_cost.sort(key=lambda decision: -decision.ev_lost)
        rounds = []
        for played in record.rounds:
            events = history_from_json(played.history)
            dealer, dealer_total = dealer_cards(events)
            rounds.append(
                RoundRecord(
                    number=played.number,
                    bet=played.bet,
                    net=played.net,
                    balance_after=played.balance_after,
                    dealer=dealer,
                    dealer_total=dealer_total,
                    hands=_played_hands(events, table.player_seat),
                    lines=tuple(history_lines(events, names)),
                    decisions=tuple(decisions.get(played.number, ())),
                )
            )
        return cls(
            id=session.pk,
            rules=RulesWords.of(table.rules),
            ended=session.ended_at is not None,
            bankroll=session.bankroll,
            balance=session.balance,
            totals=record.totals,
            mistakes=tuple(by_cost[:5]),
            rounds=tuple(reversed(rounds)),
            counting=None
            if session.counting is None
            else CountingTotals.of(
                record.count_checks,
                record.rounds,
                record.decisions,
                table.limits.minimum,
                record.advantage,
            ),
        )


def _played_hands(events: list[Event], seat: int) -> tuple[PlayedHand, ...]:
    """The seat's hands as they ended, with their results."""
    results = {
        event.hand: event
        for event in events
        if isinstance(event, StakeSettled) and event.seat == seat and event.kind == "hand"
    }
    return tuple(
        PlayedHand(
            cards=tuple(CardFace.of(card) for card in cards),
            result=RESULT_LABELS.get(results[index].result, results[index].result)
            if index in results
            else "",
            net=int(results[index].returned - results[index].staked) if index in results else 0,
        )
        for index, cards in enumerate(seat_hands(events, seat))
    )
