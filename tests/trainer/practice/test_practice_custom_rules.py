"""A practice table on rules of the player's own, started with one click from the rules
lab: the same changes the drill settings take, refused the same way."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from engine.rules import PRESETS
from engine.strategy.store import rules_key
from engine.table import Table
from trainer.models import PracticeSession
from trainer.shared import analyses
from trainer.shared.analyses import analysis_run

pytestmark = pytest.mark.django_db

TWO_DECKS_H17 = {"decks": "2", "dealer_hits_soft_17": "true"}


def lab_worked_out(
    client: Client, preset: str, changes: dict[str, str], launched: list[str]
) -> str:
    """The lab page once its analyses are done (as the background does)."""
    query = {"rules_name": preset, **changes}
    text = client.get("/rules/lab/", query).content.decode()
    while launched:
        analysis_run(launched.pop(0))
        text = client.get("/rules/lab/", query).content.decode()
    return text


def practise_form(text: str) -> dict[str, str]:
    """What the lab's "Practise on these rules" button sends."""
    form = text.split('action="/practice/"')[1].split("</form>")[0]
    assert "Practise on these rules" in form
    fields = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form)
    return {name: html.unescape(value) for name, value in fields}


def test_one_click_in_the_lab_sits_down_under_exactly_the_labs_rules(
    launched: list[str],
) -> None:
    client = Client()
    sent = practise_form(lab_worked_out(client, "european", TWO_DECKS_H17, launched))
    response = client.post("/practice/", sent)
    session = PracticeSession.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/practice/{session.pk}/"
    assert Table.from_json(session.state).rules == PRESETS["european"].with_overrides(TWO_DECKS_H17)
    page = html.unescape(client.get(response["Location"]).content.decode())
    assert "European, changed" in page and "2 decks" in page and "dealer hits soft 17" in page


def test_the_practice_start_takes_the_changes_the_drill_settings_take(
    launched: list[str],
) -> None:
    rules = PRESETS["deluxe"].with_overrides({"decks": "6"})
    analyses.analysis_start(rules=rules, visitor="test")
    analysis_run(rules_key(rules))
    data = {"rules": "deluxe", "custom_rules": "decks=6", "bankroll": "500", "seat_2": "you"}
    assert Client().post("/practice/", data).status_code == 302
    assert Table.from_json(PracticeSession.objects.get().state).rules == rules


@pytest.mark.parametrize(
    ("preset", "changes", "error"),
    [
        ("deluxe", "resplit_aces=true", "resplit_aces needs max_hands of 3 or more"),
        ("european", "decks=100", "decks must be a whole number from 1 to 8"),
        ("european", "penetration=1/2", "penetration is not a rule you can change here"),
        ("european", "pair_bet=true", "pair_bet is not a rule you can change here"),
        ("european", "decks", "write each change as FIELD=VALUE"),
    ],
)
def test_changes_that_are_no_game_start_nothing(
    launched: list[str], preset: str, changes: str, error: str
) -> None:
    data = {"rules": preset, "custom_rules": changes, "bankroll": "1000", "seat_1": "you"}
    response = Client().post("/practice/", data)
    assert response.status_code == 400
    assert error in html.unescape(response.content.decode())
    assert not PracticeSession.objects.exists()
    assert launched == []


def test_rules_not_worked_out_yet_start_their_analysis_and_no_table(
    launched: list[str],
) -> None:
    data = {"rules": "european", "custom_rules": "decks=3", "bankroll": "1000", "seat_1": "you"}
    response = Client().post("/practice/", data)
    assert response.status_code == 400
    assert "still being worked out" in response.content.decode()
    assert not PracticeSession.objects.exists()
    assert launched == [rules_key(PRESETS["european"].with_overrides({"decks": "3"}))]
    # Once worked out, the same click sits down.
    analysis_run(launched.pop())
    assert Client().post("/practice/", data).status_code == 302


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("/practice/", {"rules": "european", "custom_rules": "decks=2", "seat_1": "you",
                        "bankroll": "1000"}),
        ("/drill/settings/", {"rules_name": "european", "custom_rules": "decks=2",
                              "mode": "all"}),
    ],
)  # fmt: skip
def test_the_labs_buttons_post_only_with_the_csrf_token(
    launched: list[str], path: str, data: dict[str, str]
) -> None:
    client = Client(enforce_csrf_checks=True)
    text = lab_worked_out(client, "european", {"decks": "2"}, launched)
    form = text.split(f'action="{path}"')[1].split("</form>")[0]
    assert 'name="csrfmiddlewaretoken"' in form
    assert client.post(path, data).status_code == 403
    assert not PracticeSession.objects.exists()
    assert "2 decks" not in client.get("/chart/yours/").content.decode()


def test_the_practice_page_names_a_custom_table_in_words(launched: list[str]) -> None:
    client = Client()
    client.post(
        "/practice/", practise_form(lab_worked_out(client, "european", {"decks": "2"}, launched))
    )
    page = html.unescape(client.get("/practice/").content.decode())
    assert "European, with changes of your own" in page  # the open table, and the list
    assert "european-custom" not in page
