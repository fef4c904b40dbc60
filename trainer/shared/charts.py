"""The strategy chart as a page shows it: rows, coloured cells and marked differences."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.chart_vocabulary import ROWS, UP_CARDS, Chart, RowKind, RowLabel
from engine.drills import DRILLABLE_ROWS
from engine.explain import CONTROL, Reason, reason_for
from engine.rules import Rules
from engine.strategy import Strategy, chart_differences

#: What each chart code means, and the colour family it is drawn in.
ACTIONS: dict[str, tuple[Promise, str]] = {
    "H": (_("Hit"), "hit"),
    "S": (_("Stand"), "stand"),
    "D": (_("Double if allowed, otherwise hit"), "double"),
    "Ds": (_("Double if allowed, otherwise stand"), "double"),
    "P": (_("Split"), "split"),
    "Ph": (_("Split if doubling after a split is allowed, otherwise hit"), "split"),
    "R": (_("Surrender if allowed, otherwise hit"), "surrender"),
    "Rs": (_("Surrender if allowed, otherwise stand"), "surrender"),
    "Rp": (_("Surrender if allowed, otherwise split"), "surrender"),
}


#: The hole card, worded once for every page that explains a chart (the drill's feedback,
#: the chart page; the rules page's note says the same).
NO_PEEK = _("the dealer does not look at the hole card for blackjack before you act")

#: Why the rules in play change a cell of the common chart, the end of a sentence.
REASONS: dict[Reason, Promise] = {
    Reason.NO_HOLE_CARD_DOUBLE: _(
        "%(no_peek)s, so a dealer %(up)s may hide a blackjack that takes the doubled bet too"
    ),
    Reason.NO_HOLE_CARD_SPLIT: _(
        "%(no_peek)s, so a dealer %(up)s may hide a blackjack that takes both bets of the split"
    ),
    Reason.SURRENDER: _(
        "these rules let you give up half the bet, which loses less here than playing on"
    ),
    Reason.DOUBLE_RESTRICTED: _("these rules do not let you double this hand"),
    Reason.NO_DOUBLE_AFTER_SPLIT: _(
        "these rules do not let you double after splitting, which makes a split worth less"
    ),
    Reason.DOUBLE_AFTER_SPLIT: _(
        "these rules let you double after splitting, which makes a split worth more"
    ),
    Reason.SPLIT_RULES: _("these rules limit splitting differently"),
    Reason.DEALER_HITS_SOFT_17: _(
        "the dealer hits soft 17 here, which changes how often the dealer busts"
    ),
    Reason.DEALER_STANDS_SOFT_17: _(
        "the dealer stands on soft 17 here, which changes how often the dealer busts"
    ),
    Reason.DECKS: _(
        "with %(decks)s decks instead of %(common_decks)s, your own cards change what is "
        "left in the shoe by a different amount"
    ),
    Reason.NO_HOLE_CARD: _("%(no_peek)s, so a dealer blackjack takes every bet on the table"),
    Reason.OTHER: _("these rules change what each play is worth"),
}


def reason_words(reason: Reason, *, up: str, decks: int, common_decks: int) -> str:
    """Why a cell changes, in words: the same sentence on the drill's feedback and the
    chart page, so that the two never explain one cell two ways."""
    return str(REASONS[reason]) % {
        "no_peek": NO_PEEK,
        "up": gettext("ace") if up == "A" else gettext("ten"),
        "decks": decks,
        "common_decks": common_decks,
    }


@dataclass(frozen=True)
class Difference:
    """A cell where this chart parts from the common one."""

    row: str
    up: str
    ours: str
    theirs: str


@dataclass(frozen=True)
class WhyGroup:
    """One reason, and the marked cells it explains."""

    reason: str
    cells: tuple[Difference, ...]


@dataclass(frozen=True)
class ChartCell:
    up: str
    code: str
    meaning: Promise
    family: str
    #: The common chart's code where it differs from this one, else "".
    common: str


@dataclass(frozen=True)
class ChartRow:
    label: str
    cells: tuple[ChartCell, ...]
    #: The row's name for the link that drills one of its cells; empty for a row no
    #: two-card hand is dealt in (hard 20, the 21s).
    drill_row: str
    #: Its name in a sentence ("Hard 16").
    title: str


@dataclass(frozen=True)
class ChartSection:
    title: Promise
    rows: tuple[ChartRow, ...]


@dataclass(frozen=True)
class ChartView:
    """A preset's chart with the cells where the common (normal-tier) chart differs."""

    sections: tuple[ChartSection, ...]
    up_cards: tuple[str, ...]
    legend: tuple[tuple[str, Promise, str], ...]
    #: The marked cells grouped by the reason the engine gives for each (`engine.explain`).
    whys: tuple[WhyGroup, ...]
    house_edge_percent: float
    rtp_percent: float

    @classmethod
    def of(cls, strategy: Strategy, common: Chart, common_rules: Rules = CONTROL) -> ChartView:
        """The chart of ``strategy`` marked against ``common``, the chart of ``common_rules``
        (by default the common chart's)."""
        differences = chart_differences(strategy.chart, common)
        differing = {(row, up): theirs for row, up, _, theirs in differences}
        sections: dict[RowKind, list[ChartRow]] = {kind: [] for kind in RowKind}
        for row in ROWS:
            label = RowLabel.of(row)
            cells = tuple(
                ChartCell(
                    up=up,
                    code=strategy.chart[row][up],
                    meaning=ACTIONS[strategy.chart[row][up]][0],
                    family=ACTIONS[strategy.chart[row][up]][1],
                    common=differing.get((row, up), ""),
                )
                for up in UP_CARDS
            )
            drill_row = row if row in DRILLABLE_ROWS else ""
            sections[label.kind].append(
                ChartRow(_row_label(label), cells, drill_row, row_title(row))
            )
        used = {cell.code for rows in sections.values() for row in rows for cell in row.cells}
        edge = strategy.edge_json()
        return cls(
            sections=(
                ChartSection(_("Hard totals"), tuple(sections[RowKind.HARD])),
                ChartSection(_("Soft totals"), tuple(sections[RowKind.SOFT])),
                ChartSection(_("Pairs"), tuple(sections[RowKind.PAIR])),
            ),
            up_cards=UP_CARDS,
            legend=tuple((code, *ACTIONS[code]) for code in ACTIONS if code in used),
            whys=_whys(differences, strategy.rules, common_rules),
            house_edge_percent=edge["house_edge_percent"],
            rtp_percent=edge["rtp_percent"],
        )


def _whys(
    differences: list[tuple[str, str, str, str]], rules: Rules, common_rules: Rules
) -> tuple[WhyGroup, ...]:
    """Each marked cell under the reason for it, in the order the cells come."""
    groups: dict[str, list[Difference]] = {}
    for row, up, ours, theirs in differences:
        reason = reason_for(row, up, ours, theirs, rules, common_rules)
        words = reason_words(reason, up=up, decks=rules.decks, common_decks=common_rules.decks)
        groups.setdefault(words, []).append(Difference(row_title(row), up, ours, theirs))
    return tuple(WhyGroup(words, tuple(cells)) for words, cells in groups.items())


def row_title(row: str) -> str:
    """A row's name in a sentence: "Hard 11", "Soft 18", "8,8"."""
    label = RowLabel.of(row)
    if label.kind is RowKind.PAIR:
        return f"{label.value},{label.value}"
    if label.kind is RowKind.SOFT:
        return str(_("Soft %(total)s") % {"total": label.value})
    return str(_("Hard %(total)s") % {"total": label.value})


def _row_label(label: RowLabel) -> str:
    """The row's name in the chart's first column: "16", "A,7", "8,8"."""
    if label.kind is RowKind.PAIR:
        return f"{label.value},{label.value}"
    if label.kind is RowKind.SOFT and label.value != "21":
        return f"A,{label.points - 11}"
    return label.value
