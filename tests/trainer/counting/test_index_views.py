"""The index-play drill through its pages (issue 27): each play graded against the stored
index table of the player's rules, system and method, in expected value; a table not yet
worked out started in the background, never in a request."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.test import Client
from django.utils import timezone

from engine.counting.index_table import FAB_4, I18
from tests.counting_tables import CUSTOM_CHANGES, store_custom_index_table, store_index_table
from trainer.counting.index_review import due_play
from trainer.counting.services import index_right_play
from trainer.models import IndexPlayQuestion
from trainer.shared import analyses
from trainer.shared.owners import GUEST_KEY, Owner

pytestmark = [pytest.mark.django_db, pytest.mark.database]  # answered once: a row lock

START = "/counting/indices/"
CHOICES = {"rules": "american", "system": "hi-lo", "estimate": "half", "conversion": "floor"}


@pytest.fixture
def table() -> dict[str, Any]:
    """The American Hi-Lo table, stored as the background job stores it."""
    return store_index_table()


def entry(data: dict[str, Any], *cell: str) -> dict[str, Any]:
    """The table's index play of ``cell``: row and up card (and the two plays, where the
    cell has more than one index play)."""
    found: list[dict[str, Any]] = [
        e
        for e in data["indices"]
        if (e["row"], e["up"], e["play"], e["otherwise"])[: len(cell)] == cell
    ]
    assert len(found) == 1, cell
    return found[0]


def ask(
    client: Client, data: dict[str, Any], row: str, up: str, true_count: int
) -> IndexPlayQuestion:
    """Start the drill, then make its question the table's ``row`` v ``up`` at ``true_count``."""
    answer = client.post(START, CHOICES)
    assert answer.status_code == 302, answer.content.decode()[:300]
    question = IndexPlayQuestion.objects.get(pk=int(answer["Location"].rstrip("/").split("/")[-1]))
    chosen = entry(data, row, up)
    IndexPlayQuestion.objects.filter(pk=question.pk).update(
        row=row, up=up, play=chosen["play"], otherwise=chosen["otherwise"], index=chosen["index"],
        ev_difference=chosen["ev_difference"], true_count=true_count,
    )  # fmt: skip
    question.refresh_from_db()
    return question


def url(question: IndexPlayQuestion) -> str:
    return f"/counting/indices/{question.pk}/"


def test_a_question_is_one_of_the_tables_plays_near_its_index(client: Client, table: Any) -> None:
    for _ in range(10):
        answer = client.post(START, CHOICES)
        question = IndexPlayQuestion.objects.get(
            pk=int(answer["Location"].rstrip("/").split("/")[-1])
        )
        chosen = entry(table, question.row, question.up, question.play, question.otherwise)
        assert question.index == chosen["index"]
        assert abs(question.true_count - question.index) <= 3
        assert str(question.true_count) in chosen["ev_difference"]
        page = client.get(url(question)).content.decode()
        assert f'value="{question.play}"' in page and f'value="{question.otherwise}"' in page


def test_the_right_play_follows_the_index_and_a_wrong_one_costs_its_ev_difference(
    client: Client, table: Any
) -> None:
    sixteen = entry(table, "hard 16", "10")
    index = sixteen["index"]  # stand at or above, hit below
    above = ask(client, table, "hard 16", "10", index + 1)
    client.post(url(above), {"play": sixteen["otherwise"]})
    above.refresh_from_db()
    assert above.right is False
    assert above.given_up == pytest.approx(abs(sixteen["ev_difference"][str(index + 1)]))
    result = client.get(url(above)).content.decode()
    assert "Not quite." in result and "of a bet" in result and "The index:" in result

    below = ask(client, table, "hard 16", "10", index - 1)
    client.post(url(below), {"play": sixteen["otherwise"]})
    below.refresh_from_db()
    assert below.right is True and below.given_up == 0


def test_a_play_not_offered_or_a_second_answer_is_refused(client: Client, table: Any) -> None:
    question = ask(client, table, "hard 16", "10", 0)
    refused = client.post(url(question), {"play": "double"})
    assert refused.status_code == 400 and "two plays offered" in refused.content.decode()
    client.post(url(question), {"play": question.play})
    again = client.post(url(question), {"play": question.otherwise})
    assert again.status_code == 400
    question.refresh_from_db()
    assert question.answer == question.play


def test_another_players_question_is_not_found(client: Client, table: Any) -> None:
    question = ask(client, table, "hard 16", "10", 0)
    stranger = Client()
    stranger.get(START)
    assert stranger.get(url(question)).status_code == 404
    assert stranger.post(url(question), {"play": question.play}).status_code == 404
    question.refresh_from_db()
    assert question.answered_at is None


def test_a_table_not_worked_out_is_started_in_the_background_and_waited_for(
    client: Client,
) -> None:
    with mock.patch.object(analyses, "launch") as launched:
        started = client.post(START, CHOICES)
    assert started.status_code == 302 and "rules=american" in started["Location"]
    assert launched.call_count == 1 and launched.call_args.args[1] == "analyse_indices"
    assert not IndexPlayQuestion.objects.exists()
    waiting = client.get(started["Location"]).content.decode()
    assert 'data-testid="index-working"' in waiting and 'hx-trigger="load delay:5s"' in waiting


def test_a_first_visit_writes_nothing_and_a_get_starts_nothing(client: Client) -> None:
    with mock.patch.object(analyses, "launch") as launched:
        page = client.get(START + "?rules=american&system=hi-lo&estimate=half&conversion=floor")
    assert page.status_code == 200 and launched.call_count == 0
    assert not IndexPlayQuestion.objects.exists()


def test_a_system_without_a_true_count_is_not_offered(client: Client) -> None:
    answer = client.post(START, CHOICES | {"system": "ko"})
    assert answer.status_code == 400 and not IndexPlayQuestion.objects.exists()


def test_a_missed_play_comes_straight_back_then_after_ten_minutes(
    client: Client, table: Any
) -> None:
    sixteen = entry(table, "hard 16", "10")
    missed = ask(client, table, "hard 16", "10", sixteen["index"] + 1)
    client.post(url(missed), {"play": sixteen["otherwise"]})  # wrong: stand was right
    again = client.post(START, CHOICES)
    question = IndexPlayQuestion.objects.get(pk=int(again["Location"].rstrip("/").split("/")[-1]))
    assert (question.row, question.up, question.play) == ("hard 16", "10", sixteen["play"])
    client.post(url(question), {"play": index_right_play(question)})  # right, at its count
    owner = Owner.guest(client.session[GUEST_KEY])
    settings = {"rules_name": "american", "system": "hi-lo", "estimate": "half",
                "conversion": "floor"}  # fmt: skip
    now = timezone.now()
    assert due_play(owner, settings, now) is None
    assert due_play(owner, settings, now + timedelta(minutes=11)) == (
        "hard 16", "10", sixteen["play"], sixteen["otherwise"]
    )  # fmt: skip
    # Another player's misses are not this one's.
    assert due_play(Owner.guest("someone else"), settings, now + timedelta(days=30)) is None


def test_the_chart_lists_every_index_play_and_marks_where_the_book_differs(
    client: Client, table: Any
) -> None:
    page = client.get("/counting/indices/chart/").content.decode()  # the defaults: American Hi-Lo
    rows = re.findall(
        r"<tr( class=\"index-chart__differs\" data-differs)?>\s*<th scope=\"row\">", page
    )
    assert len(rows) == len(table["indices"])
    books = {(e.row, e.up, str(e.play)): e.index for e in (*I18, *FAB_4)}
    differing = [
        e for e in table["indices"]
        if books.get((e["row"], e["up"], e["play"]), e["index"]) != e["index"]
    ]  # fmt: skip
    assert differing  # the stored table's 16 v T, 15 v T… (docs/counting.md)
    assert sum(1 for marked in rows if marked) == len(differing)


def test_a_chart_not_worked_out_says_so_and_starts_nothing(client: Client) -> None:
    with mock.patch.object(analyses, "launch") as launched:
        page = client.get(
            "/counting/indices/chart/?" + "&".join(f"{k}={v}" for k, v in CHOICES.items())
        )
    assert page.status_code == 200 and 'data-testid="index-chart-pending"' in page.content.decode()
    assert launched.call_count == 0


def test_a_chart_for_another_system_has_no_book_column(client: Client, table: Any) -> None:
    page = client.get(
        "/counting/indices/chart/?rules=american&system=zen&estimate=half&conversion=floor"
    )
    assert page.status_code == 200 and ">Book<" not in page.content.decode()


def test_a_players_own_rules_are_drilled_against_their_own_table(client: Client) -> None:
    """The American rules with H17 and late surrender: the questions are that table's
    (its surrender indices, which the preset's table has none of), graded by it."""
    custom = store_custom_index_table()
    plays = {(e["row"], e["up"], e["play"], e["otherwise"]): e for e in custom["indices"]}
    choices = CHOICES | {"changes": "surrender=late,dealer_hits_soft_17=true"}
    for _ in range(8):
        answer = client.post(START, choices)
        assert answer.status_code == 302, answer.content.decode()[:300]
        question = IndexPlayQuestion.objects.get(
            pk=int(answer["Location"].rstrip("/").split("/")[-1])
        )
        assert question.rules_changes == CUSTOM_CHANGES  # written as the trainer writes them
        chosen = plays[question.row, question.up, question.play, question.otherwise]
        wrong = question.otherwise if question.true_count >= chosen["index"] else question.play
        client.post(url(question), {"play": wrong})
        question.refresh_from_db()
        assert question.right is False
        assert question.given_up == pytest.approx(
            abs(chosen["ev_difference"][str(question.true_count)])
        )


def test_changes_that_are_no_game_are_refused(client: Client) -> None:
    answer = client.post(START, CHOICES | {"changes": "decks=0"})
    assert answer.status_code == 400 and not IndexPlayQuestion.objects.exists()
