"""Index plays as data: which play is right from which true count, for a counter's game.

An entry reads as the ``indices`` command writes it: ``{"row": "hard 16", "up": "10",
"play": "stand", "otherwise": "hit", "index": 0}`` means stand on hard 16 against a ten at
a true count of 0 or more, hit below it. Rows are named as in ``chart`` ("hard 16",
"soft 18", "pair 10", "pair A"), with "insurance" (``up`` "A", ``play`` "insure"). A play
right as the count *falls* is written the same way (13 v 2: stand at or above −1). A
fractional index is raised to the whole true count it first holds at (2.3 → 3).

The book tables here are Hi-Lo's for six decks, S17 (Blackjack Attack, as reproduced in
the issue): the Illustrious 18 (`I18`) and the Fab 4 surrenders (`FAB_4`); the tables
computed for a player's own rules come from the ``indices`` command in the same shape.

>>> len(I18), len(FAB_4), I18[0]
(18, 4, IndexPlay(row='insurance', up='A', play=<Action.INSURE: 'insure'>, \
otherwise=<Action.NO_INSURANCE: 'no_insurance'>, index=3))
>>> parse_index_table([{"row": "hard 16", "up": "T", "play": "stand", "otherwise": "hit",
...                     "index": 0}])[0].up
'10'
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from engine.chart_vocabulary import ROWS, UP_CARDS
from engine.counting.systems import CountingError
from engine.values import Action

__all__ = [
    "FAB_4",
    "I18",
    "INDEX_TABLES",
    "IndexPlay",
    "book_index",
    "chart_order",
    "index_table_named",
    "parse_index_table",
]

INSURANCE_ROW = "insurance"
_PLAYS = (Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)
_UP_ALIASES = {"T": "10", "J": "10", "Q": "10", "K": "10", "11": "A", "1": "A"}


@dataclass(frozen=True, slots=True)
class IndexPlay:
    """``play`` on ``row`` against ``up`` at a true count of ``index`` or more, else
    ``otherwise``."""

    row: str
    up: str
    play: Action
    otherwise: Action
    index: int

    def to_json(self) -> dict[str, object]:
        return {
            "row": self.row,
            "up": self.up,
            "play": str(self.play),
            "otherwise": str(self.otherwise),
            "index": self.index,
        }


def _entries(text: str) -> tuple[IndexPlay, ...]:
    """Entries written one a line: ``row | up | play | otherwise | index``."""
    plays = []
    for line in text.strip().splitlines():
        row, up, play, otherwise, index = (part.strip() for part in line.split("|"))
        plays.append(IndexPlay(row, up, Action(play), Action(otherwise), int(index)))
    return tuple(plays)


#: The Illustrious 18, Hi-Lo, multi-deck S17, in the book's order of value.
I18: tuple[IndexPlay, ...] = _entries("""
    insurance | A  | insure | no_insurance | 3
    hard 16   | 10 | stand  | hit   | 0
    hard 15   | 10 | stand  | hit   | 4
    pair 10   | 5  | split  | stand | 5
    pair 10   | 6  | split  | stand | 4
    hard 10   | 10 | double | hit   | 4
    hard 12   | 3  | stand  | hit   | 2
    hard 12   | 2  | stand  | hit   | 3
    hard 11   | A  | double | hit   | 1
    hard 9    | 2  | double | hit   | 1
    hard 10   | A  | double | hit   | 4
    hard 9    | 7  | double | hit   | 3
    hard 16   | 9  | stand  | hit   | 5
    hard 13   | 2  | stand  | hit   | -1
    hard 12   | 4  | stand  | hit   | 0
    hard 12   | 5  | stand  | hit   | -2
    hard 12   | 6  | stand  | hit   | -1
    hard 13   | 3  | stand  | hit   | -2
""")

#: The Fab 4 late surrenders (15 v A: the H17 index, as the books give it).
FAB_4: tuple[IndexPlay, ...] = _entries("""
    hard 14 | 10 | surrender | hit | 3
    hard 15 | 10 | surrender | hit | 0
    hard 15 | 9  | surrender | hit | 2
    hard 15 | A  | surrender | hit | 1
""")

#: The book tables by name; the Fab 4 first, so a surrender is tried before a stand.
INDEX_TABLES: dict[str, tuple[IndexPlay, ...]] = {
    "none": (),
    "i18": I18,
    "fab4": FAB_4,
    "i18+fab4": FAB_4 + I18,
}


def index_table_named(name: str) -> tuple[IndexPlay, ...]:
    """A book table by name: none, i18, fab4 or i18+fab4."""
    key = name.strip().lower().replace(" ", "")
    if key not in INDEX_TABLES:
        raise CountingError(
            f"unknown index table {name!r}: choose one of {', '.join(INDEX_TABLES)}, "
            "or give a file of index plays"
        )
    return INDEX_TABLES[key]


def parse_index_table(data: object) -> tuple[IndexPlay, ...]:
    """Index plays from JSON data: a list of entries, or the ``indices`` command's object
    (whose ``indices`` is that list). Every entry is checked; the first bad one is named.

    >>> parse_index_table([{"row": "hard 23", "up": "2", "play": "hit", "otherwise": "stand",
    ...                     "index": 1}])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.counting.systems.CountingError: index play 1: no such row 'hard 23' (write it ...
    """
    if isinstance(data, Mapping):
        data = data.get("indices")
    if not isinstance(data, list):
        raise CountingError("index plays must be a list of entries (or an object with 'indices')")
    return tuple(_entry(number, entry) for number, entry in enumerate(data, start=1))


def _entry(number: int, entry: object) -> IndexPlay:
    where = f"index play {number}"
    if not isinstance(entry, Mapping):
        raise CountingError(f"{where}: not an object with row, up, play, otherwise and index")
    missing = [key for key in ("row", "up", "play", "otherwise", "index") if key not in entry]
    if missing:
        raise CountingError(f"{where}: missing {', '.join(missing)}")
    row = str(entry["row"]).strip().lower()
    if row != INSURANCE_ROW and row not in {name.lower() for name in ROWS}:
        raise CountingError(
            f"{where}: no such row {entry['row']!r} (write it as in the chart, e.g. hard 16, "
            "soft 18, pair 10, or insurance)"
        )
    row = row.replace("pair a", "pair A")
    up = str(entry["up"]).strip().upper()
    up = _UP_ALIASES.get(up, up)
    if up not in UP_CARDS:
        raise CountingError(f"{where}: no such up card {entry['up']!r} (2 to 10, or A)")
    play, otherwise = (_action(where, entry[key]) for key in ("play", "otherwise"))
    index = entry["index"]
    if isinstance(index, bool) or not isinstance(index, int | float) or not -30 <= index <= 30:
        raise CountingError(f"{where}: the index must be a true count from -30 to 30: {index!r}")
    # A true count is whole: "at 2.3 or more" is "at 3 or more".
    index = math.ceil(index)
    if row == INSURANCE_ROW:
        if (up, play, otherwise) != ("A", Action.INSURE, Action.NO_INSURANCE):
            raise CountingError(
                f"{where}: insurance is against an ace, play insure, otherwise no_insurance"
            )
    elif play not in _PLAYS or otherwise not in _PLAYS or play is otherwise:
        raise CountingError(
            f"{where}: play and otherwise are two of hit, stand, double, split, surrender"
        )
    elif (play is Action.SPLIT or otherwise is Action.SPLIT) and not row.startswith("pair"):
        raise CountingError(f"{where}: only a pair can split")
    return IndexPlay(row, up, play, otherwise, index)


#: The ``indices`` command's word for declining insurance (`engine.counting.indices`).
_DECLINE = "decline"


def _action(where: str, value: object) -> Action:
    text = str(value).strip().lower().replace(" ", "_")
    if text == _DECLINE:
        return Action.NO_INSURANCE
    try:
        return Action(text)
    except ValueError:
        raise CountingError(f"{where}: not a play: {value!r}") from None


def book_index(row: str, up: str, play: str) -> int | None:
    """The book's index for ``play`` on ``row`` against ``up`` (the I18 or the Fab 4,
    Hi-Lo's), or None where the books give none.

    >>> book_index("hard 16", "10", "stand"), book_index("hard 15", "10", "surrender")
    (0, 0)
    >>> book_index("insurance", "A", "insure"), book_index("hard 8", "6", "double")
    (3, None)
    """
    for entry in FAB_4 + I18:
        if (entry.row, entry.up, str(entry.play)) == (row, up, play):
            return entry.index
    return None


def chart_order(row: str) -> tuple[int, int]:
    """Where an index play's row stands in a chart of them: insurance first, then the hard,
    soft and pair rows in the chart's groups (`ROWS`), the highest total first.

    >>> sorted(["pair 8", "hard 12", "insurance", "hard 16", "soft 18"], key=chart_order)
    ['insurance', 'hard 16', 'hard 12', 'soft 18', 'pair 8']
    """
    if row == INSURANCE_ROW:
        return 0, 0
    kind = row.partition(" ")[0]
    group = [name for name in ROWS if name.startswith(kind)]
    return 1 + ("hard", "soft", "pair").index(kind), -group.index(row)
