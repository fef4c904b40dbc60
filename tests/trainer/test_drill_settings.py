from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from pytest_django.asserts import assertContains

from engine.drills import CLOSE_MARGIN, Situation, deal_situation
from engine.rules import DELUXE, EUROPEAN, preset
from trainer.models import Drill, Preferences

pytestmark = pytest.mark.django_db
DRILL = "/drill/"
SETTINGS = "/drill/settings/"


def choose(client: Client, rules: str = "european", mode: str = "all", auto: bool = False) -> None:
    data = {"rules_name": rules, "mode": mode}
    if auto:
        data["auto_advance"] = "on"
    response = client.post(SETTINGS, data)
    assert response.status_code == 302 and response["Location"] == reverse("trainer:drill")


def dealt(client: Client) -> Situation:
    client.get(DRILL)
    drill = Drill.objects.filter(answered_at=None).latest("pk")
    return Situation.parse(preset(drill.rules_name), drill.cards, drill.up)


@pytest.mark.parametrize("mode", ["hard", "soft", "pair"])
def test_a_mode_deals_only_its_kind_of_hand(client: Client, mode: str) -> None:
    choose(client, mode=mode)
    for _ in range(4):
        assert dealt(client).row.startswith(mode)
        Drill.objects.filter(answered_at=None).delete()


def test_close_calls_are_within_the_margin() -> None:
    rng = random.Random(5)
    for _ in range(10):
        situation = deal_situation(EUROPEAN, rng, mode="close")
        assert situation.margin() <= CLOSE_MARGIN


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown drill mode"):
        deal_situation(EUROPEAN, random.Random(1), mode="weird")


def test_the_rules_chosen_are_the_rules_dealt(client: Client) -> None:
    choose(client, rules="deluxe")
    assert dealt(client).rules is DELUXE
    assertContains(client.get(DRILL), "Rules: deluxe v1.0.0")


def test_changing_settings_drops_only_the_unanswered_hand(client: Client) -> None:
    client.get(DRILL)
    first = Drill.objects.get()
    client.post(DRILL, {"drill": first.pk, "action": "stand"})
    client.post(DRILL, {"deal": "1"})
    assert Drill.objects.filter(answered_at=None).count() == 1
    choose(client, mode="pair")
    assert Drill.objects.filter(answered_at=None).count() == 0
    assert Drill.objects.filter(pk=first.pk).exists()


def test_bad_settings_are_refused_and_change_nothing(client: Client) -> None:
    response = client.post(SETTINGS, {"rules_name": "vegas", "mode": "all"})
    assert response.status_code == 400
    assert "drill_preferences" not in client.session


def test_an_account_keeps_its_settings_and_a_guest_brings_theirs(client: Client) -> None:
    choose(client, rules="american", mode="soft", auto=True)
    password = "a-long-pass-phrase-7"
    client.post(
        reverse("signup"), {"username": "ann", "password1": password, "password2": password}
    )
    stored = Preferences.objects.get(user__username="ann")
    assert (stored.rules_name, stored.mode, stored.auto_advance) == ("american", "soft", True)
    other = Client()
    other.force_login(get_user_model().objects.create_user("bob", password=password))
    choose(other, mode="pair")
    assert Preferences.objects.get(user__username="ann").mode == "soft"


def test_auto_advance_deals_the_next_hand_by_itself(client: Client) -> None:
    choose(client, auto=True)
    dealt(client)
    drill = Drill.objects.filter(answered_at=None).latest("pk")
    response = client.post(
        DRILL, {"drill": drill.pk, "action": "hit"}, headers={"HX-Request": "true"}
    )
    assertContains(response, 'hx-trigger="submit, load delay:2s"')


def test_settings_need_a_post(client: Client) -> None:
    assert client.get(SETTINGS).status_code == 405


def test_a_player_drills_their_own_casinos_rules(client: Client) -> None:
    response = client.post(
        SETTINGS,
        {"rules_name": "european", "mode": "all", "custom_rules": "decks=1, blackjack_pays=6/5"},
    )
    assert response.status_code == 302
    client.get(DRILL)
    drill = Drill.objects.get(answered_at=None)
    assert (drill.rules_name, drill.rules["decks"], drill.rules["blackjack_pays"]) == (
        "european-custom",
        1,
        "6/5",
    )
    assertContains(client.get(DRILL), "Rules: european-custom v1.0.0")
    answered = client.post(DRILL, {"drill": drill.pk, "action": "stand"})
    assert answered.status_code == 302


@pytest.mark.parametrize(
    ("custom", "message"),
    [
        ("decks=0", "decks must be at least 1"),
        ("nonsense=1", "unknown rule field"),
        ("decks", "FIELD=VALUE"),
    ],
)
def test_bad_custom_rules_are_shown_and_change_nothing(
    client: Client, custom: str, message: str
) -> None:
    response = client.post(
        SETTINGS, {"rules_name": "european", "mode": "all", "custom_rules": custom}
    )
    assertContains(response, message, status_code=400)
    assertContains(response, '<details class="drill-settings" open>', status_code=400)
    assert "drill_preferences" not in client.session
