"""The rules lab: each change's effect on the house edge and the chart, from the exact
analyses, worked out in the background within the allowance."""

from __future__ import annotations

import html
import io
import json
import re
from typing import Any

import pytest
from django.test import Client

from engine.__main__ import main as engine_command
from engine.rules import PRESETS
from engine.strategy import strategy_for
from trainer.rules.lab import STARTS_PER_REQUEST
from trainer.shared.analyses import analysis_run

pytestmark = pytest.mark.django_db


def lab(client: Client, preset: str, changes: dict[str, str]) -> str:
    response = client.get("/rules/lab/", {"rules_name": preset, **changes})
    assert response.status_code == 200
    return response.content.decode()


def worked_out(client: Client, preset: str, changes: dict[str, str], launched: list[str]) -> str:
    """The lab page once every analysis it asks for is done (as the background does)."""
    text = lab(client, preset, changes)
    while launched:
        analysis_run(launched.pop(0))
        text = lab(client, preset, changes)
    assert 'data-state="running"' not in text and 'data-state="queued"' not in text
    return text


def figures(text: str) -> list[tuple[str, ...]]:
    """Each row of the figures table: label, basic edge, composition-dependent, effect."""
    table = text.split('data-testid="lab-figures"')[1].split("</table>")[0]
    rows = re.findall(r'<tr data-state="ready">(.*?)</tr>', table, re.S)
    cell = re.compile(r"<(?:th|td)[^>]*>(?:<bdi[^>]*>)?(.*?)(?:</bdi>)?</(?:th|td)>", re.S)
    return [tuple(html.unescape(found.strip()) for found in cell.findall(row)) for row in rows]


def edge_command(preset: str, changes: dict[str, str]) -> dict[str, float]:
    """What the engine's ``edge`` command prints for these rules, computed afresh."""
    out = io.StringIO()
    sets = [arg for field, value in changes.items() for arg in ("--set", f"{field}={value}")]
    assert engine_command(["edge", "--rules", preset, "--no-cache", *sets], stdout=out) == 0
    answer: dict[str, float] = json.loads(out.getvalue())
    return answer


def percent(value: float) -> str:
    """A figure as the lab shows it: hundredths of a percent."""
    return f"{value:.2f}%"


def signed(value: float) -> str:
    """An effect as the lab shows it: its sign (a minus sign, not a hyphen) and percent."""
    shown = f"{abs(value):.2f}%"
    if shown == "0.00%":
        return shown
    return ("+" if value > 0 else "\N{MINUS SIGN}") + shown


def test_the_lab_page_shows_the_form_and_is_linked_from_chart_and_rules() -> None:
    client = Client()
    text = client.get("/rules/lab/").content.decode()
    assert 'name="decks"' in text and 'name="dealer_hits_soft_17"' in text
    assert 'href="/rules/lab/"' in client.get("/chart/european/").content.decode()
    assert 'href="/rules/lab/?rules_name=deluxe"' in client.get("/rules/deluxe/").content.decode()


@pytest.mark.parametrize(
    ("preset", "changes", "field", "error"),
    [
        ("american", {"decks": "100"}, "decks", "Select a valid choice"),
        ("american", {"surrender": "early"}, "surrender", "Early surrender only where"),
        ("deluxe", {"resplit_aces": "true"}, "resplit_aces", "Splitting aces again needs"),
        ("european", {"dealer_peeks": "true", "original_bets_only": "true"},
         "original_bets_only", "Only where the dealer does not check"),
    ],
)  # fmt: skip
def test_changes_that_are_no_game_are_refused_at_their_control(
    launched: list[str], preset: str, changes: dict[str, str], field: str, error: str
) -> None:
    response = Client().get("/rules/lab/", {"rules_name": preset, **changes})
    assert response.status_code == 400
    text = response.content.decode()
    # Said beside the control at fault, which names it as its description.
    shown = re.search(rf'<ul class="errorlist" id="id_{field}_error">(.*?)</ul>', text, re.S)
    assert shown is not None and error in shown.group(1)
    assert f'aria-describedby="id_{field}_error"' in text
    assert 'data-testid="lab-figures"' not in text
    assert launched == []  # nothing started


@pytest.mark.parametrize(
    ("preset", "changes"),
    [
        ("european", {"decks": "2"}),
        ("american", {"dealer_hits_soft_17": "true", "surrender": "late"}),
        ("deluxe", {"double_after_split": "false", "blackjack_pays": "6/5"}),
    ],
)  # each set's changes in the order of the lab's controls, as its rows list them
def test_the_figures_are_the_engines_edge_commands(
    launched: list[str], preset: str, changes: dict[str, str]
) -> None:
    rows = figures(worked_out(Client(), preset, changes, launched))
    base = edge_command(preset, {})
    sets = [{field: value} for field, value in changes.items()]
    if len(changes) > 1:
        sets.append(changes)
    expected = [(base, 0.0)] + [
        (edge, edge["house_edge_percent"] - base["house_edge_percent"])
        for edge in (edge_command(preset, one) for one in sets)
    ]
    assert len(rows) == len(expected)
    for (_label, basic, cd, effect), (figure, change) in zip(rows, expected, strict=True):
        assert basic == percent(figure["house_edge_percent"])
        assert cd == percent(-100 * figure["cd_expected_return"])
        assert effect == signed(change)
    assert "Drill on these rules" in worked_out(Client(), preset, changes, launched)


def test_each_change_is_named_in_words_with_its_effects_sign(launched: list[str]) -> None:
    changes = {"decks": "2", "dealer_hits_soft_17": "true"}
    rows = figures(worked_out(Client(), "european", changes, launched))
    assert [row[0] for row in rows] == [
        "European", "2 decks", "dealer hits soft 17", "All changes together"
    ]  # fmt: skip
    fewer_decks, hits_17 = rows[1][3], rows[2][3]
    assert fewer_decks.startswith("\N{MINUS SIGN}") and fewer_decks.endswith("%")  # helps
    assert hits_17.startswith("+") and hits_17.endswith("%")  # costs the player
    table = lab(Client(), "european", changes).split('data-testid="lab-figures"')[1]
    assert "decks=2" not in table.split("</table>")[0]


def test_one_request_starts_at_most_its_share_and_the_page_polls(
    launched: list[str], settings: Any
) -> None:
    settings.BLACKJACK_ANALYSES_AT_ONCE = 4  # slots to spare: the lab's own cap must hold
    changes = {"decks": "2", "dealer_hits_soft_17": "true", "max_hands": "2"}
    text = lab(Client(), "european", changes)
    assert len(launched) == STARTS_PER_REQUEST
    assert 'data-state="queued"' in text and 'hx-trigger="every 3s"' in text
    assert "Drill on these rules" not in text  # no chart before the whole set is done
    assert "Practise on these rules" not in text


def test_the_chart_marks_the_cells_that_differ_from_the_preset(launched: list[str]) -> None:
    text = worked_out(Client(), "american", {"dealer_hits_soft_17": "true"}, launched)
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
    text = worked_out(client, "european", {"decks": "2"}, launched)
    drill = text.split('action="/drill/settings/"')[1].split("</form>")[0]
    posted = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', drill))
    response = client.post("/drill/settings/", posted)
    assert response.status_code == 302
    assert "2 decks" in client.get("/chart/yours/").content.decode()


def test_a_change_that_is_no_game_alone_is_shown_so(launched: list[str]) -> None:
    # Deluxe splits once: resplitting aces needs the third hand the other change gives.
    changes = {"max_hands": "3", "resplit_aces": "true", "decks": "8"}
    text = lab(Client(), "deluxe", changes)
    assert 'data-state="invalid"' in text and "Not a game on its own" in text
    table = text.split('data-testid="lab-figures"')[1]
    assert "aces may be split again" in table  # the refused change, in words
    assert "8 decks" not in table  # no change: deluxe's own
