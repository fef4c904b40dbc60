"""A player's decisions as CSV: every answer, drill or practice, oldest first, streamed.

The columns are fixed identifiers, not translated: a spreadsheet or a script reading the
file finds the same columns whatever the page's language (docs/decisions.md).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from decimal import Decimal

#: The columns, in order; `trainer.progress.selectors.decisions_for_export` reads them.
COLUMNS = (
    "answered_at",
    "source",
    "rules",
    "rules_version",
    "hand",
    "up_card",
    "row",
    "up_column",
    "answer",
    "right_play",
    "right",
    "late",
    "ev_given_up",
    "response_ms",
)


#: The fields read for each decision, in the order the selector returns them.
READ_FIELDS = (
    "answered_at",
    "source",
    "rules_name",
    "rules_version",
    "cards",
    "up",
    "row",
    "up_column",
    "action",
    "correct_action",
    "late",
    "ev_lost",
    "response_ms",
)


class _Line:
    """What `csv.writer` writes to: it hands each line back instead of keeping it."""

    def write(self, line: str) -> str:
        return line


def csv_lines(decisions: Iterable[tuple[object, ...]]) -> Iterator[str]:
    """The header, then one line per decision as `decisions_for_export` reads it."""
    writer = csv.writer(_Line())
    yield writer.writerow(COLUMNS)
    for decision in decisions:
        record = dict(zip(READ_FIELDS, decision, strict=True))
        answered_at = record["answered_at"]
        assert isinstance(answered_at, datetime)
        lost = record["ev_lost"]
        yield writer.writerow(
            (
                answered_at.astimezone(UTC).isoformat(timespec="milliseconds"),
                record["source"],
                record["rules_name"],
                record["rules_version"],
                record["cards"],
                record["up"],
                record["row"],
                record["up_column"],
                record["action"],
                record["correct_action"],
                "yes" if _is_right(record) else "no",
                "yes" if record["late"] else "no",
                f"{lost:.6f}" if isinstance(lost, Decimal) else "",
                "" if record["response_ms"] is None else record["response_ms"],
            )
        )


def _is_right(record: dict[str, object]) -> bool:
    """The right play, in time (a timed answer that came late is a miss)."""
    return record["action"] == record["correct_action"] and not record["late"]
