"""Benchmark: the CPU of drawing a busy live table's new version for everyone following it
by push, this code against another checkout's, side by side in one run.

    .venv/bin/python tests/benchmarks/bench_live_parts.py --before /path/to/old/checkout

What a process does for each new version of a table its streams follow
(`trainer.live.views._parts_drawn`, in the drawing thread): read the version, then draw
each viewer's part — 7 players seated (each their own part), 2 accounts and 2 guests
watching (the onlookers' part, once per kind) — as a process that did not write the
version does (it reads and parses it; the writer's own process has it kept). Two
scenes: ``betting``, the window open (every seat offers its bets), each version one
player's bet changed; ``play``, rounds of the 7 standing (insurance declined), each
version one decision, the clock moved on past each round's result and the next window
opened by everyone betting. Each code tree gets
a throwaway SQLite database, migrated, and runs in a process of its own with production
settings; the trees take turns, so that the machine's other work weighs on both alike.
The figure is the CPU time (``time.process_time``) of each version's drawing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

from served_app import ROOT, production_env

PLAYERS, WATCHERS, VERSIONS, WARM_UP = 7, 2, 80, 10
SCENES = ("betting", "play")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other code tree")
    parser.add_argument("--turns", type=int, default=3, help="runs of each tree")
    parser.add_argument("--measure", choices=SCENES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return
    trees = {"before": args.before.resolve(), "now": ROOT}
    envs = {}
    for name, tree in trees.items():
        work = Path(tempfile.mkdtemp(prefix=f"bench-live-parts-{name}-"))
        env = production_env(f"sqlite:///{work / 'db.sqlite3'}")
        env |= {"DJANGO_ALLOWED_HOSTS": "testserver", "PYTHONPATH": str(tree)}
        migrate = [sys.executable, "manage.py", "migrate", "-v0"]
        subprocess.run(migrate, cwd=tree, env=env, check=True)
        envs[name] = env
    runs: dict[tuple[str, str], list[float]] = {(n, s): [] for n in trees for s in SCENES}
    for _turn in range(args.turns):
        for scene in SCENES:
            for name, tree in trees.items():
                found = subprocess.run(
                    [sys.executable, __file__, "--before", str(tree), "--measure", scene],
                    cwd=tree, env=envs[name], capture_output=True, text=True,
                )  # fmt: skip
                if found.returncode:
                    sys.exit(found.stderr[-3000:])
                runs[name, scene] += json.loads(found.stdout.splitlines()[-1])
    print(f"load average after the last run: {os.getloadavg()}")
    for scene in SCENES:
        medians = {name: statistics.median(runs[name, scene]) for name in trees}
        print(
            f"{scene}: a version drawn for {PLAYERS} players and {2 * WATCHERS} onlookers, "
            f"CPU median before {medians['before']:.1f} ms, now {medians['now']:.1f} ms "
            f"(now / before {medians['now'] / medians['before']:.2f}; "
            f"means {statistics.fmean(runs['before', scene]):.1f} and "
            f"{statistics.fmean(runs['now', scene]):.1f} ms; {len(runs['now', scene])} versions)"
        )


def measure(scene: str) -> list[float]:
    """In this tree's process: the CPU milliseconds of drawing each version."""
    import time

    os.environ["DJANGO_SETTINGS_MODULE"] = "trainer.settings"
    sys.path.insert(0, os.getcwd())
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import RequestFactory
    from django.utils import timezone

    from engine.live_public import LivePublic
    from engine.live_table import LiveTable
    from trainer.live import selectors, services, views
    from trainer.models import SharedTable
    from trainer.shared.owners import Owner

    clock = [timezone.now()]
    timezone.now = lambda: clock[0]  # the countdowns wait for the scene's moves
    tag = os.getpid()
    users = [get_user_model().objects.create_user(f"p{tag}-{n}") for n in range(PLAYERS + WATCHERS)]
    players = {Owner.account(user.pk) for user in users[:PLAYERS]}
    row = services.open_table(user_id=users[0].pk, bots=[], seats=[1], buy_in=5000, now=clock[0])
    order, op = services.LiveOrder, services.LiveOp

    def asks(owner: Owner, made: services.LiveOrder) -> None:
        services.live_request(owner=owner, table_id=row.pk, order=made, now=clock[0])

    def public() -> LivePublic:
        return LiveTable.from_json(SharedTable.objects.get(pk=row.pk).state).public(None)

    for seat, owner in enumerate(sorted(players, key=lambda o: o.name)[1:], start=2):
        asks(owner, order(op.JOIN, 0, amount=5000))
        asks(owner, order(op.SIT, 0, seat=seat))
    seats = {seat.owner: seat.number for seat in public().seats}
    requests = RequestFactory()

    def viewer(owner: Owner) -> views._Viewer:
        request = requests.get("/")
        request.META["CSRF_COOKIE"] = "a" * 32
        return views._Viewer(owner, "en", request)

    onlookers = [Owner.account(user.pk) for user in users[PLAYERS:]]
    onlookers += [Owner.guest(f"guest{tag}-{n}") for n in range(WATCHERS)]
    viewers = [viewer(owner) for owner in (*sorted(players, key=lambda o: o.name), *onlookers)]
    bets = iter(range(10**6))

    def next_version() -> None:
        """One move: a bet changed (betting), or the next decision or round (play)."""
        if scene == "betting":
            n = next(bets)
            owner = sorted(players, key=lambda o: o.name)[n % (PLAYERS - 1)]  # one never bets
            asks(owner, order(op.BET, 0, seat=seats[owner.name], amount=10 + 10 * (n // 6 % 4)))
            return
        shown = public()
        turn = shown.turn
        if shown.stage.value == "playing" and turn is not None:
            action = "stand" if turn.decision.value == "hand" else "no_insurance"
            version = SharedTable.objects.get(pk=row.pk).version
            asks(Owner.named(turn.owner), order(op.ACT, version, action=action))
        elif shown.stage.value == "result":
            clock[0] += timedelta(seconds=30)  # the result told, the next window opens
            services.apply_deadlines(row.pk, clock[0])
        else:
            waiting = [o for o in players if not any(
                s.owner == o.name and s.bet for s in shown.seats
            )]  # fmt: skip
            asks(waiting[0], order(op.BET, 0, seat=seats[waiting[0].name], amount=10))

    spent: list[float] = []
    for n in range(WARM_UP + VERSIONS):
        next_version()
        selectors.forget_snapshots()  # drawn as a process that did not write the version
        start = time.process_time()
        views._parts_drawn(row.pk, viewers)
        if n >= WARM_UP:
            spent.append((time.process_time() - start) * 1000)
    return spent


if __name__ == "__main__":
    main()
