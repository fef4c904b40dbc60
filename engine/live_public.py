"""The values a live table (`engine.live_table.LiveTable`) is read through: its stage, the
notices of what its clock and its rules did, and `LivePublic`, what one viewer may see.

Every field is public: seats, bets, chips, the cards face up and the round's public
history. None can hold the shoe or the hole card before it is turned.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Card
from engine.chips import Chips
from engine.events import Event, ShoeShuffled
from engine.round import Phase, Turn
from engine.rules import Rules
from engine.table import Limits, PublicHand
from engine.values import Action
from engine.view import PlayerView

__all__ = [
    "LivePublic",
    "LiveSeat",
    "Notice",
    "NoticeKind",
    "Preselection",
    "PublicBehind",
    "SideBet",
    "Stage",
]


class Stage(StrEnum):
    """Where the table is in its cycle; each stage ends at the table's ``deadline``."""

    #: Bets are taken until the deadline (or until every seated person has bet).
    BETTING = "betting"
    #: A round is in play; the deadline is the awaited decision's.
    PLAYING = "playing"
    #: The round just played is shown until the deadline; then betting opens.
    RESULT = "result"


class NoticeKind(StrEnum):
    """What the table did by its own rules or clock, for the page to say in words."""

    #: A seat had no bet when betting closed, and its holder did not sit out: unseated.
    UNSEATED = "unseated"
    #: A seat sat out this round (announced); one more in a row frees it.
    SAT_OUT = "sat_out"
    #: A seat that played the last round has no bet in this one: kept for this round
    #: only (freed after the next without a bet).
    KEPT_NO_BET = "kept_no_bet"
    #: A seat sat out a second round in a row: freed.
    FREED_SAT_OUT = "freed_sat_out"
    #: A seat's holder cannot cover the minimum bet at the start of a round: freed.
    FREED_SHORT = "freed_short"
    #: A holder left the seat (freed at once, or at the end of the round in play).
    LEFT = "left"
    #: A bet behind, or a pair bet, on a seat not in the round: returned (never taken).
    BEHIND_RETURNED = "behind_returned"
    PAIR_RETURNED = "pair_returned"
    #: Betting closed without a person's stake: no round; betting opens again.
    NO_ROUND = "no_round"
    #: A round was dealt (``amount`` is its number at this table).
    DEALT = "dealt"
    #: A decision's deadline passed: auto-play took it (the seat's holder or a bettor
    #: behind, ``owner``).
    TIMED_OUT = "timed_out"
    #: A fault stopped the round: paused where it stood, the failed step tried again.
    PAUSED = "paused"
    #: The fault was put right: the round resumes where it stopped.
    RESUMED = "resumed"
    #: The round could not be completed: voided, every bet in it refunded.
    VOIDED = "voided"
    #: A bot that could not cover the minimum bought in again.
    BOT_BOUGHT_IN = "bot_bought_in"


@dataclass(frozen=True, slots=True)
class Notice:
    """One thing the table did, ``at`` the time (seconds since the epoch) it applied."""

    at: float
    kind: NoticeKind
    seat: int | None = None
    owner: str | None = None
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class SideBet:
    """A bet behind or a pair bet placed in the betting window, not yet taken."""

    seat: int
    owner: str
    amount: int


@dataclass(frozen=True, slots=True)
class PublicBehind:
    """A bet behind a seat: ``stakes`` ride on its hands once dealt (empty before), and
    ``insurance`` is its insurance stake once decided (None before, 0 declined)."""

    owner: str
    amount: int
    stakes: tuple[Chips, ...]
    insurance: Chips | None


@dataclass(frozen=True, slots=True)
class LiveSeat:
    """A seat held at the table, with what rides on it in the window or round shown."""

    number: int
    owner: str
    #: The bot's tier; None for a person's seat.
    tier: str | None
    #: Announced to sit out the coming round.
    sitting_out: bool
    #: Rounds sat out in a row (a second frees the seat).
    rounds_out: int
    #: The holder left during the round in play: the seat is freed when it ends.
    leaving: bool
    #: The seat bet: placed in the betting window, or riding in the round shown.
    bet: int | None
    hands: tuple[PublicHand, ...]
    behind: tuple[PublicBehind, ...]
    pairs: tuple[SideBet, ...]


@dataclass(frozen=True, slots=True)
class Preselection:
    """What the viewer may pre-select on one of their seats now, and what they chose."""

    seat: int
    allowed: tuple[Action, ...]
    chosen: Action | None


@dataclass(frozen=True, slots=True)
class LivePublic:
    """What one viewer may see of a live table: a value built by `LiveTable.public`."""

    rules: Rules
    limits: Limits
    stage: Stage
    #: When the betting window, the awaited decision or the result pause ends, or a round
    #: paused by a fault is voided unless it is put right (seconds since the epoch).
    deadline: float
    #: Rounds dealt at this table so far (the round shown is the last of them).
    rounds: int
    seats: tuple[LiveSeat, ...]
    #: Every owner's chips at the table, by owner (bets placed in the window not taken).
    balances: tuple[tuple[str, Chips], ...]
    #: The dealer's cards in the round shown; None is the hole card, face down.
    dealer: tuple[Card | None, ...]
    history: tuple[Event, ...]
    phase: Phase | None
    turn: Turn | None
    viewer: str | None
    #: The viewer's chips in bets placed in this window (not yet taken).
    committed: Chips
    #: The viewer's awaited decision, if the turn is theirs (legal actions included).
    decision: PlayerView | None
    #: The viewer's seats whose turn is still to come in the round in play.
    preselections: tuple[Preselection, ...]
    #: What the table did since the last betting window before this round opened.
    notices: tuple[Notice, ...]
    cards_left: int
    #: The cut card has come out: the round in play is the shoe's last.
    cut_card_out: bool
    #: The round shown opened a fresh shoe: the card the dealer turned and how many were
    #: burned (the burned cards stay unseen); None if it did not.
    shuffled: ShoeShuffled | None = None
    #: A fault paused the round in play: no decision is awaited until it resumes (the
    #: deadline is then when the round is voided unless the fault is put right first).
    paused: bool = False

    def balance(self, owner: str) -> Chips:
        """The owner's chips at the table (0 for one who has none)."""
        return dict(self.balances).get(owner, 0)

    @property
    def onlooker(self) -> bool:
        """The viewer has no part in what is shown: no chips at the table, no seat, no bet,
        nothing of theirs in the round or the notices; so their view is every such
        viewer's, and may be drawn once for them all.

        >>> from engine.live_table import LiveTable
        >>> from engine.rules import DELUXE
        >>> table = LiveTable.new(DELUXE, now=0.0)
        >>> table.buy_in("ann", 500, now=0.0)
        >>> table.public("ann").onlooker, table.public("bob").onlooker
        (False, True)
        """
        viewer = self.viewer
        if viewer is None:
            return True
        named: list[str | None] = [owner for owner, _chips in self.balances]
        for seat in self.seats:
            named += [seat.owner, *(b.owner for b in seat.behind), *(p.owner for p in seat.pairs)]
        named += [getattr(event, "owner", None) for event in self.history]
        named += [notice.owner for notice in self.notices]
        return viewer not in named and not self.committed and self.decision is None

    @property
    def legal(self) -> tuple[Action, ...]:
        """The actions the viewer may take now (none unless the decision is theirs)."""
        return self.decision.legal if self.decision is not None else ()
