"""Counts and ramps as players type and read them, for every page that asks or shows one
(the counting drills, counting mode at the practice table)."""

from __future__ import annotations

import re
from fractions import Fraction

from django.utils.translation import gettext_lazy as _

from engine.counting.risk import BetRamp, parse_ramp
from engine.counting.systems import CountingError

#: How a count may be typed: a whole number or a half, signed ("-2", "+3", "3.5", "3,5",
#: "3½", "−1" with a typographic minus).
_COUNT = re.compile(r"^([+-]?)(\d{1,3})?(?:([.,]5)|(½))?$")

#: The true counts a ramp may name (a shoe's true count stays well within them), and the
#: most units it may bet at one.
RAMP_COUNTS = (-10, 20)
RAMP_MOST = 1000
#: The ramp a player is first offered (true count:bet, in units).
FIRST_RAMP = "1:2, 2:4, 3:8, 4:12"
#: What a form says of a ramp `table_ramp` refuses.
RAMP_REFUSED = _(
    "Write the ramp as true count:bet pairs, such as 1:2, 2:4, 3:8: whole units of 1 or "
    "more, never falling as the count rises."
)


def parse_count(text: str) -> Fraction | None:
    """The count typed, or None if it is not one.

    >>> parse_count("-3"), parse_count("3,5"), parse_count("−½"), parse_count("2.25")
    (Fraction(-3, 1), Fraction(7, 2), Fraction(-1, 2), None)
    """
    found = _COUNT.match(text.strip().replace("−", "-").replace(" ", ""))
    if found is None or (found[2] is None and not (found[3] or found[4])):
        return None
    value = Fraction(int(found[2] or 0)) + (Fraction(1, 2) if found[3] or found[4] else 0)
    return -value if found[1] == "-" else value


def count_text(count: Fraction) -> str:
    """A count as a counter says it: signed, halves as ½ ("+3", "0", "−2½").

    >>> count_text(Fraction(7, 2)), count_text(Fraction(-2)), count_text(Fraction(0))
    ('+3½', '−2', '0')
    """
    whole, half = divmod(abs(count), 1)
    text = (str(int(whole)) if whole or not half else "") + ("½" if half else "")
    return text if count == 0 else ("+" if count > 0 else "−") + text


def table_ramp(text: str, below: int) -> BetRamp:
    """A ramp a player wrote (`parse_ramp`) that a table can bet: counts from −10 to +20,
    bets of at most 1,000 units; `CountingError` otherwise.

    >>> table_ramp("1:2, 3:8", below=1).bet(2)
    2
    """
    ramp = parse_ramp(text, below)
    if not ramp.bets or not all(
        RAMP_COUNTS[0] <= count <= RAMP_COUNTS[1] and bet <= RAMP_MOST
        for count, bet in ramp.bets.items()
    ):
        raise CountingError("a ramp with no count, or beyond a table's")
    return ramp


def ramp_text(ramp: BetRamp) -> str:
    """A ramp as a player writes it ("1:2, 2:4, 3:8")."""
    return ", ".join(f"{count}:{bet}" for count, bet in sorted(ramp.bets.items()))
