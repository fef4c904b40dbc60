"""What one player may see when a decision is asked of them: the input of every bot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.cards import Card
from engine.events import Event, seat_hands
from engine.rules import Rules
from engine.values import Action, Decision

__all__ = ["PlayerView"]


@dataclass(repr=False)
class PlayerView:
    """A copy of the public state at one decision; it holds no reference to the round.

    ``seat`` and ``hand_index`` say which hand the decision is about: the deciding
    player's own, or for a bettor behind (`Decision`) the seat they bet behind.

    The dealer's hole card is not in it (it is only ever revealed once no decision is
    awaited), and the shoe is not at all — so a bot built on it cannot cheat.

    A value, read by field name and compared by value. Its fields are `Final`: the type
    checker refuses to change them. It is not a frozen dataclass (whose ``__init__`` sets
    each field through ``object.__setattr__``) nor a `typing.NamedTuple` (whose fields
    CPython 3.13 reads through unspecialised descriptors), because one is built and read
    for every decision of every simulated round, positionally (docs/performance.md). A
    view of a round that keeps no history has none (``history`` and so ``hands`` are
    empty).
    """

    rules: Final[Rules]
    #: The seat and hand the decision is for; the hand is None for insurance.
    seat: Final[int]
    hand_index: Final[int | None]
    legal: Final[tuple[Action, ...]]
    #: Best total and softness of that hand (for insurance: of the seat's first hand).
    total: Final[int]
    soft: Final[bool]
    #: The point value (ace 1) of the hand's two cards if they are a pair, else 0.
    pair_points: Final[int]
    up_card: Final[Card]
    #: The up card's value, an ace as 11 (as strategy charts write it).
    up_points: Final[int]
    #: The round so far; the face-down card appears without its identity.
    history: Final[tuple[Event, ...]]
    #: The kind of decision, and who makes it: the seat's holder, or a bettor behind it
    #: (whose view is of the seat they bet behind).
    decision: Final[Decision]
    owner: Final[str]

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The seat's hands, left to right, replayed from the public history."""
        return tuple(tuple(hand) for hand in seat_hands(self.history, self.seat))

    @property
    def hand(self) -> tuple[Card, ...]:
        """The cards of the hand the decision is for."""
        return self.hands[self.hand_index or 0]

    def __repr__(self) -> str:
        cards = " ".join(str(card) for card in self.hand)
        return f"<PlayerView seat {self.seat}: {cards} against {self.up_card}, {self.legal}>"
