"""Fixtures for every test, the engine's doctests included."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

_DATABASE_FIXTURES = {"db", "transactional_db", "live_server"}


@pytest.fixture(autouse=True)
def _strategy_store(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that may use the database keeps analyses there, as the app does
    (`trainer.apps`); any other keeps them in the engine's folder store, as the command
    line does — it may not touch the database."""
    if request.node.get_closest_marker("django_db") or _DATABASE_FIXTURES & set(
        request.fixturenames
    ):
        yield
        return
    from engine.strategy import store

    with store.store_used(store.DirectoryStore()):
        yield
