"""Benchmark: the app CPU one seated player's view of a busy live table costs, this code
against another checkout's, side by side in one run.

    .venv/bin/python tests/benchmarks/bench_live_view.py --before /path/to/old/checkout

Each code tree gets a throwaway SQLite database (or both use ``--database-url``;
migrated, static files collected, as a deployment does) and runs in a process of its own
with production settings: a 7-seat table held by 7 accounts, in its betting window (the
heaviest part: every seat offers bets), the clock held still and one player never
betting so that the window stays open. Each version is one of the others' bets changed;
then all 7 ask for the table's part as the page does after a push (Django's test client:
the whole middleware, the session and the account, the views), each request's CPU time
(``time.process_time``) taken. The trees take turns, so that the machine's other work
weighs on both alike.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from served_app import ROOT, production_env

PLAYERS, VERSIONS, WARM_UP = 7, 60, 5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other code tree")
    parser.add_argument("--database-url", help="one database both trees use (same schema)")
    parser.add_argument("--turns", type=int, default=3, help="runs of each tree")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure()))
        return
    trees = {"before": args.before.resolve(), "now": ROOT}
    envs = {}
    for name, tree in trees.items():
        work = Path(tempfile.mkdtemp(prefix=f"bench-live-view-{name}-"))
        env = production_env(args.database_url or f"sqlite:///{work / 'db.sqlite3'}")
        env |= {"DJANGO_ALLOWED_HOSTS": "testserver", "PYTHONPATH": str(tree)}
        for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=tree, env=env, check=True)
        envs[name] = env
    runs: dict[str, list[dict[str, list[float]]]] = {name: [] for name in trees}
    for _turn in range(args.turns):
        for name, tree in trees.items():
            found = subprocess.run(
                [sys.executable, __file__, "--before", str(tree), "--measure"],
                cwd=tree, env=envs[name], capture_output=True, text=True,
            )  # fmt: skip
            if found.returncode:
                sys.exit(found.stderr[-3000:])
            runs[name].append(json.loads(found.stdout.splitlines()[-1]))
    print(f"load average before the last run: {os.getloadavg()}")
    for name, measured in runs.items():
        first = [ms for run in measured for ms in run["first"]]
        others = [ms for run in measured for ms in run["others"]]
        every = first + others
        print(
            f"{name}: a view's CPU median {statistics.median(every):.2f} ms, "
            f"mean {statistics.fmean(every):.2f} ms (the first of a version "
            f"{statistics.median(first):.2f} ms, each other {statistics.median(others):.2f} ms; "
            f"{len(every)} views)"
        )


def measure() -> dict[str, list[float]]:
    """In this tree's process: the CPU milliseconds of each seated player's view."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "trainer.settings"
    sys.path.insert(0, os.getcwd())
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse
    from django.utils import timezone

    from trainer.live import services
    from trainer.shared.owners import Owner

    now = timezone.now()
    timezone.now = lambda: now  # the betting window stays open
    users = [
        get_user_model().objects.create_user(f"player{os.getpid()}-{n}") for n in range(PLAYERS)
    ]
    row = services.open_table(user_id=users[0].pk, bots=[], seats=[1], buy_in=5000, now=now)
    order = services.LiveOrder
    for seat, user in enumerate(users[1:], start=2):
        owner = Owner.account(user.pk)
        services.live_request(owner=owner, table_id=row.pk, now=now,
                              order=order(services.LiveOp.JOIN, 0, amount=5000))  # fmt: skip
        services.live_request(owner=owner, table_id=row.pk, now=now,
                              order=order(services.LiveOp.SIT, 0, seat=seat))  # fmt: skip
    clients = []
    for user in users:
        client = Client()
        client.force_login(user)
        clients.append(client)
    url = reverse("trainer:live-table-state", args=[row.pk])
    first: list[float] = []
    others: list[float] = []
    for version in range(WARM_UP + VERSIONS):
        bettor = users[version % (PLAYERS - 1)]  # the last never bets: the window stays open
        services.live_request(
            owner=Owner.account(bettor.pk), table_id=row.pk, now=now,
            order=order(services.LiveOp.BET, 0, seat=version % (PLAYERS - 1) + 1,
                        amount=10 + 10 * (version // (PLAYERS - 1) % 4)),
        )  # fmt: skip
        for n, client in enumerate(clients):
            start = time.process_time()
            response = client.get(url, headers={"HX-Request": "true"})
            spent = (time.process_time() - start) * 1000
            assert response.status_code == 200, response.status_code
            if version >= WARM_UP:
                (first if n == 0 else others).append(spent)
    return {"first": first, "others": others}


if __name__ == "__main__":
    main()
