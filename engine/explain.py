"""Why the exact chart of the rules in play parts from the common chart, cell by cell.

Players learn one chart: the published 4–8 deck, dealer-stands-on-soft-17, double-after-
split chart, which the `AMERICAN` preset's exact analysis reproduces cell for cell (see
docs/strategy.md). Where the chart of other rules differs, a drill says so and why. The
cells are found by comparing the two analyses' charts (`chart_changes`), never from a
list; the reason is chosen from the rule differences that can change that kind of cell
(`reason_for`).

>>> from engine.rules import EUROPEAN
>>> changes = cell_changes(EUROPEAN)
>>> change = changes["hard 11", "10"]
>>> change.code, change.common_code, change.reason.value
('H', 'D', 'no_hole_card_double')
>>> sorted(changes)
[('hard 11', '10'), ('pair 8', '10'), ('pair 8', 'A'), ('pair A', 'A')]
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from engine.bots import hard_bot
from engine.chart_vocabulary import RowKind, RowLabel
from engine.drills import Situation
from engine.rules import AMERICAN, Rules, Surrender
from engine.strategy import Strategy, chart_differences, strategy_for
from engine.values import Action

__all__ = [
    "CONTROL",
    "CellChange",
    "Explanation",
    "Reason",
    "cell_changes",
    "chart_changes",
    "explain",
    "reason_for",
]

#: The rules whose exact chart is the common published chart.
CONTROL = AMERICAN

_DOUBLES = frozenset({"D", "Ds"})
_SPLITS = frozenset({"P", "Ph", "Rp"})
_SPLIT_FIELDS = ("max_hands", "resplit_aces", "hit_split_aces")


class Reason(StrEnum):
    """The rule difference that explains a changed cell, most telling first."""

    #: No peek: a dealer ten or ace may hide a natural that takes the double too.
    NO_HOLE_CARD_DOUBLE = "no_hole_card_double"
    #: No peek: a dealer natural takes both bets of a split.
    NO_HOLE_CARD_SPLIT = "no_hole_card_split"
    #: These rules offer surrender, which beats playing a bad hand out.
    SURRENDER = "surrender"
    #: Doubling is not allowed on this total here.
    DOUBLE_RESTRICTED = "double_restricted"
    #: Doubling after a split is not allowed here (the common chart assumes it is).
    NO_DOUBLE_AFTER_SPLIT = "no_double_after_split"
    #: Doubling after a split is allowed here (the control does not allow it).
    DOUBLE_AFTER_SPLIT = "double_after_split"
    #: How many hands a split may make, or what split aces may do.
    SPLIT_RULES = "split_rules"
    #: The dealer hits soft 17 here.
    DEALER_HITS_SOFT_17 = "dealer_hits_soft_17"
    #: The dealer stands on soft 17 here.
    DEALER_STANDS_SOFT_17 = "dealer_stands_soft_17"
    #: Another number of decks: the player's own cards weigh differently on the shoe.
    DECKS = "decks"
    #: No peek, for any other cell: a dealer natural takes the whole stake.
    NO_HOLE_CARD = "no_hole_card"
    #: None of the above.
    OTHER = "other"


@dataclass(frozen=True)
class CellChange:
    """A chart cell the rules in play fill differently from the common chart."""

    row: str
    up: str
    #: The codes of the rules in play and of the common chart ("H", "D").
    code: str
    common_code: str
    reason: Reason


def reason_for(
    row: str, up: str, code: str, common_code: str, rules: Rules, control: Rules
) -> Reason:
    """The rule difference that explains why ``code`` replaces ``common_code`` in a cell.

    Each reason is tried only for the cells it can change, the most direct first: a hole
    card matters against a ten or an ace when the common chart puts more money out; a
    double restriction where the common chart doubles; split rules in the pair rows.

    >>> from engine.rules import DELUXE
    >>> reason_for("hard 16", "9", "R", "H", DELUXE, CONTROL).value
    'surrender'
    """
    no_hole_card = not rules.dealer_peeks and control.dealer_peeks and not rules.original_bets_only
    against_a_natural = up in ("10", "A")
    if no_hole_card and against_a_natural:
        if common_code in _DOUBLES and code not in _DOUBLES:
            return Reason.NO_HOLE_CARD_DOUBLE
        if common_code in _SPLITS and code not in _SPLITS:
            return Reason.NO_HOLE_CARD_SPLIT
    offers_surrender = rules.surrender is not Surrender.NONE
    if code.startswith("R") and not common_code.startswith("R") and offers_surrender:
        return Reason.SURRENDER
    if common_code in _DOUBLES and code not in _DOUBLES and rules.double_on != control.double_on:
        return Reason.DOUBLE_RESTRICTED
    is_pair_row = RowLabel.of(row).kind is RowKind.PAIR
    if is_pair_row and rules.double_after_split != control.double_after_split:
        if rules.double_after_split:
            return Reason.DOUBLE_AFTER_SPLIT
        return Reason.NO_DOUBLE_AFTER_SPLIT
    if is_pair_row and any(getattr(rules, f) != getattr(control, f) for f in _SPLIT_FIELDS):
        return Reason.SPLIT_RULES
    if rules.dealer_hits_soft_17 != control.dealer_hits_soft_17:
        if rules.dealer_hits_soft_17:
            return Reason.DEALER_HITS_SOFT_17
        return Reason.DEALER_STANDS_SOFT_17
    if rules.decks != control.decks:
        return Reason.DECKS
    if no_hole_card:
        return Reason.NO_HOLE_CARD
    return Reason.OTHER


def chart_changes(strategy: Strategy, control: Strategy) -> dict[tuple[str, str], CellChange]:
    """Every cell where the two analyses' charts differ, by (row, up card), with its reason."""
    return {
        (row, up): CellChange(
            row, up, code, common, reason_for(row, up, code, common, strategy.rules, control.rules)
        )
        for row, up, code, common in chart_differences(strategy.chart, control.chart)
    }


@lru_cache(maxsize=32)
def cell_changes(rules: Rules, control: Rules = CONTROL) -> dict[tuple[str, str], CellChange]:
    """`chart_changes` of two rule sets' analyses (worked out once per process)."""
    return chart_changes(strategy_for(rules), strategy_for(control))


@dataclass(frozen=True)
class Explanation:
    """Why a drill's right play is not the common chart's play, for that very hand."""

    change: CellChange
    #: The right play under the rules in play, and the common chart's play for this hand
    #: (each with the rules in play's fallbacks where an action is not legal).
    play: Action
    common_play: Action
    #: The EVs of those two plays for these cards under the rules in play.
    ev: float
    common_ev: float

    @property
    def cards_agree(self) -> bool:
        """Whether these very cards bear out the chart: the chart goes by the total, so a
        composition may favour the common play by a little."""
        return self.ev >= self.common_ev


def explain(situation: Situation, control: Rules = CONTROL) -> Explanation | None:
    """The explanation of a drill whose cell the rules in play change, where the change
    leads to another play for this hand; else None."""
    change = cell_changes(situation.rules, control).get((situation.row, situation.up_column))
    if change is None:
        return None
    view = situation.view()
    play = hard_bot(situation.rules)(view)
    common_play = hard_bot(control)(view)  # its chart, with these rules' legal actions
    if play is common_play:
        return None
    # Both plays are legal here (the bots choose among the legal actions): both have EVs.
    evs = situation.evs
    return Explanation(change, play, common_play, evs.of(play.value), evs.of(common_play.value))
