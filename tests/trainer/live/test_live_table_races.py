"""Live tables under racing requests, each on its own database connection (run them on
PostgreSQL: ``DATABASE_URL=postgres://… pytest tests/trainer/live/test_live_table_races.py``).

No lost update, no action applied twice, no error but a refusal: the row lock makes the
requests take turns, the version turns a double click away, and a deadline is applied
by exactly one of the requests that find it passed. The lock and the save's conditional
``UPDATE … WHERE version = v`` each stand in for the other: without both, these tests
see a double click applied twice and a deadline applied beside a stand.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.events import ActionTaken
from engine.live_public import NoticeKind
from engine.live_table import LiveTable
from engine.shoe import Shoe
from tests.trainer.conftest import Together
from trainer.live.services import LiveOp, LiveOrder, apply_deadlines, live_request, open_table
from trainer.live.table import LiveSnapshot
from trainer.models import Bet, SharedTable
from trainer.shared.owners import Owner
from trainer.shared.unit_of_work import Moved, Refused

pytestmark = pytest.mark.database
STAND_WINS = "10s 9h 8d 7c 10h " + "2c 3d 4h 5s " * 20
TRIES = 4


def unexpected(outcomes: list[Any]) -> list[Any]:
    return [o for o in outcomes if isinstance(o, BaseException) and not isinstance(o, Refused)]


def setting(now: datetime) -> tuple[Owner, Owner, int]:
    """Ann on seat 3 and Bob joined, at a new table (betting open, waiting for a first bet)."""
    users = get_user_model().objects
    ann, bob = (users.create_user(f"{name}{users.count()}") for name in ("ann", "bob"))
    row = open_table(
        user_id=ann.pk, bots=[], seats=[3], buy_in=500, now=now, shoe=Shoe.stacked(STAND_WINS)
    )
    anns, bobs = Owner(ann.pk, ""), Owner(bob.pk, "")
    live_request(owner=bobs, table_id=row.pk, order=LiveOrder(LiveOp.JOIN, 0, amount=500), now=now)
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
                    order=LiveOrder(LiveOp.BET, 0, seat=3, amount=20),
                ),
                partial(
                    live_request,
                    owner=bob,
                    table_id=table_id,
                    now=now,
                    order=LiveOrder(LiveOp.BEHIND, 0, seat=3, amount=30),
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
        order = LiveOrder(LiveOp.BET, 0, seat=3, amount=20)
        shown = live_request(owner=ann, table_id=table_id, order=order, now=now)
        stand = LiveOrder(LiveOp.ACT, shown.row.version, action="stand")
        outcomes = together(
            [partial(live_request, owner=ann, table_id=table_id, order=stand, now=now)] * 2
        )
        assert unexpected(outcomes) == []
        assert sorted(type(o).__name__ for o in outcomes) == ["LiveSnapshot", "Moved"]
        row, table = stored(table_id)
        assert row.version == shown.row.version + 1
        assert table.round is not None
        stands = [e for e in table.round.history() if isinstance(e, ActionTaken)]
        assert len(stands) == 1
        assert Bet.objects.filter(live_table_id=table_id).count() == 1
        assert any(isinstance(o, Moved) for o in outcomes)


@pytest.mark.django_db(transaction=True)
def test_a_deadline_found_passed_by_many_requests_is_applied_once(together: Together) -> None:
    """Ann's decision times out; five polls and Ann's own late stand arrive at once:
    auto-play stands once, the round is recorded once, Ann's stand is refused."""
    for _ in range(TRIES):
        now = datetime.now(tz=UTC)
        ann, _bob, table_id = setting(now)
        order = LiveOrder(LiveOp.BET, 0, seat=3, amount=20)
        shown = live_request(owner=ann, table_id=table_id, order=order, now=now)
        late = now + timedelta(seconds=11)
        stand = LiveOrder(LiveOp.ACT, shown.row.version, action="stand")
        polls = [partial(apply_deadlines, table_id, late)] * 5
        outcomes = together(
            [*polls, partial(live_request, owner=ann, table_id=table_id, order=stand, now=late)]
        )
        assert unexpected(outcomes) == []
        assert isinstance(outcomes[-1], Refused)
        row, table = stored(table_id)
        assert row.version == shown.row.version + 1
        assert table.balances[f"account {ann.user_id}"] == 520
        assert outcomes[:5].count(True) <= 1
        assert Bet.objects.filter(live_table_id=table_id).count() == 1


#: Ann's 6♠ 4♦ (10) against the 9♥: a stand keeps 10, auto-play hits it (the 10♠: 20).
#: Either way the dealer's 16 (7♣ in the hole) draws a ten and busts.
TEN_AGAINST_NINE = "6s 9h 4d 7c 10s 10h " + "2c 3d 4h 5s " * 20


@pytest.mark.django_db(transaction=True)
def test_a_deadline_passing_while_a_stand_is_in_flight(together: Together) -> None:
    """Ann presses Stand a moment before her decision's deadline; before her request
    takes the table, polls made a moment after the deadline arrive. Whichever takes the
    lock first decides, as of the deadline: her stand (in time) and no auto-play, or
    auto-play (her time ran out) and her stand refused as made on a table that moved on.
    Never both, never twice."""
    for _ in range(TRIES):
        now = datetime.now(tz=UTC)
        users = get_user_model().objects
        ann = users.create_user(f"ann{users.count()}")
        row = open_table(
            user_id=ann.pk, bots=[], seats=[3], buy_in=500, now=now,
            shoe=Shoe.stacked(TEN_AGAINST_NINE),
        )  # fmt: skip
        anns = Owner(ann.pk, "")
        order = LiveOrder(LiveOp.BET, 0, seat=3, amount=20)
        shown = live_request(owner=anns, table_id=row.pk, order=order, now=now)
        deadline = datetime.fromtimestamp(shown.table.deadline, tz=UTC)
        in_time = deadline - timedelta(milliseconds=50)
        late = deadline + timedelta(milliseconds=50)
        stand = LiveOrder(LiveOp.ACT, shown.row.version, action="stand")
        polls = [partial(apply_deadlines, row.pk, late)] * 5
        outcomes = together(
            [partial(live_request, owner=anns, table_id=row.pk, order=stand, now=in_time),
             *polls]
        )  # fmt: skip
        assert unexpected(outcomes) == []
        stored_row, table = stored(row.pk)
        assert stored_row.version == shown.row.version + 1
        assert table.round is not None
        [hand] = table.round.seats[0].hands
        timed_out = [n for n in table.notices if n.kind is NoticeKind.TIMED_OUT]
        if isinstance(outcomes[0], LiveSnapshot):  # the stand came first, in time
            assert outcomes[1:].count(True) == 0
            assert (len(hand.cards), hand.total, timed_out) == (2, 10, [])
        else:  # a poll applied the deadline first: auto-play hit 10, then stood on 20
            assert isinstance(outcomes[0], Moved)
            assert outcomes[1:].count(True) == 1
            assert (len(hand.cards), hand.total, len(timed_out)) == (3, 20, 1)
        assert table.balances[f"account {ann.pk}"] == 520
        assert Bet.objects.filter(live_table_id=row.pk).count() == 1


# Through the pages, with watchers --------------------------------------------------------

WATCHERS = 30


def account(owner: Owner) -> Any:
    assert owner.user_id is not None
    return get_user_model().objects.get(pk=owner.user_id)


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client: Client, table_id: int, **fields: Any) -> Any:
    return client.post(reverse("trainer:live-table", args=[table_id]), fields)


def poll(client: Client, table_id: int, etag: str | None = None) -> Any:
    headers = {"If-None-Match": etag} if etag else {}
    return client.get(reverse("trainer:live-table-state", args=[table_id]), headers=headers)


def etag_version(response: HttpResponse) -> int:
    return int(re.fullmatch(r'"(\d+)-\w+-\w+"', response["ETag"])[1])  # type: ignore[index]


def watched(table_id: int, watchers: list[Client], etags: list[str]) -> list[Any]:
    """Every watcher's poll, half of them conditional on the tag they last saw."""
    return [
        partial(poll, client, table_id, etag if index % 2 else None)
        for index, (client, etag) in enumerate(zip(watchers, etags, strict=True))
    ]


def consistent_polls(outcomes: list[Any], etags: list[str], low: int, high: int) -> None:
    """Each poll answered 200 with the table of the version its ETag names, or 304 for
    the tag it sent; every version seen is one the table passed through."""
    for index, response in enumerate(outcomes):
        assert isinstance(response, HttpResponse), response
        assert response.status_code in (200, 304), response.status_code
        version = etag_version(response)
        assert low <= version <= high
        if response.status_code == 304:
            assert index % 2 and response["ETag"] == etags[index]
        else:
            shown = re.search(r'data-version="(\d+)"', response.content.decode())
            assert shown is not None and int(shown[1]) == version


def reconciled(user: Any, row: SharedTable, bought: int) -> int:
    """The account's chips at the table, checked against its bets on record: every
    stake taken and returned once."""
    table = LiveTable.from_json(row.state)
    balance = table.balances[f"account {user.pk}"]
    bets = Bet.objects.filter(user_id=user.pk, live_table=row)
    assert balance == bought + sum(b.returned - b.staked for b in bets)
    return int(balance)


@pytest.mark.django_db(transaction=True)
def test_two_accounts_act_at_once_while_many_watch(
    together: Together, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann bets on her seat as Bob bets behind it, then double-clicks Stand as Bob
    presses a button that is not his, while 30 watchers poll: no error, each poll shows
    the version its ETag names, each accepted request is in the table once, and the
    chips reconcile with the bets on record."""
    now = datetime.now(tz=UTC)
    monkeypatch.setattr(timezone, "now", lambda: now)  # no deadline passes
    for _ in range(TRIES):
        anns, bobs, table_id = setting(now)
        ann, bob = account(anns), account(bobs)
        ann_client, bob_client = logged_in(ann), logged_in(bob)
        watchers = [Client() for _ in range(WATCHERS)]
        etags = [poll(client, table_id)["ETag"] for client in watchers]
        start = SharedTable.objects.get(pk=table_id).version

        betting = together(
            [
                partial(post, ann_client, table_id, op="bet", version=start, seat=3, amount=20),
                partial(post, bob_client, table_id, op="behind", version=start, seat=3, amount=30),
                *watched(table_id, watchers, etags),
            ]  # fmt: skip
        )
        ann_bet, bob_behind, *polls = betting
        row, table = stored(table_id)
        assert ann_bet.status_code == 302
        assert bob_behind.status_code in (302, 400)
        accepted = bob_behind.status_code == 302
        if not accepted:
            assert "Bets are closed" in bob_behind.content.decode()
        assert row.version == start + 1 + accepted
        consistent_polls(polls, etags, start, row.version)
        assert table.round is not None and table.round.turn is not None
        [seat] = table.round.seats
        assert [(b.owner, b.amount) for b in seat.behind] == (
            [(f"account {bob.pk}", 30)] if accepted else []
        )

        dealt = row.version
        etags = [poll(client, table_id)["ETag"] for client in watchers]
        stand = {"op": "act", "version": dealt, "action": "stand"}
        playing = together(
            [
                partial(post, ann_client, table_id, **stand),
                partial(post, ann_client, table_id, **stand),
                partial(post, bob_client, table_id, **stand),
                *watched(table_id, watchers, etags),
            ]
        )
        stands, bobs_stand, polls = playing[:2], playing[2], playing[3:]
        assert sorted(r.status_code for r in stands) == [302, 400]
        assert bobs_stand.status_code == 400
        row, table = stored(table_id)
        assert row.version == dealt + 1
        consistent_polls(polls, etags, dealt, row.version)
        assert table.round is not None
        assert len([e for e in table.round.history() if isinstance(e, ActionTaken)]) == 1
        assert reconciled(ann, row, 500) == 520
        assert reconciled(bob, row, 500) == (530 if accepted else 500)
        assert Bet.objects.filter(live_table_id=table_id).count() == 1 + accepted
