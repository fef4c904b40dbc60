"""The casino-ready check (issue 27): an attempt is a counting-mode practice table on the
player's own game; it ends with the count given before the shuffle, or when the player
leaves, and is graded once against the stated standard; each player sees only their own."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.test import Client
from django.utils import timezone

from tests.counting_tables import store_index_table
from tests.trainer.practice.test_practice_views import send
from trainer.counting import casino
from trainer.models import CasinoCheck, CountCheck, Drill, IndexPlayQuestion, PracticeSession
from trainer.practice import counting
from trainer.shared.owners import Owner

pytestmark = [pytest.mark.django_db, pytest.mark.database]  # also on PostgreSQL

PAGE = "/counting/casino-ready/"


@pytest.fixture
def player(client: Client) -> AbstractBaseUser:
    user = get_user_model().objects.create_user("counter", password="a long pass phrase")
    client.force_login(user)
    now = timezone.now()
    IndexPlayQuestion.objects.create(
        user=user, shown_at=now, answered_at=now, rules_name="american", system="hi-lo",
        estimate="half", conversion="floor", row="hard 16", up="10", play="stand",
        otherwise="hit", index=0, ev_difference={}, true_count=1, cards="10h 6c",
        answer="stand", right=True,
    )  # fmt: skip
    return user


def start(client: Client) -> CasinoCheck:
    """Start an attempt as the check's page does: its hidden practice-table form."""
    store_index_table()
    page = client.get(PAGE).content.decode()
    form = re.search(r'<form class="casino-start" method="post" action="([^"]+)">(.*?)</form>',
                     page, re.S)  # fmt: skip
    assert form is not None, page
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form[2]))
    answer = client.post(form[1], fields)
    assert answer.status_code == 302, answer.content.decode()[:400]
    check = CasinoCheck.objects.get()
    assert answer["Location"] == f"/practice/{check.session_id}/"
    return check


def test_an_attempt_is_a_counting_table_on_the_players_game_among_six_bots(
    client: Client, player: AbstractBaseUser
) -> None:
    check = start(client)
    session = check.session
    assert session.counting is not None and session.counting["system"] == "hi-lo"
    assert session.rules_name == "american" and session.bankroll == casino.BANKROLL
    seats = session.state["bots"]
    assert sorted(seat for seat, _ in seats) == [1, 2, 3, 5, 6, 7]
    assert session.state["player_seat"] == 4
    page = client.get(f"/practice/{session.pk}/").content.decode()
    assert 'data-testid="casino-banner"' in page
    listed = client.get(PAGE).content.decode()
    assert "Under way" in listed and f"/counting/casino-ready/{check.pk}/" in listed


def test_without_the_index_table_no_attempt_is_offered(client: Client, player: Any) -> None:
    page = client.get(PAGE).content.decode()
    assert 'data-testid="casino-no-table"' in page and 'class="casino-start"' not in page
    assert client.post(PAGE).status_code == 405


def test_a_check_is_made_only_with_counting_mode(client: Client, player: Any) -> None:
    fields = {"rules": "european", "bankroll": "1000", "seat_1": "you", "casino_check": "on"}
    client.post("/practice/", {**fields, **{f"seat_{seat}": "" for seat in range(2, 8)}})
    assert PracticeSession.objects.count() == 1 and not CasinoCheck.objects.exists()


def test_leaving_before_the_shoe_ends_is_not_a_pass_and_leads_to_the_grade(
    client: Client, player: AbstractBaseUser
) -> None:
    check = start(client)
    ended = send(client, check.session, "end")
    assert ended["HX-Redirect"] == f"/counting/casino-ready/{check.pk}/"
    graded = client.get(ended["HX-Redirect"]).content.decode()
    check.refresh_from_db()
    assert check.passed is False and check.figures["shoe_ended"] is False
    assert 'data-testid="casino-result"' in graded and "Not passed" in graded


def test_the_count_before_the_shuffle_ends_the_attempt(
    client: Client, player: AbstractBaseUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Played out on the engine's table with a seeded shoe until the cut card is out."""
    check = start(client)
    session = check.session
    monkeypatch.setattr(counting, "_RNG", random.Random(3))
    for _ in range(200):
        session.refresh_from_db()
        question = (session.counting or {}).get("question")
        if question is not None:
            running, true = question["running"], question["true"]
            answer = send(client, session, "count", running=running, true_count=str(true))
            if question["reason"] == "shuffle":
                assert answer["HX-Redirect"] == f"/counting/casino-ready/{check.pk}/"
                break
            continue
        state = session.state
        if state.get("round") and state["round"].get("phase") not in (None, "settled", "voided"):
            send(client, session, "act", action=_legal(client, session))
        else:
            send(client, session, "deal")
    else:
        pytest.fail("the shoe never reached its cut card")
    check = casino.owner_check(Owner.account(player.pk), check.pk)
    assert check.figures["shoe_ended"] is True
    assert check.figures["counts"] == check.figures["counts_right"] >= 1
    assert PracticeSession.objects.get().ended_at is not None


def _legal(client: Client, session: PracticeSession) -> str:
    page = client.get(f"/practice/{session.pk}/").content.decode()
    for action in ("stand", "hit", "no_insurance"):
        if f'name="action" value="{action}"' in page:
            return action
    raise AssertionError("no play offered")


def test_the_standard_is_met_only_when_every_figure_is() -> None:
    base: dict[str, Any] = {
        "rounds": 30, "counts": 8, "counts_right": 8, "bets": 30, "bets_right": 30,
        "deviations": 3, "deviations_right": 3, "slowest_play": 4.0, "slowest_count": 6.0,
        "shoe_ended": True,
    }  # fmt: skip
    assert casino.CheckFigures(**base).passed
    for change in (
        {"counts_right": 7}, {"bets_right": 29}, {"deviations_right": 2},
        {"slowest_play": casino.PLAY_SECONDS + 0.1},
        {"slowest_count": casino.COUNT_SECONDS + 0.1}, {"shoe_ended": False},
    ):  # fmt: skip
        assert not casino.CheckFigures(**{**base, **change}).passed, change


def test_another_players_attempt_is_not_found(client: Client, player: Any) -> None:
    check = start(client)
    stranger = Client()
    stranger.get(PAGE)
    assert stranger.get(f"{PAGE}{check.pk}/").status_code == 404
    assert "Under way" not in stranger.get(PAGE).content.decode()


def test_the_figures_count_each_kind_from_the_sessions_records(
    client: Client, player: AbstractBaseUser
) -> None:
    check = start(client)
    session = check.session
    for after, reason, true, seconds in ((1, "random", 1, 3.0), (2, "shuffle", 0, 20.0)):
        CountCheck.objects.create(
            session=session, after_round=after, reason=reason, running="2", true_count=true,
            running_answer="2", true_answer=0, seconds=seconds,
        )  # fmt: skip
    figures = casino.figures_of(session)
    assert (figures.counts, figures.counts_right, figures.shoe_ended) == (2, 1, True)
    assert figures.slowest_count == 20.0 and figures.slowest_play is None
    assert not Drill.objects.exists() and figures.deviations == 0
    assert timedelta(0) <= timezone.now() - check.started_at
