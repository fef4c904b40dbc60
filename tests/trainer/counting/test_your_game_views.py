"""The player's own counting game (issue 27): their error rates measured from their latest
answers, their game simulated in the background (never in a request), and its figures
beside the perfect game's once stored."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.test import Client
from django.utils import timezone

from engine.counting.simulation import Slips
from engine.counting.your_game import advantage_key
from tests.counting_tables import store_index_table
from trainer.counting.forms import IndexStartForm
from trainer.counting.your_game import player_game
from trainer.models import (
    AnalysisJob,
    BetQuestion,
    CountingRun,
    IndexPlayQuestion,
    StoredAnalysis,
    TrueCountQuestion,
)
from trainer.shared.analyses import DatabaseStore, analysis_run
from trainer.shared.owners import Owner

pytestmark = [pytest.mark.django_db, pytest.mark.database]  # also on PostgreSQL

PAGE = "/counting/your-game/"
DECK = " ".join(["2c"] * 26 + ["10h"] * 26)


@pytest.fixture
def player(client: Client) -> AbstractBaseUser:
    user = get_user_model().objects.create_user("counter", password="a long pass phrase")
    client.force_login(user)
    return user


def answered(model: Any, user: AbstractBaseUser, minutes: int = 0, **fields: Any) -> Any:
    now = timezone.now() - timedelta(minutes=minutes)
    return model.objects.create(user=user, shown_at=now, answered_at=now, **fields)


def index_play(user: AbstractBaseUser, right: bool, **changed: Any) -> IndexPlayQuestion:
    fields = {
        "rules_name": "american", "system": "hi-lo", "estimate": "half", "conversion": "floor",
        "row": "hard 16", "up": "10", "play": "stand", "otherwise": "hit", "index": 0,
        "ev_difference": {}, "true_count": 1, "cards": "10h 6c", "answer": "stand",
        "right": right, **changed,
    }  # fmt: skip
    question: IndexPlayQuestion = answered(IndexPlayQuestion, user, **fields)
    return question


def test_each_rate_is_measured_from_the_players_latest_answers(player: AbstractBaseUser) -> None:
    answered(CountingRun, player, system="hi-lo", cards=DECK, group=1, exact=True)
    answered(CountingRun, player, system="hi-lo", cards=DECK, group=1, exact=False)
    for right in (True, True, False, True):
        answered(TrueCountQuestion, player, kind="convert", decks=6, dealt=52, running=3,
                 estimate="half", conversion="floor", right=right)  # fmt: skip
    answered(
        TrueCountQuestion,
        player,
        kind="decks",
        decks=6,
        dealt=52,
        running=3,
        estimate="half",
        conversion="floor",
        right=False,
    )  # fmt: skip: not a conversion
    index_play(player, right=False)
    index_play(player, right=True)
    answered(BetQuestion, player, ramp="1:2,2:4", below=1, true_count=2, answer=4, right=True)
    measured = {m.kind: (m.answers, m.wrong, m.rate) for m in player_game(_owner(player)).measured}
    assert measured == {
        "count": (104, 1, round(1 / 104, 4)),
        "true_count": (4, 1, 0.25),
        "deviations": (2, 1, 0.5),
        "bets": (1, 0, 0.0),
    }


def test_the_game_is_the_players_latest_choices_or_the_drills_first(
    player: AbstractBaseUser,
) -> None:
    first = player_game(_owner(player))
    drill = IndexStartForm.defaults()
    assert (first.index.rules_name, first.index.system) == (drill["rules"], drill["system"])
    assert first.ramp_text == "1:2, 2:4, 3:8, 4:12"
    index_play(player, right=True, rules_name="european", system="zen")
    answered(BetQuestion, player, ramp="1:3,4:9", below=2, true_count=2, answer=3, right=True)
    game = player_game(_owner(player))
    assert (game.index.rules_name, game.index.system) == ("european", "zen")
    assert (game.ramp_text, game.ramp.below) == ("1:3, 4:9", 2)


def test_without_its_index_table_the_game_cannot_be_simulated_and_says_where_to_start(
    client: Client, player: AbstractBaseUser, launched: list[str]
) -> None:
    index_play(player, right=True)
    page = client.get(PAGE).content.decode()
    assert 'data-testid="game-no-table"' in page and "Simulate my game" not in page
    assert client.post(PAGE).status_code == 200 and launched == []


def test_a_post_starts_the_simulation_once_and_the_page_follows_it_to_its_figures(
    client: Client, player: AbstractBaseUser, launched: list[str]
) -> None:
    store_index_table()
    index_play(player, right=False)
    index_play(player, right=True)
    assert client.get(PAGE).status_code == 200 and launched == []  # a GET starts nothing
    started = client.post(PAGE + "?bank=500&risk=2")
    assert started.status_code == 302 and started["Location"] == PAGE + "?bank=500&risk=2"
    client.post(PAGE)
    assert len(launched) == 1  # asked twice, started once
    waiting = client.get(started["Location"]).content.decode()
    assert 'data-testid="game-working"' in waiting and 'hx-trigger="load delay:3s"' in waiting
    AnalysisJob.objects.filter(key=launched[0]).update(done=40)
    assert re.search(
        r'<progress id="game-progress" max="100" value="40">', client.get(PAGE).content.decode()
    )

    analysis_run(launched[0])  # as the background process does
    # The flat bettor's advantage by count is kept too, for the practice table's summary.
    index = player_game(_owner(player)).request().index
    assert DatabaseStore().get(advantage_key(index)) is not None

    assert (
        not AnalysisJob.objects.exists() and StoredAnalysis.objects.filter(key=launched[0]).exists()
    )
    done = client.get(started["Location"]).content.decode()
    assert 'data-testid="game-figures"' in done and "hx-trigger" not in done
    assert "Risk of ruin of 500 units" in done and "Bankroll for a 2% risk of ruin" in done
    costs = re.search(r'data-testid="game-costs".*?</table>', done, re.S)
    assert (
        costs is not None
        and "Index plays" in costs.group()
        and "Bets by the ramp" not in costs.group()
    )


def test_new_figures_are_a_new_game_to_simulate(
    client: Client, player: AbstractBaseUser, launched: list[str]
) -> None:
    store_index_table()
    index_play(player, right=True)
    client.post(PAGE)
    analysis_run(launched[0])
    assert "Simulate my game" not in client.get(PAGE).content.decode()
    index_play(player, right=False)  # one wrong of two: a rate of 0.5, not 0
    assert player_game(_owner(player)).request().slips == Slips(deviations=0.5)
    assert "Simulate my game" in client.get(PAGE).content.decode()


@pytest.mark.parametrize("query", ["?bank=0&risk=5", "?bank=1000&risk=0", "?bank=x&risk=5"])
def test_a_bankroll_or_risk_out_of_range_is_refused(
    client: Client, player: AbstractBaseUser, query: str
) -> None:
    assert client.get(PAGE + query).status_code == 400


def _owner(user: AbstractBaseUser) -> Owner:
    return Owner.account(user.pk)


def test_the_figures_suggest_a_ramp_within_the_top_bet_and_the_betting_drill_takes_it(
    client: Client, player: AbstractBaseUser, launched: list[str]
) -> None:
    store_index_table()
    index_play(player, right=True)
    client.post(PAGE)
    analysis_run(launched[0])
    page = client.get(PAGE + "?bank=20000&risk=5&top=8").content.decode()
    assert 'data-testid="game-suggested"' in page
    shown = re.search(r'data-testid="suggested-ramp">\u2066([^<]*)\u2069<', page)
    if shown is None:  # too few rounds for the advantage to rise: said so
        assert "Too few rounds" in page
        return
    bets = [int(pair.split(":")[1]) for pair in shown[1].split(", ")]
    assert bets == sorted(bets) and max(bets) <= 8


def test_the_betting_drill_starts_from_a_ramp_in_its_address(client: Client) -> None:
    page = client.get("/counting/betting/?ramp=2:3,+4:6&below=2").content.decode()
    assert 'value="2:3, 4:6"' in page and re.search(r'name="below" value="2"', page)


def test_progress_leads_a_counting_player_to_their_game(
    client: Client, player: AbstractBaseUser
) -> None:
    assert 'href="/counting/your-game/"' not in client.get("/progress/").content.decode()
    answered(CountingRun, player, system="hi-lo", cards=DECK, group=1, exact=True)
    assert 'href="/counting/your-game/"' in client.get("/progress/").content.decode()
