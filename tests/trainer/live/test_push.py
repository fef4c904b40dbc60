"""A live table's change pushed to the streams following it (trainer/live/push.py): on
PostgreSQL a committed change reaches a stream as "version N", a change rolled back
reaches none, a stream hears only its own table; elsewhere the events view tells the
page to poll."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from trainer.live import push
from trainer.live.services import LiveOp, LiveOrder, live_request, open_table
from trainer.models import SharedTable
from trainer.shared.owners import Owner

STAND_WINS = "10s 9h 8d 7c 10h " + "2c 3d 4h 5s " * 20
WAIT = 5.0


def a_table() -> tuple[int, Owner]:
    """A table with Ann on seat 3, and Ann (betting open)."""
    from engine.shoe import Shoe

    ann = get_user_model().objects.create_user(f"ann{SharedTable.objects.count()}")
    row = open_table(
        user_id=ann.pk, bots=[], seats=[3], buy_in=500, now=timezone.now(),
        shoe=Shoe.stacked(STAND_WINS),
    )  # fmt: skip
    return row.pk, Owner(ann.pk, "")


def bet(table_id: int, owner: Owner, *, then_fail: bool = False) -> None:
    """Ann's bet, on a connection of this thread's own, committed (or rolled back)."""
    try:
        with transaction.atomic():
            order = LiveOrder(LiveOp.BET, 0, seat=3, amount=20)
            live_request(owner=owner, table_id=table_id, order=order, now=timezone.now())
            if then_fail:
                raise RuntimeError("rolled back")
    except RuntimeError:
        pass
    finally:
        connection.close()


async def next_event(events: AsyncIterator[str]) -> str:
    """The stream's next event, skipping its comments."""
    while True:
        item = await asyncio.wait_for(anext(events), WAIT)
        if not item.startswith(":"):
            return item


def following(table_id: int, since: int, *moves: tuple[int, bool], expected: int) -> list[str]:
    """The ``expected`` events a stream following ``table_id`` from ``since`` says while
    Ann makes each of ``moves`` (a table, and whether the move is rolled back), and any it
    says in the second after them."""

    async def run() -> list[str]:
        events = push.stream(table_id, since, using=push.Hub())
        await next_event(events)  # the reconnection delay: the stream is open
        loop = asyncio.get_running_loop()
        for table, rolled_back in moves:
            # Not asyncio.to_thread: it would hand the thread this context's connection.
            await loop.run_in_executor(None, partial(bet, table, owner, then_fail=rolled_back))
        said = [await next_event(events) for _event in range(expected)]
        with contextlib.suppress(TimeoutError):
            said.append(await asyncio.wait_for(next_event(events), 1.0))
        await events.aclose()
        return said

    owner = owners[table_id]
    # A thread of its own, as an ASGI server's event loop is: its streams' queries run on
    # a connection of their own, not the test's.
    said: list[str] = []
    thread = threading.Thread(target=lambda: said.extend(asyncio.run(run())))
    thread.start()
    thread.join()
    return said


owners: dict[int, Owner] = {}


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_committed_change_reaches_the_stream_as_the_tables_new_version() -> None:
    table_id, ann = a_table()
    owners[table_id] = ann
    before = SharedTable.objects.get(pk=table_id).version
    said = following(table_id, before, (table_id, False), expected=1)
    after = SharedTable.objects.get(pk=table_id).version
    assert after > before
    assert said == [push.event(after)]


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_change_rolled_back_or_at_another_table_reaches_no_stream() -> None:
    table_id, ann = a_table()
    other_id, bob = a_table()
    owners[table_id], owners[other_id] = ann, bob
    before = SharedTable.objects.get(pk=table_id).version
    assert following(table_id, before, (table_id, True), expected=0) == []
    assert SharedTable.objects.get(pk=table_id).version == before

    owners[table_id] = bob  # Bob's bet is at his own table
    assert following(table_id, before, (other_id, False), expected=0) == []


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_stream_behind_the_table_is_told_its_version_at_once() -> None:
    table_id, ann = a_table()
    owners[table_id] = ann
    bet(table_id, ann)
    now = SharedTable.objects.get(pk=table_id).version
    assert following(table_id, now - 1, expected=1) == [push.event(now)]
    assert following(table_id, now, expected=0) == []


@pytest.mark.django_db
def test_without_an_asgi_server_the_events_view_tells_the_page_to_poll(client: Client) -> None:
    table_id, _ann = a_table()
    response = client.get(reverse("trainer:live-table-events", args=[table_id]))
    assert response.status_code == 204
    page = client.get(reverse("trainer:live-table", args=[table_id]))
    assert b"data-push" not in page.content
    assert b'hx-trigger="every 1s, pushed"' in page.content


class _Drawn:
    def __init__(self, version: int) -> None:
        self.version = version


def run_apart(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run ``main`` in a thread of its own (a browser test may have left a loop in this
    one), failing the test if it fails."""
    failures: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(main())
        except BaseException as failure:
            failures.append(failure)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failures:
        raise failures[0]


def test_versions_coming_while_a_table_is_drawn_are_drawn_together_once() -> None:
    async def main() -> None:
        hub = push.Hub()
        table = {"version": 3}
        started: list[int] = []
        release = asyncio.Event()

        async def draw() -> _Drawn:  # the table as it is when the drawing starts
            version = table["version"]
            started.append(version)
            await release.wait()
            return _Drawn(version)

        first = asyncio.ensure_future(hub.latest(1, 3, draw))
        while not started:
            await asyncio.sleep(0)
        table["version"] = 5  # two moves while version 3 is drawn
        later = [asyncio.ensure_future(hub.latest(1, v, draw)) for v in (4, 5, 5)]
        await asyncio.sleep(0)
        release.set()
        assert (await first).version == 3
        assert [(await asker).version for asker in later] == [5, 5, 5]
        assert started == [3, 5]  # versions 4 and 5 drawn in one go
        assert (await hub.latest(1, 5, draw)).version == 5  # kept: not drawn again
        assert started == [3, 5]

    run_apart(main)


def test_a_failed_drawing_fails_its_askers_and_is_not_kept() -> None:
    async def main() -> None:
        hub = push.Hub()
        calls: list[int] = []

        async def broken() -> _Drawn:
            calls.append(1)
            raise RuntimeError("drawing failed")

        async def fine() -> _Drawn:
            calls.append(2)
            return _Drawn(7)

        with pytest.raises(RuntimeError):
            await hub.latest(1, 7, broken)
        assert (await hub.latest(1, 7, fine)).version == 7
        assert calls == [1, 2]

    run_apart(main)


class _Quiet:
    """A listening connection that hears nothing."""

    async def __aenter__(self) -> _Quiet:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def execute(self, sql: str) -> None:
        return None

    async def notifies(self) -> AsyncIterator[Any]:
        await asyncio.sleep(3600)
        yield None


async def quiet() -> _Quiet:
    return _Quiet()


def test_a_tables_alarm_rings_once_at_its_latest_time_and_not_once_nobody_follows() -> None:
    async def main() -> None:
        hub = push.Hub(connect=quiet)
        rung: list[str] = []

        def ringing(name: str) -> Callable[[], Coroutine[Any, Any, None]]:
            async def ring() -> None:
                rung.append(name)

            return ring

        now = time.time()
        async with hub.following(1), hub.following(2):
            hub.wake(1, now + 0.05, ringing("early"))
            hub.wake(1, now + 0.10, ringing("late"))  # replaces the first
            async with hub.following(3):
                hub.wake(3, now + 0.05, ringing("left"))
            # Nobody follows table 3 here any more: its alarm is off.
            await asyncio.sleep(0.3)
        assert rung == ["late"]

    run_apart(main)
