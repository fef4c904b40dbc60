"""The rules lab's controls: one per rule a player may change, each offering the engine's
range in words and starting at the preset's value."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from django.test import Client

from engine.rules import ALLOWED, PRESETS, Allowed, Kind
from engine.strategy.store import KEY_FIELDS
from trainer.rules.forms import LabForm
from trainer.shared.rule_changes import PLAYER_FIELDS


def codes(rules_json: dict[str, Any]) -> dict[str, str]:
    """Each field's value as text the engine reads back (``true``, ``3/2``, ``late``)."""
    return {
        field: ("true" if value else "false") if isinstance(value, bool) else str(value)
        for field, value in rules_json.items()
    }


def offered(form: LabForm, field: str) -> list[str]:
    return [str(value) for value, _label in form.fields[field].choices]  # type: ignore[attr-defined]


def labels(form: LabForm, field: str) -> list[str]:
    return [str(label) for _value, label in form.fields[field].choices]  # type: ignore[attr-defined]


def test_a_control_for_each_rule_the_strategy_depends_on() -> None:
    form = LabForm.of_preset("european")
    controls = [bound.name for bound in form.controls()]
    assert set(controls) == set(PLAYER_FIELDS) == set(KEY_FIELDS)


def test_the_controls_offer_the_engines_ranges_as_they_stand() -> None:
    form = LabForm.of_preset("european")
    decks = ALLOWED["decks"]
    assert offered(form, "decks") == [str(n) for n in range(int(decks.low), int(decks.high) + 1)]
    assert offered(form, "surrender") == list(ALLOWED["surrender"].choices)
    assert offered(form, "double_on") == list(ALLOWED["double_on"].choices)
    assert offered(form, "dealer_hits_soft_17") == ["false", "true"]
    pays = ALLOWED["blackjack_pays"]
    assert all(
        pays.low <= Fraction(value) <= pays.high for value in offered(form, "blackjack_pays")
    )
    assert {"6/5", "3/2"} <= set(offered(form, "blackjack_pays"))


def test_a_narrower_range_in_the_engine_narrows_the_controls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(ALLOWED, "decks", Allowed(Kind.WHOLE, "decks", Fraction(1), Fraction(3)))
    monkeypatch.setitem(
        ALLOWED, "max_hands", Allowed(Kind.WHOLE, "hands", Fraction(2), Fraction(3))
    )
    monkeypatch.setitem(
        ALLOWED, "blackjack_pays", Allowed(Kind.FRACTION, "pays", Fraction(6, 5), Fraction(3, 2))
    )
    monkeypatch.setitem(ALLOWED, "surrender", Allowed(Kind.CHOICE, "s", choices=("none", "late")))
    form = LabForm.of_preset("european")
    assert offered(form, "decks") == ["1", "2", "3"]
    assert offered(form, "max_hands") == ["2", "3"]
    assert offered(form, "blackjack_pays") == ["6/5", "7/5", "3/2"]
    assert offered(form, "surrender") == ["none", "late"]


def test_each_value_is_offered_in_words() -> None:
    form = LabForm.of_preset("european")
    assert labels(form, "decks")[:2] == ["1 deck", "2 decks"]
    assert labels(form, "dealer_hits_soft_17") == [
        "dealer stands on soft 17",
        "dealer hits soft 17",
    ]
    assert labels(form, "surrender") == ["no surrender", "early surrender", "late surrender"]
    assert labels(form, "max_hands")[:2] == ["no splitting", "split to 2 hands"]
    assert "blackjack pays 6:5" in labels(form, "blackjack_pays")
    for bound in form.controls():
        assert not any(
            "=" in label or label in ("true", "false") for label in labels(form, bound.name)
        )


@pytest.mark.parametrize("preset", list(PRESETS))
def test_each_control_starts_at_the_presets_value_and_is_then_no_change(preset: str) -> None:
    form = LabForm.of_preset(preset)
    theirs = codes(PRESETS[preset].to_json())
    assert {bound.name: bound.value() for bound in form.controls()} == {
        field: theirs[field] for field in PLAYER_FIELDS
    }
    assert form.is_valid(), form.errors
    assert form.cleaned_data["overrides"] == {}
    # Every control sent at the preset's value is no change either.
    sent = LabForm({"rules_name": preset, **{field: theirs[field] for field in PLAYER_FIELDS}})
    assert sent.is_valid() and sent.cleaned_data["overrides"] == {}


def test_only_the_controls_moved_from_the_preset_are_changes() -> None:
    deluxe = codes(PRESETS["deluxe"].to_json())
    sent = {field: deluxe[field] for field in PLAYER_FIELDS}
    form = LabForm({"rules_name": "deluxe", **sent, "decks": "6", "surrender": "none"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["overrides"] == {"decks": "6", "surrender": "none"}


def test_a_control_missing_from_a_link_keeps_the_presets_value() -> None:
    form = LabForm({"rules_name": "american", "surrender": "late"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["overrides"] == {"surrender": "late"}
    assert form["dealer_peeks"].value() == "true"  # shown at the American value


@pytest.mark.django_db
def test_use_this_preset_shows_that_presets_values_and_drops_the_changes() -> None:
    european = codes(PRESETS["european"].to_json())
    sent = {field: european[field] for field in PLAYER_FIELDS} | {"decks": "2"}
    response = Client().get("/rules/lab/", {"rules_name": "deluxe", **sent, "use_preset": ""})
    assert response.status_code == 302
    assert response["Location"] == "/rules/lab/?rules_name=deluxe"
    text = Client().get(response["Location"]).content.decode()
    assert '<option value="8" selected>8 decks</option>' in text  # Deluxe's shoe
