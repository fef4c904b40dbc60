"""The drill answer's statements, written out rather than built by the ORM.

The answer is the request players make most, and it has load targets
(``tests/benchmarks/bench_answer.py``): half the throughput of a bare view, and on
PostgreSQL at least 0.8 of SQLite's. Building these statements through the ORM took 0.6 ms
of the request's 1.7; written out they take a tenth of that. On PostgreSQL each statement
is also a round trip, which costs the app server and the database about 0.1 ms of CPU
each: so the drill is read in the statement that reads the session, and an answer takes
two (a guest's: that read and the conditional ``UPDATE``). They are still the model's:
the table and every value's conversion come from ``Drill``, the read returns a ``Drill``,
and ``tests/trainer/test_answer_queries.py`` reads what they write back through the ORM.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.db import connections, router
from django.db.models import Field
from django.utils import timezone

from trainer.models import Drill
from trainer.owners import Owner
from trainer.sessions import SessionStore

#: What grading, the owner check and the feedback read; the rest of the row is left unloaded.
_COLUMNS = (
    "d.id, d.user_id, d.guest_token, d.rules_name, d.rules, d.cards, d.up, d.issued_at, "
    "d.answered_at"
)


def answered_drill(*, session: SessionBase, drill_id: int) -> Drill | None:
    """The drill with this id if it was dealt as a drill, whoever it was dealt to (the
    caller checks that with `Owner.owns`), read together with the session's data.

    The session is the request's, not yet loaded: its data is loaded here, in the same
    statement, and kept in it as Django's own reading would keep it.
    """
    connection = connections[router.db_for_read(Drill)]
    quote = connection.ops.quote_name
    drills = quote(Drill._meta.db_table)
    params: list[object] = [drill_id, Drill.Source.DRILL]
    if not isinstance(session, SessionStore) or session.is_loaded:
        # Already read (or stored elsewhere): the drill alone.
        found = Drill.objects.raw(
            f"SELECT {_COLUMNS} FROM {drills} d WHERE d.id = %s AND d.source = %s", params
        )
        return next(iter(found), None)
    sessions = quote(session.model._meta.db_table)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    rows = Drill.objects.raw(
        f"SELECT s.session_data, {_COLUMNS} FROM {sessions} s "
        f"LEFT JOIN {drills} d ON d.id = %s AND d.source = %s "
        "WHERE s.session_key = %s AND s.expire_date > %s",
        [*params, session.session_key, now],
    )
    row = next(iter(rows), None)
    # The session's column comes along as an annotation of the drill: taken off it here.
    session.loaded_from(None if row is None else vars(row).pop("session_data"))
    return None if row is None or row.pk is None else row


def record_answer(*, owner: Owner, drill_id: int, recorded: dict[str, Any]) -> bool:
    """Store an answer's fields unless the drill has one already, or is not this owner's;
    whether they were stored.

    The one conditional ``UPDATE`` is what makes an answer count once: of two racing
    answers (a double click, a replay) exactly one finds the drill unanswered.
    """
    connection = connections[router.db_for_write(Drill)]
    quote = connection.ops.quote_name
    fields = [_column_field(name) for name in recorded]
    assignments = ", ".join(f"{quote(field.attname)} = %s" for field in fields)
    values = [
        field.get_db_prep_save(value, connection)
        for field, value in zip(fields, recorded.values(), strict=True)
    ]
    whom: int | str
    if owner.user_id is not None:
        whose, whom = "user_id = %s", owner.user_id
    else:
        whose, whom = "user_id IS NULL AND guest_token = %s", owner.guest_token
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(Drill._meta.db_table)} SET {assignments} "
            f"WHERE id = %s AND {whose} AND answered_at IS NULL",
            [*values, drill_id, whom],
        )
        return bool(cursor.rowcount == 1)


def _column_field(name: str) -> Field[Any, Any]:
    """A plain field of ``Drill``: stored in a column of its own name."""
    field = Drill._meta.get_field(name)
    assert isinstance(field, Field) and field.column == field.attname == name, name
    return field
