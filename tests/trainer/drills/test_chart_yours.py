"""The chart of the rules a player drills on, their own changes included, and which chart
each chart page says the player's drills are graded against."""

from __future__ import annotations

import re

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


#: What putting more money out means in a chart's code: a double or a split.
MORE_MONEY = {"D", "Ds", "P", "Ph"}


def whys(page: str) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """Each reason the differences section gives, with the cells listed under it:
    (row against up, this chart's code, the common chart's)."""
    section = page.split('id="differences-heading"', 1)[1]
    found = re.findall(r'class="chart-notes__why">\s*(.*?)</p>\s*<ul>(.*?)</ul>', section, re.S)
    return [
        (
            " ".join(reason.split()),
            re.findall(r"<li>\s*(.*?): <strong>(\w+)</strong> here, (\w+) in the common", cells),
        )
        for reason, cells in found
    ]


def test_the_charts_why_matches_the_cells_it_marks(launched: list[str]) -> None:
    """2 decks, the dealer hitting soft 17, no peek: some cells double or split more than
    the common chart (the rules favour it), some less (no peek): each is told its own why."""
    client = drilling("european", "decks=2, dealer_hits_soft_17=yes")
    client.get("/chart/yours/")
    analysis_run(launched[0])
    page = client.get("/chart/yours/").content.decode()
    grouped = whys(page)
    listed = [cell for _reason, cells in grouped for cell in cells]
    assert len(listed) == page.count('class="differs-mark"') > 0  # every marked cell, once
    more = [cell for cell in listed if cell[1] in MORE_MONEY and cell[2] not in MORE_MONEY]
    assert more  # these rules double or split more somewhere
    for reason, cells in grouped:
        if "does not look at the hole card" in reason:
            # No peek explains only putting less money out than the common chart.
            assert all(
                ours not in MORE_MONEY and theirs in MORE_MONEY for _c, ours, theirs in cells
            )
        else:
            assert "hits where the common chart doubles" not in reason
    assert "hits where the common chart doubles or splits" not in page
