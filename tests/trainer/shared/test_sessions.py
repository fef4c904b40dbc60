from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from trainer.shared.sessions import SessionStore

pytestmark = pytest.mark.database


@pytest.mark.django_db
def test_sessions_are_stored_in_the_database(client: Client) -> None:
    # Game state will hang off the session, so it must live server-side, not in a cookie.
    session = client.session
    session["seen_home"] = True
    session.save()

    stored = Session.objects.get(session_key=session.session_key)
    assert stored.get_decoded() == {"seen_home": True}


@pytest.mark.django_db
class TestTheSessionRead:
    """trainer.shared.sessions reads with its own statement; it must agree with Django's rules."""

    def store(self, **data: object) -> str:
        session = SessionStore()
        session.update(data)
        session.save()
        assert session.session_key is not None
        return session.session_key

    def test_a_stored_session_loads_its_data(self) -> None:
        key = self.store(guest_owner="token-1", n=3)
        assert SessionStore(key).load() == {"guest_owner": "token-1", "n": 3}

    def test_an_expired_session_loads_empty_with_no_key(self) -> None:
        key = self.store(guest_owner="token-1")
        Session.objects.filter(session_key=key).update(
            expire_date=timezone.now() - timedelta(seconds=1)
        )
        session = SessionStore(key)
        assert session.load() == {} and session.session_key is None

    def test_an_unknown_key_loads_empty(self) -> None:
        session = SessionStore("x" * 32)
        assert session.load() == {} and session.session_key is None

    def test_tampered_data_loads_empty(self) -> None:
        key = self.store(guest_owner="token-1")
        data = Session.objects.get(session_key=key).session_data
        forged = data[:-1] + ("A" if data[-1] != "A" else "B")  # the signature no longer fits
        Session.objects.filter(session_key=key).update(session_data=forged)
        assert SessionStore(key).load() == {}

    def test_a_key_with_quotes_is_only_a_value(self) -> None:
        self.store(guest_owner="token-1")
        assert SessionStore("' OR '1'='1' -- ").load() == {}
