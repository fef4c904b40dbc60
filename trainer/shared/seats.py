"""The seats of a table as its forms offer them: seven, each empty, yours, or a bot's of a
tier (the practice table's and the live table's forms alike)."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from engine.bots import Tier


class Sitter(StrEnum):
    """Who a seat is given to at a new table."""

    EMPTY = ""
    YOU = "you"
    EASY = Tier.EASY.value
    NORMAL = Tier.NORMAL.value
    HARD = Tier.HARD.value

    @property
    def tier(self) -> Tier | None:
        """The bot's tier, for a bot's seat."""
        return Tier(self.value) if self.value in Tier else None


SEAT_CHOICES = [
    (Sitter.EMPTY, _("Empty")),
    (Sitter.YOU, _("You")),
    (Sitter.EASY, _("Easy bot")),
    (Sitter.NORMAL, _("Normal bot")),
    (Sitter.HARD, _("Hard bot")),
]
SEATS = range(1, 8)
#: The table a new practice session offers: easy and normal bots before you, a hard bot
#: after (the practice form's initial choice, and the rules lab's "practise" button's).
DEFAULT_SEATS = {1: Sitter.EASY, 2: Sitter.NORMAL, 3: Sitter.YOU, 4: Sitter.HARD}
DEFAULT_BANKROLL = 1000
