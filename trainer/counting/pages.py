"""What the running-count drill's pages show, worked out from a run: the deck in the
groups it is shown in, with the checkpoints between them, and once answered, the grade."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from fractions import Fraction

from engine.cards import Card
from engine.counting.drill import CountGrade, checkpoints, counts_after, grade_count
from engine.counting.systems import CountingSystem, system_named
from trainer.models import CountingRun
from trainer.shared.cards import CardFace
from trainer.shared.counts import count_text

#: The standards a player is shown beside their own figures (docs/counting.md).
DECK_SECONDS = 30
DECK_STREAK = 5
TAG_SECONDS = 0.5


@dataclass(frozen=True)
class Group:
    """Cards shown together, and the checkpoint after them (the card number), if any."""

    cards: tuple[CardFace, ...]
    first: int
    checkpoint: int | None


@dataclass(frozen=True)
class Seen:
    """A card of the stretch where a count went wrong: its tag and the count after it."""

    card: CardFace
    number: int
    tag: str
    count: str


@dataclass(frozen=True)
class RunPage:
    """A run as its page shows it."""

    run: CountingRun
    system: CountingSystem
    groups: tuple[Group, ...]
    checkpoints: tuple[int, ...]
    grade: CountGrade | None
    seconds: float | None
    #: The running count after each card.
    counts: list[Fraction]

    @classmethod
    def of(cls, run: CountingRun) -> RunPage:
        cards = run.cards.split()
        asked = checkpoints(len(cards), run.checkpoint_every)
        system = system_named(run.system)
        grade = None
        if run.answered_at is not None:
            given = {int(card): Fraction(count) for card, count in run.checkpoint_answers.items()}
            grade = grade_count(system, cards, Fraction(run.answer), given)
        seconds = None
        if run.answered_at and run.shown_at:
            seconds = (run.answered_at - run.shown_at) / timedelta(seconds=1)
        groups = _groups(cards, run.group or 1, asked)
        return cls(run, system, groups, asked, grade, seconds, counts_after(system, cards))

    @property
    def cards(self) -> int:
        return sum(len(group.cards) for group in self.groups)

    @property
    def laid_out(self) -> bool:
        return self.run.group == 0

    @property
    def seconds_per_group(self) -> float:
        """How long each group is shown when the deck is dealt a few cards at a time."""
        return (self.run.group or 1) * 10 / self.run.pace_tenths

    @property
    def truth(self) -> str:
        assert self.grade is not None
        return count_text(self.grade.truth)

    @property
    def answer(self) -> str:
        assert self.grade is not None
        return count_text(self.grade.answer)

    @property
    def off_by(self) -> str:
        """How far off, without a sign (the words say which way): "4", "1½"."""
        assert self.grade is not None
        return count_text(abs(self.grade.off_by)).lstrip("+")

    @property
    def too_high(self) -> bool:
        return self.grade is not None and self.grade.off_by > 0

    @property
    def seconds_per_card(self) -> float | None:
        return None if self.seconds is None else self.seconds / self.cards

    @property
    def met_deck_standard(self) -> bool:
        return bool(self.grade and self.grade.exact and self.seconds is not None
                    and self.seconds <= DECK_SECONDS)  # fmt: skip

    @property
    def checkpoint_answers(self) -> list[tuple[int, str, str]]:
        """Each checkpoint answered: the card, the count given, the true count there."""
        return [
            (int(card), count_text(Fraction(count)), count_text(self.counts[int(card) - 1]))
            for card, count in sorted(self.run.checkpoint_answers.items(), key=lambda i: int(i[0]))
        ]

    @property
    def stretch(self) -> list[Seen]:
        """The cards among which the count first went wrong, with their tags and counts."""
        if self.grade is None or self.grade.first_wrong is None:
            return []
        first, last = self.grade.first_wrong
        cards = self.run.cards.split()
        return [
            Seen(CardFace.of(Card.parse(cards[n - 1])), n,
                 count_text(self.system.tag(cards[n - 1])), count_text(self.counts[n - 1]))
            for n in range(first, last + 1)
        ]  # fmt: skip


def _groups(cards: list[str], size: int, asked: tuple[int, ...]) -> tuple[Group, ...]:
    """The cards in groups of ``size``, a group cut short where a checkpoint falls."""
    groups: list[Group] = []
    start = 0
    stops = set(asked)
    while start < len(cards):
        end = min(start + size, len(cards))
        for n in range(start + 1, end):
            if n in stops:
                end = n
                break
        faces = tuple(CardFace.of(Card.parse(card)) for card in cards[start:end])
        groups.append(Group(faces, start + 1, end if end in stops else None))
        start = end
    return tuple(groups)
