"""What one player may see when a decision is asked of them: the input of every bot."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.cards import CARDS, Card
from engine.events import Event, event_from_log, seat_hands
from engine.rules import Rules

if TYPE_CHECKING:
    from engine.round import Action

__all__ = ["PlayerView"]


class PlayerView:
    """A copy of the public state at one decision; it holds no reference to the round.

    The dealer's hole card is not in it (it is only ever revealed once no decision is
    awaited), and the shoe is not at all — so a bot built on it cannot cheat. Cards are
    kept as codes and turned into `Card` values when read, which keeps a simulated
    decision cheap (so does having no ``__slots__``: CPython 3.13 builds only instances
    with a plain ``__dict__`` on its fast path).
    """

    def __init__(
        self,
        rules: Rules,
        seat: int,
        hand_index: int | None,
        up: int,
        up_points: int,
        legal: tuple[Action, ...],
        total: int,
        soft: bool,
        pair_points: int,
        public_log: tuple[tuple[Any, ...], ...],
    ) -> None:
        self.rules = rules
        #: The seat and hand the decision is for; the hand is None for insurance.
        self.seat = seat
        self.hand_index = hand_index
        self.legal = legal
        #: Best total and softness of that hand, and the point value of its two cards if
        #: they are a pair (an ace as 1), else 0.
        self.total = total
        self.soft = soft
        self.pair_points = pair_points
        #: The dealer's up card's value, an ace as 11 (as strategy charts write it).
        self.up_points = up_points
        self._up = up
        self._log = public_log

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The seat's hands, left to right, replayed from the public history."""
        return tuple(tuple(hand) for hand in seat_hands(self.history(), self.seat))

    @property
    def hand(self) -> tuple[Card, ...]:
        """The cards of the hand the decision is for."""
        return self.hands[self.hand_index or 0]

    @property
    def up_card(self) -> Card:
        return CARDS[self._up]

    def history(self) -> list[Event]:
        """The round so far as events; the face-down card appears without its identity."""
        return [event_from_log(entry) for entry in self._log]

    def __repr__(self) -> str:
        cards = " ".join(str(card) for card in self.hand)
        return f"<PlayerView seat {self.seat}: {cards} against {self.up_card}, {self.legal}>"
