"""The bet history page's lines: each settled bet in words a player reads."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from trainer.models import Bet
from trainer.table_view import RESULT_LABELS


@dataclass(frozen=True)
class BetLine:
    """One row of the history."""

    settled_at: datetime
    #: The practice session the bet was made in, and the round's number in it.
    session_id: int
    round_number: int
    kind: str
    seat: int
    #: The hand's position after a split (1 for the first), None when the seat was not split.
    hand: int | None
    staked: int
    result: str
    net: int

    @classmethod
    def of(cls, bet: Bet, *, split_seats: frozenset[tuple[int, int]]) -> BetLine:
        """A line for ``bet``; ``split_seats`` holds (round id, seat) of the seats that were
        split, whose hands are numbered."""
        played = bet.practice_round
        split = (played.pk, bet.seat) in split_seats
        return cls(
            settled_at=bet.settled_at,
            session_id=played.session_id,
            round_number=played.number,
            kind=str(bet.get_kind_display()),
            seat=bet.seat,
            hand=bet.hand + 1 if split and bet.hand is not None else None,
            staked=bet.staked,
            result=str(RESULT_LABELS.get(bet.result, bet.result)),
            net=bet.net,
        )


def bet_lines(bets: Iterable[Bet], split_seats: frozenset[tuple[int, int]]) -> list[BetLine]:
    """The lines of a page of bets (see `BetLine.of`)."""
    return [BetLine.of(bet, split_seats=split_seats) for bet in bets]
