"""Spaced repetition's steps, shared by the chart's weak spots (trainer/drills) and the
index plays a player missed (trainer/counting): how long after its last answer a missed
item is due again, by its run of right answers since — at once after a miss, then 10
minutes, an hour, a day, three days, a week."""

from __future__ import annotations

from datetime import timedelta

INTERVALS = (
    timedelta(0),
    timedelta(minutes=10),
    timedelta(hours=1),
    timedelta(days=1),
    timedelta(days=3),
    timedelta(days=7),
)


def interval(streak: int) -> timedelta:
    """How long after its last answer an item with ``streak`` right answers is due."""
    return INTERVALS[min(streak, len(INTERVALS) - 1)]
