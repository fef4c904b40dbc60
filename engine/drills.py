"""Drill situations — a first decision on two cards — and their grading.

A situation is played through a real `Round` (with a stand-in hole card that cannot make
a natural), so the legal actions are the round's own, and it is graded by the hard-tier
bot on that round's view: a drill's right answer and a hard bot's play never disagree.

>>> from engine.rules import EUROPEAN
>>> drill = Situation.parse(EUROPEAN, "Ts 6h", "10d")
>>> drill.row, [a.value for a in drill.legal_actions()]
('hard 16', ['hit', 'stand', 'double'])
>>> grade = drill.grade("stand")
>>> grade.correct, grade.code, grade.is_correct, round(grade.ev_lost, 4)
(<Action.HIT: 'hit'>, 'H', False, 0.0058)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

from engine.bots import hard_bot
from engine.cards import CARDS, SUITS, Card
from engine.chart_vocabulary import ROWS, RowKind, RowLabel, up_column
from engine.grading import Grade, chart_cell, grade_decision
from engine.round import Phase, Round
from engine.rules import Rules
from engine.shoe import Shoe
from engine.strategy import ActionEVs, strategy_for
from engine.values import Action
from engine.view import PlayerView

__all__ = [
    "CLOSE_MARGIN",
    "DRILLABLE_ROWS",
    "MODES",
    "TRIVIAL_MARGIN",
    "Grade",
    "Situation",
    "deal_in_cell",
    "deal_situation",
]

#: A situation whose right action beats every other by more than this many units is
#: "trivial" (20 against 6: stand) and is mostly dealt around.
TRIVIAL_MARGIN = 0.25
#: A "close call": the best two legal actions are within this many units of each other.
CLOSE_MARGIN = 0.02
#: Drill modes: every hand, one kind of hand, or the close calls.
MODES: tuple[str, ...] = ("all", "hard", "soft", "pair", "close")


@dataclass(frozen=True)
class Situation:
    """Two player cards and the dealer's up card, at the first decision of a round."""

    rules: Rules
    cards: tuple[Card, Card]
    up: Card

    @classmethod
    def parse(cls, rules: Rules, cards: str, up: str) -> Situation:
        """From text: ``Situation.parse(rules, "As 7d", "9c")``."""
        first, second = (Card.parse(text) for text in cards.replace(",", " ").split())
        return cls(rules, (first, second), Card.parse(up))

    @classmethod
    def for_cell(cls, rules: Rules, row: str, up: str, rng: random.Random) -> Situation:
        """A situation in a given chart cell (``"hard 16"``, ``"10"``), with random cards.

        >>> import random
        >>> from engine.rules import EUROPEAN
        >>> Situation.for_cell(EUROPEAN, "soft 18", "9", random.Random(1)).row
        'soft 18'
        """
        label = RowLabel.of(row)
        if label.kind is RowKind.PAIR:
            ranks = ["A", "A"] if label.value == "A" else [_rank_of(label.points, rng)] * 2
        elif label.kind is RowKind.SOFT:
            ranks = ["A", _rank_of(label.points - 11, rng)]
        else:
            total = label.points
            pairs = [(a, total - a) for a in range(2, 11) if a < total - a <= 10]
            if not pairs:
                raise ValueError(f"no two-card hand makes {row}")
            first, second = rng.choice(pairs)
            ranks = [_rank_of(first, rng), _rank_of(second, rng)]
        up_rank = "A" if up == "A" else _rank_of(int(up), rng)
        cards = [Card(rank, rng.choice(SUITS)) for rank in (*ranks, up_rank)]
        return cls(rules, (cards[0], cards[1]), cards[2])

    @cached_property
    def _round(self) -> Round:
        hole = next(
            card for card in CARDS
            if card.points + self.up.points != 11 and card not in (*self.cards, self.up)
        )  # fmt: skip
        first, second = self.cards
        rnd = Round(self.rules, Shoe.stacked([first, self.up, second, hole]))
        rnd.place_bet(seat=1, amount=2)
        rnd.deal()
        if rnd.phase is Phase.INSURANCE:
            rnd.apply(Action.NO_INSURANCE)  # basic strategy never insures
        return rnd

    @property
    def is_decision(self) -> bool:
        """False for a natural, which is paid without a decision."""
        return self._round.phase is Phase.PLAYER_TURNS

    def legal_actions(self) -> tuple[Action, ...]:
        return self._round.legal_actions()

    def view(self) -> PlayerView:
        """What the player sees at this decision: what bots and grading decide on."""
        return self._round.view()

    @property
    def row(self) -> str:
        """The chart row: ``hard 16``, ``soft 18``, ``pair 8`` or ``pair A``."""
        return chart_cell(self._round.view())[0]

    @property
    def up_column(self) -> str:
        return up_column(self.up.points)

    @property
    def evs(self) -> ActionEVs:
        first, second = (card.rank for card in self.cards)
        return strategy_for(self.rules).ev(f"{first},{second}", self.up.rank)

    def correct_action(self) -> Action:
        return hard_bot(self.rules)(self._round.view())

    def grade(self, chosen: Action | str) -> Grade:
        """Grade an answer; an action that is not legal here is refused."""
        return grade_decision(self._round.view(), chosen)

    def margin(self) -> float:
        """How far the best legal action's EV is ahead of the second best's."""
        values = self.evs.as_dict()
        legal = sorted(
            (ev for action in self.legal_actions() if (ev := values[action.value]) is not None),
            reverse=True,
        )
        if len(legal) < 2:  # a natural: nothing to choose
            return float("inf")
        return legal[0] - legal[1]

    def is_trivial(self) -> bool:
        """The best action beats every other legal one by more than `TRIVIAL_MARGIN`."""
        return self.margin() > TRIVIAL_MARGIN

    def is_close(self) -> bool:
        """The best two legal actions are within `CLOSE_MARGIN`: the ones players miss."""
        return self.margin() <= CLOSE_MARGIN


def _rank_of(points: int, rng: random.Random) -> str:
    """A rank of that point value; a ten-value is any of 10, J, Q, K."""
    return rng.choice(("10", "J", "Q", "K")) if points == 10 else str(points)


def deal_situation(
    rules: Rules,
    rng: random.Random | None = None,
    *,
    mode: str = "all",
    keep_trivial: float = 0.2,
) -> Situation:
    """A situation dealt as a fresh shoe would deal it, skewed away from trivial ones.

    Naturals are dealt again; a trivial situation is kept only with probability
    ``keep_trivial``, so drills spend their time on decisions that teach something. The
    ``mode`` keeps only hard totals, soft totals, pairs or close calls (see `MODES`).
    Pairs are the exception to the shoe's frequencies: each rank is dealt equally often,
    or a pair of ten-values would be every third pair and aces one in fifty.
    """
    if mode not in MODES:
        raise ValueError(f"unknown drill mode {mode!r}: choose one of {', '.join(MODES)}")
    rng = rng or random.SystemRandom()
    if mode == "pair":
        return _deal_pair(rules, rng, keep_trivial)
    shoe = list(CARDS) * rules.decks
    while True:
        first, up, second = rng.sample(shoe, 3)
        situation = Situation(rules, (first, second), up)
        if not situation.is_decision:
            continue
        if mode == "close":
            if situation.is_close():
                return situation
            continue
        if mode != "all" and not situation.row.startswith(mode):
            continue
        if situation.is_trivial() and rng.random() >= keep_trivial:
            continue
        return situation


def _deal_pair(rules: Rules, rng: random.Random, keep_trivial: float) -> Situation:
    """A pair of a rank chosen evenly, against an up card dealt as the shoe deals it; a
    trivial one is dealt again against another up card, so every rank keeps its share."""
    rank = rng.choice(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10"))
    while True:
        situation = deal_in_cell(rules, f"pair {rank}", rng=rng)
        if not situation.is_trivial() or rng.random() < keep_trivial:
            return situation


def deal_in_cell(
    rules: Rules, row: str, up: str | None = None, rng: random.Random | None = None
) -> Situation:
    """A hand in a chart row (``"pair 8"``) against ``up`` (``"10"``), or against an up card
    dealt as a full shoe deals it, ten-values four times in thirteen: the drill of one row
    or one cell that a player picks.

    >>> deal_in_cell(Rules(), "soft 18", "9").up_column
    '9'
    """
    rng = rng or random.SystemRandom()
    column = up if up is not None else up_column(rng.choice(CARDS).points)
    return Situation.for_cell(rules, row, column, rng)


def _drillable(rules: Rules, row: str) -> bool:
    try:
        return Situation.for_cell(rules, row, "2", random.Random(0)).is_decision
    except ValueError:
        return False


#: The chart rows a two-card drill can be dealt in: all but hard 20 (two tens are a pair)
#: and the 21s. A later decision of a practice round may fall in any row.
DRILLABLE_ROWS: frozenset[str] = frozenset(row for row in ROWS if _drillable(Rules(), row))
