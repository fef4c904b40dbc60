"""Fixtures shared by every test package."""

from __future__ import annotations

import os
import tempfile
from typing import Any

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


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch the system Chromium: Playwright cannot download its own browser here."""
    return {
        **browser_type_launch_args,
        "executable_path": os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"),
        "args": [
            "--disable-gpu",
            "--disable-quic",
            "--no-sandbox",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


def pytest_report_header() -> str:
    """Name the database backend, so a run on PostgreSQL is visibly one."""
    from django.conf import settings

    return f"database: {settings.DATABASES['default']['ENGINE']}"
