from __future__ import annotations

import re
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django.asserts import assertContains, assertTemplateUsed

from engine.strategy import strategy_for


def cell(html: str, row: str, up_index: int) -> str:
    """The text of one chart cell: the row's header, then the up-card columns in order."""
    match = re.search(rf'<th scope="row">{re.escape(row)}</th>(.*?)</tr>', html, re.S)
    assert match, f"no row {row}"
    cells = re.findall(r"<td[^>]*>(.*?)</td>", match.group(1), re.S)
    return re.sub(r"<[^>]+>", " ", cells[up_index]).split()[0]


def test_the_chart_page_shows_the_european_chart_by_default(client: Client) -> None:
    response = client.get(reverse("trainer:chart"))
    assert response.status_code == 200
    assertTemplateUsed(response, "trainer/rules/chart.html")
    html = response.content.decode()
    # Columns are 2 … 10, A: index 8 is the ten, 9 the ace.
    assert cell(html, "16", 8) == "H"
    assert cell(html, "11", 4) == "D"
    assert cell(html, "A,A", 9) == "H"  # no peek: not split against an ace
    assert cell(html, "8,8", 0) == "P"


def test_the_european_cells_that_differ_from_the_common_chart_are_marked_with_why(
    client: Client,
) -> None:
    html = client.get(reverse("trainer:chart", args=["european"])).content.decode()
    assert html.count('class="differs-mark"') == 4
    assert "the dealer does not look at the hole card for blackjack before you act" in html
    assertContains(
        client.get(reverse("trainer:chart", args=["european"])),
        "Hard 11 against 10: <strong>H</strong> here, D in the common chart",
        html=True,
    )


def test_a_peek_game_has_no_no_peek_note(client: Client) -> None:
    html = client.get(reverse("trainer:chart", args=["american"])).content.decode()
    assert 'class="differs-mark"' not in html
    assert "does not look at the hole card" not in html


def test_deluxe_surrenders_sixteen_against_nine(client: Client) -> None:
    html = client.get(reverse("trainer:chart", args=["deluxe"])).content.decode()
    assert cell(html, "16", 7) == "R"
    assert cell(html, "16", 8) == "H"  # never against a ten at Deluxe


def test_an_unknown_preset_is_not_found(client: Client) -> None:
    assert client.get("/chart/vegas/").status_code == 404


def test_the_chart_only_answers_get(client: Client) -> None:
    assert client.post(reverse("trainer:chart")).status_code == 405


def test_a_request_never_recomputes_a_stored_analysis(client: Client) -> None:
    client.get(reverse("trainer:chart", args=["american"]))  # stored now, if not before
    strategy_for.cache_clear()  # as in a fresh worker process
    recompute = AssertionError("recomputed")
    with mock.patch("engine.strategy.store.compute_strategy", side_effect=recompute):
        assert client.get(reverse("trainer:chart", args=["american"])).status_code == 200


@pytest.mark.parametrize("preset", ["european", "deluxe", "american"])
def test_the_chart_prints_every_row_of_the_rules(client: Client, preset: str) -> None:
    html = client.get(reverse("trainer:chart", args=[preset])).content.decode()
    assert html.count('<th scope="row">') == 17 + 9 + 10
