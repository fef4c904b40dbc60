"""What one player may see when a decision is asked of them: the input of every bot."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.events import Event, seat_hands
from engine.rules import Rules
from engine.values import Action

__all__ = ["PlayerView"]


@dataclass
class PlayerView:
    """A copy of the public state at one decision; it holds no reference to the round.

    The dealer's hole card is not in it (it is only ever revealed once no decision is
    awaited), and the shoe is not at all — so a bot built on it cannot cheat. A value,
    never changed once made; not ``frozen=True``, for the cost of building one on every
    simulated decision (see `engine.events`).
    """

    rules: Rules
    #: The seat and hand the decision is for; the hand is None for insurance.
    seat: int
    hand_index: int | None
    legal: tuple[Action, ...]
    #: Best total and softness of that hand (for insurance: of the seat's first hand).
    total: int
    soft: bool
    #: The point value (ace 1) of the hand's two cards if they are a pair, else 0.
    pair_points: int
    up_card: Card
    #: The up card's value, an ace as 11 (as strategy charts write it).
    up_points: int
    #: The round so far; the face-down card appears without its identity.
    history: tuple[Event, ...]

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
