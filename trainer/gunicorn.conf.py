"""gunicorn's settings for the trainer: ``gunicorn trainer.asgi -c trainer/gunicorn.conf.py``.

The app is served over ASGI by uvicorn's workers (the package ``uvicorn-worker``): a live
table's page holds a stream of the table's changes open (trainer/live/push.py), which an
event loop keeps for almost nothing, where a threaded worker would give it a thread for
as long as the page is open. The (synchronous) views run in a pool of threads beside the
loop, through Django's WSGI handler (trainer/asgi.py). The WSGI entry point
(``trainer.wsgi``) still serves everything but those streams, whose pages then poll.

The deploy steps and the benchmarks (``tests/benchmarks/``) all run with them, so the
benchmarks measure what production serves. Before the streams, threaded WSGI workers were
used (faster than plain sync workers on the drill answer: +20-30% on SQLite, +75-180% on
PostgreSQL); against them, at 8 busy live tables on PostgreSQL, these served 41 requests/s
to their 34 (p99 2.3 s to 2.7 s, the 2-core machine loaded 6-9 by other work, 2 December
2026: ``bench_live_tables.py --server wsgi`` runs them again).
"""

from __future__ import annotations

import os

# One process per core for the Python work. WEB_CONCURRENCY is the usual way for a
# platform to set the process count.
workers = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 1)
worker_class = "uvicorn_worker.UvicornWorker"
# An idle kept-alive connection is closed after this many seconds (uvicorn's default is
# 5). A page at a live table asks only when its stream tells it the table moved, often
# more than 5 s apart: a server closing the connection just as the next request goes
# out drops that request ("connection closed without an answer", seen in
# bench_live_tables.py). Longer than the 60 s a load balancer usually keeps an idle
# connection, so that it is the one to close it.
keepalive = 75


def worker_exit(server: object, worker: object) -> None:
    """Close the PostgreSQL connection pool before the worker exits: left open, its threads
    each take 5 s to give up at interpreter exit, and a restart waits 20 s per worker."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        if hasattr(connection, "close_pool"):
            connection.close_pool()
