"""The rules lab's form: a preset, and a control for each rule a player may change.

Each control's values come from the engine's ranges (`engine.rules.ALLOWED`), each in
words (`trainer.shared.rules_words.value_text`), and it starts at the preset's value: a control
left there is no change. The form is sent by GET, so a lab is a link; a field missing
from the link keeps the preset's value.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from engine.rule_ranges import RulesError
from engine.rules import ALLOWED, PRESETS, Allowed, Kind, Rules
from trainer.shared.rule_changes import rules_error_text
from trainer.shared.rules_words import PRESET_NAMES, value_text

#: Each control's label, in the order the form shows them: a control for each field of
#: `trainer.shared.rule_changes.PLAYER_FIELDS` (those that change the strategy).
FIELD_LABELS: dict[str, Promise] = {
    "decks": _("Decks"),
    "dealer_hits_soft_17": _("Soft 17"),
    "dealer_peeks": _("Peek for blackjack"),
    "original_bets_only": _("A dealer blackjack without a peek"),
    "double_on": _("Doubling"),
    "double_after_split": _("Doubling after a split"),
    "max_hands": _("Splitting"),
    "resplit_aces": _("Splitting aces again"),
    "hit_split_aces": _("Split aces"),
    "surrender": pgettext_lazy("rule setting", "Surrender"),
    "surrender_vs_ace_or_ten": _("Surrender against an ace or a ten"),
    "blackjack_pays": _("A player's blackjack"),
}
#: What casinos pay a natural; a fraction field's control offers those its range admits.
NATURAL_PAYOUTS = (Fraction(1), Fraction(6, 5), Fraction(7, 5), Fraction(3, 2), Fraction(2))


def field_values(allowed: Allowed) -> tuple[Any, ...]:
    """The values a control offers for a field of this range, in order."""
    if allowed.kind is Kind.YES_NO:
        return (False, True)
    if allowed.kind is Kind.CHOICE:
        return allowed.choices
    if allowed.kind is Kind.WHOLE:
        return tuple(range(int(allowed.low), int(allowed.high) + 1))
    if allowed.kind is Kind.FRACTION:
        return tuple(pay for pay in NATURAL_PAYOUTS if allowed.low <= pay <= allowed.high)
    raise ValueError(f"no control for a {allowed.kind} field")


def value_code(value: Any) -> str:
    """A value as the engine reads it back from text (``true``, ``3/2``, ``late``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def preset_codes(rules: Rules) -> dict[str, str]:
    """Each control's value under ``rules``."""
    return {field: value_code(getattr(rules, field)) for field in FIELD_LABELS}


def _refusal_text(error: RulesError) -> str:
    """Why a combination is no game, in the words of the controls; another refusal as
    the drill settings give it."""
    if error.code == "original_bets_with_peek":
        return gettext("Only where the dealer does not check for blackjack.")
    if error.code == "early_surrender_with_peek":
        return gettext("Early surrender only where the dealer does not check for blackjack.")
    if error.code == "resplit_aces_hands":
        return gettext("Splitting aces again needs splitting to 3 hands or more.")
    return rules_error_text(error)


class LabForm(forms.Form):
    """A preset and a control per rule; ``cleaned_data["overrides"]`` holds the controls
    moved from the preset's value, as the engine reads them (``{"decks": "2"}``)."""

    rules_name = forms.ChoiceField(
        label=_("Compare with"), choices=[(name, PRESET_NAMES[name]) for name in PRESETS]
    )

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        if data is not None and data.get("rules_name") in PRESETS:
            # A control missing from the link shows, and keeps, the preset's value.
            data = {**preset_codes(PRESETS[data["rules_name"]]), **_given(data)}
        super().__init__(data)
        for field, label in FIELD_LABELS.items():
            values = field_values(ALLOWED[field])
            self.fields[field] = forms.ChoiceField(
                label=str(label),  # a form is made per request, in its language
                required=False,
                choices=[(value_code(value), value_text(field, value)) for value in values],
            )

    @classmethod
    def of_preset(cls, name: str) -> LabForm:
        """The form with every control at the preset's value."""
        return cls({"rules_name": name})

    def controls(self) -> list[forms.BoundField]:
        return [self[field] for field in FIELD_LABELS]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        name = cleaned.get("rules_name")
        if not name:
            return cleaned
        base = PRESETS[str(name)]
        theirs = preset_codes(base)
        overrides = {
            field: code
            for field in FIELD_LABELS
            if (code := cleaned.get(field)) and code != theirs[field]
        }
        try:
            base.with_overrides(overrides)
        except RulesError as error:
            self.add_error(error.field if error.field in self.fields else None,
                           _refusal_text(error))  # fmt: skip
        cleaned["overrides"] = overrides
        return cleaned


def _given(data: Mapping[str, Any]) -> dict[str, Any]:
    """The values a request gave (a query's last value of each key), empty ones left out."""
    return {key: data.get(key) for key in data if data.get(key)}
