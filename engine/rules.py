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

from engine.rule_ranges import Allowed, Kind, RulesError

__all__ = [
    "ALLOWED",
    "AMERICAN",
    "DELUXE",
    "EUROPEAN",
    "PRESETS",
    "Allowed",
    "Burn",
    "DoubleOn",
    "Kind",
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
    """Whether, and when, a hand may be given up for half its bet."""

    NONE = "none"
    #: Decided before the hole card is known: half the bet back against anything, a
    #: dealer natural included (only without a peek: the round has no decision before one).
    EARLY = "early"
    #: Decided after the dealer checks for a natural; without a peek nobody has checked,
    #: so a dealer natural still takes the whole bet of a surrendered hand.
    LATE = "late"


class Burn(StrEnum):
    """What is burned from a fresh shoe before its first round."""

    NONE = "none"
    #: The dealer turns the first card and burns that many more (ace 1, ten-values 10).
    FIRST_CARD_VALUE = "first_card_value"


#: The totals a restricted ``double_on`` allows.
_DOUBLE_TOTALS = {DoubleOn.NINE_TO_ELEVEN: (9, 10, 11), DoubleOn.TEN_OR_ELEVEN: (10, 11)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """One game's rules; a value outside its field's range (`ALLOWED`), or a
    contradictory combination, is refused on construction.

    Every field is bounded by what casinos offer, which also bounds what the strategy
    analysis and a dealt shoe cost: nothing a visitor types can make them unbounded.

    >>> Rules(decks=2, dealer_hits_soft_17=True).decks
    2
    >>> Rules(decks=100000)
    Traceback (most recent call last):
    ...
    engine.rule_ranges.RulesError: decks must be a whole number from 1 to 8
    >>> Rules(dealer_peeks=True, original_bets_only=True)
    Traceback (most recent call last):
    ...
    engine.rule_ranges.RulesError: original_bets_only only applies when the dealer does not peek \
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
    #: Deluxe: double and split are offered only when the balance covers them; a
    #: pre-selected double that finds the balance short when the turn comes becomes a hit,
    #: a split a hit at 11 or less, else a stand. Otherwise such a pre-selection lapses.
    short_balance_fallback: bool = False
    max_seats: int = 7
    seats_per_account: int = 1
    bet_behind: bool = False
    pair_bet: bool = False
    perfect_pair_pays: int = 25
    coloured_pair_pays: int = 12
    mixed_pair_pays: int = 6

    def __post_init__(self) -> None:
        for field, allowed in ALLOWED.items():
            value = getattr(self, field)
            admitted = allowed.admit(field, value)
            if admitted is not value:
                object.__setattr__(self, field, admitted)  # frozen: normalised once, here
        _refuse_contradictions(self)

    def may_double(self, total: int) -> bool:
        """Whether a first two cards of this total may be doubled (`double_on`).

        >>> EUROPEAN.may_double(16), EUROPEAN.replace(double_on="9-11").may_double(16)
        (True, False)
        """
        return self.double_on is DoubleOn.ANY_TWO or total in _DOUBLE_TOTALS[self.double_on]

    def may_surrender(self, up_points: int) -> bool:
        """Whether a hand may be surrendered against this up card (points, ace 1) — on its
        first two cards, before any other decision, which the round checks.

        >>> DELUXE.may_surrender(9), DELUXE.may_surrender(10), EUROPEAN.may_surrender(9)
        (True, False, False)
        """
        if self.surrender is Surrender.NONE:
            return False
        return self.surrender_vs_ace_or_ten or up_points not in (1, 10)

    @property
    def surrender_lost_to_natural(self) -> bool:
        """A surrendered hand loses its whole bet to a dealer natural: late surrender
        without a peek (with one, a natural ends the round before anyone surrenders).

        >>> EUROPEAN.replace(surrender="late").surrender_lost_to_natural
        True
        >>> EUROPEAN.replace(surrender="early").surrender_lost_to_natural
        False
        """
        return self.surrender is Surrender.LATE and not self.dealer_peeks

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
        _refuse_unknown(changes)
        return dataclasses.replace(self, **changes)

    def with_overrides(self, overrides: Mapping[str, str]) -> Rules:
        """A copy with fields set from text, as given on a command line (``decks=2``);
        with none, these rules themselves (a preset, not checked again on every request).

        >>> EUROPEAN.with_overrides({"decks": "2", "dealer_hits_soft_17": "yes"}).label
        'european-custom v1.0.0'
        >>> EUROPEAN.with_overrides({}) is EUROPEAN
        True
        """
        if not overrides:
            return self
        changes = {field: _parse_value(field, text) for field, text in overrides.items()}
        if "name" not in changes:
            changes["name"] = f"{self.name}-custom"
        return self.replace(**changes)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON values: enums as their values, fractions as ``"3/2"``."""
        return {field: _to_json_value(getattr(self, field)) for field in FIELD_NAMES}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rules:
        """The inverse of `to_json`."""
        _refuse_unknown(data)
        return cls(**{field: _parse_value(field, value) for field, value in data.items()})


FIELD_NAMES: tuple[str, ...] = tuple(field.name for field in dataclasses.fields(Rules))


def _whole(low: int, high: int, about: str) -> Allowed:
    return Allowed(Kind.WHOLE, about, Fraction(low), Fraction(high))


def _fraction(low: Fraction, high: Fraction, about: str) -> Allowed:
    return Allowed(Kind.FRACTION, about, low, high)


def _yes_no(about: str) -> Allowed:
    return Allowed(Kind.YES_NO, about)


def _choice(enum: type[StrEnum], about: str) -> Allowed:
    return Allowed(Kind.CHOICE, about, choices=tuple(member.value for member in enum), enum=enum)


#: Every field's range: what casinos offer, which also bounds the cost of analysing and
#: dealing any rules a player may type.
ALLOWED: dict[str, Allowed] = {
    "name": Allowed(
        Kind.TEXT, "the rules' name, recorded with everything played", Fraction(1),
        Fraction(40), pattern=r"[A-Za-z0-9_-]{1,40}", characters="letters, digits, - or _",
    ),
    "version": Allowed(
        Kind.TEXT, "the rules' version, recorded with everything played", Fraction(1),
        Fraction(20), pattern=r"[A-Za-z0-9.+_-]{1,20}",
        characters="letters, digits, ., +, - or _",
    ),
    "decks": _whole(1, 8, "decks in the shoe"),
    "penetration": _fraction(
        Fraction(1, 2), Fraction(9, 10), "share of the shoe dealt before the cut card"
    ),
    "burn": _choice(Burn, "cards burned from a fresh shoe"),
    "dealer_hits_soft_17": _yes_no("the dealer hits soft 17 (else stands)"),
    "dealer_peeks": _yes_no("the dealer checks for a natural before the players act"),
    "original_bets_only": _yes_no(
        "without a peek, a dealer natural takes only the original bets"
    ),
    "blackjack_pays": _fraction(Fraction(1), Fraction(2), "what a natural pays, such as 3/2"),
    "double_on": _choice(DoubleOn, "which first two cards may be doubled"),
    "double_after_split": _yes_no("a hand made by splitting may be doubled"),
    "max_hands": _whole(1, 4, "most hands a seat may hold by splitting (1: no split)"),
    "resplit_aces": _yes_no("split aces may be split again"),
    "hit_split_aces": _yes_no("split aces may take more than one card"),
    "surrender": _choice(
        Surrender,
        "whether a hand may be given up for half its bet: early (even against a dealer "
        "natural) or late (a natural without a peek takes the whole bet)",
    ),
    "surrender_vs_ace_or_ten": _yes_no("surrender is offered against an ace or a ten"),
    "insurance": _yes_no("insurance is offered against an ace"),
    "insurance_pays": _fraction(Fraction(2), Fraction(2), "what insurance pays"),
    "short_balance_fallback": _yes_no(
        "a pre-selected double or split the balance no longer covers becomes a hit or stand"
    ),
    "max_seats": _whole(1, 7, "seats at the table"),
    "seats_per_account": _whole(1, 2, "seats one player may take"),
    "bet_behind": _yes_no("players may bet behind another's seat"),
    "pair_bet": _yes_no("the pair side bet is offered"),
    "perfect_pair_pays": _whole(0, 30, "what a perfect pair pays"),
    "coloured_pair_pays": _whole(0, 30, "what a coloured pair pays"),
    "mixed_pair_pays": _whole(0, 30, "what a mixed pair pays"),
}  # fmt: skip


def _refuse_unknown(fields: Mapping[str, Any]) -> None:
    for field in fields:
        if field not in ALLOWED:
            raise RulesError(f"unknown rule field: {field}", field=field, code="unknown_field")


def _parse_value(field: str, value: Any) -> Any:
    """Turn text or a JSON value into the type of a field, or explain what it expects."""
    _refuse_unknown({field: value})
    return ALLOWED[field].parse(field, value)


def _to_json_value(value: Any) -> Any:
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, StrEnum):
        return value.value
    return value


def _refuse_contradictions(rules: Rules) -> None:
    """Combinations that contradict each other; each field is in range by now."""
    if rules.dealer_peeks and rules.original_bets_only:
        raise RulesError(
            "original_bets_only only applies when the dealer does not peek (dealer_peeks=False)",
            field="original_bets_only",
            code="original_bets_with_peek",
        )
    if rules.dealer_peeks and rules.surrender is Surrender.EARLY:
        raise RulesError(
            "early surrender only applies when the dealer does not peek (dealer_peeks=False)",
            field="surrender",
            code="early_surrender_with_peek",
        )
    if rules.resplit_aces and rules.max_hands < 3:
        raise RulesError(
            "resplit_aces needs max_hands of 3 or more",
            field="resplit_aces",
            code="resplit_aces_hands",
        )
    if rules.seats_per_account > rules.max_seats:
        raise RulesError(
            "seats_per_account must not be more than max_seats",
            field="seats_per_account",
            code="seats_over_max",
        )


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
            f"unknown rules preset {name!r}: choose one of {', '.join(PRESETS)}",
            code="unknown_preset",
        ) from None
