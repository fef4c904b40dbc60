"""The engine's doctests keep analyses in the engine's folder store, as the command line
does: the web app's database store (installed when Django starts under pytest) is not
theirs to touch."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _strategy_store() -> Iterator[None]:
    from engine.strategy import store

    with store.store_used(store.DirectoryStore()):
        yield
