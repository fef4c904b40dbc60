"""A live table read and parsed once per version for all its viewers in a process
(`trainer.live.selectors.table_snapshot`), and a view's queries counted: a busy table's
players each ask for every version, so what they share is read once."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_django import DjangoAssertNumQueries

from engine.live_table import LiveTable
from tests.trainer.live.test_live_tables import Clock, account, open_table, poll, post
from trainer.live import selectors, services
from trainer.models import SharedTable

pytestmark = [pytest.mark.django_db, pytest.mark.database]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    moving = Clock()
    monkeypatch.setattr(timezone, "now", moving)
    return moving


def version_of(response: Any) -> int:
    """The version a response shows (its ETag's first part)."""
    return int(response["ETag"].strip('"').split("-")[0])


@pytest.fixture
def ann_and_bob_seated(clock: Clock) -> tuple[SharedTable, Any, Any]:
    """Ann on seat 3, Bob on seat 5: two players who both ask for every version."""
    ann, anns = account("ann")
    _bob, bobs = account("bob")
    row = open_table(ann, clock, seats=[3])
    post(bobs, row, op="join", amount=500)
    post(bobs, row, op="sit", seat=5)
    return row, anns, bobs


def test_a_version_another_player_asked_for_is_neither_read_nor_parsed_again(
    ann_and_bob_seated: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    row, anns, bobs = ann_and_bob_seated
    assert poll(bobs, row).status_code == 200

    def unread(*args: object, **kwargs: object) -> LiveTable:
        raise AssertionError("the table's state was parsed again")

    monkeypatch.setattr(LiveTable, "from_json", unread)
    # The session, the account, and the table's version with whether a deadline is due:
    # not the table's row, nor the names at it.
    with django_assert_num_queries(3):
        answer = poll(anns, row)
    assert answer.status_code == 200
    row.refresh_from_db()
    assert version_of(answer) == row.version
    assert "bob" in answer.content.decode()


def test_the_first_viewer_of_a_version_reads_it_in_five_queries(
    ann_and_bob_seated: Any, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    row, anns, _bobs = ann_and_bob_seated
    # The session, the account, the version, the row, the names.
    with django_assert_max_num_queries(5):
        assert poll(anns, row).status_code == 200


def test_the_names_are_read_again_only_when_the_accounts_at_the_table_change(
    ann_and_bob_seated: Any, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    row, anns, bobs = ann_and_bob_seated
    assert poll(bobs, row).status_code == 200
    post(anns, row, op="bet", seat=3, amount=30)
    # The session, the account, the version, the row: the same people, the same names.
    with django_assert_num_queries(4):
        answer = poll(bobs, row)
    assert "ann" in answer.content.decode()
    _cat, cats = account("cat")
    post(cats, row, op="join", amount=500)
    post(cats, row, op="sit", seat=6)
    with django_assert_num_queries(5):  # and the names, Cat's among them
        answer = poll(bobs, row)
    assert "cat" in answer.content.decode()


def test_the_version_a_request_wrote_is_kept_for_the_viewers_here(
    ann_and_bob_seated: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_assert_num_queries: DjangoAssertNumQueries,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Ann's bet is written by this process: Bob's view of it (as a stream's drawing
    here would be) reads neither the row nor the names, and parses nothing."""
    row, anns, bobs = ann_and_bob_seated
    assert poll(bobs, row).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        post(anns, row, op="bet", seat=3, amount=30)

    def unread(*args: object, **kwargs: object) -> LiveTable:
        raise AssertionError("the table's state was parsed again")

    monkeypatch.setattr(LiveTable, "from_json", unread)
    with django_assert_num_queries(3):  # the session, the account, the version
        answer = poll(bobs, row)
    row.refresh_from_db()
    assert version_of(answer) == row.version
    assert "Bet: 30" in answer.content.decode()


def test_a_new_version_is_served_at_once_never_the_one_kept(
    ann_and_bob_seated: Any, clock: Clock
) -> None:
    row, anns, bobs = ann_and_bob_seated
    kept = poll(bobs, row)
    post(anns, row, op="bet", seat=3, amount=30)
    row.refresh_from_db()
    after = poll(bobs, row, kept["ETag"])
    assert after.status_code == 200
    assert version_of(after) == row.version > version_of(kept)
    # A deadline passed is applied before anything kept is served.
    clock.advance(60)
    late = poll(bobs, row, after["ETag"])
    row.refresh_from_db()
    assert late.status_code == 200 and version_of(late) == row.version > version_of(after)


MOVES = st.lists(
    st.sampled_from(
        ["ann bets", "bob bets", "ann clears", "clock waits", "ann polls", "bob polls"]
    ),
    max_size=12,
)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(moves=MOVES)
def test_what_is_served_is_always_the_stored_version(clock: Clock, moves: list[str]) -> None:
    """Whatever happens at the table, between polls in any order, a snapshot served is the
    table exactly as stored, at the version stored."""
    selectors.forget_snapshots()
    SharedTable.objects.all().delete()
    get_user_model().objects.all().delete()
    ann, anns = account("ann")
    _bob, bobs = account("bob")
    row = open_table(ann, clock, seats=[3])
    post(bobs, row, op="join", amount=500)
    post(bobs, row, op="sit", seat=5)
    for move in moves:
        who, what = move.split()
        client, seat = (anns, 3) if who == "ann" else (bobs, 5)
        if what == "bets":
            post(client, row, op="bet", seat=seat, amount=10)
        elif what == "clears":
            post(client, row, op="clear")
        elif what == "waits":
            clock.advance(7)
        else:
            answer = poll(client, row)
            row.refresh_from_db()
            assert version_of(answer) == row.version
        head = services.current_head(row.pk, clock())
        assert head is not None
        shown = selectors.table_snapshot(row.pk, head)
        row.refresh_from_db()
        assert shown.row.version == row.version
        assert shown.table.to_json() == LiveTable.from_json(row.state).to_json()
    clock.advance(1)
