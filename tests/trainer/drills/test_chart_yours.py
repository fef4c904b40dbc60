"""The chart of the rules a player drills on, their own changes included, and which chart
each chart page says the player's drills are graded against."""

from __future__ import annotations

import pytest
from django.test import Client

from trainer.shared.analyses import analysis_run

pytestmark = pytest.mark.django_db
GRADED_HERE = "Your drills are graded against this chart."
GRADED_ELSEWHERE = "Your drills are graded against the chart for your drill rules:"


def drilling(rules: str, custom: str = "") -> Client:
    client = Client()
    response = client.post(
        "/drill/settings/", {"rules_name": rules, "custom_rules": custom, "mode": "all"}
    )
    assert response.status_code == 302
    return client


def test_a_preset_chart_says_the_drills_are_graded_against_it() -> None:
    text = Client().get("/chart/european/").content.decode()
    assert GRADED_HERE in text
    assert "graded against it too" in text  # practice tables on these rules
    assert 'href="/rules/european/"' in text  # the rules, in words, link to their page


def test_a_chart_of_other_rules_names_the_chart_the_drills_are_graded_against() -> None:
    text = drilling("deluxe").get("/chart/european/").content.decode()
    assert GRADED_HERE not in text
    assert GRADED_ELSEWHERE in text and '<a href="/chart/deluxe/">Deluxe</a>' in text


def test_the_chart_of_preset_drill_rules_is_the_presets_page() -> None:
    response = drilling("deluxe").get("/chart/yours/")
    assert response.status_code == 302 and response["Location"] == "/chart/deluxe/"


def test_custom_drill_rules_get_their_chart_once_worked_out(launched: list[str]) -> None:
    client = drilling("european", "decks=2")  # saving them starts their analysis
    waiting = client.get("/chart/yours/").content.decode()
    assert "Working out the exact strategy for your rules" in waiting
    assert "European, changed" in waiting and "2 decks" in waiting
    assert len(launched) == 1  # the chart asks for the same analysis: none more starts
    analysis_run(launched[0])  # as the background process does
    text = client.get("/chart/yours/").content.decode()
    assert GRADED_HERE in text
    assert 'class="strategy-chart"' in text and "2 decks" in text
    assert 'aria-current="page">Your drill rules' in text
    # The preset's chart now points at the player's own.
    european = client.get("/chart/european/").content.decode()
    assert GRADED_ELSEWHERE in european and 'href="/chart/yours/"' in european
