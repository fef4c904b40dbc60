"""A busy table's watchers are drawn once (issue 25, point 21): the part a poll answers is
the same for every onlooker of a version (`LivePublic.onlooker`: no chips, seat, bet or
line of their own at the table), so it is drawn once per version, language and second,
and each onlooker gets it with their own CSRF token and ETag. A player at the table is
drawn for themselves."""

from __future__ import annotations

import contextlib
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escapejs
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalActionError
from tests.engine.test_live_table_properties import PEOPLE, PROPERTY, move, random_table
from tests.trainer.live.test_live_view import page
from trainer.live.services import open_table

HX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _no_drawings_kept() -> None:
    caches["live_parts"].clear()


def token(html: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


@pytest.mark.django_db
def test_watchers_share_one_drawing_each_with_their_own_token_and_etag() -> None:
    ann = get_user_model().objects.create_user("ann")
    row = open_table(user_id=ann.pk, bots=[], seats=[3], buy_in=500, now=timezone.now())
    url = reverse("trainer:live-table-state", args=[row.pk])
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    drawn = first.get(url, headers=HX)
    shared = second.get(url, headers=HX)
    assert drawn.templates and not shared.templates  # the second is not drawn again
    assert drawn["ETag"] != shared["ETag"]  # each names its own viewer
    for answer in (drawn, shared):
        html = answer.content.decode()
        assert "onlookers" not in html  # no slot left unfilled
        assert escapejs(answer["ETag"]) in html  # the poll's If-None-Match
    # Each one's token is good for their own session: the second joins with theirs.
    html = shared.content.decode()
    joined = second.post(
        reverse("trainer:live-table", args=[row.pk]),
        {"op": "join", "version": row.version, "amount": 500, "csrfmiddlewaretoken": token(html)},
        headers=HX,
    )
    assert joined.status_code == 200
    assert "Your chips at this table: 500" in joined.content.decode()


@pytest.mark.django_db
def test_a_player_at_the_table_is_drawn_for_themselves(client: Client) -> None:
    ann = get_user_model().objects.create_user("ann")
    row = open_table(user_id=ann.pk, bots=[], seats=[3], buy_in=500, now=timezone.now())
    client.force_login(ann)
    url = reverse("trainer:live-table-state", args=[row.pk])
    for _poll in range(2):
        answer = client.get(url, headers=HX)
        assert answer.templates
        assert "Seat 3 · You" in answer.content.decode()


@settings(PROPERTY, max_examples=15, database=None)
@given(st.data())
def test_every_onlooker_sees_the_same_page_and_no_player_is_one(data: st.DataObject) -> None:
    """At every point of random play, two people with no part at the table get the same
    page (view model and HTML), and anyone with chips at it is no onlooker."""
    table = random_table(data)
    now = 0.0
    for _ in range(data.draw(st.integers(5, 20), label="moves")):
        now += data.draw(st.sampled_from([0.0, 0.5, 2.0, 9.0]), label="time passes")
        with contextlib.suppress(IllegalActionError):
            move(data, table, now)
        assert table.public("guest x").onlooker and table.public("guest y").onlooker
        assert page(table, "guest x") == page(table, "guest y")
        for person in PEOPLE:
            if person in table.balances:
                assert not table.public(person).onlooker
