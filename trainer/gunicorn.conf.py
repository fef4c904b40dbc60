"""gunicorn's settings for the trainer: ``gunicorn trainer.asgi -c trainer/gunicorn.conf.py``.

The app is served over ASGI by uvicorn's workers (the package ``uvicorn-worker``): a live
table's page holds a stream of the table's changes open (trainer/live/push.py), which an
event loop keeps for almost nothing, where a threaded worker would give it a thread for
as long as the page is open. Django runs the (synchronous) views in a thread beside the
loop. The WSGI entry point (``trainer.wsgi``) still serves everything but those streams,
whose pages then poll.

The deploy steps and ``tests/benchmarks/bench_answer.py`` both run with them, so the
benchmark measures what production serves. On a 2-core machine, threaded workers with
keep-alive served the drill answer faster than plain sync workers (+20-30% on SQLite,
+75-180% on PostgreSQL, whose round trips one thread waits on while another runs), and
the bare "ok" view no slower (over six alternating runs, 2,300 req/s sync, 2,800 threaded,
with a wider spread).
"""

from __future__ import annotations

import os

# One process per core for the Python work. WEB_CONCURRENCY is the usual way for a
# platform to set the process count.
workers = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 1)
worker_class = "uvicorn_worker.UvicornWorker"


def worker_exit(server: object, worker: object) -> None:
    """Close the PostgreSQL connection pool before the worker exits: left open, its threads
    each take 5 s to give up at interpreter exit, and a restart waits 20 s per worker."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        if hasattr(connection, "close_pool"):
            connection.close_pool()
