"""Drill settings: the rules to train on, the mode, whether hands advance by themselves,
and whether single letters play (there and at the practice table).

An account keeps them in the database; a guest in their session (so they carry over when
the guest logs in, see `trainer.signals`). What is stored is read defensively: settings
that an engine change (or a hand-edited session) has made invalid fall back to their
preset with a notice, so no stored value can make the drill page fail.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from fractions import Fraction
from typing import Any

from django import forms
from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from engine.chart_vocabulary import ROWS, UP_CARDS
from engine.drills import DRILLABLE_ROWS, MODES
from engine.errors import RulesError
from engine.rules import ALLOWED, EUROPEAN, PRESETS, Allowed, Kind, Rules, preset
from trainer.charts import row_title
from trainer.models import Preferences
from trainer.rules_words import PRESET_NAMES
from trainer.weak_spots import WEAK_SPOTS

SESSION_KEY = "drill_preferences"
#: The drill mode of one chart row, or one cell of it, that the player picks.
FOCUS = "focus"
#: The chart rows that can be drilled, in the chart's order.
FOCUS_ROWS = tuple(row for row in ROWS if row in DRILLABLE_ROWS)
#: Timed mode: the seconds a player may choose to answer in (0: untimed).
TIME_LIMITS = (0, 3, 5, 10)
MODE_LABELS = {
    "all": _("All hands"),
    "hard": _("Hard totals"),
    "soft": _("Soft totals"),
    "pair": _("Pairs"),
    "close": _("Close calls"),
    WEAK_SPOTS: _("Weak spots"),
    FOCUS: _("One row or cell (below)"),
}
DRILL_MODES = (*MODES, WEAK_SPOTS, FOCUS)

#: The rules a player may change for drills, and what each means: those that change the
#: strategy. The shoe's penetration does not (drills deal from a full shoe), and names,
#: seats and side bets belong to tables, not to a decision.
PLAYER_FIELDS: dict[str, Promise] = {
    "decks": _("decks in the shoe"),
    "dealer_hits_soft_17": _("the dealer hits soft 17 (else stands)"),
    "dealer_peeks": _("the dealer checks for a natural before the players act"),
    "original_bets_only": _(
        "without a peek, a dealer natural takes only the original bets, not doubles and splits"
    ),
    "blackjack_pays": _("what a natural pays, such as 3/2 or 6/5"),
    "double_on": _("which first two cards may be doubled"),
    "double_after_split": _("a hand made by splitting may be doubled"),
    "max_hands": _("most hands a seat may hold by splitting (1: no split)"),
    "resplit_aces": _("split aces may be split again"),
    "hit_split_aces": _("split aces may take more than one card"),
    "surrender": _(
        "whether a hand may be given up for half its bet: early (even against a dealer "
        "natural; only without a peek) or late (a dealer natural the dealer has not "
        "checked for still takes the whole bet)"
    ),
    "surrender_vs_ace_or_ten": _("surrender is also offered against an ace or a ten"),
}


class OverridesError(ValueError):
    """Changes to the rules that cannot be read; the message is in the player's language."""


def range_text(allowed: Allowed) -> str:
    """A field's range in the player's language (the engine's `Allowed.describe`)."""
    if allowed.kind is Kind.YES_NO:
        return gettext("true or false")
    if allowed.kind is Kind.CHOICE:
        return gettext("one of: %(choices)s") % {"choices": ", ".join(allowed.choices)}
    if allowed.kind is Kind.TEXT:
        return gettext("%(low)s to %(high)s characters") % _bounds(allowed)
    if allowed.low == allowed.high:
        return gettext("exactly %(value)s") % {"value": _number(allowed.low)}
    if allowed.kind is Kind.WHOLE:
        return gettext("a whole number from %(low)s to %(high)s") % _bounds(allowed)
    return gettext("a fraction from %(low)s to %(high)s") % _bounds(allowed)


def _number(value: Fraction) -> str:
    return str(value)  # written as typed (3/2), never localised: it is typed back


def _bounds(allowed: Allowed) -> dict[str, str]:
    return {"low": _number(allowed.low), "high": _number(allowed.high)}


def rules_error_text(error: RulesError) -> str:
    """The engine's refusal in the player's language, built from its parts."""
    if error.code == "range" and error.allowed is not None:
        return gettext("%(field)s must be %(range)s") % {
            "field": error.field,
            "range": range_text(error.allowed),
        }
    if error.code == "original_bets_with_peek":
        return gettext(
            "original_bets_only only applies when the dealer does not peek (dealer_peeks=false)"
        )
    if error.code == "early_surrender_with_peek":
        return gettext(
            "early surrender only applies when the dealer does not peek (dealer_peeks=false)"
        )
    if error.code == "resplit_aces_hands":
        return gettext("resplit_aces needs max_hands of 3 or more")
    if error.code == "seats_over_max":
        return gettext("seats_per_account must not be more than max_seats")
    if error.code == "unknown_field":
        return gettext("unknown rule field: %(field)s") % {"field": error.field}
    if error.code == "unknown_preset":
        return gettext("unknown rules preset: choose one of %(presets)s") % {
            "presets": ", ".join(PRESETS)
        }
    return str(error)  # a code this app does not know yet: the engine's English


def _not_changeable(field: str) -> str:
    return gettext("%(field)s is not a rule you can change here") % {"field": field}


@dataclass(frozen=True)
class RuleField:
    """One line of the form's list of rules: name, meaning, range."""

    name: str
    about: Promise
    range: str


def rule_fields() -> list[RuleField]:
    """The rules a player may change, with their ranges from the engine's table."""
    return [
        RuleField(name, about, range_text(ALLOWED[name])) for name, about in PLAYER_FIELDS.items()
    ]


@dataclass(frozen=True)
class DrillSettings:
    rules_name: str = "european"
    custom_rules: str = ""
    mode: str = "all"
    #: The "one row or cell" mode's row ("hard 16") and up card ("10"; "" for any).
    focus_row: str = ""
    focus_up: str = ""
    time_limit: int = 0
    auto_advance: bool = False
    letter_keys: bool = True

    def focus(self) -> tuple[str, str | None] | None:
        """The row and up card (None: any) to drill in the "one row or cell" mode."""
        if self.mode != FOCUS:
            return None
        return self.focus_row, self.focus_up or None

    def rules(self) -> Rules:
        """The preset, with the player's own changes to it."""
        return preset(self.rules_name).with_overrides(parse_overrides(self.custom_rules))

    def rules_in_force(self) -> tuple[Rules, str | None]:
        """The rules to deal, and a notice when stored rules no longer hold (after an
        engine change): then the preset alone, or the European game for an unknown preset."""
        try:
            return self.rules(), None
        except (RulesError, OverridesError) as error:
            reason = rules_error_text(error) if isinstance(error, RulesError) else str(error)
            fallback = PRESETS.get(self.rules_name, EUROPEAN)
        notice = gettext(
            "Your saved rules no longer work (%(reason)s), so these hands follow the "
            "%(preset)s rules. Change them in the settings below."
        ) % {"reason": reason, "preset": fallback.name}
        return fallback, notice


def parse_overrides(text: str) -> dict[str, str]:
    """``"decks=2, dealer_hits_soft_17=true"`` → ``{"decks": "2", …}``, each field one a
    player may change, and only once."""
    overrides: dict[str, str] = {}
    for part in filter(None, (piece.strip() for piece in text.replace(";", ",").split(","))):
        field, sep, value = part.partition("=")
        field = field.strip()
        if not sep:
            raise OverridesError(
                gettext("write each change as FIELD=VALUE, not %(part)s") % {"part": part}
            )
        if field not in PLAYER_FIELDS:
            raise OverridesError(_not_changeable(field))
        if field in overrides:
            raise OverridesError(gettext("%(field)s is given more than once") % {"field": field})
        overrides[field] = value.strip()
    return overrides


def custom_rules_of(name: str, custom: str) -> Rules:
    """The preset ``name`` with the player's changes ``custom`` (``"decks=2, …"``), or a
    `forms.ValidationError` saying in the player's language why they are no game."""
    try:
        return preset(name).with_overrides(parse_overrides(custom))
    except RulesError as error:
        raise forms.ValidationError(rules_error_text(error)) from None
    except OverridesError as error:
        raise forms.ValidationError(str(error)) from None


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
    rules_name = forms.ChoiceField(
        label=_("Rules"), choices=[(name, PRESET_NAMES[name]) for name in PRESETS]
    )
    custom_rules = forms.CharField(
        label=_("Changes to the rules"),
        required=False,
        max_length=400,
        help_text=_("Optional, such as: decks=2, dealer_hits_soft_17=true"),
    )
    mode = forms.ChoiceField(label=_("Hands"), choices=[(m, MODE_LABELS[m]) for m in DRILL_MODES])
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
        if cleaned.get("mode") == FOCUS and not cleaned.get("focus_row"):
            self.add_error("focus_row", gettext("Choose the row to drill."))
        name, custom = cleaned.get("rules_name"), cleaned.get("custom_rules", "")
        if name and custom:
            try:
                custom_rules_of(str(name), str(custom))
            except forms.ValidationError as error:
                self.add_error("custom_rules", error)
        return cleaned


def settings_of(request: HttpRequest) -> DrillSettings:
    """This player's drill settings (the defaults until they choose, or for what is stored
    in a shape these settings no longer have)."""
    if request.user.is_authenticated:
        stored = Preferences.objects.filter(user_id=request.user.pk).first()
        return settings_from_stored(asdict(DrillSettings()) if stored is None else {
            "rules_name": stored.rules_name,
            "custom_rules": stored.custom_rules,
            "mode": stored.mode,
            "focus_row": stored.focus_row,
            "focus_up": stored.focus_up,
            "time_limit": stored.time_limit,
            "auto_advance": stored.auto_advance,
            "letter_keys": stored.letter_keys,
        })  # fmt: skip
    return settings_from_stored(request.session.get(SESSION_KEY))


def settings_from_stored(data: object) -> DrillSettings:
    """Each stored value of the right type, else its default; the rules are checked when
    dealt (`DrillSettings.rules_in_force`), where a notice can say what went wrong."""
    defaults = DrillSettings()
    if not isinstance(data, dict):
        return defaults
    kept = {
        field.name: data[field.name]
        for field in fields(DrillSettings)
        if isinstance(data.get(field.name), type(getattr(defaults, field.name)))
    }
    if kept.get("mode", "all") not in DRILL_MODES:
        del kept["mode"]
    if kept.get("focus_row", "") not in ("", *FOCUS_ROWS):
        del kept["focus_row"]
    if kept.get("focus_up", "") not in ("", *UP_CARDS):
        del kept["focus_up"]
    if kept.get("time_limit", 0) not in TIME_LIMITS:
        del kept["time_limit"]
    if kept.get("mode") == FOCUS and not kept.get("focus_row"):
        del kept["mode"]
    return DrillSettings(**kept)


def settings_save(request: HttpRequest, chosen: DrillSettings) -> None:
    if request.user.is_authenticated:
        Preferences.objects.update_or_create(user_id=request.user.pk, defaults=asdict(chosen))
    else:
        request.session[SESSION_KEY] = asdict(chosen)
