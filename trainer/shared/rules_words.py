"""The rules in words: a preset's name, each of the engine's facts about a game, and a
custom rule set as what it changed against its preset.

The facts come from the engine (`engine.rules_facts`); the sentences are the app's, in
the player's language. Pages show these wherever they name the rules, instead of a
label such as ``european-custom v1.0.0`` that says nothing about the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from engine.rules import PRESETS, DoubleOn, Rules, Surrender
from engine.rules_facts import Fact, HoleCard, Topic, base_preset, changes, facts

#: Each preset's name in the player's language.
PRESET_NAMES: dict[str, Promise] = {
    "european": _("European"),
    "deluxe": _("Deluxe"),
    "american": _("American"),
}

#: The words for a fact whose value is one of a few, by topic and value.
_CHOICES: dict[Topic, dict[object, Promise]] = {
    Topic.SOFT_17: {True: _("dealer hits soft 17"), False: _("dealer stands on soft 17")},
    Topic.HOLE_CARD: {
        HoleCard.PEEK: _("the dealer checks for blackjack first"),
        HoleCard.NO_PEEK_TAKES_ALL: _("no peek: a dealer blackjack takes doubles and splits too"),
        HoleCard.NO_PEEK_ORIGINAL_BETS: _(
            "no peek: a dealer blackjack takes only the original bets"
        ),
    },
    Topic.DOUBLE_ON: {
        DoubleOn.ANY_TWO: _("double on any two cards"),
        DoubleOn.NINE_TO_ELEVEN: _("double on 9, 10 or 11 only"),
        DoubleOn.TEN_OR_ELEVEN: _("double on 10 or 11 only"),
    },
    Topic.DOUBLE_AFTER_SPLIT: {
        True: _("double after split"),
        False: _("no double after split"),
    },
    Topic.RESPLIT_ACES: {True: _("aces may be split again"), False: _("aces split once")},
    Topic.HIT_SPLIT_ACES: {
        True: _("split aces may take more cards"),
        False: _("split aces get one card each"),
    },
    Topic.SURRENDER: {
        Surrender.NONE: _("no surrender"),
        Surrender.LATE: _("late surrender"),
        Surrender.EARLY: _("early surrender"),
    },
    Topic.SURRENDER_VS_ACE_OR_TEN: {
        True: _("surrender against any up card"),
        False: _("no surrender against an ace or a ten"),
    },
    Topic.INSURANCE: {True: _("insurance offered"), False: _("no insurance")},
}


#: The topic each rule field a player may change is about, where it is about one alone.
FIELD_TOPICS: dict[str, Topic] = {
    "decks": Topic.DECKS,
    "dealer_hits_soft_17": Topic.SOFT_17,
    "double_on": Topic.DOUBLE_ON,
    "double_after_split": Topic.DOUBLE_AFTER_SPLIT,
    "max_hands": Topic.SPLIT_HANDS,
    "resplit_aces": Topic.RESPLIT_ACES,
    "hit_split_aces": Topic.HIT_SPLIT_ACES,
    "surrender": Topic.SURRENDER,
    "surrender_vs_ace_or_ten": Topic.SURRENDER_VS_ACE_OR_TEN,
    "blackjack_pays": Topic.BLACKJACK_PAYS,
}
#: The peek and the original bets make one fact together (`HoleCard`); alone, each
#: field's value in words.
_HOLE_CARD_FIELDS: dict[str, dict[bool, Promise]] = {
    "dealer_peeks": {
        True: _CHOICES[Topic.HOLE_CARD][HoleCard.PEEK],
        False: _("the dealer does not check for blackjack"),
    },
    "original_bets_only": {
        True: _CHOICES[Topic.HOLE_CARD][HoleCard.NO_PEEK_ORIGINAL_BETS],
        False: _CHOICES[Topic.HOLE_CARD][HoleCard.NO_PEEK_TAKES_ALL],
    },
}


def value_text(field: str, value: Any) -> str:
    """One rule field's value as a phrase ("2 decks", "late surrender"), for a control
    or a single change; a field or value without words here as ``field=value``."""
    if field in _HOLE_CARD_FIELDS and value in _HOLE_CARD_FIELDS[field]:
        return str(_HOLE_CARD_FIELDS[field][value])
    topic = FIELD_TOPICS.get(field)
    if topic in (Topic.DECKS, Topic.SPLIT_HANDS, Topic.BLACKJACK_PAYS):
        return fact_text(Fact(topic, value))
    if topic is not None and value in _CHOICES[topic]:
        return str(_CHOICES[topic][value])
    return f"{field}={value}"


def preset_name(name: str) -> str:
    """A preset's name in the player's language; another name as it is."""
    return str(PRESET_NAMES[name]) if name in PRESET_NAMES else name


def fact_text(fact: Fact) -> str:
    """One fact about the rules as a phrase: "6 decks", "dealer stands on soft 17"."""
    if fact.topic is Topic.DECKS:
        count = int(fact.value)
        return ngettext("%(count)s deck", "%(count)s decks", count) % {"count": count}
    if fact.topic is Topic.SPLIT_HANDS:
        count = int(fact.value)
        if count == 1:
            return gettext("no splitting")
        return ngettext("split to %(count)s hand", "split to %(count)s hands", count) % {
            "count": count
        }
    if fact.topic is Topic.BLACKJACK_PAYS:
        assert isinstance(fact.value, Fraction)
        return gettext("blackjack pays %(odds)s") % {"odds": odds(fact.value)}
    return str(_CHOICES[fact.topic][fact.value])


def odds(payout: Fraction) -> str:
    """A payout as odds: 3/2 as "3:2", 2 as "2:1"."""
    return f"{payout.numerator}:{payout.denominator}"


@dataclass(frozen=True)
class RulesWords:
    """How a page names a rule set: its title and what it says, in words."""

    #: "European", or for a custom set "European, changed".
    title: str
    #: Every fact of a preset; for a custom set, what it changed against its preset.
    details: tuple[str, ...]
    #: The preset it is, or was made from (its rules page); None for rules from elsewhere.
    preset: str | None
    custom: bool

    @classmethod
    def of(cls, rules: Rules) -> RulesWords:
        base = base_preset(rules)
        if base is not None and base == rules.replace(name=base.name):
            return cls(preset_name(base.name), _texts(facts(rules)), base.name, False)
        if base is not None:
            title = gettext("%(preset)s, changed") % {"preset": preset_name(base.name)}
            return cls(title, _texts(changes(rules, base)), base.name, True)
        return cls(gettext("Custom rules"), _texts(facts(rules)), None, True)

    @classmethod
    def named(cls, name: str) -> RulesWords:
        """Rules known only by name (what a history records): a preset in full, a custom
        set by the preset it was made from."""
        if name in PRESETS:
            return cls.of(PRESETS[name])
        base = name.removesuffix("-custom")
        if base in PRESETS:
            title = gettext("%(preset)s, with changes of your own") % {"preset": preset_name(base)}
            return cls(title, (), base, True)
        return cls(name, (), None, True)

    @property
    def summary(self) -> str:
        """The details in one line: "6 decks · dealer stands on soft 17 · …"."""
        separator = ", " if self.custom else " · "
        return separator.join(self.details)


def _texts(listed: tuple[Fact, ...]) -> tuple[str, ...]:
    return tuple(fact_text(fact) for fact in listed)
