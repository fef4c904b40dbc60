"""Benchmark: the CPU a request costs the server through the project's ASGI entry point
(trainer/asgi.py: the pages through Django's WSGI handler in threads) against Django's
own ASGI handler for every request, side by side.

    .venv/bin/python tests/benchmarks/bench_entry_point.py [--database-url URL]
        [--requests 500] [--rounds 3] [--paths /healthz,/,/rules/,/tables/]

It migrates a throwaway SQLite database (or ``--database-url``), starts one uvicorn
process of each kind on 127.0.0.1 with production settings, and for each path and round
sends ``--requests`` GETs one after another on one kept-alive connection to each server
in turn (after 50 unmeasured), reading the server process's own CPU time (user and
system, /proc) before and after. The figure is CPU milliseconds per request, which the
machine's other work hardly moves; it prints each round and the median ratio per path.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from served_app import cpu_seconds, prepare_database, production_env, wait_until_up

ROOT = Path(__file__).resolve().parents[2]
#: The two entry points: the project's, and Django's own ASGI handler for everything.
SERVERS = {
    "trainer.asgi": ["trainer.asgi:application"],
    "django asgi": ["django.core.asgi:get_asgi_application", "--factory"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="default: a throwaway SQLite file")
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--paths", default="/healthz,/,/rules/,/tables/")
    parser.add_argument("--port", type=int, default=8211)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-entry-"))
    env = production_env(args.database_url or f"sqlite:///{work / 'db.sqlite3'}")
    env["DJANGO_SETTINGS_MODULE"] = "trainer.settings"
    prepare_database(sys.executable, env)
    print(f"database: {'PostgreSQL' if args.database_url else 'SQLite'}", flush=True)
    servers = {
        name: (
            port,
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    *app,
                    "--port",
                    str(port),
                    "--log-level",
                    "warning",
                    "--no-access-log",
                ],
                cwd=ROOT,
                env=env,
            ),  # fmt: skip
        )
        for port, (name, app) in enumerate(SERVERS.items(), start=args.port)
    }
    try:
        for port, _ in servers.values():
            wait_until_up(port)
        for path in args.paths.split(","):
            costs: dict[str, list[float]] = {name: [] for name in servers}
            for _ in range(args.rounds):
                for name, (port, process) in servers.items():
                    costs[name].append(_cpu_per_request(port, process.pid, path, args.requests))
            shown = "  ".join(
                f"{name} {' / '.join(f'{ms:.2f}' for ms in found)} ms"
                for name, found in costs.items()
            )
            ours, theirs = (statistics.median(found) for found in costs.values())
            print(f"{path:<10} {shown}  → {ours / theirs:.2f} of the CPU", flush=True)
    finally:
        for _, process in servers.values():
            process.terminate()
            process.wait(timeout=10)
    print(f"load average {os.getloadavg()[0]:.2f}")


def _cpu_per_request(port: int, pid: int, path: str, requests: int) -> float:
    """The server's CPU milliseconds per GET of ``path``, one after another."""
    connection = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Accept-Encoding": "gzip"}

    def get() -> None:
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        answer.read()
        if answer.status >= 500:
            raise SystemExit(f"{path}: {answer.status}")

    for _ in range(50):
        get()
    before = cpu_seconds(pid)
    for _ in range(requests):
        get()
    connection.close()
    return 1000 * (cpu_seconds(pid) - before) / requests


if __name__ == "__main__":
    main()
