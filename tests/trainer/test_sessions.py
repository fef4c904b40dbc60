from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session
from django.test import Client


@pytest.mark.django_db
def test_sessions_are_stored_in_the_database(client: Client) -> None:
    # Game state will hang off the session, so it must live server-side, not in a cookie.
    session = client.session
    session["seen_home"] = True
    session.save()

    stored = Session.objects.get(session_key=session.session_key)
    assert stored.get_decoded() == {"seen_home": True}
