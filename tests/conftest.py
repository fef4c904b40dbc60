"""Fixtures shared by every test package."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from typing import Any
from unittest import mock

# Playwright's sync API runs an event loop in the test thread; without this Django raises
# SynchronousOnlyOperation in browser tests and in live_server teardown. Tests only.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
# Strategy analyses are kept on disk, keyed by their rules; tests share a folder of their
# own (the same one trainer.test_settings names).
os.environ.setdefault(
    "BLACKJACK_STRATEGY_CACHE",
    os.path.join(tempfile.gettempdir(), "blackjack-trainer-test-strategy"),
)

import pytest  # noqa: E402
from hypothesis import Phase, settings  # noqa: E402

# Mutation testing (docs/testing.md) runs the engine's tests once for each of some
# six thousand mutants: there the property tests try fewer examples, chosen with
# --hypothesis-profile=mutation, and a failing one stops at once: shrinking its example
# (for a mutant, a minute or more) only tells a reader what no one reads there.
settings.register_profile(
    "mutation",
    max_examples=20,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
)
# CI runs with --hypothesis-profile=ci (docs/testing.md). The slow property tests set
# their own example counts, each saying why it is enough, and keep them here; the rest
# are quick (under 2 s at 100 examples) and try 100. A failure prints the blob that
# reproduces it, since a CI machine keeps no example database.
settings.register_profile("ci", max_examples=100, print_blob=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """For a mutant, the property tests run after the others: the run stops at the first
    failure, which a quick example test usually finds before a property test's seconds."""
    if "MUTANT_UNDER_TEST" in os.environ:
        items.sort(
            key=lambda item: getattr(getattr(item, "obj", None), "is_hypothesis_test", False)
        )


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


#: Debian's Chromium, and its headless shell (the package chromium-headless-shell).
CHROMIUM = "/usr/bin/chromium"
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch the system's Chromium (Playwright cannot download its own browser here):
    headless, its headless shell, the same build without the browser's windows, which
    takes half the CPU of the whole browser (docs/testing.md); with ``--headed``, or
    without the shell, the whole browser. ``CHROMIUM_PATH`` names another."""
    headless = browser_type_launch_args.get("headless", True)
    chromium = HEADLESS_SHELL if headless and os.path.exists(HEADLESS_SHELL) else CHROMIUM
    return {
        **browser_type_launch_args,
        "executable_path": os.environ.get("CHROMIUM_PATH", chromium),
        "args": [
            "--disable-gpu",
            "--disable-quic",
            "--no-sandbox",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(autouse=True)
def _no_live_table_kept() -> Iterator[None]:
    """A live table parsed in one test is not served in the next: a test database hands a
    rolled-back table's id out again, and a clock set by hand its opening time."""
    from trainer.live import selectors

    selectors.forget_snapshots()
    yield
    selectors.forget_snapshots()


@pytest.fixture(autouse=True)
def _analyses_run_at_once() -> Iterator[None]:
    """A background analysis of a player's rules is run at once, in the test's process and
    database: the real job is a process of its own that would read the database the
    settings name, not the test's. Tests of the waiting itself replace this."""
    from trainer.shared import analyses

    def run_at_once(key: str, command_name: str = "analyse_rules") -> None:
        analyses.analysis_run(key)  # a job knows itself whether it is an index table

    with mock.patch.object(analyses, "launch", side_effect=run_at_once):
        yield


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip a test marked ``postgresql`` on any other database: it checks what only the
    deployment's database shows (row locks, app servers in processes of their own
    sharing it), which SQLite cannot stand in for."""
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"]
    if item.get_closest_marker("postgresql") and engine != "django.db.backends.postgresql":
        pytest.skip("needs PostgreSQL: DATABASE_URL=postgres://…")


def pytest_report_header() -> str:
    """Name the database backend, so a run on PostgreSQL is visibly one."""
    from django.conf import settings

    return f"database: {settings.DATABASES['default']['ENGINE']}"
