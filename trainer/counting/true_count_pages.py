"""What the true-count and betting drills' pages show, worked out from a question: the
discard tray drawn to scale, the running count and decks left where asked, and once
answered, the grade with the working; a true count to bet at beside the player's ramp."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from fractions import Fraction

from engine.counting.conversion import ShoeSeen
from engine.counting.risk import BetRamp
from engine.counting.true_count import CARDS_PER_DECK, Conversion, DeckEstimate
from trainer.models import BetQuestion, TrueCountQuestion
from trainer.shared.counts import count_text

#: The goal an answer's time is shown beside (COUNTING.md, "Pass standards").
ANSWER_SECONDS = 2
#: The tray's drawing, in SVG units: the height that holds the whole shoe, whatever its
#: decks (so a quarter deck of a one-deck shoe is 36 high, of eight decks 4.5), its width,
#: and the margin its edge is drawn in.
TRAY_HEIGHT = 144
TRAY_WIDTH = 90
MARGIN = 2


def decks_text(decks: Fraction) -> str:
    """Decks as a player says them: "3", "2½", "1¾", "¼".

    >>> decks_text(Fraction(5, 2)), decks_text(Fraction(1, 4)), decks_text(Fraction(6))
    ('2½', '¼', '6')
    """
    whole, part = divmod(decks, 1)
    glyph = {Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}.get(part)
    if part and glyph is None:
        return f"{float(decks):g}"
    return (str(int(whole)) if whole or not part else "") + (glyph or "")


@dataclass(frozen=True)
class Tray:
    """The discard tray as drawn: a tray that holds the whole shoe, and the stack of the
    cards dealt, to scale (no marks: a player judges by eye, as at a table). The tray is
    as tall for one deck as for eight, so that a small shoe's quarter deck can be seen."""

    decks: int
    dealt: int

    @property
    def height(self) -> int:
        """The drawing's height: the tray's, and a margin for its edge."""
        return TRAY_HEIGHT + 2 * MARGIN

    @property
    def width(self) -> int:
        return TRAY_WIDTH

    @property
    def edge(self) -> str:
        """The tray's outline: its sides and bottom, open at the top."""
        bottom = self.height - MARGIN
        return f"M{MARGIN} {MARGIN} V{bottom} H{TRAY_WIDTH - MARGIN} V{MARGIN}"

    @property
    def stack_height(self) -> str:
        return f"{self._stack:.1f}"

    @property
    def stack_y(self) -> str:
        return f"{self.height - MARGIN - self._stack:.1f}"

    @property
    def _stack(self) -> float:
        return self.dealt / (self.decks * CARDS_PER_DECK) * TRAY_HEIGHT

    @property
    def stack_x(self) -> int:
        return 3 * MARGIN

    @property
    def stack_width(self) -> int:
        return TRAY_WIDTH - 6 * MARGIN

    @property
    def percent(self) -> int:
        """How full the tray is, for a screen reader (what the eye sees, in words)."""
        return round(100 * self.dealt / (self.decks * CARDS_PER_DECK))


@dataclass(frozen=True)
class QuestionPage:
    """A question as its page shows it."""

    question: TrueCountQuestion
    tray: Tray
    right_answer: Fraction
    seconds: float | None

    @classmethod
    def of(cls, question: TrueCountQuestion, right_answer: Fraction) -> QuestionPage:
        seconds = None
        if question.answered_at and question.shown_at:
            seconds = (question.answered_at - question.shown_at) / timedelta(seconds=1)
        return cls(question, Tray(question.decks, question.dealt), right_answer, seconds)

    @property
    def asks_decks(self) -> bool:
        return self.question.kind == TrueCountQuestion.Kind.DECKS

    @property
    def answered(self) -> bool:
        return self.question.answered_at is not None

    @property
    def estimate(self) -> DeckEstimate:
        return DeckEstimate(self.question.estimate)

    @property
    def conversion(self) -> Conversion:
        return Conversion(self.question.conversion)

    @property
    def running(self) -> str:
        return count_text(Fraction(self.question.running))

    @property
    def decks_left(self) -> str:
        """The decks left to the player's step (what the true count is divided by)."""
        seen = ShoeSeen(self.question.decks, self.question.dealt, self.question.running)
        return decks_text(seen.decks_left(self.estimate))

    @property
    def quotient(self) -> str:
        """The running count over the decks left, before the conversion, to two places."""
        seen = ShoeSeen(self.question.decks, self.question.dealt, self.question.running)
        return f"{float(Fraction(self.question.running) / seen.decks_left(self.estimate)):+.2f}"

    @property
    def right_text(self) -> str:
        if self.asks_decks:
            return decks_text(self.right_answer)
        return count_text(self.right_answer)

    @property
    def answer_text(self) -> str:
        answer = Fraction(self.question.answer)
        return decks_text(answer) if self.asks_decks else count_text(answer)

    @property
    def in_time(self) -> bool:
        return self.seconds is not None and self.seconds < ANSWER_SECONDS


@dataclass(frozen=True)
class RampStep:
    """One step of a ramp as the page lists it: from this count, this bet."""

    count: str
    bet: int


@dataclass(frozen=True)
class BetPage:
    """A betting question as its page shows it: the count, the player's ramp, and once
    answered, the bet the ramp makes there."""

    question: BetQuestion
    ramp: BetRamp

    @property
    def true_count(self) -> str:
        return count_text(Fraction(self.question.true_count))

    @property
    def steps(self) -> list[RampStep]:
        return [RampStep(count_text(Fraction(c)), b) for c, b in sorted(self.ramp.bets.items())]

    @property
    def right_bet(self) -> int:
        return self.ramp.bet(self.question.true_count)

    @property
    def answered(self) -> bool:
        return self.question.answered_at is not None
