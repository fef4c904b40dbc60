"""Benchmark: busy live tables as deployed — how many before the p99 passes 200 ms.

    .venv/bin/python tests/benchmarks/bench_live_tables.py [--database-url URL]
        [--steps 1,2,4,8,16,32] [--seconds 20] [--players 3] [--watchers 4] [--port 8201]
        [--server asgi|django-asgi|wsgi] [--poll | --compare] [--grace 3]

It migrates a throwaway SQLite database (or ``--database-url``: PostgreSQL, as deployed,
the only one that pushes), starts gunicorn on 127.0.0.1 with the project's
``trainer/gunicorn.conf.py`` (uvicorn's ASGI workers), and for each step opens that many
fresh tables of 7 seats: ``--players`` seats held by accounts (logged in by sessions made
directly), the others by bots, and ``--watchers`` guests per table. Then locust (headless,
bounded in time) plays them the way the page does (static/js/live.js): each person holds
the table's stream open (``/tables/<id>/events/``, server-sent events, compressed as a
browser asks, with the person's cookies) and holds each part of the table it pushes (or,
told only a version, asks for the view: ``/tables/<id>/state/`` with ``If-None-Match``);
the view is asked for when a countdown shown has been over for 3 to 5 s (each page its
own) with nothing pushed, then again each such grace while nothing comes, and every
15 s; ``--poll`` has everyone poll once a second instead, as before the push,
and ``--compare`` runs each step both ways. An account bets the minimum when its seat
may bet and acts on its hand when shown a decision (stand, or hit about one time in
three), each after thinking 0.5 to 2.5 s, each a POST with ``HX-Request`` that answers
the table's part; each table's first bet comes up to 4.5 s into the step, so that the
tables do not go round in step. Countdowns are shortened (betting 5 s, decisions 5 s,
result 2 s; the web opens tables with 15/10/5) so that rounds go round within a step.
``--warmup S`` (default 10) first plays 2 tables unreported, so that each worker's first
rounds and decisions (imports, caches) are not measured.

Everyone at a step arrives in its first `ARRIVAL_SECONDS` (opens the page and its
stream, is shown the table, places a first bet): that crowd arriving at once is reported
in a line of its own; the figures of the step are those of the ``--seconds`` of play
that follow. They are: requests per second, p50/p95/p99 per request kind (``state``,
``bet``, ``act``, ``sit``, and the watchers' first ``page``), the delay from a move to
each viewer holding it (``move→view``: from the move's commit, which a connection of this
process's own hears as PostgreSQL's notice), server errors (an HTTP error or a
connection dropped without an answer), refusals (a request the table refused: a 200
with the refusal shown, e.g. an action from a version that had moved on), rounds played
and bets recorded, the load average (the machine is shared), and the app's own CPU time
over the play (its workers' user and system time, which the machine's other work does
not skew); and apart, the requests and the moves reaching the viewers in the play's
second half, past what the arrival left behind it. At the end: the first step whose p99
passes 200 ms, for the move reaching
the viewers, the view asked for and the action on a hand, each where a step has enough
of them for a p99.

The file is also the locustfile (``locust -f`` reads its user classes; the plan of each
step comes in ``BENCH_LIVE_PLAN``, the way to follow in ``BENCH_LIVE_MODE``). locust and
gunicorn are benchmark tools, not the project's dependencies: ``.venv/bin/pip install
locust gunicorn`` first.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import itertools
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from served_app import cpu_seconds, prepare_database, production_env, wait_until_up

ROOT = Path(__file__).resolve().parents[2]
LIMIT_MS = 200.0
#: The seconds in which everyone at a step's tables arrives (opens the page and its
#: stream, places a first bet), reported apart from the play that follows.
ARRIVAL_SECONDS = 10
#: gunicorn's app and worker arguments: as deployed; Django's own ASGI handler for every
#: request (before trainer/asgi.py sent the pages to its WSGI handler); or the threaded
#: WSGI workers of before the push.
SERVERS = {
    "asgi": ["trainer.asgi"],
    "django-asgi": ["django.core.asgi:get_asgi_application()"],
    "wsgi": ["trainer.wsgi", "-k", "gthread", "--threads", "4"],
}
KINDS = ("state", "bet", "act", "sit", "page")
#: The delay from a move (its version first told by a stream) to a viewer holding it.
DELAY = "move→view"
#: What is judged against LIMIT_MS at the p99: a move reaching each viewer (pushed, or
#: asked for), the view asked for and a player's action, where a step has at least
#: JUDGED_FROM of them (too few have no p99: pushed, the view is asked for only at a
#: countdown's end and every 15 s; the bets are few, the page once per watcher).
JUDGED = ("state", "act")
JUDGED_FROM = 100
MODES = {"push": "pushed", "poll": "polled"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="default: a throwaway SQLite file")
    parser.add_argument("--steps", default="1,2,4,8,16,32", help="busy tables at each step")
    parser.add_argument("--seconds", type=int, default=20, help="measured seconds per step")
    parser.add_argument("--players", type=int, default=3, help="accounts seated per table")
    parser.add_argument("--watchers", type=int, default=4, help="guests watching each table")
    parser.add_argument("--port", type=int, default=8201)
    parser.add_argument(
        "--server", choices=SERVERS, default="asgi",
        help="asgi: as deployed (uvicorn workers); for comparison, django-asgi: Django's ASGI "
        "handler for every request, wsgi: threaded workers",
    )  # fmt: skip
    parser.add_argument("--warmup", type=int, default=10, help="unreported seconds first")
    parser.add_argument(
        "--grace", type=float, default=3.0,
        help="pushed, the least seconds after a countdown's end before the page asks, each "
        "page up to 2 s more (3: as it does now that the server applies the end; 0: as it "
        "did before, and then each second)",
    )  # fmt: skip
    parser.add_argument(
        "--poll", action="store_true", help="every person polls each second, as before push"
    )
    parser.add_argument(
        "--compare", action="store_true", help="each step pushed, then polled (fresh tables)"
    )
    args = parser.parse_args()
    modes = ["push", "poll"] if args.compare else ["poll"] if args.poll else ["push"]
    if not 1 <= args.players <= 7:
        parser.error("--players: 1 to 7 (the other seats get bots)")
    work = Path(tempfile.mkdtemp(prefix="bench-live-"))
    env = production_env(args.database_url or f"sqlite:///{work / 'db.sqlite3'}")
    python = sys.executable
    prepare_database(python, env)
    print(f"database: {'PostgreSQL' if args.database_url else 'SQLite'}", flush=True)
    server = subprocess.Popen(
        [str(Path(python).with_name("gunicorn")), *SERVERS[args.server],
         "-c", "trainer/gunicorn.conf.py", "-b", f"127.0.0.1:{args.port}",
         "--log-level", "warning"],
        cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "trainer.settings"},
    )  # fmt: skip
    first_over: dict[tuple[str, str], int] = {}
    try:
        wait_until_up(args.port)
        if args.warmup:  # each worker's first rounds and decisions, unreported
            _step(argparse.Namespace(**{**vars(args), "seconds": args.warmup}), env, work, 2,
                  modes[0], server.pid, report=False)  # fmt: skip
        for tables in (int(step) for step in args.steps.split(",")):
            for mode in modes:
                for kind, p99 in _step(args, env, work, tables, mode, server.pid).items():
                    if p99 > LIMIT_MS:
                        first_over.setdefault((mode, kind), tables)
    finally:
        server.terminate()
        server.wait(timeout=10)
    for mode in modes:
        for kind in (DELAY, *JUDGED):
            if (mode, kind) in first_over:
                print(f"{MODES[mode]}: {kind} p99 first passed {LIMIT_MS:.0f} ms at "
                      f"{first_over[mode, kind]} busy tables")  # fmt: skip
            else:
                print(f"{MODES[mode]}: {kind} p99 stayed under {LIMIT_MS:.0f} ms at every step")


def _step(
    args: argparse.Namespace, env: dict[str, str], work: Path, tables: int, mode: str,
    server: int, *, report: bool = True,
) -> dict[str, float]:  # fmt: skip
    """Open ``tables`` fresh tables, let everyone arrive (`ARRIVAL_SECONDS`), then play
    them for ``--seconds`` followed as ``mode`` says; print the figures of the play and,
    apart, of the arrival; the p99 of each judged kind during the play (ms)."""
    plan = work / f"plan-{tables}-{mode}-{report}.json"
    django_env = {**env, "DJANGO_SETTINGS_MODULE": "trainer.settings"}
    setup = _SETUP.format(tables=tables, players=args.players, plan=str(plan))
    subprocess.run([sys.executable, "-c", setup], cwd=ROOT, env=django_env, check=True)
    people = tables * (args.players + args.watchers)
    prefix = work / f"step-{tables}-{mode}-{report}"
    log, held = Path(f"{prefix}_requests.txt"), Path(f"{prefix}_held.txt")
    log.write_text("")
    held.write_text("")
    clock = _Clock(env["DATABASE_URL"]) if env["DATABASE_URL"].startswith("postgres") else None
    began = time.time()
    locust = subprocess.Popen(
        [str(Path(sys.executable).with_name("locust")), "-f", __file__, "--headless",
         "-u", str(people), "-r", str(max(people // 2, 1)),
         "-t", f"{ARRIVAL_SECONDS + args.seconds + 2}s",
         "--only-summary", "--csv", str(prefix), "-L", "WARNING",
         "--host", f"http://127.0.0.1:{args.port}",
         "--stop-timeout", "5"],
        cwd=ROOT, env={**env, "BENCH_LIVE_PLAN": str(plan), "BENCH_LIVE_MODE": mode,
                       "BENCH_LIVE_WATCHERS": str(args.watchers),
                       "BENCH_LIVE_GRACE": str(args.grace),
                       "BENCH_LIVE_LOG": str(log), "BENCH_LIVE_HELD": str(held)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    start, end = began + ARRIVAL_SECONDS, began + ARRIVAL_SECONDS + args.seconds
    time.sleep(max(0.0, start - time.time()))
    load_before, cpu_before = os.getloadavg()[0], _workers_cpu(server)
    time.sleep(max(0.0, end - time.time()))
    load_after, cpu = os.getloadavg()[0], (_workers_cpu(server) - cpu_before) / args.seconds
    locust.wait()
    delays = clock.delays(held) if clock else []
    failures = _csv(Path(f"{prefix}_failures.csv"))
    refused = sum(int(f["Occurrences"]) for f in failures if "refused:" in f["Error"])
    errors = sum(int(f["Occurrences"]) for f in failures) - refused
    played = subprocess.run(
        [sys.executable, "-c", _PLAYED.format(plan=str(plan))],
        cwd=ROOT, env=django_env, check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    if not report:
        return {}
    requests = [line.split() for line in log.read_text().splitlines()]
    playing: dict[str, list[float]] = {kind: [] for kind in (*KINDS, DELAY)}
    arriving: list[float] = []
    # The play's second half: past whatever the arrival left behind it.
    late: dict[str, list[float]] = {"requests": [], DELAY: []}
    halfway = start + args.seconds / 2
    for at, kind, ms in requests:
        (playing[kind] if start <= float(at) < end else arriving).append(float(ms))
        if halfway <= float(at) < end:
            late["requests"].append(float(ms))
    for at, ms in delays:
        (playing[DELAY] if start <= at < end else arriving).append(ms)
        if halfway <= at < end:
            late[DELAY].append(ms)
    per_second = sum(len(playing[kind]) for kind in KINDS) / args.seconds
    print(
        f"-- {tables} busy tables ({tables * args.players} players, "
        f"{tables * args.watchers} watchers), {MODES[mode]}: {per_second:,.0f} req/s; "
        f"server errors {errors}, refusals {refused}; {played}; "
        f"load {load_before:.2f} → {load_after:.2f}",
        flush=True,
    )
    print(
        f"   app CPU {cpu:.2f} cores: {people / cpu if cpu else 0:,.0f} such people a core",
        flush=True,
    )
    for kind, values in playing.items():
        if values:
            counted = "views" if kind == DELAY else "requests"
            p50, p95, p99 = (_percentile(values, share) for share in (0.50, 0.95, 0.99))
            print(
                f"   {kind:<9} {len(values):>6} {counted:<8} {len(values) / args.seconds:>7,.1f}/s"
                f"  p50 {p50:>5.0f} ms  p95 {p95:>5.0f} ms  p99 {p99:>5.0f} ms",
                flush=True,
            )
    if arriving:
        print(
            f"   arrival (first {ARRIVAL_SECONDS} s, requests and views): {len(arriving)}, "
            f"p50 {_percentile(arriving, 0.5):.0f} ms, p99 {_percentile(arriving, 0.99):.0f} ms"
        )
    if late["requests"] and late[DELAY]:
        print(
            "   the play's second half: "
            + "; ".join(
                f"{kind} p50 / p95 / p99 "
                + " / ".join(f"{_percentile(values, q):.0f}" for q in (0.5, 0.95, 0.99))
                + " ms"
                for kind, values in late.items()
            )
        )
    for failure in failures:
        said = "refusal" if "refused:" in failure["Error"] else "error"
        print(f"   {said}: {failure['Occurrences']} × {failure['Name']}: {failure['Error']}")
    return {
        kind: _percentile(playing[kind], 0.99)
        for kind in (DELAY, *JUDGED)
        if len(playing[kind]) >= JUDGED_FROM
    }


class _Clock:
    """When each version of a table was committed: a connection of its own listening to
    the tables' notices (trainer/live/table.py), which PostgreSQL sends at the commit."""

    def __init__(self, database_url: str) -> None:
        import psycopg

        self.told: dict[tuple[int, int], float] = {}
        self.listening = psycopg.connect(database_url, autocommit=True)
        self.listening.execute("LISTEN live_table")
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()

    def _listen(self) -> None:
        with contextlib.suppress(Exception):  # ends when the connection is closed
            for notice in self.listening.notifies():
                table, _sep, version = notice.payload.partition(":")
                self.told.setdefault((int(table), int(version)), time.time())

    def delays(self, held: Path) -> list[tuple[float, float]]:
        """When each viewer held a view of each move, and the delay (ms) from the move's
        commit, from the views the users noted; the clock then stops."""
        self.listening.close()
        found = []
        for line in held.read_text().splitlines():
            table, before, after, at = line.split()
            for version in range(int(before) + 1, int(after) + 1):
                told = self.told.get((int(table), version))
                if told is not None:
                    found.append((float(at), max(0.0, (float(at) - told) * 1000)))
        return found


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _workers_cpu(server: int) -> float:
    """The CPU seconds (user and system) the server's workers have used so far."""
    children = Path(f"/proc/{server}/task/{server}/children").read_text().split()
    total = 0.0
    for pid in children:
        with contextlib.suppress(OSError):
            total += cpu_seconds(int(pid))
    return total


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as rows:
        return list(csv.DictReader(rows))


# Ends each Django snippet: a PostgreSQL pool left open delays the exit by seconds.
_CLOSE = """
from django.db import connection
if hasattr(connection, "close_pool"):
    connection.close_pool()
"""

# Run in a Django process: each table's accounts (with sessions made directly, as
# django.contrib.auth.login() would), its bots, and shortened countdowns.
_SETUP = (
    """
import django
django.setup()
import json
from datetime import timedelta
from importlib import import_module
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.middleware.csrf import _get_new_csrf_string
from django.utils import timezone
from django.utils.crypto import get_random_string
from engine.live_table import LiveTable
from engine.rules import DELUXE
from engine.table import BotSeat
from trainer.live.table import deadline_of
from trainer.models import SharedTable
store = import_module(settings.SESSION_ENGINE).SessionStore()
run = get_random_string(8)
now = timezone.now()
expire = now + timedelta(days=1)
tiers = ("easy", "normal", "hard")
plan = {{"csrf": _get_new_csrf_string(), "cookie": settings.SESSION_COOKIE_NAME,
         "tables": [], "players": []}}
for t in range({tables}):
    users = User.objects.bulk_create(
        [User(username=f"live-{{run}}-{{t}}-{{i}}", password="!") for i in range({players})])
    bots = [BotSeat(seat, tiers[seat % 3]) for seat in range({players} + 1, 8)]
    table = LiveTable.new(DELUXE, now=now, bots=bots, betting_seconds=5.0,
                          decision_seconds=5.0, result_seconds=2.0)
    for seat, user in enumerate(users, start=1):
        table.buy_in(f"account {{user.pk}}", 5000, now=now)
        table.sit(f"account {{user.pk}}", seat, now=now)
    row = SharedTable.objects.create(
        rules_name=DELUXE.name, rules_version=DELUXE.version, state=table.to_json(),
        deadline=deadline_of(table),
        seats_taken=len(table.holders), minimum_bet=table.limits.minimum,
        maximum_bet=table.limits.maximum, opened_by_id=users[0].pk, opened_at=now)
    plan["tables"].append(row.pk)
    for seat, user in enumerate(users, start=1):
        data = {{auth.SESSION_KEY: str(user.pk),
                 auth.BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                 auth.HASH_SESSION_KEY: user.get_session_auth_hash()}}
        session = Session.objects.create(session_key=get_random_string(32), expire_date=expire,
                                         session_data=store.encode(data))
        plan["players"].append({{"table": row.pk, "seat": seat,
                                 "session": session.session_key}})
with open({plan!r}, "w") as out:
    json.dump(plan, out)
"""
    + _CLOSE
)

# Run in a Django process after a step: what its tables played and put on record.
_PLAYED = (
    """
import django
django.setup()
import json
from engine.live_table import LiveTable
from trainer.models import Bet, SharedTable
tables = json.load(open({plan!r}))["tables"]
rounds = sum(LiveTable.from_json(r.state).rounds for r in SharedTable.objects.filter(pk__in=tables))
bets = Bet.objects.filter(live_table_id__in=tables).count()
print(f"{{rounds}} rounds played, {{bets}} bets recorded")
"""
    + _CLOSE
)


# The locustfile: the users that play and watch a step's tables ---------------------------

if os.environ.get("BENCH_LIVE_PLAN"):
    import codecs
    import socket
    import zlib

    import gevent
    from gevent.event import Event
    from locust import HttpUser, constant, events, task

    _PLAN: dict[str, Any] = json.loads(Path(os.environ["BENCH_LIVE_PLAN"]).read_text())
    _WATCHERS = int(os.environ.get("BENCH_LIVE_WATCHERS", "4"))
    _PUSH = os.environ.get("BENCH_LIVE_MODE", "push") == "push"
    _player_numbers = itertools.count()
    _watcher_numbers = itertools.count()
    _VERSION = re.compile(r'data-version="(\d+)"')
    _STAGE = re.compile(r'data-stage="(\w+)"')
    _ACTION = re.compile(r'id="act-(\w+)"')  # the decision's buttons, not a preselection
    _SECONDS_LEFT = re.compile(r'data-seconds-left="(\d+)"')
    _REFUSAL = re.compile(r'data-testid="error">([^<]*)<')
    _ETAG = re.compile(r"If-None-Match\": \"([^']*)\"}'")
    #: How long after a countdown's end a pushed page asks (static/js/live.js GRACE_MS).
    _GRACE = float(os.environ.get("BENCH_LIVE_GRACE", "3")) if _PUSH else 0.0
    _GRACE_SPREAD = 2.0  # a page's grace: 3 to 5 s
    #: Each view held: the table, the version held before and now, when (for main()).
    _HELD = Path(os.environ["BENCH_LIVE_HELD"]).open("a", buffering=1)  # noqa: SIM115
    #: Each request: when it ended, its kind, its time (ms).
    _LOG = Path(os.environ["BENCH_LIVE_LOG"]).open("a", buffering=1)  # noqa: SIM115

    @events.request.add_listener
    def _logged(name: str, response_time: float, **_: object) -> None:
        _LOG.write(f"{time.time():.3f} {name} {response_time:.1f}\n")

    #: When the step began: each table's players place their first bet up to 4.5 s after
    #: it (half a second apart, table by table), so that separate tables do not go round
    #: in step, as they would not.
    _BEGAN = time.time()

    def _listen(host: str, table: int, cookies: str, viewer: Any) -> None:
        """Follow the table's stream as the page's EventSource does (compressed, as a
        browser asks for it; again after a drop, as it does): a part pushed is held as
        the view, a version told is asked for."""
        address = host.removeprefix("http://").split(":")
        while True:
            try:
                with socket.create_connection((address[0], int(address[1]))) as sock:
                    sock.sendall(
                        f"GET /tables/{table}/events/?version={viewer.held} HTTP/1.1\r\n"
                        f"Host: {address[0]}\r\nAccept: text/event-stream\r\n"
                        f"Accept-Encoding: gzip\r\nCookie: {cookies}\r\n\r\n".encode()
                    )
                    for kind, data in _events_of(sock.makefile("rb")):
                        if kind == "part":
                            viewer.pushed(data)
                        elif kind == "table":
                            viewer.tell(int(data))
            except OSError:
                pass
            gevent.sleep(2)  # the stream's "retry: 2000"

    def _events_of(answer: Any) -> Any:
        """The server-sent events of an HTTP answer (chunked, gzipped or not): each
        event's kind and its data lines joined."""
        headers = []
        while (line := answer.readline()) not in (b"\r\n", b""):
            headers.append(line.decode().lower())
        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        zipped = any(header.startswith("content-encoding: gzip") for header in headers)
        text = codecs.getincrementaldecoder("utf-8")()
        buffer = ""
        while size := int(answer.readline().strip() or b"0", 16):
            chunk = answer.read(size)
            answer.readline()
            buffer += text.decode(inflate.decompress(chunk) if zipped else chunk)
            *blocks, buffer = buffer.split("\n\n")
            for block in blocks:
                kind, data = "", []
                for line in block.split("\n"):
                    if line.startswith("event: "):
                        kind = line.removeprefix("event: ")
                    elif line.startswith("data: "):
                        data.append(line.removeprefix("data: "))
                if kind:
                    yield kind, "\n".join(data)

    class _Viewer(HttpUser):
        """Someone with the table open, following it as the page does: pushed (the
        default), they ask for their view when the stream tells a new version, when the
        countdown ends, and every 15 s; polled (``--poll``), every second."""

        abstract = True
        wait_time = constant(1 if not _PUSH else 0)
        table: int
        etag = ""
        shown = ""
        held = 0
        #: When the countdown shown ends (seconds since the epoch; inf: none runs).
        ends = float("inf")
        asked = 0.0

        def follow(self) -> None:
            self.told = 0
            #: This page's grace after a countdown's end (static/js/live.js GRACE_MS).
            self.grace = _GRACE + random.uniform(0, _GRACE_SPREAD) if _GRACE else 0.0
            self.wake = Event()
            if _PUSH:
                cookies = "; ".join(f"{c.name}={c.value}" for c in self.client.cookies)
                gevent.spawn(_listen, self.host, self.table, cookies, self)

        def tell(self, version: int) -> None:
            if version > self.held:
                self.told = max(self.told, version)
                self.wake.set()

        def pushed(self, part: str) -> None:
            """A part pushed: held as the page morphs it in, as if asked for now."""
            version = _VERSION.search(part)
            if version is None or int(version.group(1)) <= self.held:
                return
            etag = _ETAG.search(part)
            self.asked = time.time()
            self.hold(json.loads(f'"{etag.group(1)}"') if etag else "", part)
            self.wake.set()

        def await_change(self, until: float = float("inf")) -> None:
            """Push: wait for a new version, the countdown's end, the safety net's 15 s,
            or ``until`` (a player's mind made up)."""
            if not _PUSH:
                return
            deadline = min(self.ends, self.asked + 15, until)
            self.wake.wait(max(0.0, deadline - time.time()))
            self.wake.clear()
            if self.ends <= time.time():  # the page asks again each grace until it moves
                self.ends = time.time() + max(1.0, self.grace)

        def poll(self) -> None:
            if (
                _PUSH
                and self.told <= self.held
                and self.ends > time.time()
                and time.time() - self.asked < 15
            ):
                return  # woken for a player's own decision: nothing new to ask for
            headers = {"HX-Request": "true"}
            if self.etag:
                headers["If-None-Match"] = self.etag
            self.asked = time.time()
            response = self.client.get(
                f"/tables/{self.table}/state/", headers=headers, name="state"
            )
            if response.status_code == 200:
                self.hold(response.headers.get("ETag", ""), response.text)

        def hold(self, etag: str, shown: str) -> None:
            """A new view held, noted for the delays from each move it shows."""
            now = time.time()
            self.etag, self.shown = etag, shown
            version = _VERSION.search(shown)
            left = _SECONDS_LEFT.search(shown)
            # Pushed, a countdown's end is applied by the server and pushed: the page asks
            # only once it has been over for a grace (static/js/live.js).
            self.ends = now + int(left.group(1)) + self.grace if left else float("inf")
            if version is None:
                return
            held, self.held = self.held, int(version.group(1))
            if held and self.held > held:
                _HELD.write(f"{self.table} {held} {self.held} {now}\n")

    class Watcher(_Viewer):
        """A guest watching a table."""

        fixed_count = len(_PLAN["tables"]) * _WATCHERS

        def on_start(self) -> None:
            tables = _PLAN["tables"]
            self.table = tables[next(_watcher_numbers) % len(tables)]
            self.client.get(f"/tables/{self.table}/", name="page")  # a session, a CSRF cookie
            self.follow()

        @task
        def watch(self) -> None:
            self.await_change()
            self.poll()

    class Player(_Viewer):
        """An account seated at a table: bets when betting opens, acts when asked, each
        after a moment's thought (0.5 to 2.5 s, as a person decides)."""

        fixed_count = len(_PLAN["players"])

        def on_start(self) -> None:
            mine = _PLAN["players"][next(_player_numbers) % len(_PLAN["players"])]
            self.table, self.seat = mine["table"], mine["seat"]
            self.client.cookies.set(_PLAN["cookie"], mine["session"])
            self.client.cookies.set("csrftoken", _PLAN["csrf"])
            self.has_bet = False
            self.rng = random.Random(self.seat)
            #: The version whose decision or bet is being thought over, and when it is made.
            self.pondered = (0, 0.0)
            self.arrives = _BEGAN + _PLAN["tables"].index(self.table) % 10 * 0.5
            self.follow()

        @task
        def play(self) -> None:
            if self.pondered[0]:
                self.await_change(until=self.pondered[1])
            else:
                self.await_change(
                    until=self.arrives if self.arrives > time.time() else float("inf")
                )
            self.poll()
            if time.time() < self.arrives:
                return
            stage = _STAGE.search(self.shown)
            if stage is None or stage.group(1) != "betting":
                self.has_bet = False
            actions = _ACTION.findall(self.shown)
            bet = re.search(f'data-op="bet" data-seat="{self.seat}" data-amount="(\\d+)"',
                            self.shown)  # fmt: skip
            sit = f'data-op="sit" data-seat="{self.seat}"' in self.shown
            if not (actions or sit or (bet and not self.has_bet)):
                self.pondered = (0, 0.0)
                return
            if self.pondered[0] != self.held:  # something to decide: think first
                self.pondered = (self.held, time.time() + self.rng.uniform(0.5, 2.5))
            if time.time() < self.pondered[1]:
                return
            self.pondered = (0, 0.0)
            if actions:
                self.order("act", action=self.choose(actions))
            elif sit:
                self.order("sit", seat=self.seat)
            elif bet:
                self.has_bet = True
                self.order("bet", seat=self.seat, amount=int(bet.group(1)))

        def choose(self, actions: list[str]) -> str:
            if "hit" in actions and self.rng.random() < 1 / 3:
                return "hit"
            for choice in ("stand", "no_insurance", "no_follow"):
                if choice in actions:
                    return choice
            return actions[0]

        def order(self, op: str, **fields: object) -> None:
            version = _VERSION.search(self.shown)
            data = {"op": op, "version": version.group(1) if version else "0", **fields}
            headers = {"HX-Request": "true", "X-CSRFToken": _PLAN["csrf"]}
            with self.client.post(
                f"/tables/{self.table}/", data=data, headers=headers, name=op, catch_response=True
            ) as response:
                if response.status_code != 200:
                    response.failure(f"HTTP {response.status_code}")
                    return
                self.hold(response.headers.get("ETag", ""), response.text)
                refusal = _REFUSAL.search(response.text)
                if refusal:
                    response.failure(f"refused: {refusal.group(1).strip()}")
                else:
                    response.success()


if __name__ == "__main__":
    main()
