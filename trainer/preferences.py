"""Drill settings: the rules to train on, the mode, and whether hands advance by themselves.

An account keeps them in the database; a guest in their session (so they carry over when
the guest logs in, see `trainer.signals`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from engine.drills import MODES
from engine.errors import RulesError
from engine.rules import PRESETS, Rules, preset
from trainer.models import Preferences
from trainer.weak_spots import WEAK_SPOTS

SESSION_KEY = "drill_preferences"
MODE_LABELS = {
    "all": _("All hands"),
    "hard": _("Hard totals"),
    "soft": _("Soft totals"),
    "pair": _("Pairs"),
    "close": _("Close calls"),
    WEAK_SPOTS: _("Weak spots"),
}


@dataclass(frozen=True)
class DrillSettings:
    rules_name: str = "european"
    custom_rules: str = ""
    mode: str = "all"
    auto_advance: bool = False

    def rules(self) -> Rules:
        """The preset, with the player's own changes to it."""
        return preset(self.rules_name).with_overrides(parse_overrides(self.custom_rules))


def parse_overrides(text: str) -> dict[str, str]:
    """``"decks=2, dealer_hits_soft_17=true"`` → ``{"decks": "2", …}``."""
    overrides = {}
    for part in filter(None, (piece.strip() for piece in text.replace(";", ",").split(","))):
        field, sep, value = part.partition("=")
        if not sep:
            raise RulesError(f"write each change as FIELD=VALUE, not {part!r}")
        overrides[field.strip()] = value.strip()
    return overrides


class SettingsForm(forms.Form):
    rules_name = forms.ChoiceField(
        label=_("Rules"), choices=[(name, name.capitalize()) for name in PRESETS]
    )
    custom_rules = forms.CharField(
        label=_("Changes to the rules"),
        required=False,
        max_length=400,
        help_text=_("Optional, such as: decks=2, dealer_hits_soft_17=true"),
    )
    mode = forms.ChoiceField(
        label=_("Hands"), choices=[(m, MODE_LABELS[m]) for m in (*MODES, WEAK_SPOTS)]
    )
    auto_advance = forms.BooleanField(label=_("Deal the next hand by itself"), required=False)

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        name, custom = cleaned.get("rules_name"), cleaned.get("custom_rules", "")
        if name and custom:
            try:
                preset(str(name)).with_overrides(parse_overrides(str(custom)))
            except RulesError as error:
                self.add_error("custom_rules", str(error))
        return cleaned


def settings_of(request: HttpRequest) -> DrillSettings:
    """This player's drill settings (the defaults until they choose)."""
    if request.user.is_authenticated:
        stored = Preferences.objects.filter(user_id=request.user.pk).first()
        if stored is None:
            return DrillSettings()
        return DrillSettings(
            stored.rules_name, stored.custom_rules, stored.mode, stored.auto_advance
        )
    return DrillSettings(**request.session.get(SESSION_KEY, {}))


def settings_save(request: HttpRequest, chosen: DrillSettings) -> None:
    if request.user.is_authenticated:
        Preferences.objects.update_or_create(user_id=request.user.pk, defaults=asdict(chosen))
    else:
        request.session[SESSION_KEY] = asdict(chosen)
