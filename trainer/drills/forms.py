"""The drill's forms: an answer, and the settings."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from engine.chart_vocabulary import UP_CARDS
from engine.rules import PRESETS
from engine.values import Action
from trainer.shared.charts import row_title
from trainer.shared.preferences import (
    FOCUS_ROWS,
    TIME_LIMITS,
    AccountPreferences,
    DrillMode,
    DrillSettings,
)
from trainer.shared.rule_changes import RuleChanges, custom_rules_of
from trainer.shared.rules_words import PRESET_NAMES

ANSWERS = [Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER]


class AnswerForm(forms.Form):
    """An answer to an issued drill: which drill (or the signed ticket of a hand drawn
    for a visitor without a session), and which action."""

    drill = forms.IntegerField(min_value=1, required=False)
    ticket = forms.CharField(max_length=2000, required=False)
    action = forms.ChoiceField(
        choices=[(action.value, action.value) for action in ANSWERS],
        error_messages={
            "required": _("Choose an action."),
            "invalid_choice": _("Choose an action."),
        },
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not self.errors and bool(cleaned.get("drill")) == bool(cleaned.get("ticket")):
            raise forms.ValidationError(_("That hand was not dealt to you."))
        return cleaned


MODE_LABELS = {
    DrillMode.ALL: _("All hands"),
    DrillMode.HARD: _("Hard totals"),
    DrillMode.SOFT: _("Soft totals"),
    DrillMode.PAIR: _("Pairs"),
    DrillMode.CLOSE: _("Close calls"),
    DrillMode.WEAK: _("Weak spots"),
    DrillMode.FOCUS: _("One row or cell (below)"),
}


def _focus_row_choices() -> list[tuple[str, str]]:
    """Called as each form is made, so that the rows are named in the player's language."""
    return [("", "—"), *((row, row_title(row)) for row in FOCUS_ROWS)]


def _time_limit_choices() -> list[tuple[int, str]]:
    seconds = [
        (s, ngettext("%(seconds)s second", "%(seconds)s seconds", s) % {"seconds": s})
        for s in TIME_LIMITS
        if s
    ]
    return [(0, gettext("No limit")), *seconds]


class SettingsForm(forms.Form):
    """The drill settings, and the account-wide preferences the drill page offers."""

    rules_name = forms.ChoiceField(
        label=_("Rules"), choices=[(name, PRESET_NAMES[name]) for name in PRESETS]
    )
    custom_rules = forms.CharField(
        label=_("Changes to the rules"),
        required=False,
        max_length=400,
        help_text=_("Optional, such as: decks=2, dealer_hits_soft_17=true"),
    )
    mode = forms.ChoiceField(label=_("Hands"), choices=list(MODE_LABELS.items()))
    focus_row = forms.ChoiceField(
        label=_("Row to drill"), required=False, choices=_focus_row_choices
    )
    focus_up = forms.ChoiceField(
        label=_("Against"),
        required=False,
        choices=[("", _("any up card")), *((up, up) for up in UP_CARDS)],
    )
    time_limit = forms.TypedChoiceField(
        label=_("Time to answer each hand"),
        coerce=int,
        choices=_time_limit_choices,
        required=False,
        help_text=_("A hand answered later than this counts as a miss."),
    )
    auto_advance = forms.BooleanField(label=_("Deal the next hand by itself"), required=False)
    letter_keys = forms.BooleanField(
        label=_("Play with single-letter keys (H, S, D, P, R, B)"),
        required=False,
        help_text=_("At the drill and the practice table. Enter and Space stay on."),
    )

    def clean_time_limit(self) -> int:
        """Untimed when left out (forms from before timed mode)."""
        return int(self.cleaned_data.get("time_limit") or 0)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("mode") == DrillMode.FOCUS and not cleaned.get("focus_row"):
            self.add_error("focus_row", gettext("Choose the row to drill."))
        name, custom = cleaned.get("rules_name"), cleaned.get("custom_rules", "")
        if name and custom:
            try:
                custom_rules_of(str(name), str(custom))
            except forms.ValidationError as error:
                self.add_error("custom_rules", error)
        return cleaned

    @classmethod
    def of(cls, settings: DrillSettings, preferences: AccountPreferences) -> SettingsForm:
        """The form showing what the player has chosen."""
        return cls(initial={**settings.form_fields(), **asdict(preferences)})

    def chosen(self) -> tuple[DrillSettings, AccountPreferences]:
        """The settings and preferences the valid form gives."""
        data = dict(self.cleaned_data)
        preferences = AccountPreferences(letter_keys=data.pop("letter_keys"))
        data["rule_changes"] = RuleChanges.parse(data.pop("custom_rules"))  # checked in `clean`
        data["mode"] = DrillMode(data["mode"])
        return DrillSettings(**data), preferences
