"""The drill answer's two statements, written out rather than built by the ORM.

The answer is the request players make most, and it has a load target (half the
throughput of a bare view, ``tests/benchmarks/bench_answer.py``). Building these two
statements through the ORM took 0.6 ms of the request's 1.7; written out they take a
tenth of that. They are still the model's: the table and every value's conversion come
from ``Drill``, the read returns a ``Drill``, both are scoped like any selector, and
``tests/trainer/drills/test_answer_queries.py`` reads what they write back through the ORM.

The write also counts the answer in the player's tallies (`trainer.shared.tallies`), in the same
statement: progress reads those, and the answer gains no round trip (see `record_answer`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field
from django.db.models.expressions import Expression

from trainer.models import Drill
from trainer.shared import tallies
from trainer.shared.owners import Owner

#: How the ORM converts a column's value: its converters, and the column they are given.
Conversion = tuple[list[Callable[..., Any]], Expression]
#: What the tallies count of an answered row (`trainer.shared.tallies.answer_statement`).
_COUNTED_COLUMNS = (
    'user_id, guest_token, rules_name, source, answered_at, "row", up_column, action, '
    "correct_action, late, ev_lost, response_ms"
)
#: What grading and the feedback read, in the model's order (as ``Model.from_db`` takes
#: them); the rest of the row is left unloaded.
_ISSUED_FIELDS = tuple(
    field.attname
    for field in Drill._meta.concrete_fields
    if field.attname in {
        "id", "rules_name", "rules", "cards", "up", "issued_at", "answered_at", "time_limit",
        "session_hands", "session_right", "session_streak", "session_lost",
    }
)  # fmt: skip
#: Each database's conversions of those columns, worked out on its first read. They depend
#: on the database's settings alone, the same for every thread's connection to it; kept by
#: alias, so that a server starting a thread (and a connection) per request keeps one each.
_conversions: dict[str, dict[int, Conversion]] = {}


def issued_drill(*, owner: Owner, drill_id: int) -> Drill | None:
    """The drill with this id if it was dealt to this owner as a drill, else None.

    Read as a raw queryset would read it, without working out again for every answer
    which columns need which conversion (a raw queryset's own cost was 150 µs of the
    answer's read of 170).
    """
    connection = connections[router.db_for_read(Drill)]
    quote = connection.ops.quote_name
    whose, whom = _whose(owner)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(map(quote, _ISSUED_FIELDS))} FROM {quote(Drill._meta.db_table)} "
            f"WHERE id = %s AND source = %s AND {whose}",
            [drill_id, Drill.Source.DRILL, *whom],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for position, (converters, column) in _conversions_of(connection).items():
        for convert in converters:
            values[position] = convert(values[position], column, connection)
    return Drill.from_db(connection.alias, _ISSUED_FIELDS, values)


def _conversions_of(connection: BaseDatabaseWrapper) -> dict[int, Conversion]:
    """What the ORM applies to each column read (dates from text on SQLite, JSON, …)."""
    if connection.alias not in _conversions:
        columns: list[Expression] = [
            _column_field(name).get_col(Drill._meta.db_table) for name in _ISSUED_FIELDS
        ]
        compiler = connection.ops.compiler("SQLCompiler")(
            Drill.objects.none().query, connection, connection.alias
        )
        _conversions[connection.alias] = compiler.get_converters(columns)
    return _conversions[connection.alias]


def record_answer(*, owner: Owner, drill_id: int, recorded: dict[str, Any]) -> bool:
    """Store an answer's fields unless the drill has one already (or is not this owner's);
    whether they were stored.

    The one conditional ``UPDATE`` is what makes an answer count once: of two racing
    answers (a double click, a replay) exactly one finds the drill unanswered. The
    answer's tallies (`trainer.shared.tallies`) are counted by the same statement: on PostgreSQL
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
