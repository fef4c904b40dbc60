"""A seat during a round: its holder, its hands and every stake riding on it."""

from __future__ import annotations

from collections.abc import Sequence

from engine.chips import Chips
from engine.hand import Hand
from engine.refusals import Refusal, refused
from engine.values import Action

__all__ = ["BehindBet", "Seat", "paired_bet"]


class BehindBet:
    """A stake behind a seat: it wins or loses with that seat's hands.

    ``stakes[i]`` is what rides on the seat's hand ``i``: the amount, twice it once a
    double is followed, 0 on a hand split off that the bettor did not follow. Whether to
    follow is asked when the seat doubles or splits (`engine.round.Round`).
    """

    __slots__ = ("amount", "insurance", "owner", "stakes")

    def __init__(self, owner: str, amount: int) -> None:
        self.owner = owner
        self.amount = amount
        self.stakes: list[Chips] = [amount]
        #: None until decided; then the insurance stake (0 = declined).
        self.insurance: Chips | None = None


class Seat:
    """A seat in this round: its holder, seat bet, hands and the stakes riding on it."""

    def __init__(self, number: int, owner: str, bet: int) -> None:
        self.number = number
        self.owner = owner
        self.bet = bet
        self.hands = [Hand(bet)]
        self.clear()

    def clear(self) -> None:
        """Empty the seat for the next round at the same bet: one empty hand (its first,
        kept) and no other stake."""
        first = self.hands[0]
        first.clear(self.bet)
        self.hands = [first]
        #: None until decided; then the insurance stake (0 = declined).
        self.insurance: Chips | None = None
        #: Side stakes, as (owner, amount) and behind bets.
        self.pair_bets: Sequence[tuple[str, int]] = ()
        self.behind: Sequence[BehindBet] = ()
        #: The action chosen before the seat's turn came (`Round.preselect`), carried out
        #: when it comes; None when there is none.
        self.preselected: Action | None = None


def paired_bet(current: int, asked: int, free: Chips | None, step: int = 1) -> int:
    """The bet both seats of one account carry once one of them is changed from
    ``current`` to ``asked`` (RULES.md §2), ``free`` being the chips beyond the bets
    placed (None: unlimited).

    The asked bet goes on both when the balance allows it (a lower bet always does);
    otherwise the total, ``current + asked``, is split evenly, which costs exactly what
    raising the one seat would. The half is rounded down to whole chips, or to a multiple
    of ``step`` for a table with one; what that leaves stays in the balance. It lies
    between ``current`` and ``asked``, so it keeps any table limit both keep. A raise
    the balance cannot cover on one seat, or whose half rounds down to ``current``, is
    refused.

    >>> paired_bet(10, 30, None), paired_bet(10, 30, 40), paired_bet(10, 30, 20)
    (30, 30, 20)
    >>> paired_bet(10, 25, 20), paired_bet(20, 50, 30, step=10), paired_bet(30, 10, 0)
    (17, 30, 10)
    """
    raise_by = asked - current
    if free is None or 2 * raise_by <= free:
        return asked
    if raise_by > free:
        raise refused(Refusal.OVER_BALANCE)
    half = (current + asked) // 2 // step * step
    if half <= current:
        raise refused(Refusal.RAISE_BOTH_SEATS)
    return half
