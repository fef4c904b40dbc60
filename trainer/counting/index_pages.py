"""What the index-play drill's pages show: a question (the hand, the up card and the true
count, the two plays the count decides between, and once answered, the grade in expected
value with the index and the EV differences either side of it), and the printable index
chart beside the book's."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from engine.cards import Card
from engine.chart_vocabulary import UP_CARDS
from engine.counting.index_table import book_index, chart_order
from engine.counting.indices import IndexTable
from trainer.models import IndexPlayQuestion
from trainer.shared.cards import CardFace
from trainer.shared.charts import row_title
from trainer.shared.counts import count_text

#: Each play an index decides, by name (a chart code never shows).
PLAY_NAMES: dict[str, Promise] = {
    "hit": _("Hit"),
    "stand": _("Stand"),
    "double": _("Double"),
    "split": _("Split"),
    "surrender": _("Surrender"),
    "insure": _("Insure"),
    "decline": _("No insurance"),
}


@dataclass(frozen=True)
class Difference:
    """The EV of the index's play less the other's at one true count."""

    count: str
    value: str


@dataclass(frozen=True)
class IndexPage:
    """A question as its page shows it."""

    question: IndexPlayQuestion
    #: The right play at the question's count (the engine's `right_play`).
    right: str

    @property
    def cards(self) -> tuple[CardFace, ...]:
        return tuple(CardFace.of(Card.parse(card)) for card in self.question.cards.split())

    @property
    def up(self) -> CardFace:
        # The up card's suit is not part of the index: spades, for a face to draw.
        return CardFace.of(Card.parse(f"{self.question.up}s"))

    @property
    def hand(self) -> str:
        """The hand's chart row in words ("Hard 16", "8,8"; "Insurance")."""
        if self.question.row == "insurance":
            return str(_("Insurance"))
        return row_title(self.question.row)

    @property
    def true_count(self) -> str:
        return count_text(Fraction(self.question.true_count))

    @property
    def choices(self) -> list[tuple[str, Promise]]:
        """The two plays, in the table's order of play: the index's own play first."""
        return [(play, PLAY_NAMES[play]) for play in (self.question.play, self.question.otherwise)]

    @property
    def answered(self) -> bool:
        return self.question.answered_at is not None

    @property
    def right_play(self) -> Promise:
        return PLAY_NAMES[self.right]

    @property
    def answer(self) -> Promise:
        return PLAY_NAMES[self.question.answer]

    @property
    def given_up(self) -> str:
        """What the answer gave up, in bets, to three places."""
        return f"{self.question.given_up or 0:.3f}"

    @property
    def play(self) -> Promise:
        return PLAY_NAMES[self.question.play]

    @property
    def otherwise(self) -> Promise:
        return PLAY_NAMES[self.question.otherwise]

    @property
    def index(self) -> str:
        return count_text(Fraction(self.question.index))

    @property
    def either_side(self) -> list[Difference]:
        """The EV differences just below the index and at it: where the play turns."""
        index = self.question.index
        found = self.question.ev_difference
        return [
            Difference(count_text(Fraction(count)), f"{found[str(count)]:+.3f}".replace("-", "−"))
            for count in (index - 1, index)
            if str(count) in found
        ]


@dataclass(frozen=True)
class ChartLine:
    """One index play in the printable chart: ours, and the book's where it has one."""

    hand: str
    up: str
    play: Promise
    otherwise: Promise
    index: str
    book: str | None

    @property
    def differs(self) -> bool:
        return self.book is not None and self.book != self.index


def chart_lines(table: IndexTable, with_book: bool) -> list[ChartLine]:
    """The table's index plays in chart order (insurance, hard, soft, pairs; the highest
    total first, the up cards in order), beside the book's index where ``with_book``."""
    lines = []
    for entry in sorted(table.entries, key=lambda e: (chart_order(e.row), UP_CARDS.index(e.up))):
        book = book_index(entry.row, entry.up, entry.play) if with_book else None
        hand = str(_("Insurance")) if entry.row == "insurance" else row_title(entry.row)
        lines.append(
            ChartLine(
                hand=hand,
                up=entry.up,
                play=PLAY_NAMES[entry.play],
                otherwise=PLAY_NAMES[entry.otherwise],
                index=count_text(Fraction(entry.index)),
                book=None if book is None else count_text(Fraction(book)),
            )
        )
    return lines
