"""A player's changes to a preset's rules, as the drill settings, the rules lab and the
practice table take them: which rules a player may change, how the changes are written
(``decks=2, dealer_hits_soft_17=true``), and why a change is refused, in the player's
language."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.rule_ranges import RulesError
from engine.rules import ALLOWED, PRESETS, Allowed, Kind, Rules, preset

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


@dataclass(frozen=True)
class RuleChanges:
    """A player's changes to a preset: engine rule fields (`engine.rules.Rules`) and their
    values as `Rules.with_overrides` reads them, kept as such (a JSON object when stored)
    and written as text only where the player types or reads them."""

    changes: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> RuleChanges:
        """The changes typed as ``decks=2, dealer_hits_soft_17=true``; an `OverridesError`
        in the player's language if they cannot be read."""
        return cls(tuple(parse_overrides(text).items()))

    @classmethod
    def stored(cls, data: object) -> RuleChanges:
        """The changes a stored JSON object holds (what is not a field and its value as
        text is passed over: the rules are checked when used, with a notice)."""
        if not isinstance(data, dict):
            return cls()
        return cls(tuple((f, v) for f, v in data.items() if isinstance(v, str)))

    def to_json(self) -> dict[str, str]:
        return dict(self.changes)

    @property
    def text(self) -> str:
        """As a player writes them: ``decks=2, dealer_hits_soft_17=true``."""
        return ", ".join(f"{field}={value}" for field, value in self.changes)

    def applied_to(self, name: str) -> Rules:
        """The preset ``name`` with these changes (a `RulesError` if they are no game)."""
        return preset(name).with_overrides(dict(self.changes))


def custom_rules_of(name: str, custom: str) -> Rules:
    """The preset ``name`` with the player's changes ``custom`` (``"decks=2, …"``), or a
    `forms.ValidationError` saying in the player's language why they are no game."""
    try:
        return RuleChanges.parse(custom).applied_to(name)
    except RulesError as error:
        raise forms.ValidationError(rules_error_text(error)) from None
    except OverridesError as error:
        raise forms.ValidationError(str(error)) from None
