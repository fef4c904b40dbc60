"""A live table's changes pushed to the pages following it, on PostgreSQL.

Every change of a live table says ``NOTIFY live_table, '<id>:<version>'`` in its own
transaction (`trainer.live.table.notify_version`, from `LiveChange.save`), so PostgreSQL
tells every app server once it commits, and never a change rolled back. Each app server's
process keeps ONE connection listening (`Hub`) and hands each version to the streams
(`stream`, the server-sent events of `trainer.live.views.table_events`) following that
table in the process. A stream says each new version as the viewer's own drawing of the
table (``event: part``), drawn once per version for all the table's viewers in the
process (`Hub.latest`), so that a move costs a following page no request; where no
drawing is given it says only "version N" and the page asks for its view. The hub also
wakes at a followed table's deadline (`Hub.wake`), so that a countdown's end is applied
and pushed without every page asking at the same instant. Without PostgreSQL (SQLite has
no LISTEN) or without an ASGI server, nothing is pushed and the page polls.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Coroutine, Hashable
from dataclasses import dataclass
from typing import Any, Protocol

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


class Versioned(Protocol):
    """Work done for a table at a version (`Hub.latest`)."""

    @property
    def version(self) -> int: ...


@dataclass(eq=False)
class Follower:
    """One stream following a table: the versions handed to it, and who is watching
    (what `Hub.viewers` tells the drawing; the stream may change it)."""

    versions: asyncio.Queue[int]
    viewer: Hashable = None


class Hub:
    """One process's listening connection, and the streams it feeds, by table.

    It starts with the first stream and listens again after a failure; the streams
    following a table each get every version notified for it (a queue each: a slow
    stream delays no other)."""

    def __init__(self, connect: Callable[[], Any] | None = None) -> None:
        self._connect = connect or (
            lambda: psycopg.AsyncConnection.connect(autocommit=True, **_listening_params())
        )
        self._followers: dict[int, set[Follower]] = {}
        self._latest: dict[int, asyncio.Future[Any]] = {}
        self._alarms: dict[int, tuple[float, asyncio.TimerHandle]] = {}
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = asyncio.Event()

    @contextlib.asynccontextmanager
    async def following(self, table_id: int, viewer: Hashable = None) -> AsyncIterator[Follower]:
        """A follower of the table, its queue getting the table's versions as they are
        notified, from the moment the process listens (`TimeoutError` if it cannot
        within `READY_SECONDS`)."""
        self._start()
        follower = Follower(asyncio.Queue(), viewer)
        self._followers.setdefault(table_id, set()).add(follower)
        try:
            await asyncio.wait_for(self._ready.wait(), READY_SECONDS)
            yield follower
        finally:
            followers = self._followers.get(table_id, set())
            followers.discard(follower)
            if not followers:
                self._followers.pop(table_id, None)
                self._latest.pop(table_id, None)
                self._cancel_alarm(table_id)

    def following_count(self) -> int:
        """How many streams this process feeds (for the benchmark)."""
        return sum(len(followers) for followers in self._followers.values())

    def viewers(self, table_id: int) -> list[Hashable]:
        """The distinct viewers following the table in this process."""
        return list(dict.fromkeys(f.viewer for f in self._followers.get(table_id, ())))

    async def latest[T: Versioned](
        self, table_id: int, version: int, work: Callable[[], Awaitable[T]]
    ) -> T:
        """``work``'s latest result for the table if it is of ``version`` or newer, else
        a new one; one runs at a time per table, shared by every stream asking while it
        runs, so that versions coming faster than they are drawn are drawn together (the
        table as it is when the work starts). An error is every asker's, and not kept."""
        while True:
            running = self._latest.get(table_id)
            if running is None:
                break
            if not running.done():
                with contextlib.suppress(Exception):
                    await asyncio.shield(running)
            if running.done() and not running.cancelled() and running.exception() is None:
                result: T = running.result()
                if result.version >= version:
                    return result
            if self._latest.get(table_id) is running:
                break  # the first to find it behind starts the next: the others wait on it
        started = self._latest[table_id] = asyncio.ensure_future(work())
        return await asyncio.shield(started)

    def wake(self, table_id: int, at: float, call: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run ``call`` at ``at`` (seconds since the epoch) while anyone here follows the
        table: one alarm a table, the latest asked for replacing an earlier one."""
        kept = self._alarms.get(table_id)
        if kept is not None:
            if kept[0] == at:
                return
            kept[1].cancel()
        loop = asyncio.get_running_loop()

        def ring() -> None:
            self._alarms.pop(table_id, None)
            task: asyncio.Task[None] = loop.create_task(call())  # noqa: RUF006 - kept by the loop
            task.add_done_callback(_log_failure)

        delay = max(0.0, at - time.time())
        self._alarms[table_id] = (at, loop.call_later(delay, ring))

    def _cancel_alarm(self, table_id: int) -> None:
        kept = self._alarms.pop(table_id, None)
        if kept is not None:
            kept[1].cancel()

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
        for follower in self._followers.get(table_id, ()):
            follower.versions.put_nowait(number)

    def _hand_out_all(self, number: int) -> None:
        for followers in self._followers.values():
            for follower in followers:
                follower.versions.put_nowait(number)


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("A live table's alarm failed.", exc_info=task.exception())


def version_released(table_id: int) -> int | None:
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


def part_event(html: str) -> str:
    """The server-sent event that carries the viewer's drawing of the table, a line of
    data per line of HTML.

    >>> part_event("<p>\\n10</p>")
    'event: part\\ndata: <p>\\ndata: 10</p>\\n\\n'
    """
    lines = html.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "event: part\n" + "".join(f"data: {line}\n" for line in lines) + "\n"


class Drawn:
    """A viewer's drawing of a table at a version, as a stream's `Drawing` gives it."""

    def __init__(self, version: int, html: str) -> None:
        self.version = version
        self.html = html


#: What draws a stream's viewer's part: given a version notified, the drawing (of that
#: version or a newer one), or None when there is none to give (the page then asks).
Drawing = Callable[[Follower, int], Awaitable[Drawn | None]]


async def stream(
    table_id: int,
    since: int,
    *,
    using: Hub | None = None,
    viewer: Hashable = None,
    drawing: Drawing | None = None,
) -> AsyncGenerator[str]:
    """The table's versions after ``since`` as server-sent events, from the moment the
    process listens: the current one first if it is newer, then each as notified, with a
    comment on a quiet stream; each as ``drawing`` draws it for the viewer, else as its
    number. Ends if the process cannot listen (the page then polls)."""
    version_now = sync_to_async(version_released)
    try:
        async with (using or hub).following(table_id, viewer) as follower:
            yield "retry: 2000\n\n"
            last = since
            notified = RECHECK
            while True:
                version = await version_now(table_id) if notified == RECHECK else notified
                if version is None:  # the table is gone
                    return
                if version > last:
                    drawn = await drawing(follower, version) if drawing else None
                    if drawn is None:
                        last = version
                        yield event(version)
                    elif drawn.version > last:
                        last = drawn.version
                        yield part_event(drawn.html)
                try:
                    notified = await asyncio.wait_for(follower.versions.get(), KEEP_ALIVE_SECONDS)
                except TimeoutError:
                    notified = last
                    yield ": still following\n\n"
    except TimeoutError:
        log.warning("No listening connection for live table %s's stream.", table_id)
