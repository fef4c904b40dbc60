"""A seat during a round: its holder, its hands and every stake riding on it."""

from __future__ import annotations

from collections.abc import Sequence

from engine.chips import Chips
from engine.hand import Hand

__all__ = ["BehindBet", "Seat"]


class BehindBet:
    """A stake behind a seat: it wins or loses with that seat's hands.

    ``stakes[i]`` is what rides on the seat's hand ``i`` (0 once a split is not followed).
    """

    __slots__ = ("amount", "follow_double", "follow_split", "owner", "stakes")

    def __init__(self, owner: str, amount: int, *, follow_double: bool, follow_split: bool) -> None:
        self.owner = owner
        self.amount = amount
        self.follow_double = follow_double
        self.follow_split = follow_split
        self.stakes: list[Chips] = [amount]


class Seat:
    """A seat in this round: its holder, seat bet, hands and the stakes riding on it."""

    def __init__(self, number: int, owner: str, bet: int) -> None:
        self.number = number
        self.owner = owner
        self.bet = bet
        self.hands = [Hand(bet)]
        #: None until decided; then the insurance stake (0 = declined).
        self.insurance: Chips | None = None
        #: Side stakes, as (owner, amount) and behind bets.
        self.pair_bets: Sequence[tuple[str, int]] = ()
        self.behind: Sequence[BehindBet] = ()
