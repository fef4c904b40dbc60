"""The words of a strategy chart, shared by the bots, the analysis and the web pages.

A chart maps rows (``"hard 12"``, ``"soft 18"``, ``"pair 8"``, ``"pair A"``) and up-card
columns (``"2"`` … ``"10"``, ``"A"``) to the codes of ``shared/RULES.md`` §3. A code names
the actions to try in order, the first legal one being played (`fallbacks`): D is double
else hit, Ds double else stand, P split else the pair's play as a hard total, and so on.
The analysis counts ranks by index: 0 is the ace, 1 the two, … 9 every ten-value.

>>> fallbacks("Ds", double_after_split=True)
(<Action.DOUBLE: 'double'>, <Action.STAND: 'stand'>)
>>> resolve("Rp", allowed={Action.SPLIT}, double_after_split=True)
<Action.SPLIT: 'split'>
>>> rank_index("K"), rank_index("A"), up_column(1), up_column(10)
(9, 0, 'A', '10')
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import StrEnum

from engine.cards import RANKS
from engine.errors import EngineError
from engine.values import Action

__all__ = [
    "CODES",
    "HITTING_CODES",
    "ROWS",
    "UP_CARDS",
    "Chart",
    "RowKind",
    "RowLabel",
    "fallbacks",
    "rank_index",
    "resolve",
    "up_column",
]

#: A chart: row → up-card column → code.
Chart = Mapping[str, Mapping[str, str]]

#: The chart's columns, the dealer's up card as charts write it.
UP_CARDS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")

#: Every row of a full chart, in the order charts print them.
ROWS: tuple[str, ...] = (
    *(f"hard {total}" for total in range(5, 22)),
    *(f"soft {total}" for total in range(13, 22)),
    *(f"pair {rank}" for rank in (*range(2, 11), "A")),
)


class RowKind(StrEnum):
    """A chart row's kind of hand."""

    HARD = "hard"
    SOFT = "soft"
    PAIR = "pair"


@dataclass(frozen=True, slots=True)
class RowLabel:
    """A chart row's label read: its kind, and its total (a pair's: its rank, "A" for aces).

    >>> RowLabel.of("pair A"), str(RowLabel.of("soft 18"))
    (RowLabel(kind=<RowKind.PAIR: 'pair'>, value='A'), 'soft 18')
    """

    kind: RowKind
    value: str

    @classmethod
    def of(cls, label: str) -> RowLabel:
        kind, _, value = label.partition(" ")
        return cls(RowKind(kind), value)

    def __str__(self) -> str:
        return f"{self.kind} {self.value}"

    @property
    def points(self) -> int:
        """A hard or soft row's total; a pair's card points (an ace's: 1)."""
        return 1 if self.value == "A" else int(self.value)


HIT, STAND, DOUBLE, SPLIT, SURRENDER = (
    Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER,
)  # fmt: skip

#: Each code's actions in the order tried, before the row's own play for the codes that
#: split (P, Ph, Rp): that is the pair's play as a hard total, which the caller knows.
CODES: dict[str, tuple[Action, ...]] = {
    "H": (HIT, STAND),
    "S": (STAND,),
    "D": (DOUBLE, HIT, STAND),
    "Ds": (DOUBLE, STAND),
    "P": (SPLIT,),
    "Ph": (SPLIT,),  # only where a split hand may double; else H
    "R": (SURRENDER, HIT, STAND),
    "Rs": (SURRENDER, STAND),
    "Rp": (SURRENDER, SPLIT),
}


def fallbacks(
    code: str, *, double_after_split: bool, unsplit: tuple[Action, ...] = (HIT, STAND)
) -> tuple[Action, ...]:
    """The actions a code tries, in order. ``unsplit`` is what a pair does when it is not
    split (its hard total's play); a stand is always legal, so every list ends in one."""
    if code not in CODES:
        raise ValueError(f"unknown chart code {code!r}")
    if code == "Ph" and not double_after_split:
        return CODES["H"]
    actions = CODES[code]
    return (*actions, *unsplit) if actions[-1] is SPLIT else actions


def resolve(
    code: str,
    *,
    allowed: Collection[Action],
    double_after_split: bool,
    unsplit: tuple[Action, ...] = (HIT, STAND),
) -> Action:
    """The action a code means when, besides hitting and standing, only ``allowed``
    actions may be taken."""
    return next(
        action
        for action in fallbacks(code, double_after_split=double_after_split, unsplit=unsplit)
        if action in (HIT, STAND) or action in allowed
    )


#: The codes that hit a hand which may only hit or stand (three cards or more).
HITTING_CODES: frozenset[str] = frozenset(
    code for code in CODES if resolve(code, allowed=(), double_after_split=True) is HIT
)


def rank_index(text: str) -> int:
    """The analysis's index of a rank written as text (``"A"``, ``"7"``, ``"T"``, ``"K"``)."""
    rank = text.strip().upper()
    rank = {"T": "10", "J": "10", "Q": "10", "K": "10"}.get(rank, rank)
    if rank not in RANKS:
        raise EngineError(f"not a card rank: {text!r} (use 2-10, J, Q, K or A)")
    return 0 if rank == "A" else int(rank) - 1


def up_column(points: int) -> str:
    """The chart column of an up card of these points (an ace is 1)."""
    return "A" if points == 1 else str(points)
