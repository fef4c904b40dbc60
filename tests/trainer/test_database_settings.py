"""How settings.py connects to the database, read the way a deployment reads it: in a
fresh interpreter with the deployment's environment."""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

from django.db import connections

ROOT = Path(__file__).resolve().parents[2]
POSTGRES = "postgres://app:app@db.example:5432/app"


def _database(**environment: str) -> dict[str, object]:
    """settings.DATABASES["default"] under these environment variables."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_"))
    }
    script = (
        "import json; from trainer import settings; "
        "print(json.dumps(settings.DATABASES['default'], default=str))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**env, **environment},
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    database: dict[str, object] = json.loads(out)
    return database


def test_postgresql_connections_come_from_a_pool_without_a_check_per_request() -> None:
    database = _database(DATABASE_URL=POSTGRES)

    options = database["OPTIONS"]
    assert isinstance(options, dict)
    # gunicorn runs 4 threads per worker: each may hold one connection, none waits.
    assert options["pool"] == {"min_size": 4, "max_size": 4}
    # Django refuses a pool with persistent connections; the pool keeps them instead.
    assert database["CONN_MAX_AGE"] == 0
    # The pool discards a broken connection when it comes back; checking every one
    # before use would cost a round trip per request.
    assert database["CONN_HEALTH_CHECKS"] is False


def test_postgresql_statements_are_prepared_unless_turned_off() -> None:
    # Planned once per pooled connection, not once per request; a transaction-mode
    # PgBouncer before 1.21 cannot keep them.
    prepared = _database(DATABASE_URL=POSTGRES)["OPTIONS"]
    assert isinstance(prepared, dict)
    assert (prepared["server_side_binding"], prepared["prepare_threshold"]) == (True, 5)

    unprepared = _database(DATABASE_URL=POSTGRES, DJANGO_DB_PREPARED="0")["OPTIONS"]
    assert isinstance(unprepared, dict)
    assert "server_side_binding" not in unprepared and "prepare_threshold" not in unprepared


def test_the_pool_size_and_the_pool_itself_are_settings() -> None:
    sized = _database(DATABASE_URL=POSTGRES, DJANGO_DB_POOL_SIZE="8")
    assert sized["OPTIONS"]["pool"] == {"min_size": 8, "max_size": 8}  # type: ignore[index]

    unpooled = _database(DATABASE_URL=POSTGRES, DJANGO_DB_POOL="0")
    assert "pool" not in unpooled.get("OPTIONS", {})  # type: ignore[operator]
    assert unpooled["CONN_MAX_AGE"] == 60
    assert unpooled["CONN_HEALTH_CHECKS"] is True


def test_options_from_the_database_url_are_kept_beside_the_pool() -> None:
    database = _database(DATABASE_URL=f"{POSTGRES}?sslmode=require")

    options = database["OPTIONS"]
    assert isinstance(options, dict)
    assert (options["sslmode"], options["pool"]) == ("require", {"min_size": 4, "max_size": 4})


def test_sqlite_keeps_its_persistent_connection() -> None:
    database = _database(DATABASE_URL="sqlite:////tmp/trainer-settings-test.sqlite3")

    assert database["CONN_MAX_AGE"] == 60
    assert "pool" not in database["OPTIONS"]  # type: ignore[operator]


def test_a_gunicorn_worker_closes_the_connection_pool_as_it_exits() -> None:
    # Left to the interpreter's exit, the pool's threads each took 5 s to give up: a
    # worker took 21 s to stop instead of 1 (measured with gunicorn on PostgreSQL).
    hooks = runpy.run_path(str(ROOT / "trainer" / "gunicorn.conf.py"))
    closed: list[str] = []
    postgresql = SimpleNamespace(close_pool=lambda: closed.append("postgresql"))
    sqlite = SimpleNamespace()  # no pool to close
    with mock.patch.object(connections, "all", return_value=[postgresql, sqlite]):
        hooks["worker_exit"](server=None, worker=None)

    assert closed == ["postgresql"]


def test_postgresql_connections_compile_no_query() -> None:
    # The JIT fires on the estimates for a long history and costs more than it saves.
    for environment in ({}, {"DJANGO_DB_POOL": "0"}):
        database = _database(DATABASE_URL=POSTGRES, **environment)
        options = database["OPTIONS"]
        assert isinstance(options, dict)
        assert options["options"] == "-c jit=off"
