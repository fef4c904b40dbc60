"""A live table's stream pushes each viewer their own part of every new version
(trainer/live/views.py `table_events`, trainer/live/push.py), drawn once per version for
all the streams following the table in the process, and applies the table's deadline
when it passes, with nobody asking (issue 25, point 21)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import AsyncClient
from django.urls import reverse
from django.utils import timezone

from engine.live_table import LiveTable
from trainer.live import views
from trainer.live.services import LiveOp, LiveOrder, live_request
from trainer.models import SharedTable
from trainer.shared.owners import Owner

from .test_push import a_table, bet, run_apart

WAIT = 10.0
VERSION = re.compile(r'data-version="(\d+)"')


async def opened(client: AsyncClient, table_id: int, since: int) -> AsyncIterator[bytes]:
    """The table's stream as ``client``'s page opens it."""
    url = reverse("trainer:live-table-events", args=[table_id])
    response = await client.get(url, {"version": since})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    events: AsyncIterator[bytes] = response.streaming_content  # type: ignore[attr-defined]
    # Its first line (the reconnection delay) once it follows, as a server sends it at once.
    assert (await anext(events)).startswith(b"retry:")
    return events


async def next_part(events: AsyncIterator[bytes]) -> str:
    """The stream's next part, its data lines joined as the page's EventSource joins them."""
    while True:
        item = (await asyncio.wait_for(anext(events), WAIT)).decode()
        if item.startswith("event: part\n"):
            lines = item.removeprefix("event: part\n").rstrip("\n").split("\n")
            return "\n".join(line.removeprefix("data: ") for line in lines)
        assert not item.startswith("event: table"), "a version told, not drawn"


def account_of(owner: Owner) -> Any:
    """The owner's account (a_table's Ann has one)."""
    assert owner.user_id is not None
    return get_user_model().objects.get(pk=owner.user_id)


def stand(table_id: int, owner: Owner) -> None:
    """Ann stands, committed on a connection of this thread's own."""
    try:
        version = SharedTable.objects.get(pk=table_id).version
        order = LiveOrder(LiveOp.ACT, version, action="stand")
        live_request(owner=owner, table_id=table_id, order=order, now=timezone.now())
    finally:
        connection.close()


def version_of(part: str) -> int:
    found = VERSION.search(part)
    assert found is not None
    return int(found.group(1))


async def in_executor(call: Callable[[], object]) -> None:
    """A change made as another server's request would make it: committed, on a
    connection of its own (not asyncio.to_thread: it would hand over this context's)."""
    await asyncio.get_running_loop().run_in_executor(None, call)


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_each_viewer_is_pushed_their_own_part_drawn_once_for_all_of_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table_id, ann = a_table()
    ann_user = account_of(ann)
    drawings: list[int] = []
    drawn = views._parts_drawn

    def counted(table: int, viewers: list[Any]) -> Any:
        drawings.append(len(viewers))
        return drawn(table, viewers)

    monkeypatch.setattr(views, "_parts_drawn", counted)

    async def run() -> None:
        anns, guests = AsyncClient(), AsyncClient()
        await anns.aforce_login(ann_user)
        ann_stream = await opened(anns, table_id, 0)
        guest_stream = await opened(guests, table_id, 0)
        await in_executor(partial(bet, table_id, ann))  # her seat alone: dealt at once
        ann_first, guest_first = await next_part(ann_stream), await next_part(guest_stream)
        assert 'id="act-stand"' in ann_first  # her decision, hers alone
        assert 'id="act-stand"' not in guest_first
        assert 'data-op="join"' in guest_first
        assert 'aria-label="Ten of spades"' in ann_first
        assert 'aria-label="Ten of spades"' in guest_first
        # Each viewer's own CSRF token is in their part, not the slot drawn in its place.
        assert views._CSRF_SLOT not in ann_first + guest_first
        assert 'name="csrfmiddlewaretoken" value="' in ann_first

        await in_executor(partial(stand, table_id, ann))
        ann_next, guest_next = await next_part(ann_stream), await next_part(guest_stream)
        assert version_of(ann_next) == version_of(guest_next) > version_of(ann_first)
        assert 'data-stage="result"' in ann_next
        assert drawings == [2, 2]  # each version drawn once for both streams' viewers
        await ann_stream.aclose()  # type: ignore[attr-defined]
        await guest_stream.aclose()  # type: ignore[attr-defined]

    run_apart(run)


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_countdown_that_runs_out_is_applied_and_pushed_with_nobody_asking() -> None:
    table_id, ann = a_table()
    row = SharedTable.objects.get(pk=table_id)
    table = LiveTable.from_json(row.state)
    table.decision_seconds = 1.0
    SharedTable.objects.filter(pk=table_id).update(state=table.to_json())
    ann_user = account_of(ann)

    async def run() -> None:
        anns = AsyncClient()
        await anns.aforce_login(ann_user)
        stream = await opened(anns, table_id, 0)
        await in_executor(partial(bet, table_id, ann))  # dealt: her decision, 1 s
        dealt = await next_part(stream)
        assert 'id="act-stand"' in dealt
        # No request is made: the stream's process applies the deadline and pushes it.
        played = await next_part(stream)
        assert 'data-stage="result"' in played
        assert 'id="act-stand"' not in played
        await stream.aclose()  # type: ignore[attr-defined]

    run_apart(run)
    assert LiveTable.from_json(SharedTable.objects.get(pk=table_id).state).rounds == 1


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_viewer_who_logs_in_elsewhere_is_pushed_the_part_of_who_they_are_now(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table_id, ann = a_table()
    ann_user = account_of(ann)
    monkeypatch.setattr(views, "VIEWER_RECHECK_SECONDS", 0.0)

    async def run() -> None:
        anns = AsyncClient()
        await anns.aforce_login(ann_user)
        stream = await opened(anns, table_id, 0)
        await in_executor(partial(bet, table_id, ann))
        assert 'id="act-stand"' in await next_part(stream)
        await anns.alogout()  # the session the stream was opened with is gone
        await in_executor(partial(stand, table_id, ann))
        after = await next_part(stream)
        assert 'data-stage="result"' in after
        assert 'data-op="join"' in after  # as a guest sees it
        await stream.aclose()  # type: ignore[attr-defined]

    run_apart(run)


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_viewer_is_pushed_their_part_in_their_language() -> None:
    table_id, ann = a_table()

    async def run() -> None:
        polish, english = AsyncClient(), AsyncClient()
        polish.cookies["django_language"] = "pl"
        in_polish = await opened(polish, table_id, 0)
        in_english = await opened(english, table_id, 0)
        await in_executor(partial(bet, table_id, ann))
        assert "Wszystkie stoły na żywo" in await next_part(in_polish)
        assert "All live tables" in await next_part(in_english)
        await in_polish.aclose()  # type: ignore[attr-defined]
        await in_english.aclose()  # type: ignore[attr-defined]

    run_apart(run)


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_drawing_that_fails_tells_the_version_and_the_page_asks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table_id, ann = a_table()

    def broken(table: int, viewers: list[Any]) -> Any:
        raise RuntimeError("a template failed")

    monkeypatch.setattr(views, "_parts_drawn", broken)

    told: list[bytes] = []

    async def run() -> None:
        stream = await opened(AsyncClient(), table_id, 0)
        await in_executor(partial(bet, table_id, ann))
        told.append(await asyncio.wait_for(anext(stream), WAIT))
        await stream.aclose()  # type: ignore[attr-defined]

    run_apart(run)
    version = SharedTable.objects.get(pk=table_id).version
    assert told == [f"event: table\ndata: {version}\n\n".encode()]
