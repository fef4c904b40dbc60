"""How the dealer plays: the same for every hand, with no decision to take.

The dealer turns the hole card, then draws while `dealer_draws` says so — unless no
player hand's result depends on the dealer's total any more (`dealer_must_play`).

>>> from engine.cards import card_code
>>> from engine.rules import EUROPEAN
>>> dealer = Hand(0)
>>> dealer.add(card_code("As")); dealer.add(card_code("6d"))
>>> dealer_draws(dealer, EUROPEAN), dealer_draws(dealer, EUROPEAN.replace(dealer_hits_soft_17=True))
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.hand import Hand
from engine.rules import Rules
from engine.seat import Seat

__all__ = ["dealer_draws", "dealer_must_play"]


def dealer_draws(dealer: Hand, rules: Rules) -> bool:
    """The dealer draws below 17, and on a soft 17 where the rules say so; else stands."""
    total = dealer.total
    return total < 17 or (total == 17 and dealer.soft and rules.dealer_hits_soft_17)


def dealer_must_play(seats: Iterable[Seat]) -> bool:
    """Whether some hand's result still depends on the dealer's total: not when every
    hand is bust, surrendered or a natural (paid, or pushed by a dealer natural)."""
    for seat in seats:
        for hand in seat.hands:
            if not (hand.natural or hand.surrendered or hand.total > 21):
                return True
    return False
