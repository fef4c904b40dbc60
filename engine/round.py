"""One round of blackjack as an explicit state machine, with its history.

Phases: betting → (dealing) → insurance, if offered → player turns, seat by seat and hand
by hand → (dealer) → settled. Dealing, the dealer's play and settlement run by themselves;
the phases a caller can observe between calls are `Phase` members.

>>> from engine.rules import EUROPEAN
>>> from engine.shoe import Shoe
>>> rnd = Round(EUROPEAN, Shoe.stacked("10s 9h 6d 7c 5s"))
>>> rnd.place_bet(seat=1, amount=10)
>>> events = rnd.deal()
>>> rnd.legal_actions()
(<Action.HIT: 'hit'>, <Action.STAND: 'stand'>, <Action.DOUBLE: 'double'>)
>>> events = rnd.apply(Action.STAND)
>>> rnd.phase, [str(card) for card in rnd.outcome().dealer]
(<Phase.SETTLED: 'settled'>, ['9h', '7c', '5s'])
>>> rnd.outcome().net("player")
-10
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from engine.cards import CARDS, POINTS, Card
from engine.errors import IllegalActionError, StateError
from engine.events import DEALER, Event, StakeSettled, event_from_log
from engine.hand import Hand
from engine.rules import DoubleOn, Rules, Surrender
from engine.shoe import Shoe
from engine.view import PlayerView

__all__ = ["Action", "BehindBet", "Outcome", "Phase", "Round", "Seat", "Turn"]

Chips = int | Fraction


class Phase(StrEnum):
    BETTING = "betting"
    INSURANCE = "insurance"
    PLAYER_TURNS = "player_turns"
    SETTLED = "settled"
    VOIDED = "voided"


class Action(StrEnum):
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    INSURE = "insure"
    NO_INSURANCE = "no_insurance"


HIT, STAND, DOUBLE, SPLIT, SURRENDER = (
    Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER,
)  # fmt: skip
_DOUBLE_TOTALS = {DoubleOn.NINE_TO_ELEVEN: (9, 10, 11), DoubleOn.TEN_OR_ELEVEN: (10, 11)}
_ANY_TWO = DoubleOn.ANY_TWO
#: Phases as module constants: reading a member off an enum class is a slow lookup.
_BETTING = Phase.BETTING
_PLAYER_TURNS = Phase.PLAYER_TURNS
_INSURANCE = Phase.INSURANCE
_SETTLED = Phase.SETTLED
_LATE = Surrender.LATE
#: The up card's value as strategy charts write it (an ace as 11), by card code.
_UP_POINTS = tuple(11 if points == 1 else points for points in POINTS)
_HIT_STAND = (HIT, STAND)
_STAND_ONLY = (STAND,)
#: Legal actions on two cards by (one-card split aces, double, split, surrender), built
#: once so that asking for them costs a dictionary lookup.
_TWO_CARD_ACTIONS = {
    (aces, double, split, surrender): tuple(
        action
        for action, allowed in (
            (HIT, not aces),
            (STAND, True),
            (DOUBLE, double),
            (SPLIT, split),
            (SURRENDER, surrender),
        )  # fmt: skip
        if allowed
    )
    for aces in (False, True)
    for double in (False, True)
    for split in (False, True)
    for surrender in (False, True)
}


@dataclass(frozen=True, slots=True)
class Turn:
    """Whose decision the round waits for: a seat's hand, or its insurance (hand None)."""

    seat: int
    hand: int | None
    owner: str


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
    """A seat in this round: its holder, seat bet, hands and the stakes riding on it.

    No ``__slots__``, like `Hand`: built every round, it is cheaper with a plain ``__dict__``.
    """

    def __init__(self, number: int, owner: str, bet: int) -> None:
        self.number = number
        self.owner = owner
        self.bet = bet
        self.hands = [Hand(bet)]
        #: None until decided; then the insurance stake (0 = declined).
        self.insurance: Chips | None = None
        #: Side stakes: empty tuples until one is placed, which keeps a plain seat cheap.
        self.pair_bets: Sequence[tuple[str, int]] = ()
        self.behind: Sequence[BehindBet] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """A settled round: the dealer's cards and every stake's settlement."""

    dealer: tuple[Card, ...]
    dealer_total: int
    dealer_natural: bool
    settlements: tuple[StakeSettled, ...]

    def net(self, owner: str) -> Chips:
        """Chips the owner won (positive) or lost over the whole round."""
        return sum((s.returned - s.staked for s in self.settlements if s.owner == owner), start=0)


def _seat_number(seat: Seat) -> int:
    return seat.number


def _portion(amount: Chips, numerator: int, denominator: int) -> Chips:
    """``amount * numerator / denominator`` as an int when exact, else a Fraction."""
    if type(amount) is int:
        whole, rest = divmod(amount * numerator, denominator)
        if not rest:
            return whole
    return Fraction(amount * numerator, denominator)


def _scaled(amount: Chips, ratio: Fraction) -> Chips:
    """``amount * ratio`` as an int when exact, else a Fraction — never a float."""
    return _portion(amount, ratio.numerator, ratio.denominator)


class Round:
    """The one mutable aggregate of the engine: a round's table, hands and history.

    ``balances`` (owner → free chips) is optional: with it, bets, doubles, splits and
    insurance are checked against and taken from it, and settlement pays into it;
    without it (simulations) stakes are unlimited.
    """

    __slots__ = (
        "_hand_index",
        "_legal",
        "_seat_index",
        "_dealer",
        "balances",
        "log",
        "phase",
        "rules",
        "seats",
        "shoe",
    )

    def __init__(self, rules: Rules, shoe: Shoe, *, balances: dict[str, Chips] | None = None):
        self.rules = rules
        self.shoe = shoe
        self.balances = balances
        self.phase = _BETTING
        self.seats: list[Seat] = []
        #: The dealer's cards as codes: a plain list, for the dealer takes no decisions.
        self._dealer: list[int] = []
        self.log: list[tuple[Any, ...]] = []
        #: Whose turn it is: indexes into `seats` and that seat's hands.
        self._seat_index = 0
        self._hand_index = 0
        #: The legal actions of the awaited decision, once asked; reset by every change.
        self._legal: tuple[Action, ...] | None = None

    # Betting ---------------------------------------------------------------------------

    def place_bet(self, *, seat: int, amount: int, owner: str = "player") -> None:
        """Sit at a seat with a seat bet for this round."""
        if self.phase is not _BETTING or type(amount) is not int or amount <= 0:
            self._check_betting(amount)  # refuses, saying why
        if not 1 <= seat <= self.rules.max_seats:
            raise IllegalActionError(f"there is no seat {seat} at this table")
        seats = self.seats
        if seats:  # a round's first bet: no seat is taken yet, and any account may hold one
            held = 0
            for taken in seats:
                if taken.number == seat:
                    raise IllegalActionError(f"seat {seat} already has a bet")
                held += taken.owner == owner
            if held >= self.rules.seats_per_account:
                raise IllegalActionError(
                    f"one player may hold at most {self.rules.seats_per_account} seat(s)"
                )
        if self.balances is not None:
            self._take(owner, amount)
        seats.append(Seat(seat, owner, amount))
        if len(seats) > 1:
            seats.sort(key=_seat_number)

    def place_pair_bet(self, *, seat: int, amount: int, owner: str = "player") -> None:
        """A side bet that the seat's first two cards are a pair of the same rank."""
        self._check_betting(amount)
        if not self.rules.pair_bet:
            raise IllegalActionError("this table has no pair side bet")
        target = self._occupied(seat)
        self._take(owner, amount)
        target.pair_bets = [*target.pair_bets, (owner, amount)]

    def place_bet_behind(
        self,
        *,
        seat: int,
        amount: int,
        owner: str,
        follow_double: bool = False,
        follow_split: bool = False,
    ) -> None:
        """A stake that wins or loses with another player's seat."""
        self._check_betting(amount)
        if not self.rules.bet_behind:
            raise IllegalActionError("this table has no bet behind")
        target = self._occupied(seat)
        if target.owner == owner:
            raise IllegalActionError("you cannot bet behind your own seat")
        self._take(owner, amount)
        bet = BehindBet(owner, amount, follow_double=follow_double, follow_split=follow_split)
        target.behind = [*target.behind, bet]

    def _check_betting(self, amount: int) -> None:
        if self.phase is not _BETTING:
            raise IllegalActionError("bets are closed for this round")
        if type(amount) is not int or amount <= 0:
            raise IllegalActionError("a bet must be a whole number of chips above zero")

    def _occupied(self, number: int) -> Seat:
        for seat in self.seats:
            if seat.number == number:
                return seat
        raise IllegalActionError(f"seat {number} has no player")

    def _take(self, owner: str, amount: Chips) -> None:
        balances = self.balances
        if balances is None:
            return
        if balances.get(owner, 0) < amount:
            raise IllegalActionError("that bet is more than your balance")
        balances[owner] = _whole(balances[owner] - amount)

    def _can_cover(self, owner: str, amount: Chips) -> bool:
        balances = self.balances
        return balances is None or balances.get(owner, 0) >= amount

    # Dealing ---------------------------------------------------------------------------

    def deal(self) -> list[Event]:
        """Close betting, deal two cards to each seat and the dealer, and start play."""
        start = len(self.log)
        self.start()
        return self.events_since(start)

    def start(self) -> None:
        """`deal`, without building the events (they are in `log`)."""
        if self.phase is not _BETTING:
            raise IllegalActionError("the cards are already dealt")
        if not self.seats:
            raise IllegalActionError("place a bet before the deal")
        log = self.log.append
        shoe = self.shoe
        if shoe.needs_shuffle or shoe.position >= shoe.cut:
            burned = shoe.prepare_round(self.rules)
            if burned is not None:
                log(("shuffle", burned[0] if burned else None, len(burned)))
        draw = shoe.draw
        seats = self.seats
        dealer = self._dealer
        # Dealing order: a card to each seat, the up card, a second card to each seat, the
        # hole card. Hand.add is inlined: this is the hot path of every simulated round.
        for seat in seats:
            card = draw()
            hand = seat.hands[0]
            hand.cards.append(card)
            points = hand.hard = POINTS[card]
            hand.has_ace = points == 1
            log(("card", seat.number, 0, card))
        up = draw()
        dealer.append(up)
        log(("card", DEALER, 0, up))
        for seat in seats:
            card = draw()
            hand = seat.hands[0]
            hand.cards.append(card)
            points = POINTS[card]
            hand.hard += points
            if points == 1:
                hand.has_ace = True
            log(("card", seat.number, 0, card))
            if hand.hard == 11 and hand.has_ace:
                hand.natural = True
                self._close(seat, 0, hand)
        dealer.append(draw())
        log(("card", DEALER, 0, None))
        if self.rules.insurance and POINTS[up] == 1:
            self.phase = _INSURANCE
            self._seat_index = 0
            self._legal = None
            return
        self._after_insurance()

    def _after_insurance(self) -> None:
        up, hole = self._dealer
        if self.rules.dealer_peeks and POINTS[up] in (1, 10):
            natural = POINTS[up] + POINTS[hole] == 11
            self.log.append(("peek", natural))
            if natural:
                self._finish()
                return
        self.phase = _PLAYER_TURNS
        self._seat_index = self._hand_index = 0
        self._legal = None
        if self.seats[0].hands[0].closed:  # a natural: the turn moves on at once
            self._advance()

    # Decisions -------------------------------------------------------------------------

    @property
    def turn(self) -> Turn | None:
        """Whose decision is awaited, or None when none is."""
        if self.phase is Phase.PLAYER_TURNS:
            seat = self.seats[self._seat_index]
            return Turn(seat.number, self._hand_index, seat.owner)
        if self.phase is Phase.INSURANCE:
            seat = self.seats[self._seat_index]
            return Turn(seat.number, None, seat.owner)
        return None

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the awaited decision may take, in a fixed order (empty if none)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> tuple[Action, ...]:
        phase = self.phase
        if phase is not _PLAYER_TURNS:
            if phase is not _INSURANCE:
                return ()
            seat = self.seats[self._seat_index]
            if self._can_cover(seat.owner, _scaled(seat.bet, Fraction(1, 2))):
                return (Action.INSURE, Action.NO_INSURANCE)
            return (Action.NO_INSURANCE,)
        seat = self.seats[self._seat_index]
        return self._hand_legal(seat, seat.hands[self._hand_index])

    def _hand_legal(self, seat: Seat, hand: Hand) -> tuple[Action, ...]:
        """The legal actions on one of the seat's hands, whose turn it is."""
        cards = hand.cards
        rules = self.rules
        if len(cards) != 2:
            return _STAND_ONLY if hand.split_aces and not rules.hit_split_aces else _HIT_STAND
        balances = self.balances
        covered = (
            balances is None
            or rules.short_balance_fallback
            or balances.get(seat.owner, 0) >= seat.bet
        )
        can_double = covered and (
            rules.double_on is _ANY_TWO or hand.total in _DOUBLE_TOTALS[rules.double_on]
        )
        can_split = covered and POINTS[cards[0]] == POINTS[cards[1]]
        if hand.from_split:
            one_card_aces = hand.split_aces and not rules.hit_split_aces
            can_double = can_double and not hand.split_aces and rules.double_after_split
            can_split = (
                can_split
                and len(seat.hands) < rules.max_hands
                and (not hand.split_aces or rules.resplit_aces)
            )
            return _TWO_CARD_ACTIONS[one_card_aces, can_double, can_split, False]
        can_surrender = rules.surrender is _LATE and (
            rules.surrender_vs_ace_or_ten or POINTS[self._dealer[0]] not in (1, 10)
        )
        return _TWO_CARD_ACTIONS[
            False, can_double, can_split and rules.max_hands > 1, can_surrender
        ]

    def verify(self, action: Action | str, *, seat: int | None = None) -> Action:
        """The action as an `Action` if it is legal now, else `IllegalActionError`."""
        if type(action) is not Action:
            try:
                action = Action(action)
            except ValueError:
                raise IllegalActionError(f"{action!r} is not an action") from None
        phase = self.phase
        if phase is not Phase.PLAYER_TURNS and phase is not Phase.INSURANCE:
            if phase is Phase.BETTING:
                raise IllegalActionError("the cards have not been dealt yet")
            raise IllegalActionError("this round is over")
        if seat is not None and seat != self.seats[self._seat_index].number:
            current = self.seats[self._seat_index].number
            raise IllegalActionError(f"it is seat {current}'s turn, not seat {seat}'s")
        if action not in (self._legal or self.legal_actions()):
            raise IllegalActionError(self._why_illegal(action))
        return action

    def _why_illegal(self, action: Action) -> str:
        if self.phase is Phase.INSURANCE:
            if action is Action.INSURE:
                return "your balance does not cover insurance"
            return "first decide on insurance"
        if action in (Action.INSURE, Action.NO_INSURANCE):
            return "insurance is not on offer now"
        hand = self.seats[self._seat_index].hands[self._hand_index]
        if action is HIT:
            return "split aces take one card only"
        if action is SURRENDER:
            if self.rules.surrender is Surrender.NONE:
                return "this table has no surrender"
            return "surrender is only allowed on the first two cards, before any other action"
        if len(hand.cards) != 2:
            return f"you can only {action.value} on your first two cards"
        if not (
            self.rules.short_balance_fallback
            or self._can_cover(self.seats[self._seat_index].owner, self.seats[self._seat_index].bet)
        ):
            return f"your balance does not cover another bet to {action.value}"
        if action is DOUBLE:
            return "you cannot double this hand"
        return "you can only split two cards of the same value, up to the hand limit"

    def apply(self, action: Action | str, *, seat: int | None = None) -> list[Event]:
        """Take a decision and everything it sets off; returns what happened.

        An illegal action raises `IllegalActionError` and changes nothing.
        """
        start = len(self.log)
        self.play(action, seat=seat)
        return self.events_since(start)

    def play(self, action: Action | str, *, seat: int | None = None) -> None:
        """`apply`, without building the events (they are in `log`)."""
        legal = self._legal
        if not (seat is None and legal is not None and action in legal and type(action) is Action):
            action = self.verify(action, seat=seat)  # the slow path, which explains refusals
        self._legal = None
        current = self.seats[self._seat_index]
        if self.phase is _INSURANCE:
            self._decide_insurance(current, action)
            return
        index = self._hand_index
        hand = current.hands[index]
        effective = action
        if (action is DOUBLE or action is SPLIT) and not self._can_cover(
            current.owner, current.bet
        ):
            # Deluxe: a double or split the balance cannot cover becomes a hit, or a stand
            # for a split hand over 11.
            effective = HIT if action is DOUBLE or hand.total <= 11 else STAND
        self.log.append(("act", current.number, index, action, effective))
        if effective is HIT:
            self._hit(current, index, hand)
        elif effective is STAND:
            self._close(current, index, hand)
        elif effective is DOUBLE:
            self._double(current, index, hand)
        elif effective is SPLIT:
            self._split(current, index, hand)
        else:
            hand.surrendered = True
            self._close(current, index, hand)
        if hand.closed:
            if current is self.seats[-1] and hand is current.hands[-1]:
                self._seat_index += 1  # the last hand of the last seat: over to the dealer
                self._finish()
            else:
                self._advance()

    def auto_play(self) -> list[Event]:
        """The decision taken for a player who timed out or left (Deluxe rules).

        Insurance is declined; a hand hits while its total is 11 or less, then stands.
        """
        if self.phase is Phase.INSURANCE:
            return self.apply(Action.NO_INSURANCE)
        turn = self.turn
        if turn is None:
            raise IllegalActionError("no decision is awaited")
        hand = self.seats[self._seat_index].hands[self._hand_index]
        legal = self.legal_actions()
        return self.apply(HIT if hand.total <= 11 and HIT in legal else STAND)

    def _decide_insurance(self, seat: Seat, action: Action) -> None:
        stake: Chips = 0
        if action is Action.INSURE:
            stake = _scaled(seat.bet, Fraction(1, 2))
            self._take(seat.owner, stake)
        seat.insurance = stake
        self.log.append(("act", seat.number, None, action, action))
        self._seat_index += 1
        if self._seat_index >= len(self.seats):
            self._after_insurance()

    def _hit(self, seat: Seat, index: int, hand: Hand) -> None:
        card = self.shoe.draw()
        hand.cards.append(card)
        points = POINTS[card]
        hard = hand.hard = hand.hard + points
        if points == 1:
            hand.has_ace = True
        self.log.append(("card", seat.number, index, card))
        if hard > 20 or (hard == 11 and hand.has_ace):
            self._close(seat, index, hand)

    def _double(self, seat: Seat, index: int, hand: Hand) -> None:
        self._take(seat.owner, seat.bet)
        hand.stake += seat.bet
        hand.doubled = True
        for behind in seat.behind:
            if (
                behind.follow_double
                and behind.stakes[index]
                and self._can_cover(behind.owner, behind.amount)
            ):
                self._take(behind.owner, behind.amount)
                behind.stakes[index] += behind.amount
        card = self.shoe.draw()
        hand.add(card)
        self.log.append(("card", seat.number, index, card))
        self._close(seat, index, hand)

    def _split(self, seat: Seat, index: int, hand: Hand) -> None:
        self._take(seat.owner, seat.bet)
        first, second = hand.cards
        aces = POINTS[first] == 1
        left = Hand(hand.stake)
        right = Hand(seat.bet)
        for new, card in ((left, first), (right, second)):
            new.add(card)
            new.from_split = True
            new.split_aces = aces
        seat.hands[index : index + 1] = [left, right]
        for behind in seat.behind:
            follows = (
                behind.follow_split
                and behind.stakes[index]
                and self._can_cover(behind.owner, behind.amount)
            )
            if follows:
                self._take(behind.owner, behind.amount)
            behind.stakes.insert(index + 1, behind.amount if follows else 0)
        self.log.append(("split", seat.number, index))
        self._second_card(seat, index, left)
        if left.closed:
            self._advance()

    def _second_card(self, seat: Seat, index: int, hand: Hand) -> None:
        """A split hand's second card, dealt when play reaches the hand."""
        card = self.shoe.draw()
        hand.add(card)
        self.log.append(("card", seat.number, index, card))
        if hand.split_aces and not self.rules.hit_split_aces:
            can_resplit = (
                self.rules.resplit_aces
                and POINTS[card] == 1
                and len(seat.hands) < self.rules.max_hands
            )
            if not can_resplit:
                self._close(seat, index, hand)
        elif hand.hard == 11 and hand.has_ace:
            self._close(seat, index, hand)

    def _close(self, seat: Seat, index: int, hand: Hand) -> None:
        hand.closed = True
        hard = hand.hard
        total = hard + 10 if hand.has_ace and hard <= 11 else hard
        self.log.append(("close", seat.number, index, total))

    def _advance(self) -> None:
        """Move the turn to the next hand awaiting a decision, or to the dealer."""
        self._legal = None
        seats = self.seats
        seat_index = self._seat_index
        hand_index = self._hand_index
        while seat_index < len(seats):
            seat = seats[seat_index]
            hands = seat.hands
            while hand_index < len(hands):
                hand = hands[hand_index]
                if len(hand.cards) == 1:
                    self._second_card(seat, hand_index, hand)
                if not hand.closed:
                    self._seat_index = seat_index
                    self._hand_index = hand_index
                    return
                hand_index += 1
            seat_index += 1
            hand_index = 0
        self._seat_index = seat_index
        self._finish()

    # Dealer and settlement -------------------------------------------------------------

    def _finish(self) -> None:
        dealer = self._dealer
        up, hole = dealer
        self.log.append(("reveal", hole))
        hard = POINTS[up] + POINTS[hole]
        has_ace = POINTS[up] == 1 or POINTS[hole] == 1
        total = hard + 10 if has_ace and hard <= 11 else hard
        dealer_natural = total == 21  # two cards that make 21 are a natural
        hits_soft_17 = self.rules.dealer_hits_soft_17
        # The dealer draws below 17 (and on a soft 17 if the rules say so) unless no hand's
        # result depends on the total any more: a walk over the hands, so asked only then.
        draws = total < 17 or (total == 17 and hits_soft_17 and hard == 7)
        if draws and self._any_hand_undecided():
            draw = self.shoe.draw
            while draws:
                card = draw()
                dealer.append(card)
                points = POINTS[card]
                hard += points
                if points == 1:
                    has_ace = True
                total = hard + 10 if has_ace and hard <= 11 else hard
                self.log.append(("card", DEALER, 0, card))
                draws = total < 17 or (total == 17 and hits_soft_17 and hard == 7)
        self._settle(dealer_natural, total)
        self.phase = _SETTLED

    def _any_hand_undecided(self) -> bool:
        """Whether some hand's result still depends on the dealer's total."""
        for seat in self.seats:
            for hand in seat.hands:
                if not (hand.natural or hand.surrendered or hand.hard > 21):
                    return True
        return False

    def _settle(self, dealer_natural: bool, dealer_total: int) -> None:
        rules = self.rules
        takes_original_only = dealer_natural and rules.original_bets_only
        log = self.log
        balances = self.balances
        for seat in self.seats:
            bet = seat.bet
            number = seat.number
            index = 0  # counted, not enumerate(): the object costs more than a one-hand loop
            for hand in seat.hands:
                # The hand's result, and what it returns per chip staked as a ratio of ints
                # (worked out here rather than by a method, which would cost a call a hand).
                hard = hand.hard
                if hand.surrendered:
                    result, numerator, denominator = "surrender", 1, 2
                elif hard > 21:
                    result, numerator, denominator = "bust", 0, 1
                elif dealer_natural:
                    result, numerator, denominator = (
                        ("push", 1, 1) if hand.natural else ("lose", 0, 1)
                    )
                elif hand.natural:
                    odds = rules.blackjack_pays  # a Fraction, whose parts are properties
                    result = "blackjack"
                    numerator, denominator = odds.numerator + odds.denominator, odds.denominator
                else:
                    total = hard + 10 if hand.has_ace and hard <= 11 else hard
                    if dealer_total > 21 or total > dealer_total:
                        result, numerator, denominator = "win", 2, 1
                    elif total == dealer_total:
                        result, numerator, denominator = "push", 1, 1
                    else:
                        result, numerator, denominator = "lose", 0, 1
                stake = hand.stake
                if takes_original_only and result == "lose":
                    returned: Chips = stake - bet if index == 0 else stake
                elif denominator == 1:
                    returned = stake * numerator
                else:
                    returned = _portion(stake, numerator, denominator)
                log.append(
                    ("settle", number, index, seat.owner, "hand", result, stake, returned, bet)
                )
                if balances is not None:
                    balances[seat.owner] = _whole(balances.get(seat.owner, 0) + returned)
                if seat.behind:  # rarely: a loop over none would still build an iterator
                    for behind in seat.behind:
                        staked = behind.stakes[index]
                        if not staked:
                            continue
                        unit = behind.amount
                        if takes_original_only and result == "lose":
                            paid: Chips = staked - unit if index == 0 else staked
                        else:
                            paid = _portion(staked, numerator, denominator)
                        self._pay(number, index, behind.owner, "behind", result, staked, paid, unit)
                index += 1
            if seat.insurance:
                paid = _scaled(seat.insurance, 1 + rules.insurance_pays) if dealer_natural else 0
                result = "win" if dealer_natural else "lose"
                self._pay(number, None, seat.owner, "insurance", result, seat.insurance, paid, bet)
            if seat.pair_bets:
                kind, pays = self._pair_result(seat)
                for owner, amount in seat.pair_bets:
                    paid = amount * (1 + pays) if pays else 0
                    self._pay(number, None, owner, "pair", kind, amount, paid, amount)

    def _pair_result(self, seat: Seat) -> tuple[str, int]:
        """The pair side bet's result on the seat's first two cards, and its odds."""
        dealt = [entry[3] for entry in self.log if entry[0] == "card" and entry[1] == seat.number]
        first, second = CARDS[dealt[0]], CARDS[dealt[1]]
        if first.rank != second.rank:
            return "lose", 0
        if first.suit == second.suit:
            return "perfect_pair", self.rules.perfect_pair_pays
        if first.colour == second.colour:
            return "coloured_pair", self.rules.coloured_pair_pays
        return "mixed_pair", self.rules.mixed_pair_pays

    def _pay(
        self,
        seat: int,
        hand: int | None,
        owner: str,
        kind: str,
        result: str,
        staked: Chips,
        returned: Chips,
        unit: Chips,
    ) -> None:
        self.log.append(("settle", seat, hand, owner, kind, result, staked, returned, unit))
        if self.balances is not None:
            self.balances[owner] = _whole(self.balances.get(owner, 0) + returned)

    # Reading the round -----------------------------------------------------------------

    @property
    def dealer(self) -> Hand:
        """The dealer's cards and total, as a copy (the round keeps them as codes)."""
        dealer = Hand(0)
        for code in self._dealer:
            dealer.add(code)
        return dealer

    def events_since(self, start: int) -> list[Event]:
        """The events recorded from history position ``start`` on."""
        return [event_from_log(entry) for entry in self.log[start:]]

    def history(self) -> list[Event]:
        """Everything that happened, as a player at the table may see it."""
        return self.events_since(0)

    def net(self, owner: str) -> Chips:
        """Chips the owner won (positive) or lost in this round; 0 until it is settled."""
        net: Chips = 0
        # Settlements are the history's last entries. The list's own __reversed__: the
        # builtin reversed() looks it up and binds it first, a cost on every simulated round.
        for entry in self.log.__reversed__():
            if entry[0] != "settle":
                break
            if entry[3] == owner:
                net += entry[7] - entry[6]
        return net

    def outcome(self) -> Outcome:
        """The settled round's result (only once it is settled or voided)."""
        if self.phase not in (Phase.SETTLED, Phase.VOIDED):
            raise IllegalActionError("the round is not over yet")
        dealer = self.dealer
        settlements = tuple(
            event for entry in self.log if entry[0] == "settle"
            for event in (event_from_log(entry),) if isinstance(event, StakeSettled)
        )  # fmt: skip
        return Outcome(
            dealer=tuple(CARDS[code] for code in dealer.cards),
            dealer_total=dealer.total,
            dealer_natural=self.phase is Phase.SETTLED
            and len(dealer.cards) == 2
            and dealer.total == 21,
            settlements=settlements,
        )

    def view(self) -> PlayerView:
        """What the player whose decision is awaited may see; never the hole card or shoe."""
        phase = self.phase
        if phase is _PLAYER_TURNS:
            seat = self.seats[self._seat_index]
            index: int | None = self._hand_index
            hand = seat.hands[self._hand_index]
            legal = self._legal
            if legal is None:
                legal = self._legal = self._hand_legal(seat, hand)
        elif phase is _INSURANCE:
            seat = self.seats[self._seat_index]
            index = None
            hand = seat.hands[0]
            legal = self.legal_actions()
        else:
            raise IllegalActionError("no decision is awaited")
        cards = hand.cards
        hard = hand.hard
        soft = hand.has_ace and hard <= 11
        first = POINTS[cards[0]]
        up = self._dealer[0]
        return PlayerView(
            self.rules,
            seat.number,
            index,
            up,
            _UP_POINTS[up],
            legal,
            hard + 10 if soft else hard,
            soft,
            first if len(cards) == 2 and first == POINTS[cards[1]] else 0,
            tuple(self.log),
        )

    def void(self, reason: str) -> list[Event]:
        """Void a round that cannot be completed: every stake in it goes back, at once.

        Nothing is half-settled: a round that is already settled cannot be voided.
        """
        if self.phase in (Phase.SETTLED, Phase.VOIDED):
            raise IllegalActionError("the round is already over")
        start = len(self.log)
        self.log.append(("void", reason))
        for seat in self.seats:
            number, bet = seat.number, seat.bet
            for index, hand in enumerate(seat.hands):
                self._pay(number, index, seat.owner, "hand", "void", hand.stake, hand.stake, bet)
                for behind in seat.behind:
                    if stake := behind.stakes[index]:
                        self._pay(number, index, behind.owner, "behind", "void", stake, stake, bet)
            if seat.insurance:
                insurance = seat.insurance
                self._pay(number, None, seat.owner, "insurance", "void", insurance, insurance, bet)
            for owner, amount in seat.pair_bets:
                self._pay(number, None, owner, "pair", "void", amount, amount, amount)
        self.phase = Phase.VOIDED
        self._legal = None
        return self.events_since(start)

    # State -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole round as JSON values, shoe included: server-side state only."""
        return {
            "rules": self.rules.to_json(),
            "shoe": self.shoe.to_json(),
            "balances": None
            if self.balances is None
            else {owner: _chips_to_json(v) for owner, v in self.balances.items()},
            "phase": self.phase.value,
            "turn": [self._seat_index, self._hand_index],
            "dealer": list(self._dealer),
            "seats": [_seat_to_json(seat) for seat in self.seats],
            "log": [
                [
                    _chips_to_json(v)
                    if isinstance(v, Fraction)
                    else (list(v) if isinstance(v, tuple) else v)
                    for v in entry
                ]
                for entry in self.log
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], *, rng: Any = None) -> Round:
        """The inverse of `to_json`; the shoe's RNG is not state and is given anew."""
        try:
            rnd = cls(
                Rules.from_json(data["rules"]),
                Shoe.from_json(data["shoe"], rng=rng),
                balances=None
                if data["balances"] is None
                else {owner: _chips_from_json(v) for owner, v in data["balances"].items()},
            )
            rnd.phase = Phase(data["phase"])
            rnd._seat_index, rnd._hand_index = (int(i) for i in data["turn"])
            rnd._dealer = [int(code) for code in data["dealer"]]
            rnd.seats = [_seat_from_json(seat) for seat in data["seats"]]
            rnd.log = [_log_entry_from_json(entry) for entry in data["log"]]
        except (KeyError, TypeError, ValueError) as error:
            raise StateError(f"not a valid round: {error}") from None
        return rnd

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Round) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


def _whole(value: Chips) -> Chips:
    """A chip amount as an int whenever it is whole, so that equal amounts look equal."""
    if type(value) is int or value.denominator != 1:
        return value
    return int(value)


def _chips_to_json(value: Chips) -> int | str:
    return value if isinstance(value, int) else str(value)


def _chips_from_json(value: int | str) -> Chips:
    if isinstance(value, bool):
        raise ValueError("chips must be a number")
    if isinstance(value, int):
        return value
    amount = Fraction(value)
    return int(amount) if amount.denominator == 1 else amount


_HAND_FLAGS = ("closed", "doubled", "from_split", "natural", "split_aces", "surrendered")


def _seat_to_json(seat: Seat) -> dict[str, Any]:
    return {
        "number": seat.number,
        "owner": seat.owner,
        "bet": seat.bet,
        "insurance": None if seat.insurance is None else _chips_to_json(seat.insurance),
        "pair_bets": [[owner, amount] for owner, amount in seat.pair_bets],
        "behind": [
            {
                "owner": b.owner,
                "amount": b.amount,
                "follow_double": b.follow_double,
                "follow_split": b.follow_split,
                "stakes": [_chips_to_json(s) for s in b.stakes],
            }
            for b in seat.behind
        ],
        "hands": [
            {
                "cards": list(hand.cards),
                "stake": _chips_to_json(hand.stake),
                **{flag: getattr(hand, flag) for flag in _HAND_FLAGS},
            }
            for hand in seat.hands
        ],
    }


def _seat_from_json(data: dict[str, Any]) -> Seat:
    seat = Seat(int(data["number"]), str(data["owner"]), int(data["bet"]))
    seat.insurance = None if data["insurance"] is None else _chips_from_json(data["insurance"])
    seat.pair_bets = [(str(owner), int(amount)) for owner, amount in data["pair_bets"]]
    seat.behind = []
    for item in data["behind"]:
        behind = BehindBet(
            str(item["owner"]),
            int(item["amount"]),
            follow_double=bool(item["follow_double"]),
            follow_split=bool(item["follow_split"]),
        )
        behind.stakes = [_chips_from_json(s) for s in item["stakes"]]
        seat.behind.append(behind)
    seat.hands = []
    for item in data["hands"]:
        hand = Hand(_chips_from_json(item["stake"]))
        for code in item["cards"]:
            hand.add(int(code))
        for flag in _HAND_FLAGS:
            setattr(hand, flag, bool(item[flag]))
        seat.hands.append(hand)
    return seat


def _log_entry_from_json(entry: list[Any]) -> tuple[Any, ...]:
    if entry[0] == "settle":
        *head, staked, returned, unit = entry
        return (*head, _chips_from_json(staked), _chips_from_json(returned), _chips_from_json(unit))
    return tuple(entry)
