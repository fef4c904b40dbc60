"""Fixtures of the trainer's tests."""

from __future__ import annotations

import io
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connections
from django.test import Client
from django.utils import translation

from engine.strategy import strategy_for
from trainer.shared import analyses, throttle
from trainer.shared.owners import GUEST_KEY


@pytest.fixture(autouse=True)
def _each_test_starts_in_english() -> Iterator[None]:
    """A request in another language leaves it active in the thread (the locale middleware
    activates a language and never deactivates it), so each test starts in the default."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


#: How long a racing call may take before the test gives up on it.
RACE_TIMEOUT = 120

Together = Callable[[Sequence[Callable[[], Any]]], list[Any]]


def _together(calls: Sequence[Callable[[], Any]]) -> list[Any]:
    """Run each call in a thread of its own, all released at once, each on its own database
    connection (so they really race, in the database as in Python); what each returned or
    raised, in the calls' order."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            outcomes[index] = call()
        except BaseException as error:  # noqa: BLE001 - the test judges every outcome
            outcomes[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(RACE_TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a racing call never finished"
    return outcomes


@pytest.fixture
def together() -> Together:
    """`_together`: for race tests, which need ``django_db(transaction=True)`` so that
    each thread's connection sees what the test wrote and what the others commit."""
    return _together


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``--dist loadgroup``) the race tests run on one worker, one at a
    time: each holds up to fifty database connections at once, and two on two workers
    would pass PostgreSQL's ``max_connections`` (100 by default)."""
    for item in items:
        if "together" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("races"))


MINUTE = 60


class Clock:
    """The throttles' clock, moved forward by hand."""

    def __init__(self) -> None:
        self.at = time.time()

    def __call__(self) -> float:
        return self.at

    def advance(self, minutes: float) -> None:
        self.at += minutes * MINUTE


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    moving = Clock()
    monkeypatch.setattr(throttle, "now", moving)
    return moving


@pytest.fixture
def launched() -> Iterator[list[str]]:
    """The keys of the background analyses started (none runs: a test runs one itself),
    with no analysis kept in this process before or after."""
    keys: list[str] = []
    strategy_for.cache_clear()
    with mock.patch.object(analyses, "launch", side_effect=lambda key, *command: keys.append(key)):
        yield keys
    strategy_for.cache_clear()


@pytest.fixture
def presets_analysed(db: None) -> None:
    """Every preset's analysis stored and at hand, as ``manage.py analyse_presets`` leaves
    a deployment: a test counting a request's queries must not count the analysis a fresh
    process would otherwise read or work out and store inside that request."""
    call_command("analyse_presets", stdout=io.StringIO())


def as_returning_guest(client: Client) -> Client:
    """Give ``client`` a session holding a guest token of its own, as a guest who has been
    here before has: the drill page then stores the hand it deals (a visitor without a
    session is shown a hand drawn without saving, `tests/trainer/drills/test_drill_drawn.py`)."""
    session = client.session
    session[GUEST_KEY] = secrets.token_urlsafe(8)
    session.save()
    return client


@pytest.fixture
def returning_guest(client: Client) -> Client:
    """The test client as a guest who has been here before (`as_returning_guest`)."""
    return as_returning_guest(client)
