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

from engine.counting.index_drill import right_play
from engine.counting.indices import IndexEntry
from engine.grading import Grade
from engine.values import Action

__all__ = ["grade_at_count"]

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
    for entry in entries:
        if (entry.row, entry.up) != (grade.row, grade.up):
            continue
        right = _action(right_play(entry, true_count))
        other = _action(entry.otherwise if right is _action(entry.play) else entry.play)
        if right is grade.correct or right not in legal or other not in legal:
            continue
        nearest = min(entry.ev_difference, key=lambda count: abs(count - true_count))
        difference = abs(entry.ev_difference[nearest])
        if grade.chosen is right:
            lost = 0.0
        elif grade.chosen is grade.correct:
            lost = difference
        else:
            lost = grade.ev_lost + difference
        return replace(grade, correct=right, ev_lost=lost), True
    return grade, False
