"""Numbers and English names inside text of another direction or language.

In an Arabic sentence a sign drifts to the wrong side of its number ("10+" for "+10")
unless the number is isolated as left-to-right text; the isolating marks are invisible,
and change nothing in the left-to-right languages.
"""

from __future__ import annotations

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language

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


def english(name: str) -> SafeString:
    """A name left in English (a rules preset's): on a page in another language, marked
    as English, so that a screen reader speaks it as English, and isolated left to right.

    >>> from django.utils import translation
    >>> with translation.override("ar"):
    ...     english("european v1.0.0")
    '<span lang="en" dir="ltr">european v1.0.0</span>'
    >>> with translation.override("en"):
    ...     english("european v1.0.0")
    'european v1.0.0'
    """
    if (get_language() or "en").split("-")[0] == "en":
        return conditional_escape(name)
    return format_html('<span lang="en" dir="ltr">{}</span>', name)
