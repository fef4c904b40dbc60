"""A live table's changes pushed to the pages following it, on PostgreSQL.

Every change of a live table says ``NOTIFY live_table, '<id>:<version>'`` in its own
transaction (`trainer.live.table.notify_version`, from `LiveChange.save`), so PostgreSQL
tells every app server once it commits, and never a change rolled back. Each app server's
process keeps ONE connection listening (`Hub`) and hands each version to the streams
(`stream`, the server-sent events of `trainer.live.views.table_events`) following that
table in the process. An event says only "version N": the page then asks for its own view
of the table with its usual request (If-None-Match), so what each viewer may see is drawn
and checked in one place. Without PostgreSQL (SQLite has no LISTEN) or without an ASGI
server, nothing is pushed and the page polls.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from typing import Any

import psycopg
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db import connection, connections
from django.http import HttpRequest

from trainer.live import selectors
from trainer.live.table import CHANNEL

#: A comment sent on a quiet stream this often, so that proxies keep it open and a
#: connection gone away is noticed.
KEEP_ALIVE_SECONDS = 15.0
#: How long a new stream waits for its process's listening connection.
READY_SECONDS = 5.0
#: The pause before listening again after the connection failed.
RETRY_SECONDS = 1.0
#: What a stream is handed when the listening connection was lost and made again:
#: versions may have been missed, so it reads the table's.
RECHECK = -1

log = logging.getLogger(__name__)


def available(request: HttpRequest) -> bool:
    """Whether changes can be pushed to this request's page: the database is PostgreSQL,
    and the request came through the ASGI server (trainer/asgi.py), which holds streams
    — by its ASGI handler (the streams themselves) or by its WSGI handler (the pages,
    which a2wsgi hands the ASGI scope)."""
    served = isinstance(request, ASGIRequest) or "asgi.scope" in request.META
    return served and connection.vendor == "postgresql"


def _listening_params() -> dict[str, Any]:
    """The database's connection settings as psycopg takes them, without what only
    Django's own cursors use."""
    params = dict(connections["default"].get_connection_params())
    for django_only in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(django_only, None)
    return params


class Hub:
    """One process's listening connection, and the streams it feeds, by table.

    It starts with the first stream and listens again after a failure; the streams
    following a table each get every version notified for it (a queue each: a slow
    stream delays no other)."""

    def __init__(self, connect: Callable[[], Any] | None = None) -> None:
        self._connect = connect or (
            lambda: psycopg.AsyncConnection.connect(autocommit=True, **_listening_params())
        )
        self._followers: dict[int, set[asyncio.Queue[int]]] = {}
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = asyncio.Event()

    @contextlib.asynccontextmanager
    async def following(self, table_id: int) -> AsyncIterator[asyncio.Queue[int]]:
        """A queue of the table's versions as they are notified, from the moment the
        process listens (`TimeoutError` if it cannot within `READY_SECONDS`)."""
        self._start()
        queue: asyncio.Queue[int] = asyncio.Queue()
        self._followers.setdefault(table_id, set()).add(queue)
        try:
            await asyncio.wait_for(self._ready.wait(), READY_SECONDS)
            yield queue
        finally:
            followers = self._followers.get(table_id, set())
            followers.discard(queue)
            if not followers:
                self._followers.pop(table_id, None)

    def following_count(self) -> int:
        """How many streams this process feeds (for the benchmark)."""
        return sum(len(queues) for queues in self._followers.values())

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        if self._task is not None and not self._task.done() and self._loop is loop:
            return
        # A new event loop (a test's): the old one's task and event are of no use in it.
        self._loop, self._ready = loop, asyncio.Event()
        self._task = loop.create_task(self._listen())

    async def _listen(self) -> None:
        while True:
            try:
                async with await self._connect() as listening:
                    await listening.execute(f"LISTEN {CHANNEL}")
                    self._ready.set()
                    self._hand_out_all(RECHECK)  # anything missed while not listening
                    async for notice in listening.notifies():
                        self._hand_out(notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("Listening for live tables' changes failed; listening again.")
            self._ready.clear()
            await asyncio.sleep(RETRY_SECONDS)

    def _hand_out(self, payload: str) -> None:
        table, _sep, version = payload.partition(":")
        try:
            table_id, number = int(table), int(version)
        except ValueError:
            log.warning("A live table notice not understood: %r", payload)
            return
        for queue in self._followers.get(table_id, ()):
            queue.put_nowait(number)

    def _hand_out_all(self, number: int) -> None:
        for queues in self._followers.values():
            for queue in queues:
                queue.put_nowait(number)


def _version_released(table_id: int) -> int | None:
    """The table's version, its connection given back at once: a stream lasts as long as
    the page is open, and must not hold one of the pool's connections all that time."""
    try:
        return selectors.table_version(table_id)
    finally:
        connection.close()


#: This process's hub.
hub = Hub()


def event(version: int) -> str:
    """The server-sent event that says the table is at ``version``.

    >>> event(12)
    'event: table\\ndata: 12\\n\\n'
    """
    return f"event: table\ndata: {version}\n\n"


async def stream(table_id: int, since: int, *, using: Hub | None = None) -> AsyncGenerator[str]:
    """The table's versions after ``since`` as server-sent events, from the moment the
    process listens: the current one first if it is newer, then each as notified, with a
    comment on a quiet stream. Ends if the process cannot listen (the page then polls)."""
    version_now = sync_to_async(_version_released)
    try:
        async with (using or hub).following(table_id) as versions:
            yield "retry: 2000\n\n"
            last = since
            notified = RECHECK
            while True:
                version = await version_now(table_id) if notified == RECHECK else notified
                if version is None:  # the table is gone
                    return
                if version > last:
                    last = version
                    yield event(version)
                try:
                    notified = await asyncio.wait_for(versions.get(), KEEP_ALIVE_SECONDS)
                except TimeoutError:
                    notified = last
                    yield ": still following\n\n"
    except TimeoutError:
        log.warning("No listening connection for live table %s's stream.", table_id)
