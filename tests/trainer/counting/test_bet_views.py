"""The betting drill through its pages (issue 27): a true count, and the bet the player's
own ramp makes there, graded once; each question its owner's alone."""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from trainer.models import BetQuestion

pytestmark = [pytest.mark.django_db, pytest.mark.database]  # answered once: a row lock

START = "/counting/betting/"
#: Below +1: 1 unit; +1: 2; +2 (a gap: the lower count's bet): 2; +3 and above: 8.
RAMP = {"ramp": "1:2, 3:8", "below": "1"}


def start(client: Client, **fields: str) -> BetQuestion:
    answer = client.post(START, RAMP | fields)
    assert answer.status_code == 302, answer.content.decode()[:400]
    return BetQuestion.objects.get(pk=int(answer["Location"].rstrip("/").split("/")[-1]))


def url(question: BetQuestion) -> str:
    return f"/counting/betting/{question.pk}/"


@pytest.mark.parametrize(("count", "right"), [(-1, 1), (0, 1), (1, 2), (2, 2), (3, 8), (5, 8)])
def test_the_bet_is_graded_against_the_players_ramp(client: Client, count: int, right: int) -> None:
    question = start(client)
    BetQuestion.objects.filter(pk=question.pk).update(true_count=count)
    client.post(url(question), {"answer": str(right + 1)})
    question.refresh_from_db()
    assert question.right is False
    page = client.get(url(question)).content.decode()
    assert f"Your ramp bets {right} unit" in page and f"you bet {right + 1}." in page
    again = start(client)
    BetQuestion.objects.filter(pk=again.pk).update(true_count=count)
    client.post(url(again), {"answer": str(right)})
    again.refresh_from_db()
    assert again.right is True


def test_a_question_falls_around_the_ramps_counts(client: Client) -> None:
    question = start(client)
    for _ in range(30):
        assert -1 <= question.true_count <= 5
        client.post(url(question), {"answer": "1"})
        question = BetQuestion.objects.get(
            pk=int(client.post(f"{url(question)}next/")["Location"].rstrip("/").split("/")[-1])
        )
    assert question.ramp == "1:2,3:8" and question.below == 1


@pytest.mark.parametrize("ramp", ["1-2", "1:4, 2:2", "1:0", "", "one:two"])
def test_a_ramp_that_is_not_one_is_refused(client: Client, ramp: str) -> None:
    answer = client.post(START, {"ramp": ramp, "below": "1"})
    assert answer.status_code == 400 and not BetQuestion.objects.exists()


def test_a_bet_that_is_not_a_number_or_a_second_bet_is_refused(client: Client) -> None:
    question = start(client)
    assert client.post(url(question), {"answer": "lots"}).status_code == 400
    client.post(url(question), {"answer": "2"})
    replay = client.post(url(question), {"answer": "8"})
    assert replay.status_code == 400
    question.refresh_from_db()
    assert question.answer == 2


def test_another_players_question_is_not_found_and_a_first_visit_writes_nothing(
    client: Client,
) -> None:
    assert Client().get(START).status_code == 200 and not Session.objects.exists()
    question = start(client)
    stranger = Client()
    stranger.get(START)
    assert stranger.get(url(question)).status_code == 404
    assert stranger.post(url(question), {"answer": "1"}).status_code == 404
    assert stranger.post(f"{url(question)}next/").status_code == 404


@pytest.mark.parametrize("ramp", ["1:99999999999999999999999", "-99999:1, 99999:2", "1:1001"])
def test_a_ramp_beyond_any_table_is_refused_before_it_reaches_the_database(
    client: Client, ramp: str
) -> None:
    """Counts from −10 to +20 and bets up to 1,000 units: a count of 99999 would not even
    fit the question's column (PostgreSQL refuses it)."""
    answer = client.post(START, {"ramp": ramp, "below": "1"})
    assert answer.status_code == 400 and not BetQuestion.objects.exists()
