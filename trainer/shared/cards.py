"""Cards and play buttons as every page draws them: a card's face and its name for screen
readers, and the buttons of the plays with their keys (the drill and the tables alike)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.cards import Card
from engine.values import Action

_SUITS = {"c": ("♣", "black"), "d": ("♦", "red"), "h": ("♥", "red"), "s": ("♠", "black")}
#: Card names for screen readers, in the reader's language (the engine's are English).
_RANK_NAMES = {
    "2": _("Two"), "3": _("Three"), "4": _("Four"), "5": _("Five"), "6": _("Six"),
    "7": _("Seven"), "8": _("Eight"), "9": _("Nine"), "10": _("Ten"), "J": _("Jack"),
    "Q": _("Queen"), "K": _("King"), "A": _("Ace"),
}  # fmt: skip
_SUIT_NAMES = {"c": _("clubs"), "d": _("diamonds"), "h": _("hearts"), "s": _("spades")}


@dataclass(frozen=True)
class CardFace:
    """A card as drawn: rank, suit symbol, colour, and its name for screen readers."""

    rank: str
    suit: str
    symbol: str
    colour: str

    @classmethod
    def of(cls, card: Card) -> CardFace:
        symbol, colour = _SUITS[card.suit]
        return cls(rank=card.rank, suit=card.suit, symbol=symbol, colour=colour)

    @property
    def name(self) -> str:
        """Translated when the page is drawn (an answer's fragment never shows it)."""
        # Translators: a card's name for screen readers, such as "Ace of spades".
        return gettext("%(rank)s of %(suit)s") % {
            "rank": _RANK_NAMES[self.rank],
            "suit": _SUIT_NAMES[self.suit],
        }


#: Button label, keyboard key, and the key's position in the label (shown underlined).
ACTION_BUTTONS: dict[Action, tuple[Promise, str]] = {
    Action.HIT: (_("Hit"), "h"),
    Action.STAND: (_("Stand"), "s"),
    Action.DOUBLE: (_("Double"), "d"),
    Action.SPLIT: (_("Split"), "p"),
    Action.SURRENDER: (_("Surrender"), "r"),
}
