"""What a player has chosen and the trainer keeps for them: the account-wide preferences
(single-letter keys, at the drill and the tables alike) and the drill settings (the rules
to train on, which hands, a time limit, whether hands advance by themselves).

An account keeps them in its `Preferences` row; a guest in their session, from which they
follow the guest into the account they sign up or log in as (`adopt_guest_choices`). What
is stored is read defensively: settings that an engine change (or a hand-edited session)
has made invalid fall back to their defaults, or for rules to their preset with a notice,
so no stored value can make a page fail. The drill settings are read by the drills (what
to deal) and by the rules pages (which chart grades the player's drills).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest
from django.utils.translation import gettext

from engine.chart_vocabulary import ROWS, UP_CARDS
from engine.drills import DRILLABLE_ROWS
from engine.rule_ranges import RulesError
from engine.rules import EUROPEAN, PRESETS, Rules
from trainer.models import Preferences
from trainer.shared.rule_changes import RuleChanges, rules_error_text

#: Where a guest's choices are kept in their session (one dict, every field of both).
SESSION_KEY = "drill_preferences"
#: The chart rows that can be drilled, in the chart's order.
FOCUS_ROWS = tuple(row for row in ROWS if row in DRILLABLE_ROWS)
#: Timed mode: the seconds a player may choose to answer in (0: untimed).
TIME_LIMITS = (0, 3, 5, 10)


class DrillMode(StrEnum):
    """Which hands a drill deals: a kind the engine deals (`engine.drills.MODES`), the
    player's weak spots by spaced repetition, or one row or cell of the chart."""

    ALL = "all"
    HARD = "hard"
    SOFT = "soft"
    PAIR = "pair"
    CLOSE = "close"
    WEAK = "weak"
    FOCUS = "focus"


@dataclass(frozen=True)
class AccountPreferences:
    """Chosen once for the whole trainer, not per drill or table."""

    #: Single letters play (H, S, D, P, R, B) at the drill and the practice table.
    letter_keys: bool = True


@dataclass(frozen=True)
class DrillSettings:
    """What the drill deals, and under which rules."""

    rules_name: str = "european"
    rule_changes: RuleChanges = RuleChanges()
    mode: DrillMode = DrillMode.ALL
    #: The "one row or cell" mode's row ("hard 16") and up card ("10"; "" for any).
    focus_row: str = ""
    focus_up: str = ""
    time_limit: int = 0
    auto_advance: bool = False

    def focus(self) -> tuple[str, str | None] | None:
        """The row and up card (None: any) to drill in the "one row or cell" mode."""
        if self.mode is not DrillMode.FOCUS:
            return None
        return self.focus_row, self.focus_up or None

    def rules(self) -> Rules:
        """The preset, with the player's own changes to it."""
        return self.rule_changes.applied_to(self.rules_name)

    def rules_in_force(self) -> tuple[Rules, str | None]:
        """The rules to deal, and a notice when stored rules no longer hold (after an
        engine change): then the preset alone, or the European game for an unknown preset."""
        try:
            return self.rules(), None
        except RulesError as error:
            reason = rules_error_text(error)
            fallback = PRESETS.get(self.rules_name, EUROPEAN)
        notice = gettext(
            "Your saved rules no longer work (%(reason)s), so these hands follow the "
            "%(preset)s rules. Change them in the settings below."
        ) % {"reason": reason, "preset": fallback.name}
        return fallback, notice

    def stored(self) -> dict[str, Any]:
        """As kept: the fields of `Preferences`, JSON values."""
        return {**asdict(self), "rule_changes": self.rule_changes.to_json()}

    def form_fields(self) -> dict[str, Any]:
        """As the drill settings form sends them, the changes written out."""
        fields = {**asdict(self), "custom_rules": self.rule_changes.text}
        del fields["rule_changes"]
        return fields


def choices_of(request: HttpRequest) -> tuple[DrillSettings, AccountPreferences]:
    """This player's drill settings and account-wide preferences, in one read (the
    defaults until they choose, or for what is stored in a shape these no longer have)."""
    stored = _stored(request)
    return settings_from_stored(stored), preferences_from_stored(stored)


def settings_of(request: HttpRequest) -> DrillSettings:
    """This player's drill settings."""
    return settings_from_stored(_stored(request))


def preferences_of(request: HttpRequest) -> AccountPreferences:
    """This player's account-wide preferences."""
    return preferences_from_stored(_stored(request))


def choices_save(
    request: HttpRequest, settings: DrillSettings, preferences: AccountPreferences
) -> None:
    """Keep both, in one write."""
    chosen = {**settings.stored(), **asdict(preferences)}
    if request.user.is_authenticated:
        Preferences.objects.update_or_create(user_id=request.user.pk, defaults=chosen)
    else:
        request.session[SESSION_KEY] = chosen


def adopt_guest_choices(session: SessionBase, user_id: int) -> None:
    """On log-in: a guest's choices become the account's, unless it has its own. Read as
    the drill reads them, so that a session of an older shape never stops a log-in."""
    stored = session.pop(SESSION_KEY, None)
    if stored and not Preferences.objects.filter(user_id=user_id).exists():
        settings, preferences = settings_from_stored(stored), preferences_from_stored(stored)
        chosen = {**settings.stored(), **asdict(preferences)}
        Preferences.objects.create(user_id=user_id, **chosen)


def settings_from_stored(data: object) -> DrillSettings:
    """Each stored value of the right type, else its default; the rules are checked when
    dealt (`DrillSettings.rules_in_force`), where a notice can say what went wrong."""
    defaults = DrillSettings()
    if not isinstance(data, dict):
        return defaults
    kept: dict[str, Any] = {
        field.name: data[field.name]
        for field in fields(DrillSettings)
        if isinstance(data.get(field.name), _stored_type(getattr(defaults, field.name)))
    }
    kept["rule_changes"] = RuleChanges.stored(data.get("rule_changes"))
    if "mode" in kept:
        if kept["mode"] in DrillMode:
            kept["mode"] = DrillMode(kept["mode"])
        else:
            del kept["mode"]
    if kept.get("focus_row", "") not in ("", *FOCUS_ROWS):
        del kept["focus_row"]
    if kept.get("focus_up", "") not in ("", *UP_CARDS):
        del kept["focus_up"]
    if kept.get("time_limit", 0) not in TIME_LIMITS:
        del kept["time_limit"]
    if kept.get("mode") is DrillMode.FOCUS and not kept.get("focus_row"):
        del kept["mode"]
    return DrillSettings(**kept)


def preferences_from_stored(data: object) -> AccountPreferences:
    """The stored preferences of the right type, else the defaults."""
    if isinstance(data, dict) and isinstance(data.get("letter_keys"), bool):
        return AccountPreferences(letter_keys=data["letter_keys"])
    return AccountPreferences()


def _stored_type(default: object) -> type:
    """The type a stored value must have to stand for ``default``'s (an enum's as text)."""
    return str if isinstance(default, str) else type(default)


def _stored(request: HttpRequest) -> object:
    """What is kept for this player: the account's row as a dict, or the guest's session
    dict (anything at all, for a hand-edited session)."""
    if request.user.is_authenticated:
        stored = Preferences.objects.filter(user_id=request.user.pk).first()
        if stored is None:
            return None
        return {field: getattr(stored, field) for field in _STORED_FIELDS}
    return request.session.get(SESSION_KEY)


_STORED_FIELDS = (*(field.name for field in fields(DrillSettings)), "letter_keys")
