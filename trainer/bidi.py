"""Numbers inside right-to-left text.

In an Arabic sentence a sign drifts to the wrong side of its number ("10+" for "+10")
unless the number is isolated as left-to-right text; the isolating marks are invisible,
and change nothing in the left-to-right languages.
"""

from __future__ import annotations

#: Unicode's LEFT-TO-RIGHT ISOLATE and POP DIRECTIONAL ISOLATE.
LRI, PDI = "\u2066", "\u2069"


def ltr(text: object) -> str:
    """The text as one left-to-right run, whatever the direction around it.

    >>> ltr("-0.25") == "\\u2066-0.25\\u2069"
    True
    """
    return f"{LRI}{text}{PDI}"


def signed(number: int) -> str:
    """A chip count with its sign, kept on its left in any language ("+10", "-120")."""
    return ltr(f"{number:+d}")
