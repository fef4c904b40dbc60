"""The counting drills' changes: deal a deck or a shoe part, show it, take the answer.

Each question (a deck to count is one) belongs to its owner and every query names them:
another's is not found. A question is answered once, under a lock: a second answer (a
replay, another tab) changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext as _

from engine.counting.bet_drill import count_to_bet
from engine.counting.conversion import ShoeSeen, shoe_seen
from engine.counting.drill import checkpoints, deck_to_count, grade_count
from engine.counting.index_drill import grade_index, index_question, right_play
from engine.counting.index_store import IndexRequest, load_indices
from engine.counting.indices import IndexEntry
from engine.counting.risk import BetRamp, parse_ramp
from engine.counting.systems import system_named
from engine.counting.true_count import Conversion, DeckEstimate, TrueCountMethod
from trainer.counting.index_review import due_play
from trainer.models import (
    BetQuestion,
    CountingAnswer,
    CountingRun,
    IndexPlayQuestion,
    TrueCountQuestion,
)
from trainer.shared.owners import Owner
from trainer.shared.rule_changes import RuleChanges
from trainer.shared.unit_of_work import NotFound, Refused

#: Deals are drawn with the system's CSPRNG: the next deck cannot be foreseen.
_RNG = random.SystemRandom()
#: Every counting drill's questions, each model a table of its own.
DRILLS: tuple[type[CountingAnswer], ...] = (
    CountingRun,
    TrueCountQuestion,
    IndexPlayQuestion,
    BetQuestion,
)


def shown[Answer: CountingAnswer](
    model: type[Answer], *, owner: Owner, pk: int, now: datetime
) -> Answer:
    """The owner's question ``pk``, noted as shown from ``now`` the first time a page shows
    it (its answer's time runs from there); NotFound if it is not theirs."""
    found = model._default_manager.filter(pk=pk, **owner.filter()).first()
    if found is None:
        raise NotFound(_("There is no such question of yours."))
    if found.shown_at is None:
        model._default_manager.filter(pk=found.pk, shown_at__isnull=True).update(shown_at=now)
        found.shown_at = now
    return found


@contextmanager
def answering[Answer: CountingAnswer](
    model: type[Answer], *, owner: Owner, pk: int, now: datetime
) -> Iterator[Answer]:
    """The owner's question ``pk``, locked for its answer: the block sets the answer's
    fields, and they are saved with the time it was answered, in one transaction.
    NotFound if it is not theirs; Refused once it is answered."""
    with transaction.atomic():
        found = model._default_manager.select_for_update().filter(pk=pk, **owner.filter()).first()
        if found is None:
            raise NotFound(_("There is no such question of yours."))
        if found.answered_at is not None:
            raise Refused(_("This question is answered already: go on to the next."))
        yield found
        found.answered_at = now
        found.shown_at = found.shown_at or now
        found.save()


def answered[Answer: CountingAnswer](model: type[Answer], *, owner: Owner, pk: int) -> Answer:
    """The owner's answered question ``pk`` (what the next question follows on from)."""
    found = model._default_manager.filter(
        pk=pk, answered_at__isnull=False, **owner.filter()
    ).first()
    if found is None:
        raise NotFound(_("There is no such question of yours."))
    return found


def counting_adopt_guest(
    sender: object, *, guest_token: str, user_id: int, **kwargs: object
) -> None:
    """`guest_adopted`'s receiver: a guest's counting drills follow them into their
    account."""
    for model in DRILLS:
        model._default_manager.filter(user__isnull=True, guest_token=guest_token).update(
            user_id=user_id, guest_token=""
        )


@dataclass(frozen=True)
class RunSettings:
    """How a deck is shown: the system counted, cards at a time (0: laid out whole), the
    pace in tenths of a card a second, and a checkpoint every so many cards (0: none)."""

    system: str
    group: int
    pace_tenths: int
    checkpoint_every: int


def counting_start(*, owner: Owner, settings: RunSettings) -> CountingRun:
    """Deal a new deck to count, shown as ``settings`` say."""
    return CountingRun.objects.create(
        **owner.fields(),
        system=settings.system,
        cards=" ".join(deck_to_count(_RNG)),
        group=settings.group,
        pace_tenths=settings.pace_tenths,
        checkpoint_every=settings.checkpoint_every,
    )


def counting_answer(
    *,
    owner: Owner,
    run_id: int,
    answer: Fraction,
    at_checkpoints: Mapping[int, Fraction],
    now: datetime,
) -> CountingRun:
    """Grade the player's running count (and the counts they gave at checkpoints) and keep
    it; refused once the run is answered."""
    with answering(CountingRun, owner=owner, pk=run_id, now=now) as run:
        cards = run.cards.split()
        asked = set(checkpoints(len(cards), run.checkpoint_every))
        given = {card: count for card, count in at_checkpoints.items() if card in asked}
        grade = grade_count(system_named(run.system), cards, answer, given)
        run.answer = str(answer)
        run.checkpoint_answers = {str(card): str(count) for card, count in given.items()}
        run.exact = grade.exact
    return run


@dataclass(frozen=True)
class TrueCountSettings:
    """The true-count drill's shoe (decks) and the player's method."""

    decks: int
    estimate: DeckEstimate
    conversion: Conversion


def true_count_start(*, owner: Owner, settings: TrueCountSettings) -> TrueCountQuestion:
    """A new shoe part dealt: first, its decks left to judge from the discard tray."""
    seen = shoe_seen(_RNG, settings.decks)
    return TrueCountQuestion.objects.create(
        **owner.fields(),
        kind=TrueCountQuestion.Kind.DECKS,
        decks=seen.decks,
        dealt=seen.dealt,
        running=seen.running,
        estimate=settings.estimate,
        conversion=settings.conversion,
    )


def true_count_answer(
    *, owner: Owner, question_id: int, answer: Fraction, now: datetime
) -> TrueCountQuestion:
    """Grade the decks left or the true count given; refused once answered."""
    with answering(TrueCountQuestion, owner=owner, pk=question_id, now=now) as question:
        question.answer = str(answer)
        question.right = answer == expected(question)
    return question


def true_count_next(*, owner: Owner, question_id: int) -> TrueCountQuestion:
    """The question after an answered one: the same shoe's true count after its decks
    left, a new shoe after a true count."""
    question = answered(TrueCountQuestion, owner=owner, pk=question_id)
    settings = TrueCountSettings(
        question.decks, DeckEstimate(question.estimate), Conversion(question.conversion)
    )
    if question.kind == TrueCountQuestion.Kind.CONVERT:
        return true_count_start(owner=owner, settings=settings)
    return TrueCountQuestion.objects.create(
        **owner.fields(),
        kind=TrueCountQuestion.Kind.CONVERT,
        decks=question.decks,
        dealt=question.dealt,
        running=question.running,
        estimate=question.estimate,
        conversion=question.conversion,
    )


def expected(question: TrueCountQuestion) -> Fraction:
    """The right answer: the decks left to the player's step, or their true count."""
    seen = ShoeSeen(question.decks, question.dealt, question.running)
    if question.kind == TrueCountQuestion.Kind.DECKS:
        return seen.decks_left(DeckEstimate(question.estimate))
    method = TrueCountMethod(DeckEstimate(question.estimate), Conversion(question.conversion))
    return Fraction(seen.true_count(method))


@dataclass(frozen=True)
class IndexSettings:
    """The index-play drill's rules (a preset and the player's changes to it, as text),
    counting system and true-count method."""

    rules_name: str
    system: str
    estimate: DeckEstimate
    conversion: Conversion
    rules_changes: str = ""

    def fields(self) -> dict[str, str]:
        """The question columns these settings are kept in."""
        return {"rules_name": self.rules_name, "rules_changes": self.rules_changes,
                "system": self.system, "estimate": self.estimate.value,
                "conversion": self.conversion.value}  # fmt: skip

    def request(self) -> IndexRequest:
        """The index table these settings are drilled against."""
        return IndexRequest(
            RuleChanges.parse(self.rules_changes).applied_to(self.rules_name),
            system_named(self.system),
            TrueCountMethod(self.estimate, self.conversion),
        )


def index_start(*, owner: Owner, settings: IndexSettings, now: datetime) -> IndexPlayQuestion:
    """The next index play put to the owner, from the table of ``settings`` (stored:
    `IndexTablePending` if it is not worked out yet): a play they missed, when one is due
    again (trainer/counting/index_review.py), else one drawn from the whole table."""
    table = load_indices(settings.request(), compute_inline=False)
    due = due_play(owner, settings.fields(), now)
    again = [e for e in table.entries if (e.row, e.up, e.play, e.otherwise) == due]
    asked = index_question(_RNG, table, again[0] if again else None)
    entry = asked.entry
    return IndexPlayQuestion.objects.create(
        **owner.fields(),
        **settings.fields(),
        row=entry.row,
        up=entry.up,
        play=entry.play,
        otherwise=entry.otherwise,
        index=entry.index,
        ev_difference={str(count): value for count, value in entry.ev_difference.items()},
        true_count=asked.true_count,
        cards=" ".join(asked.cards),
    )


def index_answer(
    *, owner: Owner, question_id: int, answer: str, now: datetime
) -> IndexPlayQuestion:
    """Grade the play chosen at the question's count; refused once answered, or if the
    play is not one of the two offered."""
    with answering(IndexPlayQuestion, owner=owner, pk=question_id, now=now) as question:
        if answer not in (question.play, question.otherwise):
            raise Refused(_("Choose one of the two plays offered."))
        grade = grade_index(entry_of(question), question.true_count, answer)
        question.answer = answer
        question.right = grade.right
        question.given_up = grade.given_up
    return question


def entry_of(question: IndexPlayQuestion) -> IndexEntry:
    """The index play a question was asked from, as the table gave it then."""
    return IndexEntry(
        row=question.row,
        up=question.up,
        play=question.play,
        otherwise=question.otherwise,
        index=question.index,
        ev_difference={int(count): float(value) for count, value in question.ev_difference.items()},
        shoes={},
    )


def index_right_play(question: IndexPlayQuestion) -> str:
    """The right play at the question's count."""
    return right_play(entry_of(question), question.true_count)


def bet_start(*, owner: Owner, ramp: BetRamp) -> BetQuestion:
    """A true count to bet at by the owner's ``ramp``."""
    return BetQuestion.objects.create(
        **owner.fields(),
        ramp=ramp_text(ramp),
        below=ramp.below,
        true_count=count_to_bet(_RNG, ramp),
    )


def ramp_text(ramp: BetRamp) -> str:
    """The ramp as COUNT:BET pairs, lowest count first ("1:2,2:4,3:8")."""
    return ",".join(f"{count}:{bet}" for count, bet in sorted(ramp.bets.items()))


def ramp_of(question: BetQuestion) -> BetRamp:
    return parse_ramp(question.ramp, question.below)


def bet_answer(*, owner: Owner, question_id: int, answer: int, now: datetime) -> BetQuestion:
    """Grade the bet against the ramp at the question's count; refused once answered."""
    with answering(BetQuestion, owner=owner, pk=question_id, now=now) as question:
        question.answer = answer
        question.right = answer == ramp_of(question).bet(question.true_count)
    return question


def bet_next(*, owner: Owner, question_id: int) -> BetQuestion:
    """The next count to bet at, by the same ramp, once this question is answered."""
    question = answered(BetQuestion, owner=owner, pk=question_id)
    return bet_start(owner=owner, ramp=ramp_of(question))
