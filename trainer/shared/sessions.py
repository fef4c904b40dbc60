"""Database-backed sessions, read with one written-out statement.

Every request a player makes reads their session, the drill answer included, and the ORM
building the same ``SELECT`` each time cost about 0.2 ms of every such request (the
answer has a load target: ``tests/benchmarks/bench_answer.py``). Reading is the only
change; writing, expiry and ``clearsessions`` are Django's own.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone


class SessionStore(db.SessionStore):
    def load(self) -> dict[str, Any]:
        """The unexpired session's data, or a fresh session if the key is unknown."""
        model = self.model
        using = router.db_for_read(model)
        connection = connections[using]
        table = connection.ops.quote_name(model._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT session_data FROM {table} WHERE session_key = %s AND expire_date > %s",
                [self.session_key, connection.ops.adapt_datetimefield_value(timezone.now())],
            )
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return {}
        return self.decode(row[0])
