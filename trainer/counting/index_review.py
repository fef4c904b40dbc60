"""The index plays a player missed come back: spaced repetition, as the chart's weak
spots (trainer/drills/weak_spots.py) do for basic strategy.

Each index play a player has missed has a streak: right answers in a row since its last
miss. It is due again a while after its last answer, the while growing with the streak:
at once after a miss (the next question is the same play, at a count of its own), then
10 minutes, an hour, a day, three days, a week. Of the due plays the one with the shortest
streak comes first, and among those the one whose misses gave up the most. With nothing
due, the next play is drawn from the whole table.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from trainer.models import IndexPlayQuestion
from trainer.shared.owners import Owner
from trainer.shared.repetition import interval

#: How many recent answers are read to schedule the next question.
HISTORY = 1000

#: An index play: its row, up card, and the two plays it separates.
Play = tuple[str, str, str, str]


@dataclass
class PlayRecord:
    streak: int = 0
    missed: bool = False
    given_up: float = 0.0
    last: datetime | None = None

    def due(self) -> datetime:
        assert self.last is not None
        return self.last + interval(self.streak)


def due_play(owner: Owner, settings: dict[str, str], now: datetime) -> Play | None:
    """The missed index play due again for these drill ``settings`` (rules_name, system,
    estimate, conversion), or None."""
    answers = (
        IndexPlayQuestion.objects.filter(**owner.filter(), **settings, answered_at__isnull=False)
        .order_by("-answered_at")
        .values_list("row", "up", "play", "otherwise", "right", "given_up", "answered_at")[:HISTORY]
    )
    records: dict[Play, PlayRecord] = {}
    for row, up, play, otherwise, right, given_up, answered_at in reversed(answers):
        record = records.setdefault((row, up, play, otherwise), PlayRecord())
        record.last = answered_at
        if right:
            record.streak += 1
        else:
            record.streak, record.missed = 0, True
            record.given_up += given_up or 0.0
    due = [
        (record.streak, -record.given_up, key)
        for key, record in records.items()
        if record.missed and record.due() <= now
    ]
    return min(due)[2] if due else None
