"""Tallies of each player's answers, kept up to date in the transaction of every write that
adds or moves an answered decision, so that the progress page reads a few small tables
and never the answers themselves (issue 14: years of history stay fast).

Three tallies (`trainer.models`): per UTC day and source, per chart cell, and drill answers'
response times per week as a histogram. Each is counted from the answers by one
``INSERT ... SELECT ... GROUP BY ... ON CONFLICT DO UPDATE`` per tally and kind of owner
(accounts and guests have a unique constraint each, so an upsert names one of them),
written here once and run from wherever answers come from:

- the drill answer: on PostgreSQL inside the answer's one statement, from the row its
  ``UPDATE ... RETURNING`` answered (`answer_statement`); on SQLite, which has no
  data-modifying CTEs, by a trigger on that ``UPDATE`` (`sqlite_trigger`, created by the
  migration), so the answer stays one statement on both;
- a decision saved answered (a practice round's): `count_in`, from `Drill.save`;
- an ``update()`` of answered decisions: `recount` of their owners, from `DrillQuerySet`;
- a guest signing in: `adopt` adds their tallies into the account's;
- guests expiring: `forget_guests`; an account's go with it (foreign key cascade);
- rows written around the ORM (a restore, a bulk import): `rebuild`
  (``manage.py tallies_rebuild``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.apps import apps
from django.db import connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Q, QuerySet

from trainer.shared.owners import Owner

#: The response-time histogram's step and cap, in milliseconds (a longer answer counts as
#: the cap: a median never needs it).
RESPONSE_BUCKET_MS = 100
RESPONSE_CAP_MS = 60_000

#: The fields of a decision whose change changes what the tallies count.
COUNTED_FIELDS = frozenset(
    {
        "user",
        "user_id",
        "guest_token",
        "rules_name",
        "answered_at",
        "source",
        "row",
        "up_column",
        "action",
        "correct_action",
        "late",
        "ev_lost",
        "response_ms",
    }
)
#: What a decision's row gives each tally, in SQL over its columns (``{r}`` prefixes the
#: row's name where there is one): the key columns, and the counted ones.
_RIGHT = "CASE WHEN {r}action = {r}correct_action AND NOT {r}late THEN 1 ELSE 0 END"
_DATES = {
    "postgresql": {
        "day": "({r}answered_at AT TIME ZONE 'UTC')::date",
        "week": "date_trunc('week', {r}answered_at AT TIME ZONE 'UTC')::date",
        "bucket": f"least({{r}}response_ms, {RESPONSE_CAP_MS}) / {RESPONSE_BUCKET_MS}",
    },
    "sqlite": {
        "day": "date({r}answered_at)",
        "week": "date(date({r}answered_at), 'weekday 0', '-6 days')",
        "bucket": f"min({{r}}response_ms, {RESPONSE_CAP_MS}) / {RESPONSE_BUCKET_MS}",
    },
}


class Owned(Protocol):
    """A record of one player's (`trainer.models.PlayerRecord`)."""

    user_id: int | None
    guest_token: str


@dataclass(frozen=True)
class _Kind:
    """One tally's shape: its key beyond owner and rules set, what it sums, and which
    decisions it counts."""

    #: The tally's model, by name: `trainer.models` imports this module, so it is looked up
    #: in the app registry when used rather than imported.
    model_name: str
    keys: tuple[str, ...]
    sums: Mapping[str, str]
    counts: str = "TRUE"

    @property
    def model(self) -> type[models.Model]:
        return apps.get_model("trainer", self.model_name)


_KINDS = (
    _Kind("DayTally", ("day", "source"), {"correct": _RIGHT, "lost": "coalesce({r}ev_lost, 0)"}),
    _Kind(
        "CellTally", ("row", "up_column"), {"correct": _RIGHT, "lost": "coalesce({r}ev_lost, 0)"}
    ),
    _Kind(
        "ResponseTally",
        ("week", "bucket"),
        {},
        counts="{r}source = 'drill' AND {r}response_ms IS NOT NULL",
    ),
)


def _upserts(
    connection: BaseDatabaseWrapper,
    *,
    source: str,
    where: str,
    r: str = "",
    one_row: bool = False,
    account: bool | None = None,
) -> list[str]:
    """For each tally and kind of owner, the upsert counting the decisions of ``source``
    (a table's name, or "" in a trigger, where ``r`` is "NEW.") that ``where`` selects.

    ``one_row``: ``source`` is a single decision (the one an answer answered), counted as
    it is rather than grouped; ``account``: it is an account's (True) or a guest's (False),
    so only that kind of owner's upserts are made. Both spare the answer work."""
    quote = connection.ops.quote_name
    expressions = _DATES[connection.vendor]
    statements = []
    for kind in _KINDS:
        table = quote(kind.model._meta.db_table)
        keys = [expressions.get(key, "{r}" + quote(key)).format(r=r) for key in kind.keys]
        if one_row:
            sums = [expression.format(r=r) for expression in kind.sums.values()]
        else:
            sums = [f"sum({expression.format(r=r)})" for expression in kind.sums.values()]
        columns = ["user_id", "guest_token", "rules_name", *kind.keys, "answered", *kind.sums]
        adding = _adding(connection, table, ("answered", *kind.sums))
        for owner, whose in (("user_id", "IS NOT NULL"), ("guest_token", "IS NULL")):
            if account is not None and account is not (owner == "user_id"):
                continue
            grouped = ["user_id", "guest_token", "rules_name", *keys]
            grouping = f"GROUP BY {', '.join(str(n + 1) for n in range(len(grouped)))} "
            statements.append(
                f"INSERT INTO {table} ({', '.join(map(quote, columns))}) "
                f"SELECT {', '.join(r + c if c.isidentifier() else c for c in grouped)}, "
                f"{'1' if one_row else 'count(*)'}{''.join(', ' + s for s in sums)} "
                f"{'FROM ' + source if source else ''} "
                f"WHERE {r}user_id {whose} AND {kind.counts.format(r=r)} AND ({where}) "
                f"{'' if one_row else grouping}"
                f"ON CONFLICT ({', '.join(map(quote, [owner, 'rules_name', *kind.keys]))}) "
                f"WHERE user_id {whose} DO UPDATE SET {adding}"
            )
    return statements


def _adding(connection: BaseDatabaseWrapper, table: str, counted: Sequence[str]) -> str:
    """An upsert's ``SET``: each counted column of the ``table`` row plus the new one's."""
    quote = connection.ops.quote_name
    return ", ".join(f"{quote(n)} = {table}.{quote(n)} + excluded.{quote(n)}" for n in counted)


# The drill answer --------------------------------------------------------------------------


def answer_statement(
    connection: BaseDatabaseWrapper, update: str, returning: str, *, account: bool
) -> str:
    """PostgreSQL's drill answer in one statement: its ``update``, and the upserts of the
    tallies of the row it answers (``returning`` its columns they count; an ``account``'s
    or a guest's) in a CTE; it selects the number of rows answered."""
    counting = _upserts(connection, source="answered", where="TRUE", one_row=True, account=account)
    upserts = ",\n".join(f"counted_{n} AS ({upsert})" for n, upsert in enumerate(counting))
    return (
        f"WITH answered AS ({update} RETURNING {returning}),\n{upserts}\n"
        "SELECT count(*) FROM answered"
    )


def sqlite_trigger(connection: BaseDatabaseWrapper) -> str:
    """SQLite's trigger counting a drill as its answer's ``UPDATE`` answers it. A migration
    that adds a column to the drills' table rebuilds it on SQLite, which drops the trigger:
    such a migration makes it again (0021)."""
    table = connection.ops.quote_name(_decisions_table())
    body = ";\n".join(_upserts(connection, source="", where="TRUE", r="NEW.", one_row=True))
    return (
        f"CREATE TRIGGER drill_answer_tallied AFTER UPDATE OF answered_at ON {table}\n"
        "WHEN OLD.answered_at IS NULL AND NEW.answered_at IS NOT NULL\n"
        f"BEGIN\n{body};\nEND"
    )


# Other writes -----------------------------------------------------------------------------


def count_in(ids: Iterable[int], *, using: str = "default") -> None:
    """Add the answered decisions with these ids (just written) to their owners' tallies."""
    ids = list(ids)
    if ids:
        _count(f"id IN ({', '.join(['%s'] * len(ids))})", ids, using=using)


def recount(owners: Iterable[Owner], *, using: str = "default") -> None:
    """Count these owners' tallies again from their answers."""
    owners = list(owners)
    if not owners:
        return
    accounts = [owner.user_id for owner in owners if owner.user_id is not None]
    guests = [owner.guest_token for owner in owners if owner.user_id is None]
    whose = Q(user_id__in=accounts) | Q(user__isnull=True, guest_token__in=guests)
    for kind in _KINDS:
        kind.model._default_manager.using(using).filter(whose).delete()
    conditions: list[str] = []
    params: list[int | str] = []
    if accounts:
        conditions.append(f"user_id IN ({', '.join(['%s'] * len(accounts))})")
        params += accounts
    if guests:
        conditions.append(f"user_id IS NULL AND guest_token IN ({', '.join(['%s'] * len(guests))})")
        params += guests
    _count(" OR ".join(f"({c})" for c in conditions), params, using=using)


def rebuild(owner: Owner | None = None, *, using: str = "default") -> None:
    """Count every tally again from the answers: one owner's, or (None) everyone's."""
    with transaction.atomic(using=using):
        if owner is not None:
            recount([owner], using=using)
            return
        for kind in _KINDS:
            kind.model._default_manager.using(using).all().delete()
        _count("TRUE", [], using=using)


def _count(where: str, params: Sequence[int | str], *, using: str) -> None:
    connection = connections[using]
    table = connection.ops.quote_name(_decisions_table())
    answered = f"answered_at IS NOT NULL AND ({where})"
    with connection.cursor() as cursor:
        for upsert in _upserts(connection, source=table, where=answered):
            cursor.execute(upsert, params)


def adopt(*, guest_token: str, user_id: int, using: str = "default") -> None:
    """Add a guest's tallies into the account they signed in as, and drop the guest's."""
    connection = connections[using]
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for kind in _KINDS:
            table = quote(kind.model._meta.db_table)
            counted = ["answered", *kind.sums]
            columns = ", ".join(map(quote, ["rules_name", *kind.keys, *counted]))
            adding = _adding(connection, table, counted)
            cursor.execute(
                f"INSERT INTO {table} (user_id, guest_token, {columns}) "
                f"SELECT %s, '', {columns} FROM {table} "
                "WHERE user_id IS NULL AND guest_token = %s "
                f"ON CONFLICT ({', '.join(map(quote, ['user_id', 'rules_name', *kind.keys]))}) "
                f"WHERE user_id IS NOT NULL DO UPDATE SET {adding}",
                [user_id, guest_token],
            )
            kind.model._default_manager.using(using).filter(
                user__isnull=True, guest_token=guest_token
            ).delete()


def forget_guests(kept: Q) -> None:
    """Delete the tallies of every guest but those ``kept`` selects."""
    for kind in _KINDS:
        kind.model._default_manager.filter(user__isnull=True).exclude(kept).delete()


def _decisions_table() -> str:
    """The table of the answered decisions the tallies count (`trainer.models.Drill`)."""
    return str(apps.get_model("trainer", "Drill")._meta.db_table)


# Owners -----------------------------------------------------------------------------------


def owner_of(decision: Owned) -> Owner:
    """The owner of one decision."""
    return Owner(decision.user_id, "" if decision.user_id else decision.guest_token)


def owners_of(drills: QuerySet[Any]) -> set[Owner]:
    """The owners of these decisions."""
    rows = drills.order_by().values_list("user_id", "guest_token").distinct()
    return {Owner(user_id, "" if user_id else token) for user_id, token in rows}


def owners_in(fields: Mapping[str, Any]) -> set[Owner]:
    """The owner an ``update()`` gives decisions, if it gives them one."""
    user = fields.get("user_id", fields.get("user"))
    if user is not None:
        return {Owner(getattr(user, "pk", user), "")}
    if fields.get("guest_token"):
        return {Owner(None, fields["guest_token"])}
    return set()
