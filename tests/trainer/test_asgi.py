"""The ASGI entry point (trainer/asgi.py): the async views (the live tables' event
streams) go to Django's ASGI handler, every other request to its WSGI handler in threads;
a page served either way knows the ASGI server can hold its stream."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection
from django.test import RequestFactory

from trainer import asgi
from trainer.live import push


def test_only_the_event_streams_are_async_views() -> None:
    assert asgi.is_async_view("/tables/12/events/")
    assert not asgi.is_async_view("/tables/12/")
    assert not asgi.is_async_view("/tables/12/state/")
    assert not asgi.is_async_view("/")
    assert not asgi.is_async_view("/no/such/page/")


def _served_by(monkeypatch: pytest.MonkeyPatch, scope: dict[str, Any]) -> str:
    """Which handler the entry point hands ``scope`` to."""
    handed: list[str] = []

    def handler(name: str) -> Any:
        async def handle(scope: dict[str, Any], receive: Any, send: Any) -> None:
            handed.append(name)

        return handle

    monkeypatch.setattr(asgi, "pages", handler("wsgi"))
    monkeypatch.setattr(asgi, "streams", handler("asgi"))
    # In a thread of its own: a browser test before this one leaves a loop running here.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(lambda: asyncio.run(asgi.application(scope, None, None))).result()
    return handed[0]


def test_a_page_goes_to_the_wsgi_handler_and_a_stream_to_the_asgi_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    http = {"type": "http", "root_path": ""}
    assert _served_by(monkeypatch, {**http, "path": "/tables/3/"}) == "wsgi"
    assert _served_by(monkeypatch, {**http, "path": "/tables/3/events/"}) == "asgi"
    assert _served_by(monkeypatch, {"type": "lifespan"}) == "asgi"
    # Mounted under a prefix: the path is matched without it.
    mounted = {"type": "http", "root_path": "/trainer", "path": "/trainer/tables/3/events/"}
    assert _served_by(monkeypatch, mounted) == "asgi"


@pytest.mark.postgresql
def test_a_page_through_the_asgi_servers_wsgi_handler_is_offered_the_push() -> None:
    """a2wsgi hands the ASGI scope to the WSGI request; a threaded WSGI server does not,
    and its pages poll."""
    assert connection.vendor == "postgresql"
    through_asgi = RequestFactory().get("/tables/3/")
    through_asgi.META["asgi.scope"] = {"type": "http"}
    assert push.available(through_asgi)
    assert not push.available(RequestFactory().get("/tables/3/"))
