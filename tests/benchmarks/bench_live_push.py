"""Benchmark: how soon a move at a live table reaches the pages following it, pushed
(trainer/live/push.py), on two app servers sharing one PostgreSQL; and how many followers
one worker process holds.

    .venv/bin/python tests/benchmarks/bench_live_push.py --database-url postgres://…
        [--tables 4] [--viewers 40] [--moves 20] [--pause 1] [--holds 250,500,1000,2000]
        [--port 8301]

It migrates the database, starts two servers as deployed (gunicorn, ``trainer.asgi``,
``trainer/gunicorn.conf.py``) with one worker each, on two ports, and opens ``--tables``
tables (Ann seated, Bob joined). Each viewer is a guest: it loads the table's page (its
session), opens the page's stream (``/tables/<id>/events/``) on one server or the other
in turn, and holds each part of the table it is pushed, as the page does (or, told only
a version, asks for its view: ``/tables/<id>/state/`` with If-None-Match). The mover, in
this process, makes ``--moves`` moves at each table through the services (Bob cashing
out and joining again in turn, which any stage of the round allows, ``--pause`` seconds
apart, the tables' moves spread over the pause), each committed on the database: the
delay measured is from a move's commit to the viewer holding the table's new view (and,
apart, to the event). Then, for each of ``--holds``, that many streams are opened on ONE
worker, listening only, and the delay to the event is measured: the followers one worker
holds is the largest count whose p95 stays under 300 ms, with the worker's memory. Each
line gives the load average (the machine is shared).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from served_app import prepare_database, production_env

ROOT = Path(__file__).resolve().parents[2]
LIMIT_MS = 300.0
_VERSION = re.compile(r'data-version="(\d+)"')


@dataclass
class Viewer:
    """A guest following one table on one server: its cookie and what it measured."""

    port: int
    table: int
    #: Whether it asks for its view when told (the crowd of the holding test only listens).
    asks: bool = True
    cookie: str = ""
    version: int = 0
    etag: str = ""
    #: Per version seen: when the event came, and when the view did.
    evented: dict[int, float] = field(default_factory=dict)
    viewed: dict[int, float] = field(default_factory=dict)


async def _request(
    port: int, path: str, headers: dict[str, str]
) -> tuple[int, dict[str, str], bytes]:
    """One GET on a connection of its own: the status, the headers (the last of each
    name, set-cookie joined) and the body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{lines}Connection: close\r\n\r\n".encode()
    )
    raw = await reader.read()
    writer.close()
    head, _sep, body = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    answer: dict[str, str] = {}
    for line in header_lines:
        name, _c, value = line.partition(":")
        key = name.strip().lower()
        value = value.strip()
        answer[key] = f"{answer[key]}; {value}" if key == "set-cookie" and key in answer else value
    return int(status_line.split()[1]), answer, body


async def _join(viewer: Viewer) -> None:
    """Load the page as a guest: the session cookie and the version shown."""
    _status, headers, _body = await _request(viewer.port, f"/tables/{viewer.table}/", {})
    cookies = [part.split(";")[0] for part in headers.get("set-cookie", "").split("; ")]
    viewer.cookie = "; ".join(c for c in cookies if c.startswith(("sessionid=", "csrftoken=")))


async def _view(viewer: Viewer, version: int) -> None:
    headers = {"Cookie": viewer.cookie, "HX-Request": "true"}
    if viewer.etag:
        headers["If-None-Match"] = viewer.etag
    status, answer, _body = await _request(viewer.port, f"/tables/{viewer.table}/state/", headers)
    if status == 200:
        viewer.etag = answer.get("etag", "")
        seen = int(viewer.etag.strip('"').split("-")[0]) if viewer.etag else version
        viewer.viewed.setdefault(seen, time.time())


async def _follow(viewer: Viewer, opened: asyncio.Event) -> None:
    """The page's stream: each version told is noted, then asked for."""
    reader, writer = await asyncio.open_connection("127.0.0.1", viewer.port)
    writer.write(
        f"GET /tables/{viewer.table}/events/?version={viewer.version} HTTP/1.1\r\n"
        f"Host: 127.0.0.1\r\nCookie: {viewer.cookie}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    kind, part = "", []
    try:
        while line := await reader.readline():
            text = line.decode().rstrip("\r\n")
            if text.startswith("retry:"):
                opened.set()
            elif text.startswith("event: "):
                kind, part = text.removeprefix("event: "), []
            elif kind == "table" and text.startswith("data: "):
                kind = ""
                version = int(text.removeprefix("data: "))
                viewer.evented.setdefault(version, time.time())
                if viewer.asks:
                    asyncio.get_running_loop().create_task(_view(viewer, version))
            elif kind == "part" and text.startswith("data: "):
                part.append(text)
            elif kind == "part" and not text:  # the viewer's part, pushed: the view itself
                kind = ""
                found = _VERSION.search("\n".join(part))
                if found:
                    now = time.time()
                    viewer.evented.setdefault(int(found.group(1)), now)
                    viewer.viewed.setdefault(int(found.group(1)), now)
    finally:
        writer.close()


def _percentiles(delays: list[float]) -> str:
    if not delays:
        return "no deliveries"
    cuts = statistics.quantiles(delays, n=100, method="inclusive")
    return (
        f"p50 {cuts[49]:.0f} ms, p90 {cuts[89]:.0f} ms, p95 {cuts[94]:.0f} ms, "
        f"max {max(delays):.0f} ms ({len(delays)} deliveries)"
    )


def _load() -> str:
    return f"{os.getloadavg()[0]:.2f}"


async def _round(
    viewers: list[Viewer], tables: list[int], moves: int, bob: object, pause: float
) -> tuple[list[float], list[float], int]:
    """Open every viewer's stream, make the moves, and the delays (ms) from each commit
    to each viewer's event and view; and how many deliveries never came."""
    from asgiref.sync import sync_to_async
    from django.utils import timezone

    from trainer.live.services import LiveOp, LiveOrder, live_request
    from trainer.shared.unit_of_work import Refused

    await _join(viewers[0])
    await asyncio.gather(*(_join(v) for v in viewers[1:] if v.asks))
    for viewer in viewers[1:]:
        viewer.cookie = viewer.cookie or viewers[0].cookie
    openings = [asyncio.Event() for _viewer in viewers]
    streams = [asyncio.create_task(_follow(v, o)) for v, o in zip(viewers, openings, strict=True)]
    await asyncio.wait_for(asyncio.gather(*(o.wait() for o in openings)), 60)
    committed: dict[tuple[int, int], float] = {}

    def move(table: int, number: int) -> None:
        order = (
            LiveOrder(LiveOp.JOIN, 0, amount=500) if number % 2 else LiveOrder(LiveOp.CASH_OUT, 0)
        )
        try:
            change = live_request(owner=bob, table_id=table, order=order, now=timezone.now())
        except Refused:
            return
        committed[(table, change.row.version)] = time.time()

    # The tables' moves spread over each pause, as separate tables' players are.
    for number in range(moves):
        for table in tables:
            await sync_to_async(move)(table, number)
            await asyncio.sleep(pause / len(tables))
    await asyncio.sleep(2)
    for stream in streams:
        stream.cancel()
    evented, viewed, missed = [], [], 0
    for viewer in viewers:
        for (table, version), at in committed.items():
            if table != viewer.table:
                continue
            if version in viewer.evented:
                evented.append((viewer.evented[version] - at) * 1000)
            elif not viewer.asks:
                missed += 1
            if not viewer.asks:
                continue
            later = [t for v, t in viewer.viewed.items() if v >= version]
            if later:
                viewed.append((min(later) - at) * 1000)
            else:
                missed += 1
    return evented, viewed, missed


def _tables(count: int) -> tuple[list[int], object]:
    """``count`` new tables, Ann seated on seat 3 at each and Bob joined; and Bob."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from trainer.live.services import LiveOp, LiveOrder, live_request, open_table
    from trainer.shared.owners import Owner

    users = get_user_model().objects
    stamp = time.time_ns()
    bob = users.create_user(f"bob{stamp}")
    bobs = Owner(bob.pk, "")
    tables = []
    for number in range(count):
        # An Ann a table: an account may have only two open (services.MOST_OPEN).
        ann = users.create_user(f"ann{stamp}-{number}")
        row = open_table(user_id=ann.pk, bots=[], seats=[3], buy_in=5000, now=timezone.now())
        live_request(
            owner=bobs, table_id=row.pk, order=LiveOrder(LiveOp.JOIN, 0, amount=5000),
            now=timezone.now(),
        )  # fmt: skip
        tables.append(row.pk)
    return tables, bobs


def _server(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    return subprocess.Popen(
        [gunicorn, "trainer.asgi", "-c", "trainer/gunicorn.conf.py",
         "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env={**env, "WEB_CONCURRENCY": "1"},
    )  # fmt: skip


def _up(port: int) -> None:
    for _try in range(150):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server on {port} did not start")


def _worker_rss_mb(server: subprocess.Popen[bytes]) -> float:
    """The memory of the server's one worker (the master's child), in MB."""
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    status = Path(f"/proc/{children[0]}/status").read_text()
    rss = next(line for line in status.splitlines() if line.startswith("VmRSS"))
    return int(rss.split()[1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True, help="PostgreSQL: postgres://…")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--viewers", type=int, default=40, help="in all, over the tables")
    parser.add_argument("--moves", type=int, default=20, help="at each table")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between moves")
    parser.add_argument("--holds", default="250,500,1000,2000", help="streams on one worker")
    parser.add_argument("--port", type=int, default=8301)
    args = parser.parse_args()
    env = production_env(args.database_url)
    prepare_database(sys.executable, env)
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "trainer.settings"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    ports = [args.port, args.port + 1]
    servers = [_server(port, env) for port in ports]
    try:
        for port in ports:
            _up(port)
        tables, bob = _tables(args.tables)
        viewers = [
            Viewer(port=ports[n % 2], table=tables[n % len(tables)]) for n in range(args.viewers)
        ]
        load = _load()
        evented, viewed, missed = asyncio.run(_round(viewers, tables, args.moves, bob, args.pause))
        print(
            f"-- two servers, {args.tables} tables, {args.viewers} viewers, "
            f"{args.moves} moves a table; load {load} → {_load()}",
            flush=True,
        )
        print(f"   event: {_percentiles(evented)}")
        print(f"   view:  {_percentiles(viewed)}; never: {missed}", flush=True)
        held = 0
        for count in (int(n) for n in args.holds.split(",")):
            tables, bob = _tables(1)
            crowd = [Viewer(port=ports[0], table=tables[0], asks=False) for _n in range(count)]
            load = _load()
            evented, _viewed, missed = asyncio.run(_round(crowd, tables, 10, bob, args.pause))
            cuts = statistics.quantiles(evented, n=100) if len(evented) > 1 else [0.0] * 99
            print(
                f"-- {count} streams on one worker: event {_percentiles(evented)}; never "
                f"{missed}; worker {_worker_rss_mb(servers[0]):.0f} MB; "
                f"load {load} → {_load()}",
                flush=True,
            )
            if missed or not evented or cuts[94] > LIMIT_MS:
                break
            held = count
        print(f"followers one worker holds with p95 under {LIMIT_MS:.0f} ms: {held}")
    finally:
        from django.db import connections

        for connection in connections.all(initialized_only=True):
            connection.close_pool()
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
