"""A practice table: the player's seat among bot seats, round after round from one shoe.

The table owns what lasts between rounds — the shoe, everyone's chips, the seats and the
limits — and runs the bots: after the deal and after each of the player's decisions it
plays every bot decision up to the player's next turn or the end of the round, so a
caller only ever waits on the player.

>>> from engine.rules import EUROPEAN
>>> from engine.shoe import Shoe
>>> table = Table.new(EUROPEAN, player_seat=2, bots=[BotSeat(1, "easy")], bankroll=100,
...                   shoe=Shoe.stacked("10s 10h 6d 6c 7s 10d 2d 9h"))
>>> table.deal(20)
>>> table.round.turn.seat   # the easy bot in seat 1 hit its 16 (the 2d) and stood on 18
2
>>> table.act("stand")   # the dealer turns 16 and busts with the 9h
>>> table.balances, table.round.phase.value
({'player': 120, 'bot 1': 110}, 'settled')

What a player may see of it is a `PublicTable` (`Table.public`): a value made of the seats,
chips, cards face up and the round's public history, with no shoe and no hole card in it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.bots import BOTS, Tier
from engine.cards import CARDS, Card
from engine.chips import Chips
from engine.errors import IllegalActionError, StateError
from engine.events import Event, ShoeShuffled, StakeSettled, dealer_cards
from engine.refusals import Refusal, refused
from engine.round import Phase, Round, Turn
from engine.rules import Rules
from engine.shoe import Shoe
from engine.table_state import table_state_from_json, table_state_to_json
from engine.values import Action
from engine.view import PlayerView

__all__ = [
    "PLAYER",
    "TIERS",
    "BotSeat",
    "Limits",
    "PublicHand",
    "PublicSeat",
    "PublicTable",
    "Table",
    "bot_owner",
]

#: The owner name of the player's seat and chips.
PLAYER = "player"
TIERS: tuple[Tier, ...] = tuple(Tier)
_OVER = (Phase.SETTLED, Phase.VOIDED)


def bot_owner(seat: int) -> str:
    """The owner name of a bot's seat and chips."""
    return f"bot {seat}"


@dataclass(frozen=True)
class BotSeat:
    seat: int
    tier: str


@dataclass(frozen=True)
class Limits:
    """Table limits. Bets go in steps of ``step`` chips, so that every payout (3:2, half
    back on surrender, half-bet insurance) is a whole number of chips when step is even."""

    minimum: int = 10
    maximum: int = 500
    step: int = 10

    def __post_init__(self) -> None:
        if not (
            0 < self.step <= self.minimum <= self.maximum
            and self.step % 2 == 0
            and self.minimum % self.step == 0
        ):
            raise refused(Refusal.BAD_LIMITS)

    def check(self, bet: object, balance: Chips) -> int:
        """The bet if it is allowed, else `IllegalActionError` saying why."""
        if type(bet) is not int or bet <= 0:
            raise refused(Refusal.BET_NOT_WHOLE)
        if bet < self.minimum:
            raise refused(Refusal.BET_MINIMUM, chips=self.minimum)
        if bet > self.maximum:
            raise refused(Refusal.BET_MAXIMUM, chips=self.maximum)
        if bet % self.step:
            raise refused(Refusal.BET_STEP, chips=self.step)
        if bet > balance:
            raise refused(Refusal.OVER_BALANCE)
        return bet


@dataclass(frozen=True, slots=True)
class PublicHand:
    """A hand in the round, as everyone sees it: a seat's cards are all face up."""

    cards: tuple[Card, ...]
    stake: Chips


@dataclass(frozen=True, slots=True)
class PublicSeat:
    """A seat at the table: whose it is, their chips, and their hands in the round shown."""

    number: int
    #: `PLAYER`, or the bot's owner name (`bot_owner`).
    owner: str
    #: The bot's tier; None for the player's seat.
    tier: str | None
    balance: Chips
    #: Left to right; none when the seat has no hand in the round shown (or none is dealt).
    hands: tuple[PublicHand, ...]
    #: The pair bets on this seat in the round shown, as (owner, chips).
    pair_bets: tuple[tuple[str, int], ...] = ()
    #: The bets behind this seat in the round shown, as (owner, chips placed).
    bets_behind: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class PublicTable:
    """What a player may see of a table: a value built by `Table.public`.

    It is made only of public things — seats, chips, limits, the cards face up, the
    round's history (where the face-down card has no identity) and what anyone may know
    of the shoe (cards left, the cut card out) — so nothing built from it can show the
    hole card before it is turned, or the shoe's order: no field can reach them.

    >>> from engine.rules import EUROPEAN
    >>> from engine.shoe import Shoe
    >>> table = Table.new(EUROPEAN, shoe=Shoe.stacked("10s 9h 6d 7c 5s"))
    >>> table.deal(10)
    >>> public = table.public()
    >>> [str(card) if card else "face down" for card in public.dealer]
    ['9h', 'face down']
    >>> public.legal, public.cards_left
    ((<Action.HIT: 'hit'>, <Action.STAND: 'stand'>, <Action.DOUBLE: 'double'>), 1)
    """

    rules: Rules
    limits: Limits
    player_seat: int
    #: Every seat taken at the table, by number.
    seats: tuple[PublicSeat, ...]
    #: The dealer's cards in the round shown; None is the hole card, face down.
    dealer: tuple[Card | None, ...]
    #: The round shown (in play, or the last one played); empty before the first deal.
    history: tuple[Event, ...]
    #: The round's phase, or None before the first deal.
    phase: Phase | None
    turn: Turn | None
    #: The player's decision awaited, if any (the input of a hint, as of every bot).
    decision: PlayerView | None
    cards_left: int
    #: The cut card has come out: the round in play is the shoe's last, and a fresh shoe
    #: is shuffled before the next.
    cut_card_out: bool
    #: The round shown began with a fresh shoe: the card the dealer turned and how many
    #: cards were burned (none unless the rules burn); None if it did not. The burned
    #: cards themselves stay unseen.
    shuffled: ShoeShuffled | None = None

    @property
    def over(self) -> bool:
        """No round is in play: none dealt yet, or the last one settled or void."""
        return self.phase is None or self.phase in _OVER

    @property
    def legal(self) -> tuple[Action, ...]:
        """The actions the player may take now (none unless a decision is theirs)."""
        return self.decision.legal if self.decision is not None else ()

    def net(self, owner: str) -> Chips:
        """Chips the owner won (positive) or lost in the round shown, once settled."""
        return sum(
            event.returned - event.staked
            for event in self.history
            if isinstance(event, StakeSettled) and event.owner == owner
        )


class Table:
    """The state of one practice table between and during rounds (see the module doc).

    ``balances`` is shared with the current round, which takes bets from it and pays
    settlements into it, so the ledger is the round's own.
    """

    def __init__(
        self,
        rules: Rules,
        shoe: Shoe,
        *,
        player_seat: int,
        bots: Iterable[BotSeat],
        balances: dict[str, Chips],
        bot_bankroll: int,
        limits: Limits,
        current: Round | None = None,
    ) -> None:
        self.rules = rules
        self.shoe = shoe
        self.player_seat = player_seat
        self.bots = tuple(sorted(bots, key=lambda bot: bot.seat))
        self.balances = balances
        #: What a bot that cannot cover the minimum buys in again with.
        self.bot_bankroll = bot_bankroll
        self.limits = limits
        #: The round in play, or the last one played (kept to show its result).
        self.round = current
        self._check_seats()

    @classmethod
    def new(
        cls,
        rules: Rules,
        *,
        player_seat: int = 1,
        bots: Iterable[BotSeat] = (),
        bankroll: int = 1000,
        limits: Limits = Limits(),
        shoe: Shoe | None = None,
        rng: random.Random | None = None,
    ) -> Table:
        """A table with a fresh shoe (shuffled with the system CSPRNG unless ``rng`` is
        given), the player and every bot starting with ``bankroll`` chips."""
        bots = tuple(bots)
        if type(bankroll) is not int or bankroll < limits.minimum:
            raise refused(Refusal.BANKROLL_MINIMUM, chips=limits.minimum)
        balances: dict[str, Chips] = {PLAYER: bankroll}
        balances.update({bot_owner(bot.seat): bankroll for bot in bots})
        return cls(
            rules,
            shoe if shoe is not None else Shoe.for_rules(rules, rng),
            player_seat=player_seat,
            bots=bots,
            balances=balances,
            bot_bankroll=bankroll,
            limits=limits,
        )

    def _check_seats(self) -> None:
        seats = [self.player_seat, *(bot.seat for bot in self.bots)]
        if any(type(seat) is not int or not 1 <= seat <= self.rules.max_seats for seat in seats):
            raise refused(Refusal.SEAT_NUMBERS, seats=self.rules.max_seats)
        if len(set(seats)) != len(seats):
            raise refused(Refusal.SHARED_SEAT)
        for bot in self.bots:
            if bot.tier not in TIERS:
                raise refused(Refusal.BOT_TIER, tier=repr(bot.tier), tiers=", ".join(TIERS))

    # Play ------------------------------------------------------------------------------

    @property
    def in_play(self) -> bool:
        """A round is dealt and not yet over."""
        return self.round is not None and self.round.phase not in _OVER

    @property
    def players_turn(self) -> bool:
        """The round waits on a decision of the player's: on their seat, or as a bettor
        behind a bot (`Turn.of_bettor_behind`)."""
        turn = self.round.turn if self.in_play and self.round is not None else None
        return turn is not None and turn.owner == PLAYER

    def deal(
        self,
        bet: int,
        *,
        behind: Mapping[int, int] | None = None,
        pairs: Mapping[int, int] | None = None,
    ) -> None:
        """Take everyone's bets and deal a round; the bots then play up to the player.

        ``behind`` and ``pairs`` are the player's bets behind bots' seats and pair bets
        on any seat, by seat number (where the rules have them), within the limits like
        the seat bet. A bet refused raises `IllegalActionError` and changes nothing. The
        player's decisions as a bettor behind (insurance, following a double or split)
        are the player's turns, like those on their own seat.
        """
        if self.in_play:
            raise refused(Refusal.FINISH_ROUND)
        self.limits.check(bet, self.balances[PLAYER])
        balances = dict(self.balances)  # the bets are placed on a copy until all are taken
        rnd = Round(self.rules, self.shoe, balances=balances)
        for bot in self.bots:
            owner = bot_owner(bot.seat)
            if balances.get(owner, 0) < self.limits.minimum:
                balances[owner] = self.bot_bankroll  # a broke bot buys in again
            rnd.place_bet(seat=bot.seat, amount=self.limits.minimum, owner=owner)
        rnd.place_bet(seat=self.player_seat, amount=bet, owner=PLAYER)
        for seat, amount in (behind or {}).items():
            self.limits.check(amount, balances[PLAYER])
            rnd.place_bet_behind(seat=seat, amount=amount, owner=PLAYER)
        for seat, amount in (pairs or {}).items():
            self.limits.check(amount, balances[PLAYER])
            rnd.place_pair_bet(seat=seat, amount=amount, owner=PLAYER)
        self.balances.clear()
        self.balances.update(balances)
        rnd.balances = self.balances
        rnd.deal()
        self.round = rnd
        self._play_bots()

    def view(self) -> PlayerView:
        """The player's view of the decision awaited from them."""
        return self._round_at_players_turn().view()

    def act(self, action: Action | str) -> None:
        """The player's decision; then the bots and the dealer play on up to the next one.

        An action out of turn or not legal raises `IllegalActionError` and changes nothing.
        """
        self._round_at_players_turn().apply(action, owner=PLAYER)
        self._play_bots()

    def _round_at_players_turn(self) -> Round:
        """The round in play; refused when there is none. The bots play up to the
        player's turn, so a round in play always waits on the player."""
        if not self.players_turn or self.round is None:
            raise refused(Refusal.NO_ROUND_DEAL)
        return self.round

    def _play_bots(self) -> None:
        rnd = self.round
        assert rnd is not None
        tiers = {bot.seat: BOTS[Tier(bot.tier)] for bot in self.bots}
        while (turn := rnd.turn) is not None and turn.owner != PLAYER:
            # Bots never bet behind: a bot's turn is always on its own seat.
            rnd.apply(tiers[turn.seat](rnd.view()))

    def public(self) -> PublicTable:
        """What a player at this table may see now (see `PublicTable`)."""
        rnd = self.round
        in_round = {seat.number: seat for seat in rnd.seats} if rnd is not None else {}
        tiers: dict[int, str | None] = {bot.seat: bot.tier for bot in self.bots}
        tiers[self.player_seat] = None
        seats = []
        for number, tier in sorted(tiers.items()):
            owner = PLAYER if tier is None else bot_owner(number)
            taken = in_round.get(number)
            hands = taken.hands if taken is not None else []
            seats.append(
                PublicSeat(
                    number=number,
                    owner=owner,
                    tier=tier,
                    balance=self.balances.get(owner, 0),
                    hands=tuple(
                        PublicHand(tuple(CARDS[code] for code in hand.cards), hand.stake)
                        for hand in hands
                    ),
                    pair_bets=tuple(taken.pair_bets) if taken is not None else (),
                    bets_behind=tuple((bet.owner, bet.amount) for bet in taken.behind)
                    if taken is not None
                    else (),
                )
            )
        history = tuple(rnd.history()) if rnd is not None else ()
        return PublicTable(
            rules=self.rules,
            limits=self.limits,
            player_seat=self.player_seat,
            seats=tuple(seats),
            dealer=tuple(dealer_cards(history)),
            history=history,
            phase=rnd.phase if rnd is not None else None,
            turn=rnd.turn if rnd is not None else None,
            decision=self.view() if self.players_turn else None,
            cards_left=self.shoe.remaining,
            cut_card_out=self.shoe.cut_card_out,
            shuffled=next((event for event in history if isinstance(event, ShoeShuffled)), None),
        )

    # State -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole table as JSON values, shoe included: server-side state only."""
        data: dict[str, Any] = {
            "player_seat": self.player_seat,
            "bots": [[bot.seat, bot.tier] for bot in self.bots],
            "bot_bankroll": self.bot_bankroll,
            "limits": [self.limits.minimum, self.limits.maximum, self.limits.step],
        }
        data.update(table_state_to_json(self.round, self.rules, self.shoe, self.balances))
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], *, rng: random.Random | None = None) -> Table:
        """The inverse of `to_json`; the shoe's RNG is not state and is given anew."""
        try:
            current, rules, shoe, balances = table_state_from_json(data, rng=rng)
            if PLAYER not in balances:
                raise ValueError("a table keeps the player's balance")
            minimum, maximum, step = (int(v) for v in data["limits"])
            return cls(
                rules,
                shoe,
                player_seat=int(data["player_seat"]),
                bots=[BotSeat(int(seat), str(tier)) for seat, tier in data["bots"]],
                balances=balances,
                bot_bankroll=int(data["bot_bankroll"]),
                limits=Limits(minimum, maximum, step),
                current=current,
            )
        except (AttributeError, KeyError, TypeError, ValueError, IllegalActionError) as error:
            raise StateError(f"not a valid table: {error}") from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Table) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]
