"""The rules lab: each change's effect on the house edge and the chart, from the exact
analyses, worked out in the background within the allowance."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.test import Client

from engine.rules import PRESETS
from engine.strategy import compute_strategy, strategy_for
from trainer import analyses
from trainer.analyses import analysis_run
from trainer.rules_lab import STARTS_PER_REQUEST

pytestmark = pytest.mark.django_db


@pytest.fixture
def launched() -> Iterator[list[str]]:
    """The background analyses started (none runs by itself)."""
    keys: list[str] = []
    strategy_for.cache_clear()
    with mock.patch.object(analyses, "launch", side_effect=keys.append):
        yield keys
    strategy_for.cache_clear()


def lab(client: Client, preset: str, changes: str) -> str:
    response = client.get("/rules/lab/", {"rules_name": preset, "custom_rules": changes})
    assert response.status_code == 200
    return response.content.decode()


def worked_out(client: Client, preset: str, changes: str, launched: list[str]) -> str:
    """The lab page once every analysis it asks for is done (as the background does)."""
    text = lab(client, preset, changes)
    while launched:
        analysis_run(launched.pop(0))
        text = lab(client, preset, changes)
    assert 'data-state="running"' not in text and 'data-state="queued"' not in text
    return text


def figures(text: str) -> list[tuple[str, str, str, str]]:
    """Each row of the figures table: label, basic edge, composition-dependent, effect."""
    table = text.split('data-testid="lab-figures"')[1].split("</table>")[0]
    rows = re.findall(r'<tr data-state="ready">(.*?)</tr>', table, re.S)
    cell = re.compile(r"<(?:th|td)[^>]*>(?:<bdi[^>]*>)?(.*?)(?:</bdi>)?</(?:th|td)>", re.S)
    return [tuple(cell.findall(row)) for row in rows]


def edge(preset: str, changes: dict[str, str]) -> float:
    """The engine's own ``edge`` figure, computed afresh (not read from any store)."""
    return float(compute_strategy(PRESETS[preset].with_overrides(changes)).edge_json()[
        "house_edge_percent"])  # fmt: skip


def test_the_lab_page_shows_the_form_and_is_linked_from_chart_and_rules() -> None:
    client = Client()
    text = client.get("/rules/lab/").content.decode()
    assert 'name="custom_rules"' in text and "dealer_hits_soft_17" in text
    assert 'href="/rules/lab/"' in client.get("/chart/european/").content.decode()
    assert 'href="/rules/lab/?rules_name=deluxe"' in client.get("/rules/deluxe/").content.decode()


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ("decks=100", "decks must be a whole number from 1 to 8"),
        ("penetration=1/2", "penetration is not a rule you can change here"),
        ("decks", "write each change as FIELD=VALUE"),
        ("surrender=early", "early surrender only applies when the dealer does not peek"),
    ],
)
def test_changes_that_are_no_game_are_refused_clearly(
    launched: list[str], changes: str, error: str
) -> None:
    response = Client().get("/rules/lab/", {"rules_name": "american", "custom_rules": changes})
    assert response.status_code == 400
    assert error in response.content.decode()
    assert launched == []  # nothing started


@pytest.mark.parametrize(
    ("preset", "changes"),
    [
        ("european", {"decks": "2"}),
        ("american", {"dealer_hits_soft_17": "true", "surrender": "late"}),
        ("deluxe", {"blackjack_pays": "6/5", "double_after_split": "false"}),
    ],
)
def test_the_figures_are_the_engines_edges(
    launched: list[str], preset: str, changes: dict[str, str]
) -> None:
    written = ", ".join(f"{field}={value}" for field, value in changes.items())
    rows = figures(worked_out(Client(), preset, written, launched))
    base = edge(preset, {})
    expected = [(base, 0.0)]
    expected += [(edge(preset, {f: v}), edge(preset, {f: v}) - base) for f, v in changes.items()]
    if len(changes) > 1:
        expected.append((edge(preset, changes), edge(preset, changes) - base))
    assert len(rows) == len(expected)
    for (_label, shown, _cd, effect), (figure, change) in zip(rows, expected, strict=True):
        assert shown == f"{figure:.2f}%"
        assert float(effect) == pytest.approx(change, abs=0.006)
    assert "Drill on these rules" in worked_out(Client(), preset, written, launched)


def test_one_request_starts_at_most_its_share_and_the_page_polls(
    launched: list[str], settings: Any
) -> None:
    settings.BLACKJACK_ANALYSES_AT_ONCE = 4  # slots to spare: the lab's own cap must hold
    text = lab(Client(), "european", "decks=2, dealer_hits_soft_17=true, max_hands=2")
    assert len(launched) == STARTS_PER_REQUEST
    assert 'data-state="queued"' in text and 'hx-trigger="every 3s"' in text
    assert "Drill on these rules" not in text  # no chart before the whole set is done


def test_the_chart_marks_the_cells_that_differ_from_the_preset(launched: list[str]) -> None:
    text = worked_out(Client(), "american", "dealer_hits_soft_17=true", launched)
    marks = text.count('class="differs-mark"')
    american, changed = strategy_for(PRESETS["american"]), strategy_for(
        PRESETS["american"].with_overrides({"dealer_hits_soft_17": "true"}))  # fmt: skip
    differ = sum(
        american.chart[row][up] != changed.chart[row][up] for row in american.chart
        for up in american.chart[row]
    )  # fmt: skip
    assert marks == differ > 0
    assert "hx-trigger" not in text


def test_drilling_from_the_lab_saves_the_rules(launched: list[str]) -> None:
    client = Client()
    worked_out(client, "european", "decks=2", launched)
    response = client.post(
        "/drill/settings/",
        {"rules_name": "european", "custom_rules": "decks=2", "mode": "all", "letter_keys": "on"},
    )
    assert response.status_code == 302
    assert "2 decks" in client.get("/chart/yours/").content.decode()


def test_a_change_that_is_no_game_alone_is_shown_so(launched: list[str]) -> None:
    # Deluxe splits once: resplitting aces needs the third hand the other change gives.
    text = lab(Client(), "deluxe", "max_hands=3, resplit_aces=true, decks=8")
    assert 'data-state="invalid"' in text and "Not a game on its own" in text
    assert "decks=8" not in text.split('data-testid="lab-figures"')[1]  # no change: deluxe's own
