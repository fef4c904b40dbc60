from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from trainer.answer_queries import answered_drill, record_answer
from trainer.models import Drill
from trainer.owners import Owner
from trainer.sessions import SessionStore

pytestmark = pytest.mark.django_db
GUEST = Owner(user_id=None, guest_token="guest-a")


def drill_for(owner: Owner, **fields: object) -> Drill:
    return Drill.objects.create(
        user_id=owner.user_id,
        guest_token=owner.guest_token,
        rules_name="european",
        rules_version="1",
        rules={"decks": 6},
        cards="10s 6h",
        up="10d",
        **fields,
    )


def saved_session(**data: object) -> str:
    """The key of a stored session holding this data."""
    store = SessionStore()
    store.update(data)
    store.create()
    assert store.session_key is not None
    return store.session_key


def test_a_drill_reads_back_as_its_model_would_with_the_session_in_one_query(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    drill = drill_for(GUEST)
    session = SessionStore(saved_session(guest_owner="guest-a"))
    with django_assert_num_queries(1):
        found = answered_drill(session=session, drill_id=drill.pk)
        assert session["guest_owner"] == "guest-a"
    assert found is not None
    assert (found.pk, found.cards, found.up, found.rules, found.rules_name) == (
        drill.pk, "10s 6h", "10d", {"decks": 6}, "european"
    )  # fmt: skip
    assert found.issued_at == drill.issued_at and found.answered_at is None
    assert (found.user_id, found.guest_token) == (None, "guest-a")
    assert not hasattr(found, "session_data")


def test_without_such_a_drill_the_session_is_still_read() -> None:
    decision = drill_for(GUEST, source=Drill.Source.PLAY)
    for drill_id in (decision.pk, decision.pk + 1):  # a practice decision, and nothing
        session = SessionStore(saved_session(guest_owner="guest-a"))
        assert answered_drill(session=session, drill_id=drill_id) is None
        assert session["guest_owner"] == "guest-a"


def test_without_an_unexpired_session_there_is_no_drill_and_a_fresh_session() -> None:
    drill = drill_for(GUEST)
    key = saved_session(guest_owner="guest-a")
    Session.objects.filter(session_key=key).update(expire_date=timezone.now())
    for session in (SessionStore(key), SessionStore("no-such-session-key")):
        assert answered_drill(session=session, drill_id=drill.pk) is None
        assert session.session_key is None and dict(session.items()) == {}


def test_a_session_read_already_is_not_read_again(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    drill = drill_for(GUEST)
    session = SessionStore(saved_session(guest_owner="guest-a"))
    session["changed"] = True  # read, and changed since
    with django_assert_num_queries(1):
        found = answered_drill(session=session, drill_id=drill.pk)
    assert found is not None and found.pk == drill.pk
    assert session["changed"] is True and session["guest_owner"] == "guest-a"


def test_a_drill_is_only_its_owners() -> None:
    user = get_user_model().objects.create_user("ann", password="pw-123456!")
    account = Owner(user_id=user.pk, guest_token="")
    guests = drill_for(GUEST)
    accounts = drill_for(account)
    assert not Owner(None, "guest-b").owns(guests)
    assert not account.owns(guests)
    assert not GUEST.owns(accounts)
    assert account.owns(accounts) and GUEST.owns(guests)
    # A guest token that happens to match an account's empty one owns nothing either.
    assert not Owner(None, "").owns(accounts)


def test_an_answer_is_stored_once_with_its_values_as_the_orm_would_store_them() -> None:
    drill = drill_for(GUEST)
    answered_at = drill.issued_at + timedelta(seconds=2)
    first = {"answered_at": answered_at, "action": "stand", "ev_lost": Decimal("0.012345")}
    assert record_answer(owner=GUEST, drill_id=drill.pk, recorded=first)
    second = {"answered_at": timezone.now(), "action": "hit", "ev_lost": Decimal("0")}
    assert not record_answer(owner=GUEST, drill_id=drill.pk, recorded=second)
    drill.refresh_from_db()
    assert (drill.answered_at, drill.action, drill.ev_lost) == (
        answered_at, "stand", Decimal("0.012345")
    )  # fmt: skip


def test_an_answer_is_not_stored_for_another_owner() -> None:
    user = get_user_model().objects.create_user("ann", password="pw-123456!")
    answer = {"answered_at": timezone.now(), "action": "stand"}
    guests = drill_for(GUEST)
    assert not record_answer(owner=Owner(None, "guest-b"), drill_id=guests.pk, recorded=answer)
    assert not record_answer(owner=Owner(user.pk, ""), drill_id=guests.pk, recorded=answer)
    guests.refresh_from_db()
    assert guests.answered_at is None
