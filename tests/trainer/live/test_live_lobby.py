"""The live lobby and what keeps it honest: at most two open tables an account opened and
is still at, tables empty of players closing after `IDLE`, the tables worth joining first,
50 a page, and counts current without anyone opening a table (a frozen clock moved by
hand, `timezone.now`)."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.live_public import Stage
from engine.table import BotSeat
from tests.trainer.conftest import Together
from tests.trainer.live.test_live_tables import Clock, account, open_table, post, stored
from trainer.live import services
from trainer.live.services import IDLE
from trainer.models import SharedTable
from trainer.shared.unit_of_work import Refused

pytestmark = [pytest.mark.django_db, pytest.mark.database]
LOBBY = reverse("trainer:live-lobby")
TRIES = 4


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The live views' clock (`timezone.now`), standing still unless moved."""
    moving = Clock()
    monkeypatch.setattr(timezone, "now", moving)
    return moving


def listed(page: str) -> list[int]:
    """The tables a lobby page lists, in order."""
    return [int(n) for n in re.findall(r'data-testid="lobby-table" data-table="(\d+)"', page)]


def row_of(page: str, table: SharedTable) -> str:
    return page.split(f'data-table="{table.pk}"')[1].split("</tr>")[0]


def lobby(client: Client | None = None, **query: str) -> str:
    return (client or Client()).get(LOBBY, query).content.decode()


# At most two tables an account opened and is still at -----------------------------------


def test_an_account_opens_two_tables_and_a_third_is_refused_with_nothing_made(
    clock: Clock,
) -> None:
    ann, client = account("ann")
    for _ in range(2):
        assert client.post(LOBBY, {"buy_in": 500, "seat_3": "you"}).status_code == 302
    response = client.post(LOBBY, {"buy_in": 500, "seat_3": "you"})
    assert response.status_code == 400
    assert "You have 2 tables open already" in response.content.decode()
    assert SharedTable.objects.filter(opened_by_id=ann.pk).count() == 2


def test_leaving_a_table_one_opened_frees_its_place_even_while_others_play_on(
    clock: Clock,
) -> None:
    ann, anns = account("ann")
    _bob, bobs = account("bob")
    first = open_table(ann, clock, seats=[3])
    second = open_table(ann, clock, seats=[3])
    with pytest.raises(Refused):
        open_table(ann, clock, seats=[3])
    post(bobs, first, op="join", amount=500)
    post(anns, first, op="cash_out")  # bob stays: the table stays open, but not hers
    post(anns, second, op="cash_out")  # nobody left: it closes
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.closed_at is None and second.closed_at is not None
    open_table(ann, clock, seats=[3])
    open_table(ann, clock, seats=[3])
    with pytest.raises(Refused):
        open_table(ann, clock, seats=[3])


@pytest.mark.django_db(transaction=True)
def test_parallel_openings_by_one_account_make_two_tables_at_most(
    together: Together, clock: Clock
) -> None:
    """Twelve openings at once (the incident was sixty in twenty seconds): the account's
    row lock makes them take turns, each counting what the ones before made. Each thread
    is connected before they are released together, so that they meet in the database."""
    for attempt in range(TRIES):
        ann, _client = account(f"ann{attempt}")
        connected = threading.Barrier(12)

        def opening(user_id: int = ann.pk, connected: threading.Barrier = connected) -> SharedTable:
            connection.ensure_connection()
            connected.wait()
            return services.open_table(user_id=user_id, bots=[], seats=[3], buy_in=500, now=clock())

        outcomes = together([opening] * 12)
        made = [o for o in outcomes if isinstance(o, SharedTable)]
        refused = [o for o in outcomes if isinstance(o, Refused)]
        assert len(made) == 2 and len(refused) == 10, outcomes
        assert SharedTable.objects.filter(opened_by_id=ann.pk, closed_at__isnull=True).count() == 2


# Tables empty of players close --------------------------------------------------------------


def test_a_table_nobody_sits_at_closes_after_the_idle_time_read_by_the_lobby(
    clock: Clock,
) -> None:
    ann, anns = account("ann")
    row = open_table(ann, clock, seats=[3], bots=[BotSeat(1, "easy")])
    post(anns, row, op="leave_seat", seat=3)  # she stays with her chips, seated nowhere
    clock.advance(IDLE.total_seconds() - 1)
    assert row.pk in listed(lobby())
    row.refresh_from_db()
    assert row.closed_at is None
    clock.advance(1)
    page = lobby()  # nobody opens the table: the lobby's read closes it
    row.refresh_from_db()
    assert row.pk not in listed(page) and row.closed_at == clock()
    assert stored(row).balances == {"bot 1": 1000}  # her 500 cashed out, as she would
    assert "nobody has sat for 10 minutes closes by itself" in page


def test_the_idle_time_counts_from_when_the_clock_unseated_the_last_player(
    clock: Clock,
) -> None:
    ann, anns = account("ann")
    row = open_table(ann, clock, seats=[3])
    post(anns, row, op="pair", seat=3, amount=20)  # betting closes 15 s from now
    clock.advance(15 + IDLE.total_seconds())  # nobody looked since: she was unseated at 15
    assert row.pk not in listed(lobby())
    row.refresh_from_db()
    assert row.closed_at == clock()
    assert stored(row).balances == {}


def test_a_table_with_a_player_seated_stays_open_however_long(clock: Clock) -> None:
    ann, _anns = account("ann")
    row = open_table(ann, clock, seats=[3])  # waiting for her first bet
    clock.advance(24 * 3600)
    assert row.pk in listed(lobby())


def test_a_round_in_play_with_nobody_seated_ends_before_the_table_closes(clock: Clock) -> None:
    # The normal bot (seat 1) doubles its 5 6 against the 9: bob, behind it, is asked
    # whether to follow, and the table waits for him with the idle time passed.
    ann, _anns = account("ann")
    _bob, bobs = account("bob")
    bots = [BotSeat(1, "normal")]
    row = open_table(ann, clock, seats=[], bots=bots, cards="5s 9h 6d 7c 10h 9d")
    post(bobs, row, op="join", amount=500)
    clock.advance(IDLE.total_seconds() - 20)
    post(bobs, row, op="behind", seat=1, amount=20)  # dealt 15 s later; 10 s to decide
    clock.advance(21)  # idle for the whole time now, his decision still awaited
    lobby()
    row.refresh_from_db()
    assert row.closed_at is None and stored(row).stage is Stage.PLAYING
    clock.advance(5)  # his time runs out: auto-play, the round ends, the table closes
    lobby()
    row.refresh_from_db()
    assert row.closed_at is not None
    assert stored(row).balances.keys() == {"bot 1"}
    assert row.rounds_recorded == 1  # his bet behind went into his history first


# Ordering and pages ---------------------------------------------------------------------


def test_tables_with_a_seat_free_and_people_at_them_come_first(clock: Clock) -> None:
    users = [account(name)[0] for name in ("ann", "bob", "cy")]
    every_seat = [BotSeat(n, "easy") for n in (1, 2, 4, 5, 6, 7)]
    full = open_table(users[0], clock, seats=[3], bots=every_seat)
    clock.advance(1)
    two = open_table(users[1], clock, seats=[3])
    _c, cys = account("dee")
    post(cys, two, op="join", amount=500)  # two people at it
    clock.advance(1)
    one = open_table(users[2], clock, seats=[3])
    clock.advance(1)
    nobody = open_table(users[2], clock, seats=[3])
    post(account("eve")[1], nobody, op="join", amount=500)
    order = listed(lobby())
    assert order.index(two.pk) < order.index(one.pk)  # more people first
    assert order.index(one.pk) < order.index(full.pk)  # a free seat before none
    assert order.index(nobody.pk) < order.index(full.pk)
    page = lobby()
    assert 'data-testid="people">2<' in row_of(page, two)
    assert "7 of 7" in row_of(page, full)


def test_the_lobby_shows_fifty_tables_a_page_with_links(clock: Clock) -> None:
    people = get_user_model().objects
    for n in range(51):
        user = people.create_user(f"p{n}")
        open_table(user, clock, seats=[3])
        clock.advance(1)
    first = lobby()
    assert len(listed(first)) == 50 and "Page 1 of 2" in first
    assert 'href="?page=2" rel="next"' in first and 'rel="prev"' not in first
    second = lobby(page="2")
    assert len(listed(second)) == 1 and 'href="?page=1" rel="prev"' in second
    assert set(listed(first)).isdisjoint(listed(second))
    assert listed(lobby(page="abc")) == listed(first)  # not a number: the first page
    assert listed(lobby(page="99")) == listed(second)  # past the end: the last
    assert listed(first)[0] == SharedTable.objects.latest("opened_at").pk  # newest first


# Counts current without anyone opening a table (point 7) -----------------------------------


def test_the_lobbys_seat_counts_are_current_without_anyone_at_the_table(clock: Clock) -> None:
    ann, anns = account("ann")
    bob, bobs = account("bob")
    row = open_table(ann, clock, seats=[3], bots=[BotSeat(1, "easy")])
    post(bobs, row, op="join", amount=500)
    post(bobs, row, op="sit", seat=5)
    post(anns, row, op="pair", seat=3, amount=20)  # the countdown: 15 s; neither bets
    assert "3 of 7" in row_of(lobby(), row)
    clock.advance(timedelta(seconds=16).total_seconds())
    page = lobby()  # nobody polls the table: the lobby applies its deadline
    assert "1 of 7" in row_of(page, row)  # the bot alone: both were unseated
    row.refresh_from_db()
    assert row.seats_taken == 1 and row.people == 2


def test_the_lobby_leaves_a_quiet_tables_empty_windows_to_the_next_request_at_it(
    clock: Clock,
) -> None:
    # Nobody sits at it: its empty windows change no figure the lobby shows, so the lobby
    # does not write it every 15 s (the next request at the table applies them).
    ann, anns = account("ann")
    row = open_table(ann, clock, seats=[3], bots=[BotSeat(1, "easy")])
    post(anns, row, op="pair", seat=3, amount=20)
    clock.advance(16)
    lobby()  # she is unseated: a count moved, applied
    row.refresh_from_db()
    version = row.version
    assert row.seats_taken == 1 and row.empty_since is not None
    clock.advance(60)  # four empty windows passed
    assert "1 of 7" in row_of(lobby(), row)
    row.refresh_from_db()
    assert row.version == version
