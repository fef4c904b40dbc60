"""The engine's refusals in the player's language.

The engine says why it refuses in short English sentences (`IllegalActionError`), fit
for its command line; the ones a player meets at a table — out of turn, on another's
seat, after betting closed — are matched here to a translatable sentence, their numbers
kept. Any other reason is shown as the engine words it.
"""

from __future__ import annotations

import re

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

__all__ = ["in_words"]

#: An engine sentence (matched whole) and the same in words to translate; a named group
#: fills the placeholder of its name.
_SENTENCES: tuple[tuple[re.Pattern[str], Promise], ...] = tuple(
    (re.compile(pattern), words)
    for pattern, words in (
        (r"it is not your turn", _("It is not your turn")),
        (
            r"it is seat (?P<turn>\d+)'s turn, not seat (?P<seat>\d+)'s",
            _("It is seat %(turn)s's turn, not seat %(seat)s's"),
        ),
        (r"seat (?P<seat>\d+) is not yours", _("Seat %(seat)s is not yours")),
        (r"seat (?P<seat>\d+) is taken", _("Seat %(seat)s is taken")),
        (r"seat (?P<seat>\d+) has no player", _("Seat %(seat)s has no player")),
        (r"you cannot bet behind your own seat", _("You cannot bet behind your own seat")),
        (
            r"one player may hold at most (?P<count>\d+) seat\(s\)",
            ngettext_lazy(
                "One player may hold at most %(count)s seat",
                "One player may hold at most %(count)s seats",
                "count",
            ),
        ),
        (
            r"guests may watch and bet behind, but not sit",
            _("Guests may watch and bet behind, but not sit"),
        ),
        (r"bets are closed for this round", _("Bets are closed for this round")),
        (r"that bet is more than your balance", _("That bet is more than your balance")),
        (r"no round is in play", _("No round is in play")),
        (r"insurance is not on offer now", _("Insurance is not on offer now")),
        (r"first decide on insurance", _("First decide on insurance")),
        (
            r"seat (?P<seat>\d+)'s turn has come: decide now",
            _("Seat %(seat)s's turn has come: decide now"),
        ),
    )
)


def in_words(reason: str) -> str:
    """The engine's ``reason`` as a sentence in the active language, when it is one of
    those above; otherwise as the engine put it, capitalised."""
    for pattern, words in _SENTENCES:
        matched = pattern.fullmatch(reason)
        if matched:
            fields = {name: int(value) for name, value in matched.groupdict().items()}
            return str(words % fields) if fields else str(words)
    return reason[:1].upper() + reason[1:]
