from __future__ import annotations

import pytest

from tests.trainer.conftest import MINUTE, Clock
from trainer.shared.throttle import Throttle

# The counters live in the database cache, as in production.
pytestmark = pytest.mark.django_db


def test_a_window_starts_with_the_first_event_and_not_the_last(clock: Clock) -> None:
    hourly = Throttle("test-hourly", limit=3, window=60 * MINUTE)
    for _ in range(3):
        hourly.record("ann")
        clock.advance(10)  # each event later than the cache's default timeout of 5 minutes
    assert hourly.exceeded("ann")  # 30 minutes after the first event: still in its hour
    clock.advance(29)
    assert hourly.exceeded("ann")
    clock.advance(2)  # 61 minutes after the first event
    assert not hourly.exceeded("ann")
    assert hourly.record("ann") == 1


def test_keys_are_counted_apart(clock: Clock) -> None:
    hourly = Throttle("test-apart", limit=2, window=60 * MINUTE)
    hourly.record("ann")
    hourly.record("ann")
    assert hourly.exceeded("ann")
    assert not hourly.exceeded("bob")
    assert Throttle("test-other", limit=2, window=60 * MINUTE).count("ann") == 0


def test_a_lockout_lasts_its_length_from_the_event_that_reached_the_limit(
    clock: Clock,
) -> None:
    guard = Throttle("test-lockout", limit=3, window=15 * MINUTE, lockout=15 * MINUTE)
    guard.record("ann")
    guard.record("ann")
    clock.advance(14)
    guard.record("ann")  # the limit, one minute before the window would have ended
    clock.advance(14)
    assert guard.exceeded("ann")
    assert guard.retry_after("ann") == 1 * MINUTE
    clock.advance(1.5)
    assert not guard.exceeded("ann")
    assert guard.retry_after("ann") == 0


def test_without_a_lockout_the_count_ends_with_its_window(clock: Clock) -> None:
    plain = Throttle("test-plain", limit=2, window=15 * MINUTE)
    plain.record("ann")
    clock.advance(14)
    plain.record("ann")
    assert plain.retry_after("ann") == 1 * MINUTE
    clock.advance(1.5)
    assert not plain.exceeded("ann")


def test_clearing_forgets_the_count(clock: Clock) -> None:
    guard = Throttle("test-clear", limit=1, window=15 * MINUTE, lockout=15 * MINUTE)
    guard.record("ann")
    assert guard.exceeded("ann")
    guard.clear("ann")
    assert not guard.exceeded("ann")
