"""The rules of a game as one frozen value, and the named presets the product plays.

Every rule of ``shared/RULES.md`` is a field, so another casino's game is one constructor
call (or one ``--set FIELD=VALUE``) away, and everything graded or played can record the
preset's name and version.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from engine.errors import RulesError

__all__ = [
    "AMERICAN",
    "DELUXE",
    "EUROPEAN",
    "PRESETS",
    "Burn",
    "DoubleOn",
    "Rules",
    "Surrender",
    "preset",
]


class DoubleOn(StrEnum):
    """Which first two cards may be doubled."""

    ANY_TWO = "any_two"
    NINE_TO_ELEVEN = "9-11"
    TEN_OR_ELEVEN = "10-11"


class Surrender(StrEnum):
    """Whether a hand may be given up for half its bet (always after any dealer peek)."""

    NONE = "none"
    LATE = "late"


class Burn(StrEnum):
    """What is burned from a fresh shoe before its first round."""

    NONE = "none"
    #: The dealer turns the first card and burns that many more (ace 1, ten-values 10).
    FIRST_CARD_VALUE = "first_card_value"


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """One game's rules; a contradictory combination is refused on construction.

    >>> Rules(decks=2, dealer_hits_soft_17=True).decks
    2
    >>> Rules(dealer_peeks=True, original_bets_only=True)
    Traceback (most recent call last):
    ...
    engine.errors.RulesError: original_bets_only only applies when the dealer does not peek \
(dealer_peeks=False)
    """

    name: str = "custom"
    version: str = "1.0.0"
    decks: int = 6
    #: Fraction of the shoe dealt before the cut card comes out.
    penetration: Fraction = Fraction(3, 4)
    burn: Burn = Burn.NONE
    dealer_hits_soft_17: bool = False
    #: With a peek, a dealer natural ends the round before the players act.
    dealer_peeks: bool = False
    #: Without a peek: a dealer natural takes only the original bets, not doubles and splits.
    original_bets_only: bool = False
    blackjack_pays: Fraction = Fraction(3, 2)
    double_on: DoubleOn = DoubleOn.ANY_TWO
    double_after_split: bool = True
    #: Most hands one seat may hold after splitting (1 = no split, 2 = split once).
    max_hands: int = 4
    resplit_aces: bool = False
    hit_split_aces: bool = False
    surrender: Surrender = Surrender.NONE
    #: False: surrender is not offered when the dealer's up card is an ace or a ten-value.
    surrender_vs_ace_or_ten: bool = True
    insurance: bool = False
    insurance_pays: Fraction = Fraction(2)
    #: Deluxe: a double without the balance becomes a hit; a split without it hits at 11 or
    #: less, else stands. Otherwise those actions are simply not offered.
    short_balance_fallback: bool = False
    max_seats: int = 7
    seats_per_account: int = 1
    bet_behind: bool = False
    pair_bet: bool = False
    perfect_pair_pays: int = 25
    coloured_pair_pays: int = 12
    mixed_pair_pays: int = 6

    def __post_init__(self) -> None:
        problems = list(_contradictions(self))
        if problems:
            raise RulesError("; ".join(problems))

    @property
    def split_aces_one_card(self) -> bool:
        """Split aces get exactly one card each and are then closed."""
        return not self.hit_split_aces

    @property
    def label(self) -> str:
        """``name v1.0.0``, as recorded with everything graded or played."""
        return f"{self.name} v{self.version}"

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated again).

        >>> EUROPEAN.replace(decks=1).decks
        1
        """
        unknown = sorted(set(changes) - set(FIELD_NAMES))
        if unknown:
            raise RulesError(f"unknown rule field(s): {', '.join(unknown)}")
        return dataclasses.replace(self, **changes)

    def with_overrides(self, overrides: Mapping[str, str]) -> Rules:
        """A copy with fields set from text, as given on a command line (``decks=2``).

        >>> EUROPEAN.with_overrides({"decks": "2", "dealer_hits_soft_17": "yes"}).label
        'european-custom v1.0.0'
        """
        changes = {field: _parse_value(field, text) for field, text in overrides.items()}
        if changes and "name" not in changes:
            changes["name"] = f"{self.name}-custom"
        return self.replace(**changes)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON values: enums as their values, fractions as ``"3/2"``."""
        return {field: _to_json_value(getattr(self, field)) for field in FIELD_NAMES}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rules:
        """The inverse of `to_json`."""
        unknown = sorted(set(data) - set(FIELD_NAMES))
        if unknown:
            raise RulesError(f"unknown rule field(s): {', '.join(unknown)}")
        return cls(**{field: _parse_value(field, value) for field, value in data.items()})


FIELD_NAMES: tuple[str, ...] = tuple(field.name for field in dataclasses.fields(Rules))
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _parse_value(field: str, value: Any) -> Any:
    """Turn text or a JSON value into the type of a field, or explain what it expects."""
    if field not in FIELD_NAMES:
        raise RulesError(f"unknown rule field: {field}")
    kind: Any = type(Rules.__dataclass_fields__[field].default)
    try:
        if kind is bool:
            if isinstance(value, bool):
                return value
            if str(value).lower() in _TRUE | _FALSE:
                return str(value).lower() in _TRUE
            raise ValueError
        if kind is int and isinstance(value, bool):
            raise ValueError
        if kind is Fraction and isinstance(value, float):
            raise ValueError  # money and odds are never floats
        return kind(value)
    except (ValueError, TypeError, ZeroDivisionError):
        expected = {
            bool: "true or false",
            int: "a whole number",
            Fraction: "a fraction such as 3/2",
            str: "text",
        }.get(kind) or "one of " + ", ".join(member.value for member in kind)
        raise RulesError(f"{field}={value!r} is not valid: expected {expected}") from None


def _to_json_value(value: Any) -> Any:
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, StrEnum):
        return value.value
    return value


def _contradictions(rules: Rules) -> list[str]:
    found = []
    if rules.decks < 1:
        found.append("decks must be at least 1")
    if not 0 < rules.penetration < 1:
        found.append("penetration must be between 0 and 1")
    if rules.blackjack_pays <= 0 or rules.insurance_pays <= 0:
        found.append("blackjack_pays and insurance_pays must be positive")
    if rules.max_hands < 1:
        found.append("max_hands must be at least 1")
    if rules.dealer_peeks and rules.original_bets_only:
        found.append(
            "original_bets_only only applies when the dealer does not peek (dealer_peeks=False)"
        )
    if rules.resplit_aces and rules.max_hands < 3:
        found.append("resplit_aces needs max_hands of 3 or more")
    if not 1 <= rules.seats_per_account <= rules.max_seats:
        found.append("seats_per_account must be between 1 and max_seats")
    if min(rules.perfect_pair_pays, rules.coloured_pair_pays, rules.mixed_pair_pays) < 0:
        found.append("pair payouts must not be negative")
    return found


EUROPEAN = Rules(name="european", version="1.0.0")
"""The default game: 6 decks, S17, no peek (a dealer natural takes every bet), DAS, 4 hands."""

DELUXE = Rules(
    name="deluxe",
    version="1.0.0",
    decks=8,
    burn=Burn.FIRST_CARD_VALUE,
    dealer_peeks=True,
    max_hands=2,
    surrender=Surrender.LATE,
    surrender_vs_ace_or_ten=False,
    insurance=True,
    short_balance_fallback=True,
    seats_per_account=2,
    bet_behind=True,
    pair_bet=True,
)
"""The live table: 8 decks, peek, split once, surrender, insurance, bet behind, pair bets."""

AMERICAN = Rules(name="american", version="1.0.0", dealer_peeks=True, insurance=True)
"""The control game of published charts: 6 decks, S17, DAS, peek, split to 4, no surrender."""

PRESETS: dict[str, Rules] = {rules.name: rules for rules in (EUROPEAN, DELUXE, AMERICAN)}


def preset(name: str) -> Rules:
    """The preset of that name.

    >>> preset("deluxe").decks
    8
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(
            f"unknown rules preset {name!r}: choose one of {', '.join(PRESETS)}"
        ) from None
