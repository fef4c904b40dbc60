"""The seats of a table as its forms offer them: seven, each empty, yours, or a bot's of a tier
(the practice table's and the live table's forms alike)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

SEAT_CHOICES = [
    ("", _("Empty")),
    ("you", _("You")),
    ("easy", _("Easy bot")),
    ("normal", _("Normal bot")),
    ("hard", _("Hard bot")),
]


SEATS = range(1, 8)


#: The table a new practice session offers: easy and normal bots before you, a hard bot after.
DEFAULT_SEATS = {1: "easy", 2: "normal", 3: "you", 4: "hard"}


DEFAULT_BANKROLL = 1000
