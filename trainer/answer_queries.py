"""The drill answer's two statements, written out rather than built by the ORM.

The answer is the request players make most, and it has a load target (half the
throughput of a bare view, ``tests/benchmarks/bench_answer.py``). Building these two
statements through the ORM took 0.6 ms of the request's 1.7; written out they take a
tenth of that. They are still the model's: the table and every value's conversion come
from ``Drill``, the read returns a ``Drill``, both are scoped like any selector, and
``tests/trainer/test_answer_queries.py`` reads what they write back through the ORM.

The write also counts the answer in the player's tallies (`trainer.tallies`), in the same
statement: progress reads those, and the answer gains no round trip (see `record_answer`).
"""

from __future__ import annotations

from typing import Any

from django.db import connections, router
from django.db.models import Field

from trainer import tallies
from trainer.models import Drill
from trainer.owners import Owner

#: What the tallies count of an answered row (`trainer.tallies.answer_statement`).
_COUNTED_COLUMNS = (
    'user_id, guest_token, rules_name, source, answered_at, "row", up_column, action, '
    "correct_action, late, ev_lost, response_ms"
)
#: What grading and the feedback read; the rest of the row is left unloaded.
_ISSUED_COLUMNS = (
    "id, rules_name, rules, cards, up, issued_at, answered_at, time_limit, "
    "session_hands, session_right, session_streak, session_lost"
)


def issued_drill(*, owner: Owner, drill_id: int) -> Drill | None:
    """The drill with this id if it was dealt to this owner as a drill, else None."""
    table = connections[router.db_for_read(Drill)].ops.quote_name(Drill._meta.db_table)
    whose, whom = _whose(owner)
    found = Drill.objects.raw(
        f"SELECT {_ISSUED_COLUMNS} FROM {table} WHERE id = %s AND source = %s AND {whose}",
        [drill_id, Drill.Source.DRILL, *whom],
    )
    return next(iter(found), None)


def record_answer(*, owner: Owner, drill_id: int, recorded: dict[str, Any]) -> bool:
    """Store an answer's fields unless the drill has one already (or is not this owner's);
    whether they were stored.

    The one conditional ``UPDATE`` is what makes an answer count once: of two racing
    answers (a double click, a replay) exactly one finds the drill unanswered. The
    answer's tallies (`trainer.tallies`) are counted by the same statement: on PostgreSQL
    it carries their upserts in a CTE, on SQLite a trigger adds them.
    """
    connection = connections[router.db_for_write(Drill)]
    quote = connection.ops.quote_name
    fields = [_column_field(name) for name in recorded]
    assignments = ", ".join(f"{quote(field.attname)} = %s" for field in fields)
    values = [
        field.get_db_prep_save(value, connection)
        for field, value in zip(fields, recorded.values(), strict=True)
    ]
    whose, whom = _whose(owner)
    update = (
        f"UPDATE {quote(Drill._meta.db_table)} SET {assignments} "
        f"WHERE id = %s AND {whose} AND answered_at IS NULL"
    )
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":  # SQLite: a trigger counts the tallies
            cursor.execute(update, [*values, drill_id, *whom])
            return bool(cursor.rowcount == 1)
        counted = tallies.answer_statement(
            connection, update, _COUNTED_COLUMNS, account=owner.user_id is not None
        )
        cursor.execute(counted, [*values, drill_id, *whom])
        return bool(cursor.fetchone()[0] == 1)


def _whose(owner: Owner) -> tuple[str, list[int | str]]:
    """The condition (and its parameters) that `Owner.filter` puts on the ORM's queries."""
    if owner.user_id is not None:
        return "user_id = %s", [owner.user_id]
    return "user_id IS NULL AND guest_token = %s", [owner.guest_token]


def _column_field(name: str) -> Field[Any, Any]:
    """A plain field of ``Drill``: stored in a column of its own name."""
    field = Drill._meta.get_field(name)
    assert isinstance(field, Field) and field.column == field.attname == name, name
    return field
