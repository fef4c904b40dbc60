from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.trainer.conftest import MINUTE, Clock
from trainer.models import ThrottleCount
from trainer.shared import throttle
from trainer.shared.throttle import Throttle, throttles_forget_ended

# The counters live in the database, as in production.
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


def test_a_reservation_beyond_the_limit_is_refused_and_not_counted(clock: Clock) -> None:
    guard = Throttle("test-reserve", limit=2, window=15 * MINUTE)
    assert guard.reserve("ann") and guard.reserve("ann")
    assert not guard.reserve("ann")
    assert guard.count("ann") == 2
    guard.release("ann")  # the right password: it does not count
    assert guard.reserve("ann")


def test_ended_counts_are_deleted(clock: Clock) -> None:
    guard = Throttle("test-ended", limit=2, window=15 * MINUTE)
    guard.record("ann")
    clock.advance(10)
    guard.record("bob")
    clock.advance(6)  # ann's window has ended, bob's has not
    assert throttles_forget_ended(before=clock()) == 1
    assert ThrottleCount.objects.count() == 1 and guard.count("bob") == 1


@settings(max_examples=50, deadline=None)
@given(steps=st.lists(st.sampled_from(["reserve", "fail", "succeed", "wait"]), max_size=40))
def test_attempts_let_through_never_pass_the_limit_in_a_window(steps: list[str]) -> None:
    """Whatever the order of attempts, outcomes and waits, the count never passes the
    limit, and no 15 minutes let through more than twice the limit of failed attempts
    (a fixed window's bound: the limit at the end of one window and again at the start
    of the next); a right password gives its place back."""
    clock = Clock()
    with mock.patch.object(throttle, "now", clock):
        ThrottleCount.objects.all().delete()
        guard = Throttle("test-property", limit=3, window=15 * MINUTE, lockout=15 * MINUTE)
        failed: list[float] = []
        pending = False
        for step in steps:
            if step == "wait":
                clock.advance(7)
            elif step == "reserve" and not pending:
                pending = guard.reserve("ann")
            elif step == "fail" and pending:
                failed.append(clock())
                guard.locked_if_reached("ann")
                pending = False
            elif step == "succeed" and pending:
                guard.release("ann")
                pending = False
            assert guard.count("ann") <= 3
            assert len([at for at in failed if at > clock() - 15 * MINUTE]) <= 2 * 3
