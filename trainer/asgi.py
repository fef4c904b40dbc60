"""ASGI entry point, e.g. ``uvicorn trainer.asgi:application``.

Only the async views (the live tables' event streams, which must hold no thread while a
page is open: trainer/live/push.py) go to Django's ASGI handler. Every other request goes
to Django's WSGI handler, run in a pool of threads (a2wsgi). Django's ASGI handler runs
each synchronous middleware and view through a thread hop of its own (asgiref's
``sync_to_async``), and with this project's thirteen middleware that cost more CPU than
most pages' drawing: through the WSGI handler a page takes a fifth to a half of the CPU
(tests/benchmarks/bench_entry_point.py; docs/performance.md).
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any, cast

from a2wsgi import WSGIMiddleware
from a2wsgi.asgi_typing import Scope
from a2wsgi.wsgi_typing import WSGIApp
from asgiref.sync import iscoroutinefunction
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application
from django.urls import Resolver404, resolve

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "trainer.settings")

#: Threads running the synchronous views, per process: as many as the database pool's
#: connections (DJANGO_DB_POOL_SIZE, trainer/settings.py), so that none waits for one.
THREADS = int(os.environ.get("DJANGO_DB_POOL_SIZE") or 4)

streams = get_asgi_application()  # sets Django up: the URLs below resolve after it
# Django's handler returns its response, which is the iterable of bytes WSGI asks for.
pages = WSGIMiddleware(cast(WSGIApp, get_wsgi_application()), workers=THREADS)


@lru_cache(maxsize=4096)
def is_async_view(path: str) -> bool:
    """Whether ``path`` resolves to an async view (an unknown path does not: its 404 is
    a page like any other)."""
    try:
        return iscoroutinefunction(resolve(path).func)
    except Resolver404:
        return False


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Async views and anything but HTTP to Django's ASGI handler; the rest to its WSGI
    handler in threads."""
    path = scope.get("path", "")[len(scope.get("root_path", "")) :]
    if scope["type"] == "http" and not is_async_view(path):
        await pages(cast(Scope, scope), receive, send)
    else:
        await streams(scope, receive, send)
