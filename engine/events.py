"""What happened in a round, as values.

The round records its history as compact tuples (cheap enough for millions of simulated
rounds) and turns them into these events only when asked. Seat 0 is the dealer. The
dealer's face-down card is recorded without its identity until it is revealed, so no
history — and nothing built from it — can leak it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from engine.cards import CARDS, Card

__all__ = [
    "ActionTaken",
    "CardDealt",
    "DealerPeeked",
    "Event",
    "HandClosed",
    "HandSplit",
    "HoleCardRevealed",
    "RoundVoided",
    "ShoeShuffled",
    "StakeSettled",
    "event_from_log",
    "seat_hands",
]

DEALER = 0


@dataclass(frozen=True, slots=True)
class ShoeShuffled:
    """The shoe was shuffled, then ``burned`` cards burned (Deluxe): the first, ``shown``
    face up, says how many more go face down, unseen."""

    shown: Card | None
    burned: int


@dataclass(frozen=True, slots=True)
class CardDealt:
    """A card went to a seat's hand, or to the dealer (seat 0); ``None`` is face down."""

    seat: int
    hand: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class DealerPeeked:
    """The dealer looked under an ace or ten-value for a natural."""

    natural: bool


@dataclass(frozen=True, slots=True)
class HoleCardRevealed:
    card: Card


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A decision; ``effective`` differs from ``action`` when a short balance changed it."""

    seat: int
    hand: int
    action: str
    effective: str


@dataclass(frozen=True, slots=True)
class HandSplit:
    """A hand became two: the new one is ``hand + 1``."""

    seat: int
    hand: int


@dataclass(frozen=True, slots=True)
class HandClosed:
    """A hand takes no more decisions (stood, 21, bust, doubled, surrendered, natural)."""

    seat: int
    hand: int
    total: int


@dataclass(frozen=True, slots=True)
class StakeSettled:
    """One stake's settlement, in chips; ``units`` is the net in units of the seat bet."""

    seat: int
    hand: int | None
    owner: str
    kind: str
    result: str
    staked: int | Fraction
    returned: int | Fraction
    units: Fraction


@dataclass(frozen=True, slots=True)
class RoundVoided:
    """The round could not be completed; every bet in it was refunded."""

    reason: str


Event = (
    ShoeShuffled
    | CardDealt
    | DealerPeeked
    | HoleCardRevealed
    | ActionTaken
    | HandSplit
    | HandClosed
    | StakeSettled
    | RoundVoided
)


def event_from_log(entry: tuple) -> Event:  # type: ignore[type-arg]
    """Build the event that one history entry of a `Round` records."""
    kind = entry[0]
    if kind == "card":
        _, seat, hand, code = entry
        return CardDealt(seat, hand, None if code is None else CARDS[code])
    if kind == "act":
        return ActionTaken(*entry[1:])
    if kind == "close":
        return HandClosed(*entry[1:])
    if kind == "settle":
        _, seat, hand, owner, stake_kind, result, staked, returned, bet = entry
        return StakeSettled(
            seat, hand, owner, stake_kind, result, staked, returned,
            Fraction(returned - staked) / bet,
        )  # fmt: skip
    if kind == "split":
        return HandSplit(*entry[1:])
    if kind == "reveal":
        return HoleCardRevealed(CARDS[entry[1]])
    if kind == "peek":
        return DealerPeeked(entry[1])
    if kind == "shuffle":
        _, shown, burned = entry
        return ShoeShuffled(None if shown is None else CARDS[shown], burned)
    if kind == "void":
        return RoundVoided(entry[1])
    raise ValueError(f"unknown history entry {entry!r}")


def seat_hands(events: Iterable[Event], seat: int) -> list[list[Card]]:
    """A seat's hands, left to right, replayed from a round's public events: a split turns
    a hand into two in place, the new one right after it."""
    hands: list[list[Card]] = []
    for event in events:
        if isinstance(event, CardDealt) and event.seat == seat and event.card is not None:
            if not hands:
                hands.append([])
            hands[event.hand].append(event.card)
        elif isinstance(event, HandSplit) and event.seat == seat:
            first, second = hands[event.hand]
            hands[event.hand : event.hand + 1] = [[first], [second]]
    return hands
