"""The bet history page's lines: each settled bet in words a player reads."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from trainer.models import Bet
from trainer.shared.story import RESULT_LABELS


@dataclass(frozen=True)
class BetLine:
    """One row of the history."""

    settled_at: datetime
    #: The practice session or the live table the bet was made at (one of the two), and
    #: the round's number there.
    session_id: int | None
    live_table_id: int | None
    round_number: int
    kind: str
    seat: int
    #: The hand's position after a split (1 for the first), None when the seat was not split.
    hand: int | None
    staked: int
    result: str
    net: int

    @classmethod
    def of(cls, bet: Bet, *, split_seats: frozenset[SeatKey]) -> BetLine:
        """A line for ``bet``; ``split_seats`` holds the `seat_key` of each seat that was
        split, whose hands are numbered."""
        played = bet.practice_round
        split = seat_key(bet) in split_seats
        return cls(
            settled_at=bet.settled_at,
            session_id=played.session_id if played is not None else None,
            live_table_id=bet.live_table_id,
            round_number=played.number if played is not None else bet.live_round or 0,
            kind=str(bet.get_kind_display()),
            seat=bet.seat,
            hand=bet.hand + 1 if split and bet.hand is not None else None,
            staked=bet.staked,
            result=str(RESULT_LABELS.get(bet.result, bet.result)),
            net=bet.net,
        )


#: A seat in one round: (practice round id, None, seat) or (live table id, round, seat).
SeatKey = tuple[int | None, int | None, int]


def seat_key(bet: Bet) -> SeatKey:
    """The seat and round a bet was settled on, wherever it was."""
    if bet.practice_round_id is not None:
        return (bet.practice_round_id, None, bet.seat)
    return (bet.live_table_id, bet.live_round, bet.seat)


def bet_lines(bets: Iterable[Bet], split_seats: frozenset[SeatKey]) -> list[BetLine]:
    """The lines of a page of bets (see `BetLine.of`)."""
    return [BetLine.of(bet, split_seats=split_seats) for bet in bets]
