"""Benchmark: the live lobby's read, with the tables of its page brought up to date.

    .venv/bin/python tests/benchmarks/bench_live_lobby.py --database-url URL [--tables 200]
        [--repeat 7]

``URL`` names a throwaway database (PostgreSQL or SQLite), migrated and filled with
``--tables`` open tables, each opened by an account of its own that sits at it with a bot
beside it. Then, in process through Django's test client with production settings, it
times the lobby's GET (one page of 50) in three states, each ``--repeat`` times after
one unreported warm-up, the tables made afresh before each timed request where the state
needs it:

- nothing due: every table waits for its first bet (no deadline);
- 50 due: the page's tables all have a betting window that closed a second ago (each
  seated person without a bet is unseated as the lobby applies it);
- 50 idle: the page's tables have stood empty of players for the idle time (each is
  closed, its people cashed out, by the lobby's read).

It prints each one's median and range in milliseconds and the load average (the machine
is shared).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from served_app import production_env

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    os.environ.update(production_env(args.database_url, DJANGO_ALLOWED_HOSTS="testserver"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "trainer.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    print(f"load average: {os.getloadavg()[0]:.1f}")
    measure("lobby, nothing due", args.repeat, lambda: fill(args.tables, "waiting"), once=True)
    measure("lobby, 50 deadlines due", args.repeat, lambda: fill(args.tables, "due"))
    measure("lobby, 50 idle closes", args.repeat, lambda: fill(args.tables, "idle"))


def fill(count: int, state: str) -> None:
    """``count`` open tables (the old ones closed), the newest 50 in ``state``."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from engine.table import BotSeat
    from trainer.live.services import IDLE, LiveOp, LiveOrder, live_request, open_table
    from trainer.models import SharedTable
    from trainer.shared.owners import Owner

    SharedTable.objects.filter(closed_at__isnull=True).update(closed_at=timezone.now())
    users = get_user_model().objects
    now = timezone.now()
    for n in range(count):
        user, _new = users.get_or_create(username=f"lobby{n}")
        newest = n >= count - 50
        ago = {"waiting": timedelta(0), "due": timedelta(seconds=20), "idle": IDLE * 1.1}
        opened = now - (ago[state] if newest else timedelta(hours=1))  # the page: newest
        seats = [] if newest and state == "idle" else [3]
        row = open_table(
            user_id=user.pk, bots=[BotSeat(1, "easy")], seats=seats, buy_in=500, now=opened
        )
        if newest and state == "due":  # a pair bet starts the countdown: it has passed
            order = LiveOrder(LiveOp.PAIR, 0, seat=3, amount=20)
            live_request(owner=Owner.account(user.pk), table_id=row.pk, order=order, now=opened)


def measure(label: str, repeat: int, prepare: Callable[[], None], *, once: bool = False) -> None:
    """The lobby's wall time, after one unreported warm-up; ``prepare`` before each
    request (once only if ``once``: the request changes nothing)."""
    from django.test import Client

    client = Client()
    prepare()
    client.get("/tables/")
    times = []
    for _ in range(repeat):
        if not once:
            prepare()
        started = time.perf_counter()
        response = client.get("/tables/")
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    print(
        f"{label}: median {statistics.median(times):.1f} ms "
        f"(min {min(times):.1f}, max {max(times):.1f}, {repeat} runs)"
    )


if __name__ == "__main__":
    main()
