"""The true-count drill through its pages (issue 27): the decks left judged from a tray
drawn to scale, then the true count of the same shoe the player's way, each graded exactly
and once, each question its owner's alone."""

from __future__ import annotations

import re
from datetime import timedelta
from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client

from trainer.counting.true_count_pages import Tray
from trainer.models import TrueCountQuestion
from trainer.shared.bidi import LRI, PDI

pytestmark = [pytest.mark.django_db, pytest.mark.database]  # answered once: a row lock

START = "/counting/true-count/"
PASSWORD = "a-long-pass-phrase-7"


def start(client: Client, **settings: str) -> TrueCountQuestion:
    fields = {"decks": "6", "estimate": "half", "conversion": "floor"} | settings
    answer = client.post(START, fields)
    assert answer.status_code == 302, answer.content.decode()[:400]
    assert client.get(answer["Location"]).status_code == 200
    return TrueCountQuestion.objects.get(pk=int(answer["Location"].rstrip("/").split("/")[-1]))


def plain(html: str) -> str:
    """The page without the marks that keep a signed number whole in Arabic."""
    return html.replace(LRI, "").replace(PDI, "")


def set_shoe(question: TrueCountQuestion, dealt: int, running: int) -> None:
    """Give the question a shoe worked out by hand."""
    TrueCountQuestion.objects.filter(pk=question.pk).update(dealt=dealt, running=running)


def url(question: TrueCountQuestion) -> str:
    return f"/counting/true-count/{question.pk}/"


def test_a_first_visit_writes_nothing() -> None:
    assert Client().get(START).status_code == 200
    assert not TrueCountQuestion.objects.exists() and not Session.objects.exists()


def test_the_tray_is_drawn_to_scale_and_said_in_words(client: Client) -> None:
    question = start(client)
    set_shoe(question, dealt=156, running=0)  # 3 of 6 decks: the stack half the tray
    page = client.get(url(question)).content.decode()
    stack = re.search(r'height="([\d.]+)" data-testid="tray-stack"', page)
    tray = re.search(r'<svg viewBox="0 0 \d+ (\d+)"', page)
    assert stack and tray
    assert float(stack[1]) == pytest.approx((float(tray[1]) - 4) / 2)  # a margin of 2 each end
    assert "a 6-deck shoe, 50% full" in page


def test_the_decks_left_then_the_true_count_of_the_same_shoe(client: Client) -> None:
    question = start(client)
    set_shoe(question, dealt=195, running=9)  # 117 cards left: 2¼ decks, 2½ to the half deck
    assert client.post(url(question), {"answer": "2½"}).status_code == 302
    question.refresh_from_db()
    assert question.right is True
    following = client.post(f"{url(question)}next/")
    convert = TrueCountQuestion.objects.get(
        pk=int(following["Location"].rstrip("/").split("/")[-1])
    )
    assert (convert.kind, convert.dealt, convert.running) == ("convert", 195, 9)
    page = plain(client.get(url(convert)).content.decode())
    assert "Running count +9; decks left: 2½." in page
    client.post(url(convert), {"answer": "+4"})  # +3.6 floored is +3
    result = plain(client.get(url(convert)).content.decode())
    assert "Not quite." in result and "the true count is +3; you said +4" in result
    convert.refresh_from_db()
    assert convert.right is False
    # After a true count, a new shoe.
    fresh = client.post(f"{url(convert)}next/")
    assert (
        TrueCountQuestion.objects.get(pk=int(fresh["Location"].rstrip("/").split("/")[-1])).kind
        == "decks"
    )


@pytest.mark.parametrize(
    ("conversion", "running", "right"),
    [("floor", -9, "-4"), ("truncate", -9, "-3"), ("round", 9, "4")],
)
def test_the_true_count_follows_the_players_conversion(
    client: Client, conversion: str, running: int, right: str
) -> None:
    question = start(client, conversion=conversion)
    set_shoe(question, dealt=195, running=running)
    client.post(url(question), {"answer": "2.5"})
    convert_at = client.post(f"{url(question)}next/")["Location"]
    client.post(convert_at, {"answer": right})
    assert TrueCountQuestion.objects.get(kind="convert").right is True


def test_the_quarter_deck_estimate_wants_quarters(client: Client) -> None:
    question = start(client, estimate="quarter")
    set_shoe(question, dealt=195, running=0)
    client.post(url(question), {"answer": "2,5"})
    question.refresh_from_db()
    assert question.right is False
    assert "Decks left: 2¼; you said 2½." in client.get(url(question)).content.decode()


def test_an_answer_that_is_not_one_is_refused_and_changes_nothing(client: Client) -> None:
    question = start(client)
    answer = client.post(url(question), {"answer": "a few"})
    assert answer.status_code == 400 and "Type the decks left" in answer.content.decode()
    question.refresh_from_db()
    assert question.answered_at is None


def test_a_question_is_answered_once(client: Client) -> None:
    question = start(client)
    set_shoe(question, dealt=195, running=0)
    client.post(url(question), {"answer": "2.5"})
    replay = client.post(url(question), {"answer": "3"})
    assert replay.status_code == 400 and "answered already" in replay.content.decode()
    question.refresh_from_db()
    assert Fraction(question.answer) == Fraction(5, 2) and question.right is True


def test_another_players_question_is_not_found(client: Client) -> None:
    question = start(client)
    stranger = Client()
    stranger.get(START)
    assert stranger.get(url(question)).status_code == 404
    assert stranger.post(url(question), {"answer": "3"}).status_code == 404
    client.post(url(question), {"answer": "3"})
    assert stranger.post(f"{url(question)}next/").status_code == 404
    assert client.post(f"/counting/true-count/{question.pk + 100}/next/").status_code == 404


def test_the_next_question_comes_only_after_an_answer(client: Client) -> None:
    question = start(client)
    assert client.post(f"{url(question)}next/").status_code == 404
    assert TrueCountQuestion.objects.count() == 1


def test_a_bad_shoe_or_method_is_refused(client: Client) -> None:
    answer = client.post(START, {"decks": "3", "estimate": "exact", "conversion": "floor"})
    assert answer.status_code == 400 and not TrueCountQuestion.objects.exists()


def test_the_figures_count_right_answers_and_their_median_time(client: Client) -> None:
    for seconds, answer in ((1.0, "2.5"), (3.0, "2.5"), (0.5, "9")):
        question = start(client)
        set_shoe(question, dealt=195, running=0)
        client.post(url(question), {"answer": answer})
        question.refresh_from_db()
        assert question.answered_at is not None
        TrueCountQuestion.objects.filter(pk=question.pk).update(
            shown_at=question.answered_at - timedelta(seconds=seconds)
        )
    figures = client.get(START).content.decode().split('data-testid="figures-decks">')[1]
    assert figures.split("</td>")[0].split() == ["2", "of", "3", "right", "·", "median", "2.0", "s"]


def test_a_guests_answers_follow_them_into_their_account(client: Client) -> None:
    question = start(client)
    client.post("/accounts/signup/", {"username": "ann", "email": "ann@example.com",
                                      "password1": PASSWORD, "password2": PASSWORD})  # fmt: skip
    question.refresh_from_db()
    assert question.user_id == get_user_model().objects.get(username="ann").pk


@pytest.mark.parametrize(
    ("decks", "dealt", "shoe_words", "left_words"),
    [
        ("1", 26, "1 deck in the shoe.", "Running count +2; decks left: ½."),
        ("2", 52, "2 decks in the shoe.", "Running count +2; decks left: 1."),
        ("2", 26, "2 decks in the shoe.", "Running count +2; decks left: 1½."),
    ],
)
def test_the_decks_are_said_in_the_singular_or_the_plural(
    client: Client, decks: str, dealt: int, shoe_words: str, left_words: str
) -> None:
    """One deck is "deck", more are "decks" (never "1 decks"); the decks left are a value,
    so no plural form has to be chosen for a fraction."""
    question = start(client, decks=decks)
    set_shoe(question, dealt=dealt, running=2)
    assert shoe_words in client.get(url(question)).content.decode()
    client.post(url(question), {"answer": "1"})
    convert_at = client.post(f"{url(question)}next/")["Location"]
    page = plain(client.get(convert_at).content.decode())
    assert shoe_words in page and left_words in page


@pytest.mark.parametrize(("decks", "dealt"), [(1, 13), (2, 26), (8, 104)])
def test_the_tray_holds_any_shoe_at_one_height_so_a_small_shoes_cards_show(
    decks: int, dealt: int
) -> None:
    """A quarter of any shoe is a quarter of the tray: a one-deck shoe's quarter deck is as
    tall as eight decks' two."""
    tray = Tray(decks, dealt)
    assert tray.height == Tray(8, 0).height >= 100  # one height, enough to judge by
    inside = tray.height - 4  # the edge's margin at each end
    assert float(tray.stack_height) == pytest.approx(inside / 4)
    assert float(tray.stack_y) + float(tray.stack_height) == pytest.approx(tray.height - 2)
