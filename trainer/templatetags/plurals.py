"""``{% plural_samples as samples %}``: numbers, one of each plural form in every language
the trainer speaks, for a script that counts (a countdown) to pick the form of its number.

A page renders a counted sentence once per sample (`ngettext` picks each one's form); the
script asks the browser's ``Intl.PluralRules`` which of them shares its number's category
and puts its number in that sentence. English needs 1 and 2; Polish 1, 2 and 5 (and 22 is
like 2, 25 like 5); Arabic 0, 1, 2, 3, 11 and 100.
"""

from __future__ import annotations

from django import template

register = template.Library()

#: The number 1 first: a language whose 0 is singular in the browser's rules but plural in
#: gettext's (Hindi) gets the form of 1 for it, as near as the two agree.
SAMPLES = (1, 2, 3, 5, 11, 22, 25, 100, 0)


@register.simple_tag
def plural_samples() -> tuple[int, ...]:
    """The sample numbers, one of each plural form."""
    return SAMPLES
