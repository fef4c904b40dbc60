"""Cards as values, and the small integer codes the engine uses for them internally.

A card's code is ``rank_index * 4 + suit_index``, so that a shoe is a plain list of ints
(fast to shuffle, draw and serialise) while the public API speaks in `Card` values.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "CARDS",
    "RANKS",
    "SUITS",
    "Card",
    "card_code",
    "parse_cards",
    "rank_points",
]

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("c", "d", "h", "s")

_RANK_NAMES = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
    "Jack", "Queen", "King", "Ace",
)  # fmt: skip
_SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
_RANK_ALIASES = {"T": "10"}


def rank_points(rank: str) -> int:
    """Point value of a rank, counting an ace as 1 (a hand decides whether it is 11).

    >>> rank_points("K"), rank_points("7"), rank_points("A")
    (10, 7, 1)
    """
    index = RANKS.index(rank)
    return 1 if index == 12 else min(index + 2, 10)


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card: a rank from `RANKS` and a suit from `SUITS`.

    >>> Card.parse("Qh")
    Card(rank='Q', suit='h')
    >>> str(Card("10", "s")), Card("A", "s").name, Card("K", "d").points
    ('10s', 'Ace of spades', 10)
    """

    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS or self.suit not in SUITS:
            raise ValueError(f"not a card: rank {self.rank!r}, suit {self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card written as rank then suit: ``As``, ``10d``, ``Td``, ``kh``."""
        text = text.strip()
        rank, suit = text[:-1].upper(), text[-1:].lower()
        rank = _RANK_ALIASES.get(rank, rank)
        if rank not in RANKS or suit not in SUITS:
            raise ValueError(f"not a card: {text!r} (write it like As, 10d or Kh)")
        return cls(rank, suit)

    @property
    def code(self) -> int:
        """The card's internal code (0–51)."""
        return RANKS.index(self.rank) * 4 + SUITS.index(self.suit)

    @property
    def points(self) -> int:
        """Point value with an ace counted as 1."""
        return rank_points(self.rank)

    @property
    def is_ace(self) -> bool:
        return self.rank == "A"

    @property
    def colour(self) -> str:
        """Either "red" or "black", for the coloured pair side bet."""
        return "red" if self.suit in ("d", "h") else "black"

    @property
    def name(self) -> str:
        """The card as a screen reader should say it."""
        return f"{_RANK_NAMES[RANKS.index(self.rank)]} of {_SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


#: Every card, indexed by its code.
CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for rank in RANKS for suit in SUITS)

#: Point value (ace = 1) of each card code; the engine's hot paths index this.
POINTS: tuple[int, ...] = tuple(card.points for card in CARDS)


def card_code(card: Card | str) -> int:
    """The code of a card given as a `Card` or as text.

    >>> card_code("2c"), card_code(Card("A", "s"))
    (0, 51)
    """
    return (Card.parse(card) if isinstance(card, str) else card).code


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces or commas.

    >>> [str(c) for c in parse_cards("As Kh, 10d")]
    ['As', 'Kh', '10d']
    """
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(word) for word in words]
