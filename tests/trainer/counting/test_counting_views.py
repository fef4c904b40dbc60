"""The running-count drill through its pages (issue 27): a deck dealt, counted and graded,
each run its owner's alone, answered once, and a first visit writing nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from fractions import Fraction
from typing import TYPE_CHECKING

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from engine.counting.drill import counts_after
from engine.counting.systems import SYSTEMS
from tests.trainer.conftest import Together
from trainer.counting import services
from trainer.counting.services import RunSettings
from trainer.models import CountingRun
from trainer.shared.bidi import LRI, PDI
from trainer.shared.owners import Owner
from trainer.shared.unit_of_work import Refused

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

pytestmark = [pytest.mark.django_db, pytest.mark.database]  # answered once: a row lock

START = "/counting/"
PASSWORD = "a-long-pass-phrase-7"
LAID_OUT = {"system": "hi-lo", "group": "0", "pace": "20", "checkpoint_every": "0"}


def deal(client: Client, **settings: str) -> CountingRun:
    """Deal a deck as ``settings`` say (laid out by default) and open its page."""
    answer = client.post(START, LAID_OUT | settings)
    assert answer.status_code == 302, answer.content.decode()[:500]
    assert client.get(answer["Location"]).status_code == 200
    return CountingRun.objects.get(pk=int(answer["Location"].rstrip("/").split("/")[-1]))


def plain(html: str) -> str:
    """The page without the marks that keep a signed number whole in Arabic."""
    return html.replace(LRI, "").replace(PDI, "")


def truth(run: CountingRun) -> list[Fraction]:
    return counts_after(SYSTEMS[run.system], run.cards.split())


def say(client: Client, run: CountingRun, answer: object, **checkpoints: object) -> Response:
    fields = {"answer": str(answer)} | {name: str(count) for name, count in checkpoints.items()}
    return client.post(f"/counting/{run.pk}/", fields)


def test_a_first_visit_writes_nothing() -> None:
    page = Client().get(START)
    assert page.status_code == 200 and "Deal a deck" in page.content.decode()
    assert not CountingRun.objects.exists() and not Session.objects.exists()


def test_a_deck_shows_every_card_dealt_and_no_count(client: Client) -> None:
    run = deal(client, checkpoint_every="10")
    page = client.get(f"/counting/{run.pk}/").content.decode()
    shown = re.findall(r'role="img" aria-label="([^"]+)"', page)
    assert len(shown) == len(run.cards.split()) >= 44
    assert re.findall(r'name="(checkpoint_\d+)"', page) == [
        f"checkpoint_{n}" for n in range(10, len(shown), 10)
    ]
    assert 'data-testid="counting-result"' not in page


def test_the_right_count_is_exact_and_kept(client: Client) -> None:
    run = deal(client)
    answer = say(client, run, truth(run)[-1])
    assert answer.status_code == 302
    run.refresh_from_db()
    assert run.exact is True and run.answered_at is not None
    result = client.get(f"/counting/{run.pk}/").content.decode()
    assert "Exact!" in result and "1 of 1" in result


def test_a_wrong_count_says_by_how_much_and_where_it_first_went_wrong(client: Client) -> None:
    run = deal(client, group="2", checkpoint_every="10")
    counts = truth(run)
    say(client, run, counts[-1] - 2, checkpoint_10=counts[9], checkpoint_20=counts[19] + 1)
    result = plain(client.get(f"/counting/{run.pk}/").content.decode())
    assert "Not quite." in result and ", 2 too low." in result
    assert "between card 11 and card 20" in result
    # The stretch lists its ten cards, each with the count after it.
    stretch = result.split('data-testid="first-wrong"')[1]
    assert len(re.findall(r'role="img"', stretch)) == 10
    run.refresh_from_db()
    assert run.exact is False and run.checkpoint_answers == {
        "10": str(counts[9]), "20": str(counts[19] + 1)
    }  # fmt: skip


def test_a_count_in_halves_is_read_with_a_comma_or_a_half_sign(client: Client) -> None:
    run = deal(client, system="wong-halves")
    exact = truth(run)[-1]
    typed = str(exact).replace("/2", "") if exact.denominator == 1 else (
        f"{'-' if exact < 0 else ''}{abs(exact.numerator) // 2},5"
    )  # fmt: skip
    assert say(client, run, typed).status_code == 302
    run.refresh_from_db()
    assert run.exact is True


def test_a_count_that_is_not_one_is_refused_and_changes_nothing(client: Client) -> None:
    run = deal(client)
    answer = say(client, run, "about three")
    assert answer.status_code == 400 and "Type a count" in answer.content.decode()
    run.refresh_from_db()
    assert run.answered_at is None and run.answer == ""


def test_a_deck_is_answered_once(client: Client) -> None:
    run = deal(client)
    right = truth(run)[-1]
    say(client, run, right)
    replay = say(client, run, right + 5)
    assert replay.status_code == 400 and "answered already" in replay.content.decode()
    run.refresh_from_db()
    assert Fraction(run.answer) == right and run.exact is True


def test_another_players_deck_is_not_found(client: Client) -> None:
    run = deal(client)
    stranger = Client()
    stranger.get(START)
    assert stranger.get(f"/counting/{run.pk}/").status_code == 404
    assert stranger.post(f"/counting/{run.pk}/", {"answer": "0"}).status_code == 404
    get_user_model().objects.create_user("bob", password=PASSWORD)
    bob = Client()
    bob.login(username="bob", password=PASSWORD)
    assert bob.post(f"/counting/{run.pk}/", {"answer": "0"}).status_code == 404
    assert client.get("/counting/999999/").status_code == 404
    run.refresh_from_db()
    assert run.answered_at is None


def test_dealing_needs_the_csrf_token() -> None:
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(START, LAID_OUT).status_code == 403
    assert not CountingRun.objects.exists()


def test_a_bad_setting_is_refused_and_deals_nothing(client: Client) -> None:
    answer = client.post(START, LAID_OUT | {"system": "no-such", "pace": "7"})
    assert answer.status_code == 400
    assert not CountingRun.objects.exists()


def test_the_streak_counts_exact_decks_within_thirty_seconds_since_the_last_miss(
    client: Client,
) -> None:
    """Oldest first: exact in 25 s, wrong, exact in 29 s, exact in 31 s, exact in 20 s,
    exact in 12 s: the streak is the last two (the 31 s deck breaks it)."""
    for seconds, exact in ((25, True), (20, False), (29, True), (31, True), (20, True), (12, True)):
        run = deal(client)
        say(client, run, truth(run)[-1] + (0 if exact else 1))
        run.refresh_from_db()
        assert run.answered_at is not None
        CountingRun.objects.filter(pk=run.pk).update(
            shown_at=run.answered_at - timedelta(seconds=seconds)
        )
    page = client.get(START).content.decode()
    streak = page.split('data-testid="streak"')[1].split("</td>")[0]
    assert "2 times running" in streak and "best 12.0 s" in streak
    assert "5 of 6" in page


def test_a_guests_decks_follow_them_into_the_account_they_sign_up_for(client: Client) -> None:
    run = deal(client)
    client.post("/accounts/signup/", {"username": "ann", "email": "ann@example.com",
                                      "password1": PASSWORD, "password2": PASSWORD})  # fmt: skip
    ann = get_user_model().objects.get(username="ann")
    run.refresh_from_db()
    assert (run.user_id, run.guest_token) == (ann.pk, "")
    assert client.get(f"/counting/{run.pk}/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_two_answers_at_once_take_effect_once(together: Together) -> None:
    """The same deck answered twice at the same moment (two tabs, a double click): one
    answer is kept, the other refused, and the kept one is graded."""
    owner = Owner.guest("racer")
    run = services.counting_start(owner=owner, settings=RunSettings("hi-lo", 0, 20, 0))
    right = counts_after(SYSTEMS["hi-lo"], run.cards.split())[-1]

    def answer(count: Fraction) -> Callable[[], object]:
        return lambda: services.counting_answer(
            owner=owner, run_id=run.pk, answer=count, at_checkpoints={}, now=timezone.now()
        )

    outcomes = together([answer(right), answer(right + 1)])
    assert sum(isinstance(outcome, Refused) for outcome in outcomes) == 1
    run.refresh_from_db()
    assert run.exact is (Fraction(run.answer) == right)
