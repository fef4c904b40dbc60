"""What each rule field accepts, as data (`Allowed`), and `RulesError`, the refusal that
quotes it: the web form lists a field's range from here, and every refusal of a rule
names it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from engine.errors import EngineError


class Kind(StrEnum):
    """The kinds of value a rule field takes."""

    WHOLE = "whole"
    FRACTION = "fraction"
    YES_NO = "yes_no"
    CHOICE = "choice"
    TEXT = "text"


#: Longer text is refused before it is parsed: no number worth typing is this long, and
#: parsing a huge one (``9`` * 5000, ``1e999999999``) would cost time or memory.
_MAX_TEXT = 40
#: Decimal or ``a/b`` fractions, with an exponent of at most three digits (``1e400``).
_FRACTION_TEXT = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d{1,3})?(/\d+)?")
_WHOLE_TEXT = re.compile(r"[+-]?\d+")
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True, slots=True)
class Allowed:
    """What one rule field accepts, as data: the web form lists it, errors quote it."""

    kind: Kind
    #: What the field means, in one line.
    about: str
    #: Inclusive bounds of a number (for text: its length).
    low: Fraction = Fraction(0)
    high: Fraction = Fraction(0)
    #: The values of a choice.
    choices: tuple[str, ...] = ()
    #: For text: the characters allowed, as a pattern and in words.
    pattern: str = ""
    characters: str = ""
    #: For a choice: the enum whose values they are.
    enum: type[StrEnum] | None = None

    def describe(self) -> str:
        """The range in words, as errors give it: ``a whole number from 1 to 8``."""
        if self.kind is Kind.YES_NO:
            return "true or false"
        if self.kind is Kind.CHOICE:
            return "one of: " + ", ".join(self.choices)
        if self.kind is Kind.TEXT:
            return f"{self.low} to {self.high} {self.characters}"
        if self.low == self.high:
            return f"exactly {self.low}"
        noun = "a whole number" if self.kind is Kind.WHOLE else "a fraction"
        return f"{noun} from {self.low} to {self.high}"

    def admit(self, field: str, value: Any) -> Any:
        """``value`` as the field holds it (``2`` → ``Fraction(2)``, ``"late"`` →
        `Surrender.LATE`), or a `RulesError` naming the field and its range."""
        kind = self.kind
        if kind is Kind.YES_NO:
            ok = isinstance(value, bool)
        elif kind is Kind.CHOICE:
            ok = isinstance(value, str) and value in self.choices
        elif kind is Kind.TEXT:
            ok = isinstance(value, str) and re.fullmatch(self.pattern, value) is not None
        elif kind is Kind.WHOLE:
            ok = type(value) is int and self.low <= value <= self.high
        else:  # money and odds are exact: never a float
            ok = type(value) in (int, Fraction) and self.low <= value <= self.high
            value = Fraction(value) if ok and type(value) is int else value
        if not ok:
            raise self.refusal(field)
        if kind is Kind.CHOICE and not isinstance(value, StrEnum):
            assert self.enum is not None  # a choice's values are its enum's
            return self.enum(value)
        return value

    def parse(self, field: str, value: Any) -> Any:
        """Text (a command line, a form) or a JSON value as the field's type, unchecked
        for range; anything that is not of that type is refused as out of range."""
        if not isinstance(value, str):
            return value  # JSON numbers and booleans are typed already
        text = value.strip()
        if len(text) > _MAX_TEXT:
            raise self.refusal(field)
        if self.kind is Kind.YES_NO:
            lowered = text.lower()
            if lowered not in _TRUE | _FALSE:
                raise self.refusal(field)
            return lowered in _TRUE
        if self.kind is Kind.WHOLE:
            if not _WHOLE_TEXT.fullmatch(text):
                raise self.refusal(field)
            return int(text)
        if self.kind is Kind.FRACTION:
            if not _FRACTION_TEXT.fullmatch(text):
                raise self.refusal(field)
            try:
                return Fraction(text)
            except (ValueError, ZeroDivisionError):
                raise self.refusal(field) from None
        return text

    def refusal(self, field: str) -> RulesError:
        return RulesError(
            f"{field} must be {self.describe()}", field=field, code="range", allowed=self
        )


class RulesError(EngineError, ValueError):
    """A `Rules` value out of a field's range, contradicting itself, or naming an unknown
    field or preset.

    The message is English (the command line shows it); the parts it is made of are kept
    so that an app can say the same in its player's language.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        code: str,
        allowed: Allowed | None = None,
    ) -> None:
        super().__init__(message)
        #: The field at fault (for ``unknown_field``, the name given).
        self.field = field
        #: What is wrong: ``range``, ``unknown_field``, ``unknown_preset``, or the name of a
        #: contradiction (``original_bets_with_peek``, ``resplit_aces_hands``,
        #: ``seats_over_max``).
        self.code = code
        #: For ``range``: the field's range (`engine.rules.ALLOWED`).
        self.allowed = allowed
