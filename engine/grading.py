"""A decision graded against the hard tier: one code for drills and for practice rounds.

The right action is what the hard-tier bot plays on the same `PlayerView`, so a grade and
a hard bot can never disagree. The EVs come from the exact analysis: for two cards the
EVs of that hand as dealt (a split hand is valued as if dealt, the usual approximation),
for three or more cards the stand and hit EVs of that composition, and for insurance the
bet's own EV given the cards the player can see of their hand.

>>> from engine.rules import EUROPEAN
>>> from engine.round import Round
>>> from engine.shoe import Shoe
>>> rnd = Round(EUROPEAN, Shoe.stacked("10s 10d 6h 7c"))
>>> rnd.place_bet(seat=1, amount=10)
>>> _ = rnd.deal()
>>> grade = grade_decision(rnd.view(), "stand")
>>> grade.row, grade.up, grade.correct.value, grade.code, grade.is_correct
('hard 16', '10', 'hit', 'H', False)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.bots import hard_bot
from engine.chart_vocabulary import up_column
from engine.refusals import Refusal, refused
from engine.strategy import ActionEVs, strategy_for
from engine.values import Action
from engine.view import PlayerView

__all__ = ["INSURANCE_ROW", "Grade", "chart_cell", "grade_decision"]

#: The row an insurance decision is recorded under; it is not a row of the chart.
INSURANCE_ROW = "insurance"


@dataclass(frozen=True)
class Grade:
    """How a decision compares with the hard tier's, in units of the initial bet."""

    chosen: Action
    correct: Action
    #: The chart code of the decision's cell (D, Ds, P, …); empty for insurance.
    code: str
    row: str
    up: str
    #: Every action's EV for this hand (None for insurance).
    evs: ActionEVs | None
    #: EV of the right action minus EV of the chosen one (never below 0).
    ev_lost: float

    @property
    def is_correct(self) -> bool:
        return self.chosen is self.correct


def chart_cell(view: PlayerView) -> tuple[str, str]:
    """The chart row (``hard 16``, ``soft 18``, ``pair 8``, ``pair A``) and up-card column
    of the decision in view.

    Two cards of one value are the pair's row even where they cannot be split (the hand
    limit, a short balance): the chart's codes say what to do then ("else" the total's
    play), and A,A or 2,2 have no other row.
    """
    up = up_column(view.up_card.points)
    if view.hand_index is None:
        return INSURANCE_ROW, up
    if view.pair_points and view.rules.max_hands >= 2:
        return ("pair A" if view.pair_points == 1 else f"pair {view.pair_points}"), up
    return f"{'soft' if view.soft else 'hard'} {view.total}", up


def grade_decision(view: PlayerView, chosen: Action | str) -> Grade:
    """Grade a decision on the view it was taken on; an action not legal there is refused."""
    try:
        action = Action(chosen)
    except ValueError:
        raise refused(Refusal.NOT_AN_ACTION, action=repr(chosen)) from None
    if action not in view.legal:
        raise refused(Refusal.NOT_OFFERED, action=action.value)
    correct = hard_bot(view.rules)(view)
    row, up = chart_cell(view)
    if view.hand_index is None:
        return Grade(action, correct, "", row, up, None, _insurance_ev_lost(view, action))
    strategy = strategy_for(view.rules)
    evs = strategy.ev(",".join(card.rank for card in view.hand), up)
    # Both actions are legal here, so both have EVs (the bot chooses among legal ones).
    ev_lost = max(0.0, evs.of(correct.value) - evs.of(action.value))
    return Grade(action, correct, strategy.chart[row][up], row, up, evs, ev_lost)


def _insurance_ev_lost(view: PlayerView, action: Action) -> float:
    """What taking insurance gives up, per unit of the seat bet, or 0 for declining.

    Insurance costs half the bet and pays 2:1 when the hole card is a ten-value: its EV is
    1.5·p − 0.5, with p the share of ten-values among the cards the player has not seen
    of a full shoe less their own two cards and the up card.
    """
    if action is not Action.INSURE:
        return 0.0
    seen = [*view.hands[0][:2], view.up_card]
    tens = 16 * view.rules.decks - sum(card.points == 10 for card in seen)
    p = tens / (52 * view.rules.decks - len(seen))
    return max(0.0, 0.5 - 1.5 * p)
