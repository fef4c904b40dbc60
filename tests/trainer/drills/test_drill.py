from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries
from pytest_django.asserts import assertContains, assertTemplateUsed

from engine.drills import Situation
from engine.rules import EUROPEAN
from engine.strategy import strategy_for
from tests.trainer.conftest import as_returning_guest
from trainer.drills import selectors
from trainer.drills.pages import DrillView
from trainer.models import Drill
from trainer.shared.owners import GUEST_KEY

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.database,
    pytest.mark.usefixtures("returning_guest"),
]
URL = "/drill/"


def issued(client: Client) -> Drill:
    """Open the drill page as a guest who has been here before and return the drill it
    dealt (the test client is one, `returning_guest`; another client is made one)."""
    if GUEST_KEY not in client.session:
        as_returning_guest(client)
    client.get(URL)
    drill = Drill.objects.order_by("-pk").first()
    assert drill is not None
    return drill


def rig(drill: Drill, cards: str, up: str) -> Drill:
    """Give an issued drill known cards (the server deals at random)."""
    Drill.objects.filter(pk=drill.pk).update(cards=cards, up=up)
    drill.refresh_from_db()
    return drill


def test_the_drill_page_deals_a_decision_with_its_legal_actions(client: Client) -> None:
    response = client.get(reverse("trainer:drill"))
    assert response.status_code == 200
    assertTemplateUsed(response, "trainer/drills/drill.html")
    drill = Drill.objects.get()
    situation = Situation.parse(EUROPEAN, drill.cards, drill.up)
    buttons = re.findall(r'name="action" value="(\w+)"', response.content.decode())
    assert buttons == [action.value for action in situation.legal_actions()]
    for card in (*situation.cards, situation.up):
        assertContains(response, f'aria-label="{card.name}"')
    assert response["Vary"] == "HX-Request, Cookie" or "HX-Request" in response["Vary"]


def test_a_reload_shows_the_same_pending_drill(client: Client) -> None:
    first = issued(client)
    client.get(URL)
    assert Drill.objects.count() == 1 and Drill.objects.get().pk == first.pk


def test_an_htmx_answer_returns_the_graded_fragment(client: Client) -> None:
    drill = rig(issued(client), "10s 6h", "10d")
    response = client.post(
        URL, {"drill": drill.pk, "action": "stand"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="answer"')  # only the answer's region
    assert "<html" not in html and 'aria-label="Ten of diamonds"' not in html  # cards stay
    assert "Not quite: the play is Hit." in html
    assert "HX-Request" in response["Vary"]
    drill.refresh_from_db()
    assert (drill.action, drill.correct_action, drill.correct_code) == ("stand", "hit", "H")
    assert drill.ev_lost is not None and 0 < drill.ev_lost < 0.02
    assert drill.response_ms is not None


def test_an_htmx_deal_returns_the_whole_drill(client: Client) -> None:
    answered = rig(issued(client), "10s 6h", "10d")
    client.post(URL, {"drill": answered.pk, "action": "hit"})
    response = client.post(URL, {"deal": "1"}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="drill"')
    dealt = Drill.objects.order_by("-pk")[0]
    assert dealt.pk != answered.pk and f'name="drill" value="{dealt.pk}"' in html


def buttons(html: str, marked: str) -> list[str]:
    """The buttons whose tag carries ``marked`` (an attribute), as ``name=value``."""
    tags = re.findall(r"<button[^>]*>", html)
    found = [tag for tag in tags if re.search(rf"\s{marked}[\s>]", tag)]
    return ["=".join(re.findall(r'(?:name|value)="(\w+)"', tag)) for tag in found]


def autofocused(html: str) -> list[str]:
    """The buttons an htmx answer gives the focus (htmx focuses the first)."""
    return buttons(html, "autofocus")


def test_the_players_own_deal_puts_the_keyboard_on_the_first_play_a_timed_one_does_not(
    client: Client,
) -> None:
    htmx = {"HX-Request": "true"}
    drill = rig(issued(client), "10s 6h", "10d")
    assert autofocused(client.get(URL).content.decode()) == []  # a page loaded: nowhere
    answer = client.post(URL, {"drill": drill.pk, "action": "hit"}, headers=htmx)
    assert autofocused(answer.content.decode()) == ["next_hand=1"]
    # "Next hand" pressed comes with the request; the timed deal comes without it.
    asked = client.post(URL, {"deal": "1", "next_hand": "1"}, headers=htmx).content.decode()
    assert autofocused(asked) == buttons(asked, 'name="action"')[:1]  # the first play
    timed = client.post(URL, {"deal": "1"}, headers=htmx).content.decode()
    assert autofocused(timed) == []
    # But its first play has the id "Next hand" had, and htmx keeps a focus by the id.
    assert buttons(timed, 'id="next-move"') == buttons(timed, 'name="action"')[:1]
    assert buttons(answer.content.decode(), 'id="next-move"') == ["next_hand=1"]


def test_a_right_answer_says_so(client: Client) -> None:
    drill = rig(issued(client), "10s 6h", "10d")
    response = client.post(
        URL, {"drill": drill.pk, "action": "hit"}, headers={"HX-Request": "true"}
    )
    assertContains(response, "Right: Hit.")
    drill.refresh_from_db()
    assert drill.is_correct and drill.ev_lost == 0


def test_without_javascript_an_answer_posts_and_redirects(client: Client) -> None:
    drill = rig(issued(client), "5s 6h", "6d")
    response = client.post(URL, {"drill": drill.pk, "action": "double"})
    assert response.status_code == 302 and response["Location"] == reverse("trainer:drill")
    page = client.get(response["Location"])
    assertContains(page, "Right: Double")
    next_hand = client.post(URL, {"deal": "1"})
    assert next_hand.status_code == 302
    assert Drill.objects.count() == 2


def test_a_second_answer_to_the_same_drill_is_refused_and_records_nothing(client: Client) -> None:
    drill = rig(issued(client), "10s 6h", "10d")
    client.post(URL, {"drill": drill.pk, "action": "hit"})
    replay = client.post(
        URL, {"drill": drill.pk, "action": "stand"}, headers={"HX-Request": "true"}
    )
    assertContains(replay, "You have already answered that hand.")
    drill.refresh_from_db()
    assert drill.action == "hit"


def test_an_answer_for_a_drill_not_dealt_to_this_player_is_refused(client: Client) -> None:
    other = Client()
    theirs = issued(other)
    mine = issued(client)
    response = client.post(URL, {"drill": theirs.pk, "action": "hit"})
    assert response.status_code == 400
    assertContains(response, "That hand was not dealt to you.", status_code=400)
    theirs.refresh_from_db()
    mine.refresh_from_db()
    assert theirs.answered_at is None and mine.answered_at is None


def test_another_accounts_drill_is_refused_too(client: Client) -> None:
    owner = get_user_model().objects.create_user("ann", password="pw-123456!")
    theirs = Drill.objects.create(
        user=owner, rules_name="european", rules_version="1.0.0", cards="10s 6h", up="10d"
    )
    response = client.post(URL, {"drill": theirs.pk, "action": "hit"})
    assert response.status_code == 400
    theirs.refresh_from_db()
    assert theirs.answered_at is None


@pytest.mark.parametrize(
    "data",
    [
        {"drill": "1"},
        {"action": "hit"},
        {"drill": "x", "action": "hit"},
        {"drill": "1", "action": "fold"},
    ],
)
def test_malformed_answers_are_refused(client: Client, data: dict[str, str]) -> None:
    drill = issued(client)
    response = client.post(URL, data)
    assert response.status_code == 400
    drill.refresh_from_db()
    assert drill.answered_at is None


def test_an_action_that_is_not_legal_here_is_refused(client: Client) -> None:
    drill = rig(issued(client), "10s 6h", "10d")
    response = client.post(URL, {"drill": drill.pk, "action": "split"})
    assertContains(response, "That play is not allowed with this hand.", status_code=400)


@pytest.mark.usefixtures("presets_analysed")
def test_a_guests_htmx_answer_takes_three_queries(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    # Each is a round trip on PostgreSQL: the session, the drill, and the answer.
    drill = rig(issued(client), "10s 6h", "10d")
    with django_assert_num_queries(3):
        response = client.post(
            URL, {"drill": drill.pk, "action": "hit"}, headers={"HX-Request": "true"}
        )
    assertContains(response, "Right: Hit.")


@pytest.mark.usefixtures("presets_analysed")
def test_an_accounts_htmx_answer_takes_five_queries(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    # An account adds its user and its settings to the guest's three.
    user = get_user_model().objects.create_user("ann", password="pw-123456!")
    client.force_login(user)
    drill = rig(issued(client), "10s 6h", "10d")
    with django_assert_num_queries(5):
        response = client.post(
            URL, {"drill": drill.pk, "action": "hit"}, headers={"HX-Request": "true"}
        )
    assertContains(response, "Right: Hit.")


def test_forms_swapped_in_by_htmx_keep_their_token_field() -> None:
    # A key pressed before htmx has taken over a swapped-in form submits it natively: it
    # must still carry the token, and then it works as it would without JavaScript.
    client = Client(enforce_csrf_checks=True)
    page = client.get(URL).content.decode()  # a first visit: the hand comes signed
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    ticket = re.search(r'name="ticket" value="([^"]+)"', page)
    assert token is not None and ticket is not None
    fragment = client.post(
        URL,
        {"ticket": ticket.group(1), "action": "hit"},
        headers={"HX-Request": "true", "X-CSRFToken": token.group(1)},
    ).content.decode()
    field = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', fragment)
    assert field is not None
    natively = client.post(URL, {"deal": "1", "csrfmiddlewaretoken": field.group(1)})
    assert natively.status_code == 302 and Drill.objects.count() == 2


def test_a_post_needs_the_csrf_token() -> None:
    client = Client(enforce_csrf_checks=True)
    drill = issued(client)
    response = client.post(
        URL, {"drill": drill.pk, "action": "hit"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 403
    drill.refresh_from_db()
    assert drill.answered_at is None


def test_the_kept_feedback_follows_everything_it_shows(client: Client) -> None:
    # The feedback's HTML is kept per process under DrillView.feedback_key: the same hand
    # answered differently must not get the other answer's feedback, whatever the suits.
    first = rig(issued(client), "10s 6h", "10d")
    wrong = client.post(URL, {"drill": first.pk, "action": "stand"}, headers={"HX-Request": "true"})
    client.post(URL, {"deal": "1"})
    second = rig(Drill.objects.order_by("-pk")[0], "10c 6d", "10h")
    right = client.post(URL, {"drill": second.pk, "action": "hit"}, headers={"HX-Request": "true"})
    assertContains(wrong, "Not quite: the play is Hit.")
    assertContains(right, "Right: Hit.")
    assert "your play" in right.content.decode().split("ev-table__best")[1].split("</tr>")[0]


def test_logging_in_with_a_hand_pending_on_both_sides_keeps_the_one_on_screen(
    client: Client,
) -> None:
    """One hand waits at a time: the visitor's hand comes along to the account, whose own
    unanswered hand (answered nowhere, so nothing is lost) gives way to it."""
    user = get_user_model().objects.create_user("bob", password="pw-123456!")
    elsewhere = Client()
    elsewhere.force_login(user)
    accounts = issued(elsewhere)
    guests = issued(client)
    response = client.post(reverse("login"), {"username": "bob", "password": "pw-123456!"})
    assert response.status_code == 302
    (pending,) = Drill.objects.filter(user=user, answered_at__isnull=True)
    assert pending.pk == guests.pk != accounts.pk


@pytest.mark.django_db(transaction=True)
def test_fifty_next_hands_at_once_leave_exactly_one_hand_to_answer(
    together: Callable[[Sequence[Callable[[], Any]]], list[Any]],
) -> None:
    """A held-down key or a flood of "next hand" requests: every one is shown the same
    hand, and one hand waits to be answered."""
    user = get_user_model().objects.create_user("ann", password="pw-123456!")
    clients = []
    for _ in range(50):
        client = Client()
        client.force_login(user)
        clients.append(client)

    def next_hand(client: Client) -> Callable[[], Any]:
        return lambda: client.post(URL, {"deal": "1"}, headers={"HX-Request": "true"})

    responses = together([next_hand(client) for client in clients])
    assert [getattr(response, "status_code", response) for response in responses] == [200] * 50
    (pending,) = Drill.objects.filter(user=user, answered_at__isnull=True)
    for response in responses:
        assert f'name="drill" value="{pending.pk}"' in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_twenty_answers_to_one_hand_at_once_record_one(
    client: Client, together: Callable[[Sequence[Callable[[], Any]]], list[Any]]
) -> None:
    """A double click, a replay, a flood: however they interleave, one answer is recorded,
    and only the request that recorded it is told how it went."""
    drill = rig(issued(client), "10s 6h", "10d")
    actions = ["hit", "stand"] * 10

    def answer(action: str) -> Callable[[], Any]:
        twin = Client()
        twin.cookies = client.cookies  # the same player, on a connection of its own
        data = {"drill": drill.pk, "action": action}
        return lambda: twin.post(URL, data, headers={"HX-Request": "true"})

    responses = together([answer(action) for action in actions])
    pages = [response.content.decode() for response in responses]
    recorded = [
        action
        for action, page in zip(actions, pages, strict=True)
        if "You have already answered that hand." not in page
    ]
    assert len(recorded) == 1  # and 19 were refused
    drill.refresh_from_db()
    assert drill.action == recorded[0] and drill.answered_at is not None
    (page,) = (page for page in pages if "already answered" not in page)
    assert ("Right: Hit." if drill.action == "hit" else "Not quite") in page


def test_the_drill_view_is_built_without_a_query(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    drill = rig(issued(client), "10s 6h", "10d")
    client.post(URL, {"drill": drill.pk, "action": "stand"})
    drill.refresh_from_db()
    dealt = selectors.dealt_drill(drill)
    # Forgotten by the process, so that reading the analysis again would be a query: the
    # view-model is given what it shows, and reads nothing itself.
    strategy_for.cache_clear()
    with django_assert_num_queries(0):
        shown = DrillView.of(dealt)
    assert shown.answered and shown.correct == "hit" and shown.row == "Hard 16"
    assert {choice.value: choice.ev is not None for choice in shown.choices} == {
        "hit": True, "stand": True, "double": True,
    }  # fmt: skip
    assert [cell.code for cell in shown.chart_row if cell.here] == ["H"]


def test_the_drill_inherits_its_target_and_an_answer_names_its_own(client: Client) -> None:
    """A new hand, whether asked for or timed, swaps the drill region it inherits from; an
    answer swaps only its own region."""
    drill = issued(client)
    dealt = client.get(URL).content.decode()
    assert re.findall(r'hx-(?:target|swap)="[^"]*"', dealt) == [
        'hx-target="#drill"', 'hx-swap="outerHTML"', 'hx-target="#answer"',
    ]  # fmt: skip
    answered = client.post(
        URL, {"drill": drill.pk, "action": "hit"}, headers={"HX-Request": "true"}
    ).content.decode()
    # (Its one hx-swap-oob fills the page's live region, outside the swapped region.)
    assert "hx-post=" in answered and "hx-target" not in answered and "hx-swap=" not in answered


def test_the_feedback_names_the_play_not_the_chart_code(client: Client) -> None:
    # Soft 18 against a 4: the chart's code is Ds (double, or else stand), the play Double.
    assert strategy_for(EUROPEAN).chart["soft 18"]["4"] == "Ds"
    drill = rig(issued(client), "As 7h", "4d")
    wrong = client.post(URL, {"drill": drill.pk, "action": "stand"}, headers={"HX-Request": "true"})
    assertContains(wrong, "Not quite: the play is Double.")
    client.post(URL, {"deal": "1"})
    drill = rig(issued(client), "As 7h", "4d")
    right = client.post(
        URL, {"drill": drill.pk, "action": "double"}, headers={"HX-Request": "true"}
    )
    assertContains(right, "Right: Double.")
    for response in (wrong, right):
        assert "(Ds)" not in response.content.decode()
