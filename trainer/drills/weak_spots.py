"""Weak spots: spaced repetition over the chart's cells, worst and most costly first.

Each cell a player has met has a streak: right answers in a row since its last wrong one.
A cell is due again a while after its last answer, the while growing with the streak —
at once after a wrong answer (so a missed cell comes straight back), then 10 minutes, an
hour, a day, three days, a week. Of the due cells the one with the shortest streak comes
first, and among those the one whose mistakes have cost the most EV. With nothing due,
a hand is dealt as in the "all hands" mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from engine.drills import DRILLABLE_ROWS
from trainer.models import Drill
from trainer.shared.owners import Owner
from trainer.shared.repetition import interval

#: How many recent answers are read to schedule the next hand.
HISTORY = 2000


@dataclass
class CellRecord:
    streak: int = 0
    last: datetime | None = None
    ev_lost: float = 0.0

    def due(self) -> datetime:
        assert self.last is not None
        return self.last + interval(self.streak)


def next_cell(owner: Owner, rules_name: str, now: datetime | None = None) -> tuple[str, str] | None:
    """The chart cell (row, up) to drill next, or None when no cell is due."""
    now = now or timezone.now()
    answers = (
        Drill.objects.filter(
            **owner.filter(),
            rules_name=rules_name,
            answered_at__isnull=False,
            row__in=DRILLABLE_ROWS,  # a practice round's insurance or hard 20 cannot be dealt
        )
        .order_by("-answered_at")
        .values_list(
            "row", "up_column", "action", "correct_action", "late", "ev_lost", "answered_at"
        )[:HISTORY]
    )  # fmt: skip
    cells: dict[tuple[str, str], CellRecord] = {}
    for row, up, action, correct, late, ev_lost, answered_at in reversed(list(answers)):
        record = cells.setdefault((row, up), CellRecord())
        record.streak = record.streak + 1 if action == correct and not late else 0
        record.last = answered_at
        record.ev_lost += float(ev_lost or 0)
    due = [(cell, record) for cell, record in cells.items() if record.due() <= now]
    if not due:
        return None
    cell, _ = min(due, key=lambda item: (item[1].streak, -item[1].ev_lost))
    return cell
