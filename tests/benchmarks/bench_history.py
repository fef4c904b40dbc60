"""Benchmark: the progress page and a weak-spots hand for an account with years of history.

    .venv/bin/python tests/benchmarks/bench_history.py --database-url URL [--answers 2000000]

``URL`` names a throwaway database (PostgreSQL or SQLite): it is migrated and filled with
a generated history of ``--answers`` answered decisions (default two million) spread over
two years among many accounts: one with ``--big`` answers (default 100,000), one with
``--small`` (default 10,000), the rest as many accounts of 10,000 each. Their rows are
interleaved in time, as players answering side by side would leave them. The rows go in
by ``COPY`` on PostgreSQL (then ``VACUUM ANALYZE``) and ``executemany`` on SQLite (then
``ANALYZE``), and the progress tallies counted from them (``tallies.rebuild``, as after a
restore). ``--reuse`` skips the filling when the database holds the history already.

Then, in process through Django's test client with production settings, it times
``--repeat`` times (default 7, after one unreported warm-up) the progress page of the big
and the small account, and a weak-spots hand of the big account (its pending hand deleted
between requests, so that each request deals a new one), and the drill settings saved
by the big, the small and a new account (issue 25: the same cost for each), and prints
each one's median and range in milliseconds. Targets (issue 14): on PostgreSQL the big
account's progress under 100 ms and its weak-spots hand under 30 ms; on SQLite the small
account's progress under 100 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from served_app import production_env

ROOT = Path(__file__).resolve().parents[2]
ACCOUNT_ANSWERS = 10_000
SPAN = timedelta(days=730)
ACTIONS = ("hit", "stand", "double", "split", "surrender")
#: The columns a generated row fills, in order (the rest keep their defaults).
COLUMNS = (
    "user_id", "guest_token", "rules_name", "rules_version", "rules", "cards", "up", "row",
    "up_column", "source", "issued_at", "answered_at", "action", "correct_action",
    "correct_code", "ev_lost", "response_ms", "late", "session_hands", "session_right",
    "session_streak", "session_lost", "taken_back",
)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--answers", type=int, default=2_000_000)
    parser.add_argument("--big", type=int, default=100_000)
    parser.add_argument("--small", type=int, default=ACCOUNT_ANSWERS)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--reuse", action="store_true")
    args = parser.parse_args()
    os.environ.update(production_env(args.database_url, DJANGO_ALLOWED_HOSTS="testserver"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "trainer.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    users = get_user_model().objects
    if not args.reuse or not users.filter(username="big").exists():
        started = time.perf_counter()
        fill(args.answers, args.big, args.small)
        print(f"generated {args.answers:,} answers in {time.perf_counter() - started:.0f} s")
    big, small = users.get(username="big"), users.get(username="small")
    print(f"load average: {os.getloadavg()[0]:.1f}")
    measure("progress, big account", args.repeat, progress_request(big))
    measure("progress, small account", args.repeat, progress_request(small))
    measure("weak-spots hand, big account", args.repeat, weak_spots_request(big))
    new = users.get_or_create(username="new")[0]
    for label, user in (("big", big), ("small", small), ("new", new)):
        measure(f"drill settings changed, {label} account", args.repeat, settings_request(user))


def fill(answers: int, big: int, small: int) -> None:
    """Accounts and their answered decisions, interleaved in time, ``answers`` in all."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from engine.rules import EUROPEAN
    from trainer.models import Drill, Preferences
    from trainer.shared import tallies

    model = get_user_model()
    others = max(0, (answers - big - small) // ACCOUNT_ANSWERS)
    names = ["big", "small", *(f"player{i}" for i in range(others))]
    model.objects.bulk_create(model(username=name) for name in names)
    ids = dict(model.objects.filter(username__in=names).values_list("username", "pk"))
    Preferences.objects.create(user_id=ids["big"], mode="weak")
    owners = [ids["big"]] * big + [ids["small"]] * small
    for i in range(others):
        owners += [ids[f"player{i}"]] * ACCOUNT_ANSWERS
    random.Random(1).shuffle(owners)
    rows = generated_rows(owners, EUROPEAN.version, EUROPEAN.to_json())
    table = Drill._meta.db_table
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            copy = f"COPY {table} ({', '.join(COLUMNS)}) FROM STDIN"
            with cursor.cursor.copy(copy) as writer:
                for row in rows:
                    writer.write_row(row)
    else:
        marks = ", ".join(["%s"] * len(COLUMNS))
        insert = f"INSERT INTO {table} ({', '.join(COLUMNS)}) VALUES ({marks})"
        with connection.cursor() as cursor:
            cursor.executemany(insert, (tuple(map(_sqlite_value, row)) for row in rows))
    # Written around the app, so counted here: what ``manage.py tallies_rebuild`` does.
    started = time.perf_counter()
    tallies.rebuild()
    print(f"counted the tallies in {time.perf_counter() - started:.0f} s")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")


def _sqlite_value(value: Any) -> Any:
    """A value as Django stores it in SQLite (times as naive UTC text)."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=None).isoformat(" ")
    return value


def generated_rows(owners: list[int], version: str, rules: dict[str, Any]) -> Iterator[tuple]:
    """One answered decision per entry of ``owners``, the n-th answered after the n-1-th."""
    import json

    from engine.chart_vocabulary import UP_CARDS
    from engine.drills import DRILLABLE_ROWS

    rng = random.Random(2)
    cells = [(row, up) for row in sorted(DRILLABLE_ROWS) for up in UP_CARDS]
    start = datetime.now(UTC) - SPAN
    step = SPAN / len(owners)
    rules_json = json.dumps(rules)
    for n, user_id in enumerate(owners):
        row, up = rng.choice(cells)
        right = rng.random() < 0.85
        correct = rng.choice(ACTIONS[:3])
        answered = start + step * n
        yield (
            user_id, "", "european", version, rules_json, "10s 6h", "10d", row, up,
            "drill" if rng.random() < 0.9 else "play", answered - timedelta(seconds=2),
            answered, correct if right else "stand", correct, "H",
            0 if right else round(rng.random() / 4, 6), rng.randrange(300, 9000),
            False, 0, 0, 0, 0, False,
        )  # fmt: skip


def progress_request(user: Any) -> Callable[[], None]:
    from django.test import Client

    client = Client()
    client.force_login(user)

    def request() -> None:
        response = client.get("/progress/")
        assert response.status_code == 200, response.status_code

    return request


def weak_spots_request(user: Any) -> Callable[[], None]:
    from django.test import Client

    from trainer.models import Drill

    client = Client(enforce_csrf_checks=False)
    client.force_login(user)
    pending = Drill.objects.filter(user=user, answered_at__isnull=True)

    def request() -> None:
        pending.delete()  # so that the request deals a new hand
        started = time.perf_counter()
        response = client.post("/drill/", {"deal": "1"}, headers={"HX-Request": "true"})
        request.elapsed = time.perf_counter() - started  # type: ignore[attr-defined]
        assert response.status_code == 200, response.status_code

    return request


def settings_request(user: Any) -> Callable[[], None]:
    """The drill settings saved without JavaScript (the pending hand dropped, a new one
    dealt, a redirect), each time to the other of two modes."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    modes = iter(["hard", "all"] * 1000)

    def request() -> None:
        data = {"rules_name": "european", "mode": next(modes)}
        response = client.post("/drill/settings/", data)
        assert response.status_code == 302, response.status_code

    return request


def measure(label: str, repeat: int, request: Callable[[], None]) -> None:
    """Each request's wall time (that of the request alone where it says so), after one
    unreported warm-up."""
    request()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        request()
        times.append(getattr(request, "elapsed", time.perf_counter() - started) * 1000)
    print(
        f"{label}: median {statistics.median(times):.1f} ms "
        f"(min {min(times):.1f}, max {max(times):.1f}, {repeat} runs)"
    )


if __name__ == "__main__":
    main()
