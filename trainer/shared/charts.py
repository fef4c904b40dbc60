"""The strategy chart as a page shows it: rows, coloured cells and marked differences."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from engine.chart_vocabulary import ROWS, UP_CARDS, Chart, RowKind, RowLabel
from engine.drills import DRILLABLE_ROWS
from engine.rules import Surrender
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
    differences: tuple[tuple[str, str, str, str], ...]
    dealer_peeks: bool
    offers_surrender: bool
    house_edge_percent: float
    rtp_percent: float

    @classmethod
    def of(cls, strategy: Strategy, common: Chart) -> ChartView:
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
            differences=tuple(
                (row_title(row), up, ours, theirs) for row, up, ours, theirs in differences
            ),
            dealer_peeks=strategy.rules.dealer_peeks,
            offers_surrender=strategy.rules.surrender is not Surrender.NONE,
            house_edge_percent=edge["house_edge_percent"],
            rtp_percent=edge["rtp_percent"],
        )


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
