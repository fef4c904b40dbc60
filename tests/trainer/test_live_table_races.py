"""Live tables under racing requests, each on its own database connection (run them on
PostgreSQL: ``DATABASE_URL=postgres://… pytest tests/trainer/test_live_table_races.py``).

No lost update, no action applied twice, no error but a refusal: the row lock makes the
requests take turns, the version turns a double click away, and a deadline is applied
by exactly one of the requests that find it passed.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from engine.events import ActionTaken
from engine.live_table import LiveTable
from engine.shoe import Shoe
from tests.trainer.conftest import Together
from trainer import live_tables
from trainer.live_tables import LiveMoved, LiveOrder, LiveRefused, LiveSnapshot, live_request
from trainer.models import Bet, SharedTable
from trainer.owners import Owner

STAND_WINS = "10s 9h 8d 7c 10h " + "2c 3d 4h 5s " * 20
TRIES = 4


def unexpected(outcomes: list[Any]) -> list[Any]:
    return [o for o in outcomes if isinstance(o, BaseException) and not isinstance(o, LiveRefused)]


def setting(now: datetime) -> tuple[Owner, Owner, int]:
    """Ann on seat 3 and Bob joined, at a new table (betting open until now + 15 s)."""
    users = get_user_model().objects
    ann, bob = (users.create_user(f"{name}{users.count()}") for name in ("ann", "bob"))
    row = live_tables.open_table(
        user_id=ann.pk, bots=[], seats=[3], buy_in=500, now=now, shoe=Shoe.stacked(STAND_WINS)
    )
    anns, bobs = Owner(ann.pk, ""), Owner(bob.pk, "")
    live_request(owner=bobs, table_id=row.pk, order=LiveOrder("join", 0, amount=500), now=now)
    return anns, bobs, row.pk


def stored(table_id: int) -> tuple[SharedTable, LiveTable]:
    row = SharedTable.objects.get(pk=table_id)
    return row, LiveTable.from_json(row.state)


@pytest.mark.django_db(transaction=True)
def test_a_seat_bet_and_a_bet_behind_it_at_the_same_instant(together: Together) -> None:
    """Ann's bet closes the window (hers is the only seat): Bob's bet behind is in the
    round if it came first, refused if it came second — never lost once accepted."""
    for _ in range(TRIES):
        now = datetime.now(tz=UTC)
        ann, bob, table_id = setting(now)
        outcomes = together(
            [
                partial(
                    live_request,
                    owner=ann,
                    table_id=table_id,
                    now=now,
                    order=LiveOrder("bet", 0, seat=3, amount=20),
                ),
                partial(
                    live_request,
                    owner=bob,
                    table_id=table_id,
                    now=now,
                    order=LiveOrder("behind", 0, seat=3, amount=30),
                ),
            ]  # fmt: skip
        )
        assert unexpected(outcomes) == []
        assert isinstance(outcomes[0], LiveSnapshot)
        row, table = stored(table_id)
        assert table.round is not None
        [seat] = table.round.seats
        behind = [(b.owner, b.amount) for b in seat.behind]
        if isinstance(outcomes[1], LiveSnapshot):
            assert behind == [(f"account {bob.user_id}", 30)]
            assert row.version == 3
        else:
            assert "Bets are closed" in str(outcomes[1])
            assert behind == [] and table.balances[f"account {bob.user_id}"] == 500
            assert row.version == 2


@pytest.mark.django_db(transaction=True)
def test_a_double_click_on_stand_is_applied_once(together: Together) -> None:
    for _ in range(TRIES):
        now = datetime.now(tz=UTC)
        ann, _bob, table_id = setting(now)
        order = LiveOrder("bet", 0, seat=3, amount=20)
        shown = live_request(owner=ann, table_id=table_id, order=order, now=now)
        stand = LiveOrder("act", shown.row.version, action="stand")
        outcomes = together(
            [partial(live_request, owner=ann, table_id=table_id, order=stand, now=now)] * 2
        )
        assert unexpected(outcomes) == []
        assert sorted(type(o).__name__ for o in outcomes) == ["LiveMoved", "LiveSnapshot"]
        row, table = stored(table_id)
        assert row.version == shown.row.version + 1
        assert table.round is not None
        stands = [e for e in table.round.history() if isinstance(e, ActionTaken)]
        assert len(stands) == 1
        assert Bet.objects.filter(live_table_id=table_id).count() == 1
        assert any(isinstance(o, LiveMoved) for o in outcomes)


@pytest.mark.django_db(transaction=True)
def test_a_deadline_found_passed_by_many_requests_is_applied_once(together: Together) -> None:
    """Ann's decision times out; five polls and Ann's own late stand arrive at once:
    auto-play stands once, the round is recorded once, Ann's stand is refused."""
    for _ in range(TRIES):
        now = datetime.now(tz=UTC)
        ann, _bob, table_id = setting(now)
        order = LiveOrder("bet", 0, seat=3, amount=20)
        shown = live_request(owner=ann, table_id=table_id, order=order, now=now)
        late = now + timedelta(seconds=11)
        stand = LiveOrder("act", shown.row.version, action="stand")
        polls = [partial(live_tables.apply_deadlines, table_id, late)] * 5
        outcomes = together(
            [*polls, partial(live_request, owner=ann, table_id=table_id, order=stand, now=late)]
        )
        assert unexpected(outcomes) == []
        assert isinstance(outcomes[-1], LiveRefused)
        row, table = stored(table_id)
        assert row.version == shown.row.version + 1
        assert table.balances[f"account {ann.user_id}"] == 520
        assert outcomes[:5].count(True) <= 1
        assert Bet.objects.filter(live_table_id=table_id).count() == 1
