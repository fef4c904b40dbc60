"""`manage.py expire_guests`: guests who have not been back for a while are forgotten;
accounts are never touched."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from importlib import import_module
from io import StringIO

import pytest
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from tests.trainer.live import test_live_tables as live
from trainer.models import Bet, Drill, PracticeRound, PracticeSession, SharedTable
from trainer.shared.owners import GUEST_KEY

pytestmark = pytest.mark.database
NOW = timezone.now()
OLD = NOW - timedelta(days=40)
RECENT = NOW - timedelta(days=5)


def _drill(*, when: datetime, answered: bool = False, **owner: object) -> Drill:
    # Created answered when it is to be (a player has one unanswered drill at most).
    drill = Drill.objects.create(
        **owner, rules_name="european", rules_version="1.0.0", cards="10s 6h", up="10d",
        answered_at=when if answered else None,
    )  # fmt: skip
    Drill.objects.filter(pk=drill.pk).update(
        issued_at=when - timedelta(minutes=1) if answered else when,
        answered_at=when if answered else None,
    )
    return drill


def _table(*, when: datetime, **owner: object) -> PracticeSession:
    table = PracticeSession.objects.create(
        **owner, rules_name="european", rules_version="1.0.0", bankroll=1000, balance=1000,
        state={},
    )  # fmt: skip
    played = PracticeRound.objects.create(session=table, number=1, bet=10)
    # A decision taken at the table is a drill of the round's.
    Drill.objects.create(
        **owner, rules_name="european", rules_version="1.0.0", cards="9s 7h", up="6c",
        source=Drill.Source.PLAY, practice_round=played,
    )  # fmt: skip
    Drill.objects.filter(practice_round=played).update(issued_at=when)
    PracticeSession.objects.filter(pk=table.pk).update(started_at=when, changed_at=when)
    return table


def _session(*, saved: datetime, user: User | None = None) -> str:
    """A session last saved at ``saved`` (its expiry date is the cookie's age after)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    if user is None:
        store[GUEST_KEY] = "some-guest"
    else:  # what django.contrib.auth.login() keeps
        store[auth.SESSION_KEY] = str(user.pk)
        store[auth.BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[auth.HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    expires = saved + timedelta(seconds=settings.SESSION_COOKIE_AGE)
    Session.objects.filter(pk=store.session_key).update(expire_date=expires)
    return str(store.session_key)


def _expire(*args: str) -> str:
    out = StringIO()
    call_command("expire_guests", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_a_guest_idle_for_longer_than_the_retention_loses_drills_tables_and_session() -> None:
    _drill(when=OLD, guest_token="gone")
    _drill(when=OLD - timedelta(days=3), answered=True, guest_token="gone")
    _table(when=OLD, guest_token="gone")
    old_session = _session(saved=OLD)

    kept_drill = _drill(when=RECENT, guest_token="back")
    kept_table = _table(when=RECENT, guest_token="back")
    recent_session = _session(saved=RECENT)

    out = _expire()

    assert not Drill.objects.filter(guest_token="gone").exists()
    assert not PracticeSession.objects.filter(guest_token="gone").exists()
    assert not Session.objects.filter(pk=old_session).exists()
    assert Drill.objects.filter(pk=kept_drill.pk).exists()
    assert PracticeSession.objects.filter(pk=kept_table.pk).exists()
    assert PracticeRound.objects.filter(session=kept_table).count() == 1
    assert Drill.objects.filter(guest_token="back").count() == 2  # a drill, a decision
    assert Session.objects.filter(pk=recent_session).exists()
    assert "sessions 1, drills 3, practice tables 1, live-table bets 0;" in out


@pytest.mark.django_db
def test_a_guest_still_playing_keeps_even_their_oldest_drills() -> None:
    # Activity anywhere keeps all of a guest's data: no history cut in half.
    old = _drill(when=OLD, guest_token="playing")
    _table(when=RECENT, guest_token="playing")
    answered_lately = _drill(when=RECENT, answered=True, guest_token="answering")
    Drill.objects.filter(pk=answered_lately.pk).update(issued_at=OLD)

    _expire()

    assert Drill.objects.filter(pk=old.pk).exists()
    assert Drill.objects.filter(pk=answered_lately.pk).exists()


@pytest.mark.django_db
def test_accounts_are_never_touched() -> None:
    user = User.objects.create_user("sam")
    drill = _drill(when=OLD, user=user)
    table = _table(when=OLD, user=user)
    # Idle for 5 days but logged in for 9 more: a short retention must not log them out.
    account_session = _session(saved=RECENT, user=user)
    guest_session = _session(saved=RECENT)

    _expire("--days", "3")

    assert Drill.objects.filter(pk=drill.pk).exists()
    assert PracticeSession.objects.filter(pk=table.pk).exists()
    assert Drill.objects.filter(user=user).count() == 2
    assert Session.objects.filter(pk=account_session).exists()
    assert not Session.objects.filter(pk=guest_session).exists()


@pytest.mark.django_db
def test_the_retention_comes_from_the_settings_and_days_override_it() -> None:
    _drill(when=NOW - timedelta(days=10), guest_token="ten-days")

    with override_settings(GUEST_RETENTION_DAYS=30):
        _expire()
    assert Drill.objects.filter(guest_token="ten-days").exists()
    with override_settings(GUEST_RETENTION_DAYS=7):
        _expire()
    assert not Drill.objects.filter(guest_token="ten-days").exists()

    _drill(when=NOW - timedelta(days=10), guest_token="ten-days")
    _expire("--days", "11")
    assert Drill.objects.filter(guest_token="ten-days").exists()
    _expire("--days", "9")
    assert not Drill.objects.filter(guest_token="ten-days").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("days", ["0", "-5"])
def test_a_retention_below_one_day_is_refused_and_nothing_is_removed(days: str) -> None:
    drill = _drill(when=OLD, guest_token="gone")

    with pytest.raises(CommandError, match="at least 1"):
        _expire("--days", days)

    assert Drill.objects.filter(pk=drill.pk).exists()


# Live tables ------------------------------------------------------------------------------


@pytest.fixture
def live_clock(monkeypatch: pytest.MonkeyPatch) -> live.Clock:
    moving = live.Clock()
    monkeypatch.setattr(timezone, "now", moving)
    return moving


def _betting_behind(row: SharedTable) -> str:
    """A guest who joins the table and bets behind seat 3; their token."""
    guest = Client()
    assert live.post(guest, row, op="join", amount=500).status_code == 302
    assert live.post(guest, row, op="behind", seat=3, amount=50).status_code == 302
    return str(guest.session[GUEST_KEY])


@pytest.mark.django_db
def test_a_guest_gone_from_a_live_table_leaves_no_bets_and_no_token_there(
    live_clock: live.Clock,
) -> None:
    ann, anns = live.account("ann")
    row = live.open_table(ann, live_clock, seats=[3])
    gone, back = _betting_behind(row), _betting_behind(row)
    assert live.post(anns, row, op="bet", seat=3, amount=20).status_code == 302
    assert live.post(anns, row, op="act", action="stand").status_code == 302
    assert Bet.objects.filter(guest_token=gone).count() == 1
    Bet.objects.update(settled_at=NOW - timedelta(days=40))  # all long ago...
    Bet.objects.filter(guest_token=back).update(settled_at=RECENT)  # but one guest's
    chips = sum(live.stored(row).balances.values())

    out = _expire()

    assert not Bet.objects.filter(guest_token=gone).exists()
    assert Bet.objects.filter(guest_token=back).count() == 1
    assert Bet.objects.filter(user_id=ann.pk).count() == 1  # accounts are never touched
    row.refresh_from_db()
    text = json.dumps(row.state)
    assert gone not in text and back in text
    table = live.stored(row)  # still a table the engine reads, every chip still there
    assert sum(table.balances.values()) == chips
    assert table.balances["guest ~1"] == table.balances[f"guest {back}"]
    assert anns.get(reverse("trainer:live-table", args=[row.pk])).status_code == 200
    assert "live-table bets 1; their tokens taken out of 1 live tables." in out
    _expire()  # again: nothing more to do
    row.refresh_from_db()
    assert json.dumps(row.state) == text
