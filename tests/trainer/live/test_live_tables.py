"""Live tables through their pages: a clock moved by hand, stacked shoes, several people.

The shoe "10s 9h 8d 7c 10h …" deals seat 3 a hard 18 (10♠ 8♦) against the dealer's 9♥,
whose hole 7♣ makes 16 and whose next card, 10♥, busts: a stand wins.
"""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.bots import BOTS, Tier
from engine.cards import CARDS
from engine.live_table import FAULT_GRACE_SECONDS, LiveTable
from engine.shoe import Shoe
from engine.table import BotSeat
from trainer.live import services
from trainer.models import Bet, SharedTable
from trainer.shared.unit_of_work import Refused

pytestmark = [pytest.mark.django_db, pytest.mark.database]

STAND_WINS = "10s 9h 8d 7c 10h " + "2c 3d 4h 5s " * 20
PASSWORD = "a long enough password 1"


class Clock:
    """`timezone.now`, moved forward by hand."""

    def __init__(self) -> None:
        self.at = datetime.now(tz=UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    moving = Clock()
    monkeypatch.setattr(timezone, "now", moving)
    return moving


def account(name: str) -> tuple[AbstractBaseUser, Client]:
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    client = Client()
    client.force_login(user)
    return user, client


def open_table(
    user: AbstractBaseUser, clock: Clock, *, seats: list[int], buy_in: int = 500,
    bots: list[BotSeat] | None = None, cards: str = STAND_WINS,
) -> SharedTable:  # fmt: skip
    return services.open_table(
        user_id=user.pk, bots=bots or [], seats=seats, buy_in=buy_in, now=clock(),
        shoe=Shoe.stacked(cards),
    )  # fmt: skip


def post(client: Client, row: SharedTable, *, language: str = "en", **fields: Any) -> Any:
    """A request at the table, made from its stored version (unless given)."""
    row.refresh_from_db()
    data = {"version": row.version, **fields}
    url = reverse("trainer:live-table", args=[row.pk])
    return client.post(url, data, headers={"accept-language": language})


def poll(client: Client, row: SharedTable, etag: str | None = None) -> Any:
    headers = {"If-None-Match": etag} if etag else {}
    return client.get(reverse("trainer:live-table-state", args=[row.pk]), headers=headers)


def stored(row: SharedTable) -> LiveTable:
    row.refresh_from_db()
    return LiveTable.from_json(row.state)


# Opening and the lobby --------------------------------------------------------------------


def test_an_account_opens_a_table_with_bots_and_the_lobby_lists_it(clock: Clock) -> None:
    user, client = account("ann")
    data = {"buy_in": 1000, "seat_1": "easy", "seat_3": "you", "seat_6": "hard"}
    response = client.post(reverse("trainer:live-lobby"), data)
    row = SharedTable.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("trainer:live-table", args=[row.pk])
    table = LiveTable.from_json(row.state)
    assert {n: (h.owner, h.tier) for n, h in table.holders.items()} == {
        1: ("bot 1", "easy"),
        3: (f"account {user.pk}", None),
        6: ("bot 6", "hard"),
    }
    assert table.balances[f"account {user.pk}"] == 1000
    lobby = Client().get(reverse("trainer:live-lobby"))
    assert row.seats_taken == 3
    assert reverse("trainer:live-table", args=[row.pk]) in lobby.content.decode()
    assert "3 of 7" in lobby.content.decode()


def test_a_guest_cannot_open_a_table(clock: Clock) -> None:
    response = Client().post(reverse("trainer:live-lobby"), {"buy_in": 500, "seat_2": "you"})
    assert response.status_code == 400
    assert "Log in to open a table" in response.content.decode()
    assert not SharedTable.objects.exists()


# The clock --------------------------------------------------------------------------------


def test_a_new_table_waits_for_its_first_bet(clock: Clock) -> None:
    ann, client = account("ann")
    row = open_table(ann, clock, seats=[3])
    assert row.deadline is None
    clock.advance(3600)  # the opener reads the page for an hour (no idle close: she sits)
    page = client.get(reverse("trainer:live-table", args=[row.pk])).content.decode()
    assert 3 in stored(row).holders and "The countdown starts at the first bet." in page
    assert "data-seconds-left" not in page
    post(client, row, op="pair", seat=3, amount=20)  # her first bet starts the countdown
    row.refresh_from_db()
    assert row.deadline == clock() + timedelta(seconds=15)
    page = client.get(reverse("trainer:live-table", args=[row.pk])).content.decode()
    assert 'data-seconds-left="15"' in page


def test_betting_closes_at_its_deadline_and_unseats_a_seat_without_a_bet(clock: Clock) -> None:
    ann, client = account("ann")
    row = open_table(ann, clock, seats=[3])
    post(client, row, op="pair", seat=3, amount=20)  # a first bet starts the countdown
    clock.advance(14.9)  # the betting window is 15 s
    assert 3 in stored(row).holders and poll(client, row).status_code == 200
    assert 3 in stored(row).holders
    clock.advance(0.2)
    response = poll(client, row)
    assert response.status_code == 200
    assert stored(row).holders == {}
    assert "had no bet when betting closed" in response.content.decode()


def test_a_seat_that_does_not_act_is_auto_played_on_the_next_poll(clock: Clock) -> None:
    ann, client = account("ann")
    row = open_table(ann, clock, seats=[3])
    post(client, row, op="bet", seat=3, amount=20)  # the only seat has bet: dealt at once
    table = stored(row)
    assert table.round is not None and table.round.turn is not None
    assert table.round.turn.owner == f"account {ann.pk}"
    watcher = Client()
    dealer = poll(watcher, row).content.decode().split('data-testid="dealer"')[1].split("</ol>")[0]
    assert "Nine of hearts" in dealer and "Face-down card" in dealer
    assert "Seven of clubs" not in dealer and 'data-testid="dealer-total">· 9<' in dealer
    clock.advance(10.5)  # past the 10 s decision window: nobody looked
    page = poll(watcher, row)
    assert page.status_code == 200
    assert "Time ran out for ann: played automatically." in page.content.decode()
    table = stored(row)
    assert table.stage.value == "result"
    assert table.balances[f"account {ann.pk}"] == 520  # auto-play stood on 18; 16 + 10 busts
    bets = Bet.objects.filter(user_id=ann.pk)
    assert [(b.kind, b.staked, b.returned, b.live_table_id, b.live_round) for b in bets] == [
        ("hand", 20, 40, row.pk, 1)
    ]


def test_the_poll_answers_304_until_the_table_changes(clock: Clock) -> None:
    ann, client = account("ann")
    row = open_table(ann, clock, seats=[3])
    post(client, row, op="pair", seat=3, amount=20)  # a first bet starts the countdown
    first = poll(client, row)
    assert first.status_code == 200 and first["ETag"]
    again = poll(client, row, first["ETag"])
    assert again.status_code == 304 and again.content == b""
    clock.advance(16)  # betting closed meanwhile: the poll applies it and answers anew
    moved = poll(client, row, first["ETag"])
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"]
    assert stored(row).holders == {}
    # Another viewer's tag is not this one's (each sees the table as they may).
    bob, bobs = account("bob")
    assert poll(bobs, row, moved["ETag"]).status_code == 200


def poll_headers(page: str) -> dict[str, str]:
    """The headers a live table's page (or part) sends with its poll (``hx-headers``)."""
    found = re.search(r"<section id=\"live\"[^>]*hx-headers='([^']*)'", page)
    assert found is not None
    headers: dict[str, str] = json.loads(html.unescape(found[1]))
    return headers


def test_the_page_polls_naming_the_table_it_shows(clock: Clock) -> None:
    ann, client = account("ann")
    row = open_table(ann, clock, seats=[3])
    url = reverse("trainer:live-table", args=[row.pk])
    page = client.get(url).content.decode()
    assert poll(client, row, poll_headers(page)["If-None-Match"]).status_code == 304
    # One's own action answers the table it made, and the next poll names that one.
    data = {"version": row.version, "op": "bet", "seat": 3, "amount": 10}
    answer = client.post(url, data, headers={"HX-Request": "true"})
    shown = poll_headers(answer.content.decode())["If-None-Match"]
    assert shown == answer["ETag"]
    assert poll(client, row, shown).status_code == 304
    # htmx swaps nothing for the 304, and handles every other status as by default.
    meta = page.split('<meta name="htmx-config" content=\'')[1].split("'>")[0]
    assert json.loads(meta)["responseHandling"] == [
        {"code": "204", "swap": False},
        {"code": "304", "swap": False},
        {"code": "[23]..", "swap": True},
        {"code": "[45]..", "swap": False, "error": True},
        {"code": "...", "swap": False},
    ]


def test_a_change_by_someone_else_ends_the_304s(clock: Clock) -> None:
    ann, client = account("ann")
    row = open_table(ann, clock, seats=[3])
    _bob, bobs = account("bob")
    tag = poll(client, row)["ETag"]
    post(bobs, row, op="join", amount=500)
    assert poll(client, row, tag).status_code == 200


# Several people at one table -------------------------------------------------------------


def test_a_round_records_every_persons_bets(clock: Clock) -> None:
    ann, anns = account("ann")
    bob, bobs = account("bob")
    row = open_table(ann, clock, seats=[3])
    assert post(bobs, row, op="join", amount=500).status_code == 302
    assert post(bobs, row, op="behind", seat=3, amount=30).status_code == 302
    assert post(anns, row, op="bet", seat=3, amount=20).status_code == 302
    assert post(anns, row, op="act", action="stand").status_code == 302
    table = stored(row)
    assert table.balances[f"account {ann.pk}"] == 520
    assert table.balances[f"account {bob.pk}"] == 530
    assert [(b.kind, b.staked, b.returned) for b in Bet.objects.filter(user_id=ann.pk)] == [
        ("hand", 20, 40)
    ]
    assert [(b.kind, b.staked, b.returned) for b in Bet.objects.filter(user_id=bob.pk)] == [
        ("behind", 30, 60)
    ]
    history = bobs.get(reverse("trainer:bets")).content.decode()
    assert reverse("trainer:live-table", args=[row.pk]) in history


def test_a_guest_watches_joins_and_bets_behind(clock: Clock) -> None:
    ann, _anns = account("ann")
    row = open_table(ann, clock, seats=[3])
    guest = Client()
    assert "Seat 3" in guest.get(reverse("trainer:live-table", args=[row.pk])).content.decode()
    assert post(guest, row, op="join", amount=500).status_code == 302
    assert post(guest, row, op="behind", seat=3, amount=50).status_code == 302
    [behind] = stored(row).behind
    assert behind.owner.startswith("guest ") and behind.amount == 50


def test_cashing_out_the_last_person_closes_the_table(clock: Clock) -> None:
    ann, client = account("ann")
    row = open_table(ann, clock, seats=[3])
    assert post(client, row, op="cash_out").status_code == 302
    row.refresh_from_db()
    assert row.closed_at is not None
    lobby = Client().get(reverse("trainer:live-lobby")).content.decode()
    assert reverse("trainer:live-table", args=[row.pk]) not in lobby


# Refusals: a clear message, nothing changed ----------------------------------------------


def refused(client: Client, row: SharedTable, message: str, **fields: Any) -> None:
    """The request is refused with ``message``, and in Polish with a message of its own
    (``message`` is English: not in it); each time the stored table is unchanged."""
    row.refresh_from_db()
    before = (row.version, row.state)
    shown = {}
    for language in ("en", "pl"):
        response = post(client, row, language=language, **fields)
        assert response.status_code == 400
        error = re.search(r'data-testid="error">([^<]+)<', response.content.decode())
        assert error is not None
        shown[language] = error[1]
        row.refresh_from_db()
        assert (row.version, row.state) == before
    assert message in shown["en"]
    assert message not in shown["pl"] and "Not allowed" not in shown["pl"]


@pytest.fixture
def two_at_a_table(clock: Clock) -> tuple[SharedTable, Client, Client, Client]:
    """Ann on seats 3 and 4, Bob joined (500 chips), a guest joined too."""
    ann, anns = account("ann")
    _bob, bobs = account("bob")
    row = open_table(ann, clock, seats=[3, 4])
    post(bobs, row, op="join", amount=500)
    guest = Client()
    post(guest, row, op="join", amount=500)
    return row, anns, bobs, guest


def test_refusals_in_the_betting_window(two_at_a_table: Any) -> None:
    row, anns, bobs, guest = two_at_a_table
    refused(bobs, row, "Seat 3 is not yours", op="bet", seat=3, amount=20)
    refused(anns, row, "You cannot bet behind your own seat", op="behind", seat=3, amount=20)
    refused(anns, row, "One player may hold at most 2 seats", op="sit", seat=5)
    refused(guest, row, "Guests may watch and bet behind, but not sit", op="sit", seat=1)
    post(bobs, row, op="behind", seat=3, amount=500)
    refused(bobs, row, "That bet is more than your balance", op="pair", seat=3, amount=10)
    refused(bobs, row, "You are at this table already", op="join", amount=500)
    post(anns, row, op="bet", seat=3, amount=300)  # seat 4 must bet as much: 600 of 500
    refused(anns, row, "That bet is more than your balance", op="bet", seat=4, amount=300)


def test_refusals_in_play(two_at_a_table: Any, clock: Clock) -> None:
    row, anns, bobs, _guest = two_at_a_table
    post(anns, row, op="bet", seat=3, amount=20)
    post(anns, row, op="bet", seat=4, amount=20)  # both seats bet: dealt
    assert stored(row).stage.value == "playing"
    refused(bobs, row, "Bets are closed for this round", op="behind", seat=3, amount=20)
    refused(bobs, row, "It is not your turn", op="act", action="stand")
    refused(anns, row, "Bets are closed for this round", op="bet", seat=3, amount=30)
    playing = stored(row).round
    assert playing is not None and CARDS[playing.dealer.cards[0]].rank == "8"  # no insurance
    refused(anns, row, "Insurance is not on offer now", op="act", action="insure")
    row.refresh_from_db()
    refused(anns, row, "moved on", op="act", action="stand", version=row.version - 1)


def test_the_page_and_its_part_link_to_the_table_the_poll_and_the_lobby(
    two_at_a_table: Any,
) -> None:
    row, anns, _bobs, _guest = two_at_a_table
    table_url = reverse("trainer:live-table", args=[row.pk])
    for shown in (anns.get(table_url).content.decode(), poll(anns, row).content.decode()):
        assert f'hx-get="{reverse("trainer:live-table-state", args=[row.pk])}"' in shown
        assert f'action="{table_url}"' in shown
        assert f'href="{reverse("trainer:live-lobby")}"' in shown


def test_only_an_action_names_the_version_it_was_made_from(two_at_a_table: Any) -> None:
    """A bet sets an absolute amount, so a bet button needs no version (and a seat's
    buttons stay the same HTML while the seat does); an action on a hand without one is
    refused and changes nothing."""
    row, anns, _bobs, _guest = two_at_a_table
    url = reverse("trainer:live-table", args=[row.pk])
    for seat in (3, 4):
        assert anns.post(url, {"op": "bet", "seat": seat, "amount": 20}).status_code == 302
    assert stored(row).stage.value == "playing"  # both seats bet: dealt
    row.refresh_from_db()
    before = (row.version, row.state)
    response = anns.post(url, {"op": "act", "action": "stand"}, headers={"HX-Request": "true"})
    assert "That request is missing something." in response.content.decode()
    row.refresh_from_db()
    assert (row.version, row.state) == before


def test_a_bet_behind_a_seat_freed_when_the_window_closed_is_refused(clock: Clock) -> None:
    ann, anns = account("ann")
    _bob, bobs = account("bob")
    row = open_table(ann, clock, seats=[3], bots=[BotSeat(1, "hard")])
    post(bobs, row, op="join", amount=500)
    post(anns, row, op="pair", seat=3, amount=20)  # a first bet starts the countdown
    clock.advance(16)  # the window closed (Ann without a bet: unseated, no round)
    poll(bobs, row)
    refused(bobs, row, "Seat 3 has no player", op="behind", seat=3, amount=20)


def test_a_missing_or_forged_table_is_a_404(clock: Clock) -> None:
    ann, client = account("ann")
    row = open_table(ann, clock, seats=[3])
    for missing in (row.pk + 1, 999_999):
        assert client.get(reverse("trainer:live-table", args=[missing])).status_code == 404
        assert poll(client, SharedTable(pk=missing)).status_code == 404
        url = reverse("trainer:live-table", args=[missing])
        assert client.post(url, {"op": "clear", "version": 0}).status_code == 404
    assert client.get(f"/tables/{row.pk}x/").status_code == 404


def test_htmx_requests_answer_the_table_part_with_the_refusal(two_at_a_table: Any) -> None:
    row, _anns, bobs, _guest = two_at_a_table
    url = reverse("trainer:live-table", args=[row.pk])
    response = bobs.post(
        url,
        {"op": "bet", "seat": 3, "amount": 20, "version": row.version},
        headers={"HX-Request": "true"},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert 'id="live"' in page and "<html" not in page and "Seat 3 is not yours" in page


def test_a_bettor_behind_answers_follow_split_on_the_page(clock: Clock) -> None:
    """Ann splits 8s against a 6: Bob, behind her, is asked whether to follow; he does, and
    both of Ann's hands (10s, 10h: 18 each) beat the dealer's 16 + 9."""
    ann, anns = account("ann")
    bob, bobs = account("bob")
    cards = "8s 6d 8h 10c 10s 10h 9s " + "2c 3d 4h 5s " * 20
    row = open_table(ann, clock, seats=[3], cards=cards)
    post(bobs, row, op="join", amount=500)
    post(bobs, row, op="behind", seat=3, amount=20)
    post(anns, row, op="bet", seat=3, amount=20)
    post(anns, row, op="act", action="split")
    page = bobs.get(reverse("trainer:live-table", args=[row.pk])).content.decode()
    assert "Seat 3 splits: follow with your bet behind?" in page
    refused(anns, row, "It is not your turn", op="act", action="stand")  # Bob's decision
    assert post(bobs, row, op="act", action="follow").status_code == 302
    post(anns, row, op="act", action="stand")
    post(anns, row, op="act", action="stand")
    table = stored(row)
    assert table.stage.value == "result"
    assert table.balances[f"account {ann.pk}"] == 540
    assert table.balances[f"account {bob.pk}"] == 540
    assert sorted(
        (b.kind, b.hand, b.staked, b.returned) for b in Bet.objects.filter(user_id=bob.pk)
    ) == [
        ("behind", 0, 20, 40),
        ("behind", 1, 20, 40),
    ]


def test_a_round_that_fails_is_voided_and_every_bet_refunded(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fault inside the round (here the bot in seat 1 breaks): the round pauses, and
    when it is still there after the grace period the round is void, each person's stake
    comes back, and the history says so."""

    def broken(view: object) -> str:
        raise RuntimeError("the bot's strategy failed")

    monkeypatch.setitem(BOTS, Tier.HARD, broken)
    ann, anns = account("ann")
    bob, bobs = account("bob")
    row = open_table(ann, clock, seats=[3], bots=[BotSeat(1, "hard")])
    post(bobs, row, op="join", amount=500)
    post(bobs, row, op="pair", seat=3, amount=10)
    response = post(anns, row, op="bet", seat=3, amount=20)
    assert response.status_code == 302
    assert stored(row).fault is not None  # paused, the stakes riding
    assert "Round paused" in anns.get(reverse("trainer:live-table", args=[row.pk])).content.decode()
    clock.advance(FAULT_GRACE_SECONDS)
    poll(bobs, row)  # anyone's look at the table applies the deadline: the last retry
    table = stored(row)
    assert table.balances[f"account {ann.pk}"] == 500
    assert table.balances[f"account {bob.pk}"] == 500
    page = anns.get(reverse("trainer:live-table", args=[row.pk])).content.decode()
    assert "it is void and every bet in it refunded" in page
    recorded = Bet.objects.filter(live_table=row).order_by("kind")
    assert [(b.kind, b.result, b.staked, b.returned) for b in recorded] == [
        ("hand", "void", 20, 20),
        ("pair", "void", 10, 10),
    ]


def test_a_poll_of_an_unchanged_table_parses_nothing(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many watchers poll every second: an unchanged table costs them no parsing."""
    ann, client = account("ann")
    row = open_table(ann, clock, seats=[3])
    tag = poll(client, row)["ETag"]

    def unread(*args: object, **kwargs: object) -> LiveTable:
        raise AssertionError("the table's state was parsed")

    monkeypatch.setattr(LiveTable, "from_json", unread)
    assert poll(client, row, tag).status_code == 304


def test_the_opening_form_says_two_seats_carry_the_same_bet(clock: Clock) -> None:
    _ann, client = account("ann")
    page = client.get(reverse("trainer:live-lobby")).content.decode()
    seats = page.split("<fieldset>")[1].split("</fieldset>")[0]
    assert "up to two seats" in seats
    assert "Your two seats always carry the same bet" in seats


# The pace (WCAG 2.2.1: timing adjustable) ---------------------------------------------------


def test_the_opener_chooses_the_pace_and_the_lobby_and_the_table_show_it(clock: Clock) -> None:
    ann, client = account("ann")
    data = {"buy_in": 500, "pace": 30, "seat_3": "you"}
    response = client.post(reverse("trainer:live-lobby"), data)
    row = SharedTable.objects.get()
    assert response.status_code == 302 and row.decision_seconds == 30
    assert stored(row).decision_seconds == 30
    lobby = Client().get(reverse("trainer:live-lobby")).content.decode()
    assert 'data-testid="pace">30<' in lobby
    page = client.get(reverse("trainer:live-table", args=[row.pk])).content.decode()
    assert "Each decision: 30 seconds" in page


def test_the_opening_form_offers_the_middle_pace_first(clock: Clock) -> None:
    _ann, client = account("ann")
    page = client.get(reverse("trainer:live-lobby")).content.decode()
    assert '<option value="20" selected>' in page
    assert 'aria-describedby="pace-hint"' in page


@pytest.mark.parametrize("pace", ["15", "0", "-10", "ten", "3600"])
def test_a_pace_not_offered_is_refused_and_opens_nothing(clock: Clock, pace: str) -> None:
    _ann, client = account("ann")
    response = client.post(reverse("trainer:live-lobby"), {"buy_in": 500, "pace": pace})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not SharedTable.objects.exists()


def test_the_service_refuses_a_pace_not_offered(clock: Clock) -> None:
    ann, _client = account("ann")
    with pytest.raises(Refused, match="Choose one of the paces offered"):
        services.open_table(user_id=ann.pk, bots=[], seats=[3], buy_in=500, pace=15, now=clock())
    assert not SharedTable.objects.exists()


def test_a_slow_tables_decision_waits_its_whole_pace(clock: Clock) -> None:
    ann, client = account("ann")
    row = services.open_table(
        user_id=ann.pk, bots=[], seats=[3], buy_in=500, pace=30, now=clock(),
        shoe=Shoe.stacked(STAND_WINS),
    )  # fmt: skip
    post(client, row, op="bet", seat=3, amount=20)  # dealt at once: her 10 8 to play
    clock.advance(29.9)
    poll(client, row)
    assert stored(row).stage.value == "playing"
    clock.advance(0.2)
    poll(client, row)
    assert stored(row).stage.value == "result"  # auto-play stood for her at 30 s
