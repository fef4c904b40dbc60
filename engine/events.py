"""What happened in a round, as values: a round's history is a list of these.

Frozen, slotted dataclasses, each equal only to the same event with the same fields. A
frozen dataclass is costly to build, since each field is set through
``object.__setattr__`` (CPython 3.13: about 1,650 machine instructions a field, against
about 3,100 for a whole `typing.NamedTuple` of a few fields), so no round builds an event
nobody will read: a simulated round, which reads only its net, keeps no history at all
(``Round(..., keep_history=False)``), and a round at the table builds a few dozen.

Seat 0 is the dealer. The dealer's face-down card is recorded without its identity until
it is revealed, so no history — and nothing built from it — can leak it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from engine.cards import Card
from engine.chips import Chips
from engine.values import Action, Result, StakeKind

__all__ = [
    "DEALER",
    "ActionTaken",
    "BehindDecided",
    "CardDealt",
    "DealerPeeked",
    "Event",
    "HandClosed",
    "HandSplit",
    "HoleCardRevealed",
    "RoundVoided",
    "ShoeShuffled",
    "StakeSettled",
    "dealer_cards",
    "seat_hands",
]

#: The dealer's seat number in events.
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
    """A decision (``hand`` is None for insurance); ``effective`` differs from ``action``
    when a short balance turned a double or split into a hit or stand."""

    seat: int
    hand: int | None
    action: Action
    effective: Action


@dataclass(frozen=True, slots=True)
class BehindDecided:
    """A bettor behind a seat decided: insurance for their stake (``hand`` None:
    `Action.INSURE` or `Action.NO_INSURANCE`), or whether to follow the seat's double or
    split of ``hand`` (`Action.FOLLOW` or `Action.NO_FOLLOW`). ``behind`` is the bet's
    place among the seat's bets behind, in the order they were placed. A bettor whose
    balance cannot cover the decision is not asked: the default, no, is recorded."""

    seat: int
    hand: int | None
    behind: int
    owner: str
    action: Action


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
    """One stake's settlement, in chips: ``staked`` went in, ``returned`` came back.

    ``unit`` is the bet the result is measured in (the seat bet, or the side stake
    itself); ``hand`` is None for insurance and pair bets.
    """

    seat: int
    hand: int | None
    owner: str
    kind: StakeKind
    result: Result
    staked: Chips
    returned: Chips
    unit: Chips

    @property
    def units(self) -> Fraction:
        """The net in units of ``unit``: 1 for an even-money win, 3/2 for a 3:2 natural.

        >>> StakeSettled(1, 0, "p", StakeKind.HAND, Result.BLACKJACK, 10, 25, 10).units
        Fraction(3, 2)
        """
        return Fraction(self.returned - self.staked) / self.unit


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
    | BehindDecided
    | HandSplit
    | HandClosed
    | StakeSettled
    | RoundVoided
)


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


def dealer_cards(events: Iterable[Event]) -> list[Card | None]:
    """The dealer's cards as the table sees them, replayed from a round's public events:
    the hole card is None (face down) until it is turned.

    >>> from engine.cards import Card
    >>> up, hole = Card("9", "h"), Card("7", "c")
    >>> dealer_cards([CardDealt(DEALER, 0, up), CardDealt(DEALER, 0, None)]) == [up, None]
    True
    >>> dealer_cards([CardDealt(DEALER, 0, up), CardDealt(DEALER, 0, None),
    ...               HoleCardRevealed(hole)]) == [up, hole]
    True
    """
    cards: list[Card | None] = []
    for event in events:
        if isinstance(event, CardDealt) and event.seat == DEALER:
            cards.append(event.card)
        elif isinstance(event, HoleCardRevealed):
            cards[1] = event.card
    return cards
