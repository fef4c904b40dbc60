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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under mutmut, the engine's folder holds every mutant's copy of each function,
    docstring and all, and each copy's doctest would run the original's again (the
    simulation's a hundred times per mutant): only the originals' doctests are kept."""
    items[:] = [item for item in items if "__mutmut_" not in item.name]
