"""A decision at a counted table graded by the index table (issue 27): where the count
calls for a deviation (the index's right play at the true count differs from the chart's),
the index play is the right one; otherwise the chart's grade stands.

What a wrong play gives up at the count: the index's EV difference at that true count
(the nearest count the table has) when the play was the other of the index's two; a third
play gives up the chart's loss as well (its EV at the count is not in the table: the
full-shoe EVs stand in for it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from engine.bots import Bot
from engine.counting.index_drill import right_play
from engine.counting.indices import IndexEntry
from engine.grading import Grade, chart_cell
from engine.values import Action
from engine.view import PlayerView

__all__ = ["counted_bot", "grade_at_count"]

#: The index table's words for the plays that are not `Action` values.
_PLAYS = {"decline": Action.NO_INSURANCE}


def _action(play: str) -> Action:
    return _PLAYS.get(play) or Action(play)


def grade_at_count(
    grade: Grade, entries: Iterable[IndexEntry], true_count: int, legal: tuple[Action, ...]
) -> tuple[Grade, bool]:
    """``grade`` (the chart's) at ``true_count``: regraded against the index play where the
    count calls for a deviation; second, whether it did.

    >>> from engine.grading import Grade
    >>> entry = IndexEntry("hard 16", "10", "stand", "hit", 0, {-1: -0.01, 0: 0.002}, {})
    >>> chart = Grade(Action.HIT, Action.HIT, "H", "hard 16", "10", None, 0.0)
    >>> graded, called = grade_at_count(chart, [entry], 0, (Action.HIT, Action.STAND))
    >>> graded.correct.value, graded.ev_lost, called
    ('stand', 0.002, True)
    >>> grade_at_count(chart, [entry], -1, (Action.HIT, Action.STAND))[1]
    False
    """
    found = _deviation(grade.row, grade.up, grade.correct, entries, true_count, legal)
    if found is None:
        return grade, False
    entry, right = found
    nearest = min(entry.ev_difference, key=lambda count: abs(count - true_count))
    difference = abs(entry.ev_difference[nearest])
    if grade.chosen is right:
        lost = 0.0
    elif grade.chosen is grade.correct:
        lost = difference
    else:
        lost = grade.ev_lost + difference
    return replace(grade, correct=right, ev_lost=lost), True


def counted_bot(base: Bot, entries: Iterable[IndexEntry], true_count: int) -> Bot:
    """``base`` (the chart's bot) playing the index play wherever the count calls for a
    deviation: the play `grade_at_count` grades right (a hint at a counted table)."""
    table = tuple(entries)

    def play(view: PlayerView) -> Action:
        chosen = base(view)
        row, up = chart_cell(view)
        found = _deviation(row, up, chosen, table, true_count, view.legal)
        return chosen if found is None else found[1]

    return play


def _deviation(
    row: str,
    up: str,
    chart_play: Action,
    entries: Iterable[IndexEntry],
    true_count: int,
    legal: tuple[Action, ...],
) -> tuple[IndexEntry, Action] | None:
    """The index play of the cell (``row``, ``up``) that the count calls for instead of
    ``chart_play``, with its entry; None where the chart's play stands."""
    for entry in entries:
        if (entry.row, entry.up) != (row, up):
            continue
        right = _action(right_play(entry, true_count))
        other = _action(entry.otherwise if right is _action(entry.play) else entry.play)
        if right is chart_play or right not in legal or other not in legal:
            continue
        return entry, right
    return None
