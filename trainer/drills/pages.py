"""A drill as the page shows it: the cards, the actions, and once answered, the grade."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from engine.chart_vocabulary import UP_CARDS
from engine.explain import CONTROL, Explanation
from engine.rules import Rules
from engine.values import Action
from trainer.drills.selectors import DealtDrill
from trainer.shared.cards import ACTION_BUTTONS, CardFace
from trainer.shared.charts import ACTIONS, reason_words, row_title
from trainer.shared.rules_words import RulesWords


@dataclass(frozen=True)
class ChartCellRef:
    up: str
    code: str
    family: str
    here: bool


#: A play's name inside a sentence ("the common chart plays double here").
PLAY_NAMES: dict[Action, Promise] = {
    Action.HIT: _("hit"),
    Action.STAND: _("stand"),
    Action.DOUBLE: _("double"),
    Action.SPLIT: _("split"),
    Action.SURRENDER: _("surrender"),
}


@dataclass(frozen=True)
class Why:
    """An answered drill's explanation where the rules in play change the common chart."""

    play: str
    common_play: str
    ev: float
    common_ev: float
    reason: str
    #: False where these very cards favour the common play by a little (the chart goes by
    #: the total), which the sentence then says.
    cards_agree: bool

    @classmethod
    def of(cls, explanation: Explanation, decks: int) -> Why:
        up = explanation.change.up
        reason = reason_words(
            explanation.change.reason, up=up, decks=decks, common_decks=CONTROL.decks
        )
        return cls(
            play=str(PLAY_NAMES[explanation.play]),
            common_play=str(PLAY_NAMES[explanation.common_play]),
            ev=explanation.ev,
            common_ev=explanation.common_ev,
            reason=reason,
            cards_agree=explanation.cards_agree,
        )


@dataclass(frozen=True)
class SessionFigures:
    """The drill session (docs/decisions.md): hands, right answers, streak, EV given up."""

    hands: int
    right: int
    streak: int
    ev_lost: float


@dataclass(frozen=True)
class ActionChoice:
    value: str
    label: Promise
    key: str
    ev: float | None
    chosen: bool
    correct: bool


@dataclass(frozen=True)
class DrillView:
    """Everything the drill page renders; the engine decides, this only arranges."""

    #: None for a hand drawn without saving (its answer form carries its ticket).
    id: int | None
    #: The rules in play; the page names them in words (`rules_words`).
    rules: Rules
    cards: tuple[CardFace, CardFace]
    up: CardFace
    row: str
    #: The situation's chart row, with its up-card column marked.
    chart_row: tuple[ChartCellRef, ...]
    up_column: str
    answered: bool
    choices: tuple[ActionChoice, ...]
    is_correct: bool
    #: The right action's value ("hit"), and its label.
    correct: str
    correct_label: Promise | None
    ev_lost: float
    #: Where the rules in play change this cell of the common chart, why (once answered).
    why: Why | None
    session: SessionFigures
    #: Timed mode: the seconds allowed (None: untimed), and whether the answer was late.
    time_limit: int | None
    late: bool

    @property
    def rules_words(self) -> RulesWords:
        """Worked out only where shown: the whole drill shows them, an answer's fragment
        does not, and putting eight rules into words took 5% of the answer request."""
        return RulesWords.of(self.rules)

    @property
    def feedback_key(self) -> str:
        """Every value the answered drill's feedback shows, as text (labels by their action).

        The feedback's HTML depends on nothing else but the language, so ``drill.html``
        keeps it per process under this key: a process can reuse it for any drill with the
        same key and never show one that is out of date.
        """
        choices = [
            (choice.value, choice.ev, choice.chosen, choice.correct) for choice in self.choices
        ]
        cells = [(cell.up, cell.code, cell.family, cell.here) for cell in self.chart_row]
        return repr(
            (
                self.row, choices, cells, self.is_correct, self.correct,
                self.ev_lost, self.why, self.late, self.time_limit,
            )
        )  # fmt: skip

    @classmethod
    def of(cls, dealt: DealtDrill) -> DrillView:
        """The drill as read (`trainer.drills.selectors.dealt_drill`): built without a query."""
        drill, situation, strategy = dealt.drill, dealt.situation, dealt.strategy
        row, here = situation.row, situation.up_column
        codes = strategy.chart[row]
        evs: dict[str, float | None] = {}
        if drill.answered_at:
            hand = ",".join(card.rank for card in situation.cards)
            evs = strategy.ev(hand, situation.up.rank).as_dict()
        choices = tuple(
            ActionChoice(
                value=action.value,
                label=ACTION_BUTTONS[action][0],
                key=ACTION_BUTTONS[action][1],
                ev=evs.get(action.value),
                chosen=drill.action == action.value,
                correct=drill.correct_action == action.value,
            )
            for action in situation.legal_actions()
        )
        correct = Action(drill.correct_action) if drill.correct_action else None
        return cls(
            id=drill.pk,
            rules=situation.rules,
            cards=(CardFace.of(situation.cards[0]), CardFace.of(situation.cards[1])),
            up=CardFace.of(situation.up),
            row=row_title(row),
            chart_row=tuple(
                ChartCellRef(up=up, code=codes[up], family=ACTIONS[codes[up]][1], here=up == here)
                for up in UP_CARDS
            ),
            up_column=here,
            answered=drill.answered_at is not None,
            choices=choices,
            is_correct=drill.is_correct,
            correct=drill.correct_action,
            correct_label=ACTION_BUTTONS[correct][0] if correct else None,
            ev_lost=float(drill.ev_lost or 0),
            why=Why.of(dealt.explanation, situation.rules.decks) if dealt.explanation else None,
            session=SessionFigures(
                hands=drill.session_hands,
                right=drill.session_right,
                streak=drill.session_streak,
                ev_lost=float(drill.session_lost),
            ),
            time_limit=drill.time_limit,
            late=drill.late,
        )
