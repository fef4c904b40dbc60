"""The shoe: the decks in play, the cut card, shuffling and burning.

Cards are held as integer codes (see `engine.cards`). The shoe's order is the one secret
of the game: only the engine reads it, and a `PlayerView` never holds it.
"""

from __future__ import annotations

import random
import secrets
from functools import lru_cache
from typing import Any

from engine.cards import CARDS, POINTS, Card, card_code
from engine.errors import ShoeError, StateError
from engine.rules import Burn, Rules

__all__ = ["Shoe"]


class Shoe:
    """Cards left to deal, in order, with the cut card's position.

    A fresh shoe is shuffled before its first round; after that it is shuffled again
    before the first round that starts once the cut card has come out.

    >>> shoe = Shoe.stacked("As 9d Kh")
    >>> [str(shoe.draw_card()) for _ in range(3)]
    ['As', '9d', 'Kh']
    >>> shoe.draw_card()
    Traceback (most recent call last):
    ...
    engine.errors.ShoeError: the stacked shoe has run out of cards
    """

    __slots__ = ("_rng", "burned", "cards", "cut", "needs_shuffle", "position", "stacked_order")

    def __init__(
        self,
        cards: list[int],
        *,
        cut: int,
        position: int = 0,
        needs_shuffle: bool = False,
        stacked_order: bool = False,
        burned: int = 0,
        rng: random.Random | None = None,
    ) -> None:
        self.cards = cards
        self.cut = cut
        self.needs_shuffle = needs_shuffle
        #: A stacked shoe deals exactly its cards and is never shuffled (tests, demos).
        self.stacked_order = stacked_order
        #: How many cards have been dealt or burned since the last shuffle.
        self.position = position
        #: Cards burned from this shoe since its last shuffle (Deluxe).
        self.burned = burned
        self._rng = rng if rng is not None else secrets.SystemRandom()

    @classmethod
    def for_rules(cls, rules: Rules, rng: random.Random | None = None) -> Shoe:
        """A new shoe of ``rules.decks`` decks, to be shuffled before its first round.

        Production code passes no ``rng`` and gets the operating system's CSPRNG; tests and
        simulations pass a seeded `random.Random` to be repeatable.
        """
        cards = list(range(52)) * rules.decks
        cut = int(len(cards) * rules.penetration)
        return cls(cards, cut=cut, needs_shuffle=True, rng=rng)

    @classmethod
    def stacked(cls, cards: str | list[Card]) -> Shoe:
        """A shoe that deals exactly these cards, in this order, and then runs out."""
        codes = [
            card_code(c)
            for c in (cards.replace(",", " ").split() if isinstance(cards, str) else cards)
        ]
        return cls(codes, cut=len(codes), stacked_order=True)

    def draw(self) -> int:
        """The next card's code; `ShoeError` once the shoe has run out."""
        try:
            card = self.cards[self.position]
        except IndexError:
            kind = "stacked shoe" if self.stacked_order else "shoe"
            raise ShoeError(f"the {kind} has run out of cards") from None
        self.position += 1
        return card

    @property
    def remaining(self) -> int:
        """Cards not yet dealt or burned."""
        return len(self.cards) - self.position

    @property
    def cut_card_out(self) -> bool:
        """The cut card has come out: the current round is this shoe's last."""
        return self.position >= self.cut and not self.stacked_order

    def prepare_round(self, rules: Rules) -> tuple[int, ...] | None:
        """Shuffle (and burn) if this shoe is due: None if it was not, else the burned codes.

        The first burned card is shown to the table; it says how many more are burned.
        """
        if self.stacked_order or not (self.needs_shuffle or self.position >= self.cut):
            return None
        _shuffle(self.cards, self._rng)
        self.position = 0
        self.needs_shuffle = False
        self.burned = 0
        if rules.burn is Burn.NONE:
            return ()
        first = self.draw()
        extra = [self.draw() for _ in range(POINTS[first])]
        self.burned = 1 + len(extra)
        return (first, *extra)

    @property
    def rng(self) -> random.Random:
        """The generator this shoe shuffles with, for a copy restored from `to_json`."""
        return self._rng

    def draw_card(self) -> Card:
        """The next card as a `Card`."""
        return CARDS[self.draw()]

    def to_json(self) -> dict[str, Any]:
        """The whole shoe (order included): server-side state, never sent to a browser."""
        return {
            "cards": list(self.cards),
            "cut": self.cut,
            "position": self.position,
            "needs_shuffle": self.needs_shuffle,
            "stacked_order": self.stacked_order,
            "burned": self.burned,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], rng: random.Random | None = None) -> Shoe:
        """The inverse of `to_json`; the RNG is not state and is given anew."""
        try:
            cards = [int(code) for code in data["cards"]]
            if any(not 0 <= code < 52 for code in cards):
                raise ValueError("card code out of range")
            return cls(
                cards,
                cut=int(data["cut"]),
                position=int(data["position"]),
                needs_shuffle=bool(data["needs_shuffle"]),
                stacked_order=bool(data["stacked_order"]),
                burned=int(data["burned"]),
                rng=rng,
            )
        except (KeyError, TypeError, ValueError) as error:
            raise StateError(f"not a valid shoe: {error}") from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shoe) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Shoe {self.remaining} of {len(self.cards)} cards left, cut at {self.cut}>"


def _shuffle(cards: list[int], rng: random.Random) -> None:
    """Fisher–Yates with rejection sampling: exactly `random.Random.shuffle`'s algorithm
    (same result for the same RNG state), written inline because it is a tenth of the cost
    of simulating a round."""
    getrandbits = rng.getrandbits
    for i, bits in _swap_plan(len(cards)):
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


@lru_cache(maxsize=16)
def _swap_plan(size: int) -> tuple[tuple[int, int], ...]:
    """Each position the shuffle fills, last first, with the random bits it takes to pick a
    card for it (those of its count of candidates, ``i + 1``), computed once per shoe size."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
