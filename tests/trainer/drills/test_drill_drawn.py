"""A visitor who does nothing writes nothing: the drill page shows a visitor without a
session a hand drawn without saving, carried signed in its form, and stores it once, when
it is answered."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from functools import partial

import pytest
from django.contrib.sessions.models import Session
from django.core import signing
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st
from pytest_django.asserts import assertContains

from engine.drills import Situation
from engine.rules import EUROPEAN, Rules
from tests.trainer.conftest import Together
from trainer.drills import services
from trainer.models import DayTally, Drill
from trainer.shared.owners import GUEST_KEY

pytestmark = [pytest.mark.django_db, pytest.mark.database]
URL = "/drill/"


def drawn_page(client: Client) -> tuple[str, str]:
    """The drill page's HTML for this client, and the ticket its answer form carries."""
    page = client.get(URL).content.decode()
    ticket = re.search(r'name="ticket" value="([^"]+)"', page)
    assert ticket is not None, "no drawn hand on the page"
    return page, ticket.group(1)


def test_a_cookieless_visit_to_the_drill_stores_nothing() -> None:
    client = Client()
    response = client.get(URL)
    assert response.status_code == 200
    assert Drill.objects.count() == 0 and Session.objects.count() == 0
    assert "sessionid" not in response.cookies
    assert 'name="drill"' not in response.content.decode()


def test_the_drawn_hand_is_the_one_shown_with_its_legal_plays() -> None:
    page, ticket = drawn_page(Client())
    drawn = services.drill_drawn(ticket)
    situation = Situation.parse(Rules.from_json(drawn.rules), drawn.cards, drawn.up)
    assert situation.rules == EUROPEAN
    buttons = re.findall(r'name="action" value="(\w+)"', page)
    assert buttons == [action.value for action in situation.legal_actions()]
    for card in (*situation.cards, situation.up):
        assert f'aria-label="{card.name}"' in page


def test_answering_the_drawn_hand_stores_it_graded_and_starts_the_guest() -> None:
    client = Client()
    _, ticket = drawn_page(client)
    drawn = services.drill_drawn(ticket)
    situation = Situation.parse(EUROPEAN, drawn.cards, drawn.up)
    right = situation.correct_action().value
    response = client.post(URL, {"ticket": ticket, "action": right}, headers={"HX-Request": "true"})
    assertContains(response, "Right:")
    drill = Drill.objects.get()
    assert (drill.cards, drill.up, drill.action, drill.is_correct) == (
        drawn.cards, drawn.up, right, True
    )  # fmt: skip
    assert drill.guest_token == drawn.guest_token and drill.user_id is None
    assert drill.issued_at == drawn.issued_at and drill.session_hands == 1
    assert client.session[GUEST_KEY] == drawn.guest_token
    assert DayTally.objects.get(guest_token=drawn.guest_token).answered == 1
    # The next visit finds the answered hand: the visitor is that guest now.
    assertContains(client.get(URL), "Right:")


def test_a_replayed_ticket_is_refused_and_records_nothing() -> None:
    client = Client()
    _, ticket = drawn_page(client)
    client.post(URL, {"ticket": ticket, "action": "stand"})
    again = client.post(URL, {"ticket": ticket, "action": "hit"})
    assertContains(again, "You have already answered that hand.", status_code=400)
    stranger = Client()  # the same ticket from a browser without the guest's cookie
    replayed = stranger.post(URL, {"ticket": ticket, "action": "hit"})
    assertContains(replayed, "You have already answered that hand.", status_code=400)
    assert GUEST_KEY not in stranger.session  # not made that guest
    assert list(Drill.objects.values_list("action", flat=True)) == ["stand"]


def test_a_ticket_is_answered_only_by_its_own_visitor() -> None:
    _, ticket = drawn_page(Client())
    other = Client()
    other.post(URL, {"deal": "1"})  # a guest with a session of their own
    response = other.post(URL, {"ticket": ticket, "action": "hit"})
    assertContains(response, "That hand was not dealt to you.", status_code=400)
    assert Drill.objects.filter(answered_at__isnull=False).count() == 0


def forged(ticket: str) -> str:
    """The ticket with other cards in it, the signature kept."""
    payload = signing.loads(ticket, salt=services.TICKET_SALT)
    payload["c"] = "As Kd" if payload["c"] != "As Kd" else "10s 6h"
    other = signing.dumps(payload, salt=services.TICKET_SALT, compress=True)
    return other.split(":")[0] + ticket[ticket.index(":") :]


@pytest.mark.parametrize(
    "make",
    [
        forged,
        lambda ticket: signing.dumps(signing.loads(ticket, salt=services.TICKET_SALT)),
        lambda ticket: ticket[:-2],
        lambda ticket: "x" * 40,
    ],
    ids=["other-cards", "other-salt", "cut-short", "garbage"],
)
def test_a_forged_ticket_is_refused_and_changes_nothing(make: Callable[[str], str]) -> None:
    client = Client()
    _, ticket = drawn_page(client)
    response = client.post(URL, {"ticket": make(ticket), "action": "hit"})
    assertContains(response, "That hand was not dealt to you.", status_code=400)
    assert Drill.objects.count() == 0 and Session.objects.count() == 0


def test_an_old_ticket_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client()
    _, ticket = drawn_page(client)
    monkeypatch.setattr(services, "TICKET_AGE", timedelta(seconds=-1))
    response = client.post(URL, {"ticket": ticket, "action": "hit"})
    assertContains(response, "That hand was dealt too long ago", status_code=400)
    assert Drill.objects.count() == 0 and Session.objects.count() == 0


def test_an_illegal_play_on_a_drawn_hand_is_refused_and_changes_nothing() -> None:
    client = Client()
    _, ticket = drawn_page(client)
    drawn = services.drill_drawn(ticket)
    legal = Situation.parse(EUROPEAN, drawn.cards, drawn.up).legal_actions()
    illegal = next(a for a in ("split", "surrender", "double") if a not in legal)
    response = client.post(URL, {"ticket": ticket, "action": illegal})
    assertContains(response, "That play is not allowed with this hand.", status_code=400)
    assert Drill.objects.count() == 0 and Session.objects.count() == 0


@pytest.mark.parametrize(
    "data", [{"action": "hit"}, {"drill": "1", "ticket": "x", "action": "hit"}]
)
def test_an_answer_needs_one_hand_either_stored_or_drawn(data: dict[str, str]) -> None:
    response = Client().post(URL, data)
    assert response.status_code == 400
    assert Drill.objects.count() == 0 and Session.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_eight_racing_answers_to_one_ticket_record_one(together: Together) -> None:
    _, ticket = drawn_page(Client())
    clients = [Client() for _ in range(8)]
    responses = together(
        [partial(c.post, URL, {"ticket": ticket, "action": "hit"}) for c in clients]
    )
    assert sorted(r.status_code for r in responses) == [302] + [400] * 7
    assert Drill.objects.count() == 1


# No deadline: run alone, the first example reads the rules' analysis from the store.
@settings(deadline=None)
@given(position=st.integers(min_value=0), char=st.sampled_from("AZaz09-_:"))
def test_any_change_to_a_ticket_is_refused(position: int, char: str) -> None:
    _, ticket = services.drill_draw(rules=EUROPEAN)
    at = position % len(ticket)
    changed = ticket[:at] + char + ticket[at + 1 :]
    if changed == ticket:
        return
    with pytest.raises(services.DrillRefused):
        services.drill_drawn(changed)
