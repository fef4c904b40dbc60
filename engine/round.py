"""One round of blackjack as an explicit state machine, with its history.

Phases: betting → (dealing) → insurance, if offered → player turns, seat by seat and hand
by hand, paused to ask the bettors behind a seat that doubles or splits whether they
follow → (dealer) → settled. Dealing, the dealer's play and settlement run by themselves;
the phases a caller can observe between calls are `Phase` members. The rules the round
follows live in their own modules: what may be done (`engine.legality`), how the dealer
draws (`engine.dealer_play`), what each stake wins (`engine.settlement`).

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

from bisect import insort
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter
from typing import Any

from engine import legality, settlement
from engine.cards import CARDS, POINTS, Card
from engine.chips import Chips, scaled, whole
from engine.dealer_play import dealer_draws, dealer_must_play
from engine.errors import StateError
from engine.events import (
    DEALER,
    ActionTaken,
    BehindDecided,
    CardDealt,
    DealerPeeked,
    Event,
    HandClosed,
    HandSplit,
    HoleCardRevealed,
    RoundVoided,
    ShoeShuffled,
    StakeSettled,
)
from engine.hand import Hand
from engine.refusals import Refusal, refused
from engine.round_codec import (
    chips_from_json,
    chips_to_json,
    event_from_json,
    event_to_json,
    seat_from_json,
    seat_to_json,
)
from engine.rules import Rules
from engine.seat import BehindBet, Seat, paired_bet
from engine.shoe import Shoe
from engine.values import Action, Decision, Result, StakeKind
from engine.view import PlayerView

__all__ = ["Action", "Decision", "Outcome", "Phase", "Round", "Turn"]


class Phase(StrEnum):
    BETTING = "betting"
    INSURANCE = "insurance"
    PLAYER_TURNS = "player_turns"
    #: A seat has doubled or split: the bettors behind it decide whether to follow, one
    #: after another, before the double's card or the split's second card is dealt.
    FOLLOW = "follow"
    SETTLED = "settled"
    VOIDED = "voided"


# Members bound to names once: CPython 3.13 does not cache reading a member off an enum
# class, and reading them there costs a simulated round 4% (docs/performance.md).
BETTING, INSURANCE, PLAYER_TURNS, FOLLOW, SETTLED, VOIDED = Phase
HIT, STAND, DOUBLE, SPLIT, SURRENDER, INSURE, NO_INSURANCE, FOLLOW_IT, NO_FOLLOW = Action
HAND_DECISION = Decision.HAND
_SEAT_NUMBER = attrgetter("number")


def _as_action(action: Action | str) -> Action:
    if isinstance(action, Action):
        return action
    try:
        return Action(action)
    except ValueError:
        raise refused(Refusal.NOT_AN_ACTION, action=repr(action)) from None


@dataclass(frozen=True, slots=True)
class Turn:
    """Whose decision the round waits for, and of what kind.

    ``seat`` is the seat the decision is about and ``hand`` its hand (None for
    insurance). ``owner`` decides: the seat's holder, or for a decision of a bettor
    behind (`Decision.BEHIND_INSURANCE`, `FOLLOW_DOUBLE`, `FOLLOW_SPLIT`) that bettor,
    ``behind`` then being the bet's place among the seat's bets behind (order placed).
    """

    seat: int
    hand: int | None
    owner: str
    decision: Decision = Decision.HAND
    behind: int | None = None

    @property
    def of_bettor_behind(self) -> bool:
        """The decision is a bettor behind's (its default is no), not the seat holder's."""
        return self.behind is not None


@dataclass(frozen=True, slots=True)
class Outcome:
    """A settled round: the dealer's cards and every stake's settlement."""

    dealer: tuple[Card, ...]
    dealer_total: int
    dealer_natural: bool
    settlements: tuple[StakeSettled, ...]

    def net(self, owner: str) -> Chips:
        """Chips the owner won (positive) or lost over the whole round."""
        return sum(s.returned - s.staked for s in self.settlements if s.owner == owner)


class Round:
    """The one mutable aggregate of the engine: a round's table, hands and history.

    ``balances`` (owner → free chips) is optional: with it, bets, doubles, splits and
    insurance are checked against and taken from it, and settlement pays into it;
    without it (simulations) stakes are unlimited.

    ``keep_history=False`` plays the round without recording what happened (simulations,
    which read only the net): no event is built, `deal` and `apply` return none, views
    carry no history and the outcome no settlements; the pair bet, settled on the first
    two cards the history keeps, is refused.
    """

    __slots__ = (
        "_behind_index",
        "_dealer",
        "_following",
        "_hand_index",
        "_legal",
        "_nets",
        "_seat_index",
        "balances",
        "keeps_history",
        "log",
        "phase",
        "rules",
        "seats",
        "shoe",
    )

    def __init__(
        self,
        rules: Rules,
        shoe: Shoe,
        *,
        balances: dict[str, Chips] | None = None,
        keep_history: bool = True,
    ) -> None:
        self.rules = rules
        self.shoe = shoe
        self.balances = balances
        self.phase = BETTING
        self.seats: list[Seat] = []
        self._dealer = Hand(0)
        #: Everything that happened, in order (see `history`), if the round keeps it.
        self.log: list[Event] = []
        self.keeps_history = keep_history
        #: What each owner won or lost, once settled.
        self._nets: dict[str, Chips] = {}
        #: Whose turn it is: indexes into `seats` and that seat's hands.
        self._seat_index = 0
        self._hand_index = 0
        #: Whose decision on that seat: None the holder's, else the index of a bet behind it.
        self._behind_index: int | None = None
        #: In the FOLLOW phase, what the seat did (DOUBLE or SPLIT) that its bettors follow.
        self._following: Action | None = None
        #: The legal actions of the awaited decision, once asked; reset by every change.
        self._legal: tuple[Action, ...] | None = None

    # Betting ---------------------------------------------------------------------------

    def place_bet(self, *, seat: int, amount: int, owner: str = "player") -> None:
        """Sit at a seat with a seat bet for this round; a second seat of one account
        carries the same bet as the first (change both with `change_bet`)."""
        self._check_betting(amount)
        if not 1 <= seat <= self.rules.max_seats:
            raise refused(Refusal.NO_SUCH_SEAT, seat=seat)
        held = 0
        for taken in self.seats:
            if taken.number == seat:
                raise refused(Refusal.SEAT_HAS_BET, seat=seat)
            if taken.owner == owner:
                held += 1
                if taken.bet != amount:
                    raise refused(Refusal.SAME_BET_BOTH_SEATS, chips=taken.bet)
        if held >= self.rules.seats_per_account:
            raise refused(Refusal.SEATS_PER_PLAYER, seats=self.rules.seats_per_account)
        self._take(owner, amount)
        insort(self.seats, Seat(seat, owner, amount), key=_SEAT_NUMBER)

    def next_round(self) -> None:
        """Open the next round, from the same shoe, at the same seats with the same seat
        bets, taken from the balances again (all or, if any owner's balance is short,
        none); insurance, pair bets, bets behind and the history are not carried over. More
        bets may be placed before `deal`. The seats and their first hands last across
        rounds, emptied, rather than being built for each (a simulation plays every round
        this way).

        >>> from engine.rules import EUROPEAN
        >>> rnd = Round(EUROPEAN, Shoe.stacked("10s 9h 6d 7c 5s 9c 8h 10d 7s 2c"))
        >>> rnd.place_bet(seat=1, amount=10)
        >>> _ = rnd.deal(); _ = rnd.apply(Action.STAND)
        >>> rnd.next_round()
        >>> rnd.phase, [seat.bet for seat in rnd.seats], rnd.history()
        (<Phase.BETTING: 'betting'>, [10], [])
        """
        if self.phase is not SETTLED and self.phase is not VOIDED:
            raise refused(Refusal.ROUND_NOT_OVER)
        if self.balances is not None:
            owed: dict[str, Chips] = {}
            for seat in self.seats:
                owed[seat.owner] = owed.get(seat.owner, 0) + seat.bet
            if not all(self._can_cover(owner, amount) for owner, amount in owed.items()):
                raise refused(Refusal.OVER_BALANCE)
            for owner, amount in owed.items():
                self._take(owner, amount)
        for seat in self.seats:
            seat.clear()
        self._dealer.clear(0)
        self.log = []
        self._nets = {}
        self.phase = BETTING
        self._seat_index = self._hand_index = 0
        self._behind_index = self._following = self._legal = None

    def change_bet(self, *, seat: int, amount: int, owner: str = "player", step: int = 1) -> None:
        """Change a seat's bet before the deal. An account on two seats changes both
        (RULES.md §2): a raise is repeated on the other seat when the balance allows,
        otherwise the total is split evenly (`engine.seat.paired_bet`: whole chips, or
        multiples of ``step``); a lower bet goes on both.

        >>> from engine.rules import DELUXE
        >>> rnd = Round(DELUXE, Shoe.stacked("10s"), balances={"ann": 40})
        >>> rnd.place_bet(seat=1, amount=10, owner="ann")
        >>> rnd.place_bet(seat=3, amount=10, owner="ann")
        >>> rnd.change_bet(seat=1, amount=30, owner="ann")  # 40 more: only 20 free
        >>> [seat.bet for seat in rnd.seats], rnd.balances
        ([20, 20], {'ann': 0})
        """
        self._check_betting(amount)
        target = self._occupied(seat)
        if target.owner != owner:
            raise refused(Refusal.SEAT_NOT_YOURS, seat=seat)
        held = [taken for taken in self.seats if taken.owner == owner]
        free = None if self.balances is None else self.balances.get(owner, 0)
        bet = amount if len(held) == 1 else paired_bet(target.bet, amount, free, step)
        more = sum(bet - taken.bet for taken in held)
        if more > 0:
            self._take(owner, more)
        elif more < 0 and self.balances is not None:
            self.balances[owner] = whole(self.balances[owner] - more)
        for taken in held:
            taken.bet = bet
            taken.hands[0].stake = bet

    def place_pair_bet(self, *, seat: int, amount: int, owner: str = "player") -> None:
        """A side bet that the seat's first two cards are a pair of the same rank."""
        self._check_betting(amount)
        if not self.rules.pair_bet:
            raise refused(Refusal.NO_PAIR_BET)
        if not self.keeps_history:
            raise refused(Refusal.NO_HISTORY_NO_PAIR_BET)
        target = self._occupied(seat)
        self._take(owner, amount)
        target.pair_bets = [*target.pair_bets, (owner, amount)]

    def place_bet_behind(self, *, seat: int, amount: int, owner: str) -> None:
        """A stake that wins or loses with another player's seat. Its bettor is asked
        for insurance when insurance is offered, and whether to follow when the seat
        doubles or splits (RULES.md §2: no, unless answered yes and affordable)."""
        self._check_betting(amount)
        if not self.rules.bet_behind:
            raise refused(Refusal.NO_BET_BEHIND)
        target = self._occupied(seat)
        if target.owner == owner:
            raise refused(Refusal.BEHIND_OWN_SEAT)
        self._take(owner, amount)
        target.behind = [*target.behind, BehindBet(owner, amount)]

    def _check_betting(self, amount: int) -> None:
        if self.phase is not BETTING:
            raise refused(Refusal.BETS_CLOSED)
        if type(amount) is not int or amount <= 0:
            raise refused(Refusal.BET_NOT_WHOLE)

    def _occupied(self, number: int) -> Seat:
        for seat in self.seats:
            if seat.number == number:
                return seat
        raise refused(Refusal.SEAT_EMPTY, seat=number)

    def _take(self, owner: str, amount: Chips) -> None:
        if not self._can_cover(owner, amount):
            raise refused(Refusal.OVER_BALANCE)
        if self.balances is not None:
            self.balances[owner] = whole(self.balances[owner] - amount)

    def _can_cover(self, owner: str, amount: Chips) -> bool:
        return self.balances is None or self.balances.get(owner, 0) >= amount

    # Dealing ---------------------------------------------------------------------------

    def deal(self) -> list[Event]:
        """Close betting, deal two cards to each seat and the dealer, and start play.

        Returns what happened: the events added to the history.
        """
        if self.phase is not BETTING:
            raise refused(Refusal.ALREADY_DEALT)
        if not self.seats:
            raise refused(Refusal.BET_BEFORE_DEAL)
        start = len(self.log)
        burned = self.shoe.prepare_round(self.rules)
        if burned is not None and self.keeps_history:
            self.log.append(ShoeShuffled(CARDS[burned[0]] if burned else None, len(burned)))
        # A card to each seat, the up card, a second card to each seat, the hole card.
        for seat in self.seats:
            self._deal_to(seat, 0, seat.hands[0])
        up = self.shoe.draw()
        self._dealer.add(up)
        if self.keeps_history:
            self.log.append(CardDealt(DEALER, 0, CARDS[up]))
        for seat in self.seats:
            hand = seat.hands[0]
            self._deal_to(seat, 0, hand)
            if hand.total == 21:
                hand.natural = True
                self._close(seat, 0, hand)
        self._dealer.add(self.shoe.draw())
        self._dealer.natural = self._dealer.total == 21
        if self.keeps_history:
            self.log.append(CardDealt(DEALER, 0, None))  # face down
        if self.rules.insurance and POINTS[up] == 1:
            self.phase = INSURANCE
            self._seat_index = 0
            self._behind_index = None
            self._legal = None
        else:
            self._after_insurance()
        return self.log[start:]

    def _deal_to(self, seat: Seat, index: int, hand: Hand) -> None:
        card = self.shoe.draw()
        hand.add(card)
        if self.keeps_history:
            self.log.append(CardDealt(seat.number, index, CARDS[card]))

    def _after_insurance(self) -> None:
        """Peek where the rules say so, then hand the turn to the first seat."""
        if self.rules.dealer_peeks and POINTS[self._dealer.cards[0]] in (1, 10):
            if self.keeps_history:
                self.log.append(DealerPeeked(self._dealer.natural))
            if self._dealer.natural:
                self._finish()
                return
        self.phase = PLAYER_TURNS
        self._seat_index = self._hand_index = 0
        self._legal = None
        if self.seats[0].hands[0].closed:  # a natural: the turn moves on at once
            self._advance()

    # Decisions -------------------------------------------------------------------------

    @property
    def turn(self) -> Turn | None:
        """Whose decision is awaited, or None when none is."""
        phase = self.phase
        if phase is PLAYER_TURNS:
            seat = self.seats[self._seat_index]
            return Turn(seat.number, self._hand_index, seat.owner)
        if phase is not INSURANCE and phase is not FOLLOW:
            return None
        seat = self.seats[self._seat_index]
        behind = self._behind_index
        if behind is None:
            return Turn(seat.number, None, seat.owner, Decision.INSURANCE)
        bettor = seat.behind[behind].owner
        if phase is INSURANCE:
            return Turn(seat.number, None, bettor, Decision.BEHIND_INSURANCE, behind)
        decision = Decision.FOLLOW_DOUBLE if self._following is DOUBLE else Decision.FOLLOW_SPLIT
        return Turn(seat.number, self._hand_index, bettor, decision, behind)

    def balances_changed(self) -> None:
        """Chips came to a balance from outside the round (a live table's buy-in): what
        the awaited decision can afford is worked out again."""
        self._legal = None

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the awaited decision may take, in a fixed order (empty if none)."""
        if self._legal is not None:
            return self._legal
        if self.phase is PLAYER_TURNS:
            seat = self.seats[self._seat_index]
            hand = seat.hands[self._hand_index]
            up_points = POINTS[self._dealer.cards[0]]
            covered = self._can_cover(seat.owner, seat.bet)
            legal = legality.hand_actions(self.rules, hand, len(seat.hands), up_points, covered)
        elif self.phase is INSURANCE:
            seat = self.seats[self._seat_index]
            if self._behind_index is None:
                owner, half = seat.owner, scaled(seat.bet, 1, 2)
            else:
                behind = seat.behind[self._behind_index]
                owner, half = behind.owner, scaled(behind.amount, 1, 2)
            legal = legality.insurance_actions(self._can_cover(owner, half))
        elif self.phase is FOLLOW:
            behind = self.seats[self._seat_index].behind[self._behind_index or 0]
            legal = legality.follow_actions(self._can_cover(behind.owner, behind.amount))
        else:
            legal = ()
        self._legal = legal
        return legal

    def verify(
        self, action: Action | str, *, seat: int | None = None, owner: str | None = None
    ) -> Action:
        """The action as an `Action` if it is legal now, else `IllegalActionError` saying
        why, in words fit to show a player. ``seat`` and ``owner``, when given, must be
        the awaited decision's (`turn`)."""
        action = _as_action(action)
        if self.phase is BETTING:
            raise refused(Refusal.NOT_DEALT)
        if self.phase is SETTLED or self.phase is VOIDED:
            raise refused(Refusal.ROUND_OVER)
        if owner is not None or seat is not None:  # (a `Turn` is built only when asked)
            turn = self.turn
            assert turn is not None
            if owner is not None and owner != turn.owner:
                raise refused(Refusal.NOT_YOUR_TURN)
            if seat is not None and seat != turn.seat:
                raise refused(Refusal.OTHER_SEATS_TURN, turn=turn.seat, seat=seat)
        if action in self.legal_actions():
            return action
        turn = self.turn
        assert turn is not None
        if turn.of_bettor_behind:
            insurance = turn.decision is Decision.BEHIND_INSURANCE
            raise legality.behind_refusal(action, insurance)
        current = self.seats[self._seat_index]
        if self.phase is INSURANCE:
            raise legality.insurance_refusal(action)
        hand = current.hands[self._hand_index]
        covered = self._can_cover(current.owner, current.bet)
        raise legality.hand_refusal(action, self.rules, hand, covered)

    def apply(
        self, action: Action | str, *, seat: int | None = None, owner: str | None = None
    ) -> list[Event]:
        """Take the awaited decision (`turn`) and everything it sets off (pre-selected
        actions of the seats whose turn it brings included); returns what happened.
        ``seat`` and ``owner``, when given, must be the turn's.

        An illegal action raises `IllegalActionError` and changes nothing.
        """
        action = self.verify(action, seat=seat, owner=owner)
        start = len(self.log)
        self._legal = None
        current = self.seats[self._seat_index]
        if self.phase is INSURANCE:
            self._decide_insurance(current, action)
        elif self.phase is FOLLOW:
            self._decide_follow(current, action)
        else:
            self._play(current, action, action)
        self._carry_out_preselected()
        return self.log[start:]

    def decline_behind(self) -> list[Event]:
        """Answer no to every decision of a bettor behind awaited now, one after another,
        up to the next decision of a seat's holder (for a deadline: no is the default);
        returns what happened."""
        start = len(self.log)
        while (turn := self.turn) is not None and turn.of_bettor_behind:
            self.apply(NO_INSURANCE if self.phase is INSURANCE else NO_FOLLOW)
        return self.log[start:]

    def _play(self, current: Seat, action: Action, effective: Action) -> None:
        """Take a decision on the hand in turn: ``action`` as chosen, doing ``effective``
        (they differ where a pre-selected double or split met a short balance)."""
        index = self._hand_index
        hand = current.hands[index]
        if self.keeps_history:
            self.log.append(ActionTaken(current.number, index, action, effective))
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
        if effective in (DOUBLE, SPLIT):
            return  # `_followed` plays on, once the bettors behind have decided
        if hand.closed:
            self._advance()

    # Pre-selection ---------------------------------------------------------------------

    def preselect_actions(self, seat: int) -> tuple[Action, ...]:
        """What the seat may pre-select now (`preselect`): empty unless the cards are
        dealt and its turn is still to come."""
        target = self._occupied(seat)
        if self.phase in (PLAYER_TURNS, FOLLOW):
            if self.seats.index(target) <= self._seat_index:
                return ()
        elif self.phase is not INSURANCE:
            return ()
        return legality.preselect_actions(
            self.rules,
            target.hands[0],
            len(target.hands),
            POINTS[self._dealer.cards[0]],
            self._can_cover(target.owner, target.bet),
        )

    def preselect(self, *, seat: int, action: Action | str | None) -> None:
        """Choose the seat's first decision before its turn comes, or change it; None
        clears it. It is carried out when the turn comes, as if taken then — except that
        a double or split the balance no longer covers becomes a hit or stand where the
        rules say so (Deluxe), and otherwise lapses, leaving the decision to the player
        (`engine.legality.carried_out`). Insurance is not pre-selected.

        >>> from engine.rules import DELUXE
        >>> from engine.shoe import Shoe
        >>> rnd = Round(DELUXE, Shoe.stacked("10s 6d 9h 7c 5s 9c"))
        >>> rnd.place_bet(seat=1, amount=10, owner="ann")
        >>> rnd.place_bet(seat=2, amount=10, owner="bob")
        >>> events = rnd.deal()
        >>> rnd.preselect(seat=2, action="stand")
        >>> events = rnd.apply("stand", seat=1)
        >>> rnd.phase, [e.seat for e in events if isinstance(e, ActionTaken)]
        (<Phase.SETTLED: 'settled'>, [1, 2])
        """
        target = self._occupied(seat)
        if action is None:
            target.preselected = None
            return
        action = _as_action(action)
        allowed = self.preselect_actions(seat)
        if action not in allowed:
            if self.phase not in (PLAYER_TURNS, INSURANCE, FOLLOW):
                raise refused(Refusal.NO_TURN_TO_COME)
            if target.hands[0].closed:
                raise refused(Refusal.NATURAL_NO_DECISION)
            if not allowed:
                raise refused(Refusal.TURN_HAS_COME, seat=seat)
            covered = self._can_cover(target.owner, target.bet)
            hand = target.hands[0]
            raise legality.hand_refusal(action, self.rules, hand, covered)
        target.preselected = action

    def preselection(self, seat: int) -> Action | None:
        """The action the seat has pre-selected, if any (not yet carried out)."""
        return self._occupied(seat).preselected

    def _carry_out_preselected(self) -> None:
        """Carry out the pre-selected action of the seat whose turn has come, and of each
        following seat whose turn that brings."""
        while self.phase is PLAYER_TURNS:
            current = self.seats[self._seat_index]
            action = current.preselected
            if action is None:
                return
            current.preselected = None
            hand = current.hands[self._hand_index]
            covered = self._can_cover(current.owner, current.bet)
            effective = legality.carried_out(
                action, self.rules, hand, self.legal_actions(), covered
            )
            if effective is None:
                return  # it lapsed: the player decides
            self._legal = None
            self._play(current, action, effective)

    def auto_play(self) -> list[Event]:
        """The decision taken for a player who timed out or left (Deluxe rules).

        Insurance is declined, and so is following a double or split; a hand hits while
        its total is 11 or less, then stands.
        """
        if self.phase is INSURANCE:
            return self.apply(NO_INSURANCE)
        if self.phase is FOLLOW:
            return self.apply(NO_FOLLOW)
        if self.turn is None:
            raise refused(Refusal.NO_DECISION_AWAITED)
        hand = self.seats[self._seat_index].hands[self._hand_index]
        hits = hand.total <= 11 and HIT in self.legal_actions()
        return self.apply(HIT if hits else STAND)

    def _decide_insurance(self, seat: Seat, action: Action) -> None:
        """The awaited insurance decision — the seat holder's, or a bettor behind's —
        then the next one: each seat's holder, then its bettors behind in the order
        their bets were placed."""
        stake: Chips = 0
        index = self._behind_index
        if index is None:
            if action is INSURE:
                stake = scaled(seat.bet, 1, 2)
                self._take(seat.owner, stake)
            seat.insurance = stake
            if self.keeps_history:
                self.log.append(ActionTaken(seat.number, None, action, action))
        else:
            self._decide_behind(seat, index, None, action)
        self._next_behind(seat, -1 if index is None else index)
        if self._behind_index is None:  # the seat's bettors behind are done: the next seat
            self._seat_index += 1
            if self._seat_index >= len(self.seats):
                self._after_insurance()

    def _decide_behind(self, seat: Seat, index: int, hand: int | None, action: Action) -> None:
        """A bettor behind's decision: insurance on their stake (``hand`` None) or
        following the seat's double or split of ``hand``."""
        behind = seat.behind[index]
        if action is INSURE:
            behind.insurance = scaled(behind.amount, 1, 2)
            self._take(behind.owner, behind.insurance)
        elif action is NO_INSURANCE:
            behind.insurance = 0
        elif action is FOLLOW_IT:
            assert hand is not None
            self._take(behind.owner, behind.amount)
            if self._following is DOUBLE:
                behind.stakes[hand] += behind.amount
            else:
                behind.stakes[hand + 1] = behind.amount
        if self.keeps_history:
            self.log.append(BehindDecided(seat.number, hand, index, behind.owner, action))

    def _next_behind(self, seat: Seat, after: int) -> None:
        """Move the awaited decision to the next bet behind the seat after ``after`` that
        has a decision to make, answering no for each bettor who cannot afford yes
        (RULES.md §2: the default applies); None when there is none left."""
        insurance = self.phase is INSURANCE
        hand = None if insurance else self._hand_index
        for index in range(after + 1, len(seat.behind)):
            behind = seat.behind[index]
            if insurance:
                cost = scaled(behind.amount, 1, 2)
            elif behind.stakes[self._hand_index]:
                cost = behind.amount
            else:
                continue  # nothing of theirs rides on the hand (a split not followed)
            if self._can_cover(behind.owner, cost):
                self._behind_index = index
                return
            self._decide_behind(seat, index, hand, NO_INSURANCE if insurance else NO_FOLLOW)
        self._behind_index = None

    def _hit(self, seat: Seat, index: int, hand: Hand) -> None:
        self._deal_to(seat, index, hand)
        if hand.total >= 21:
            self._close(seat, index, hand)

    def _double(self, seat: Seat, index: int, hand: Hand) -> None:
        self._take(seat.owner, seat.bet)
        hand.stake += seat.bet
        hand.doubled = True
        self._ask_to_follow(seat, DOUBLE)

    def _ask_to_follow(self, seat: Seat, action: Action) -> None:
        """Ask the bettors behind the seat, one after another, whether they follow its
        double or split of the hand in turn (the FOLLOW phase); with nobody to ask, the
        card is dealt at once."""
        self._following = action
        self._next_behind(seat, -1)
        if self._behind_index is None:
            self._followed(seat)
        else:
            self.phase = FOLLOW

    def _decide_follow(self, seat: Seat, action: Action) -> None:
        index = self._behind_index
        assert index is not None
        self._decide_behind(seat, index, self._hand_index, action)
        self._next_behind(seat, index)
        if self._behind_index is None:
            self.phase = PLAYER_TURNS
            self._followed(seat)

    def _followed(self, seat: Seat) -> None:
        """Every bettor behind has decided: deal the double's card, or the first split
        hand's second card, and play on."""
        index = self._hand_index
        hand = seat.hands[index]
        doubled = self._following is DOUBLE
        self._following = None
        if doubled:
            self._deal_to(seat, index, hand)
            self._close(seat, index, hand)
        else:
            self._second_card(seat, index, hand)
        if hand.closed:
            self._advance()

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
            behind.stakes.insert(index + 1, 0)  # until the bettor follows
        if self.keeps_history:
            self.log.append(HandSplit(seat.number, index))
        self._ask_to_follow(seat, SPLIT)

    def _second_card(self, seat: Seat, index: int, hand: Hand) -> None:
        """A split hand's second card, dealt when play reaches the hand; split aces then
        take no more unless the rules let them hit, or they may be split again."""
        self._deal_to(seat, index, hand)
        if hand.split_aces and not self.rules.hit_split_aces:
            # Unless they may be split again (the balance is checked when the player
            # decides).
            if not legality.may_split(self.rules, hand, len(seat.hands)):
                self._close(seat, index, hand)
        elif hand.total == 21:
            self._close(seat, index, hand)

    def _close(self, seat: Seat, index: int, hand: Hand) -> None:
        hand.closed = True
        if self.keeps_history:
            self.log.append(HandClosed(seat.number, index, hand.total))

    def _advance(self) -> None:
        """Move the turn to the next hand awaiting a decision — from the current one,
        dealing split hands their second card on the way — or to the dealer."""
        self._legal = None
        seat_index, hand_index = self._seat_index, self._hand_index
        while seat_index < len(self.seats):
            seat = self.seats[seat_index]
            while hand_index < len(seat.hands):
                hand = seat.hands[hand_index]
                if len(hand.cards) == 1:
                    self._second_card(seat, hand_index, hand)
                if not hand.closed:
                    self._seat_index, self._hand_index = seat_index, hand_index
                    return
                hand_index += 1
            seat_index += 1
            hand_index = 0
        self._seat_index, self._hand_index = seat_index, hand_index
        self._finish()

    # Dealer and settlement -------------------------------------------------------------

    def _finish(self) -> None:
        """Turn the hole card, play the dealer's hand and settle every stake."""
        dealer = self._dealer
        if self.keeps_history:
            self.log.append(HoleCardRevealed(CARDS[dealer.cards[1]]))
        if dealer_draws(dealer, self.rules) and dealer_must_play(self.seats):
            while dealer_draws(dealer, self.rules):
                card = self.shoe.draw()
                dealer.add(card)
                if self.keeps_history:
                    self.log.append(CardDealt(DEALER, 0, CARDS[card]))
        self._settle()
        self.phase = SETTLED

    def _settle(self) -> None:
        rules = self.rules
        dealer = self._dealer
        dealer_natural = dealer.natural
        for seat in self.seats:
            for index, hand in enumerate(seat.hands):
                result = settlement.hand_result(hand, dealer, rules)
                first = index == 0
                returned = settlement.hand_return(
                    result, hand.stake, rules, seat.bet, first, dealer_natural
                )
                self._record(seat, index, seat.owner, StakeKind.HAND, result, hand.stake,
                             returned, seat.bet)  # fmt: skip
                for behind in seat.behind:
                    staked = behind.stakes[index]
                    if staked:
                        paid = settlement.hand_return(
                            result, staked, rules, behind.amount, first, dealer_natural
                        )
                        self._record(seat, index, behind.owner, StakeKind.BEHIND, result,
                                     staked, paid, behind.amount)  # fmt: skip
            if seat.insurance:
                result, paid = settlement.insurance_return(seat.insurance, rules, dealer_natural)
                self._record(seat, None, seat.owner, StakeKind.INSURANCE, result,
                             seat.insurance, paid, seat.bet)  # fmt: skip
            for behind in seat.behind:
                if behind.insurance:
                    result, paid = settlement.insurance_return(
                        behind.insurance, rules, dealer_natural
                    )
                    self._record(seat, None, behind.owner, StakeKind.INSURANCE, result,
                                 behind.insurance, paid, behind.amount)  # fmt: skip
            if seat.pair_bets:
                result = settlement.pair_result(*self._first_two_cards(seat))
                for owner, amount in seat.pair_bets:
                    paid = settlement.pair_return(result, amount, rules)
                    self._record(seat, None, owner, StakeKind.PAIR, result, amount, paid, amount)

    def _first_two_cards(self, seat: Seat) -> tuple[Card, Card]:
        """The seat's first two cards as dealt (before any split), from the history."""
        dealt = [
            event.card
            for event in self.log
            if isinstance(event, CardDealt) and event.seat == seat.number and event.card
        ]
        return dealt[0], dealt[1]

    def _record(
        self,
        seat: Seat,
        hand: int | None,
        owner: str,
        kind: StakeKind,
        result: Result,
        staked: Chips,
        returned: Chips,
        unit: Chips,
    ) -> None:
        """Record a stake's settlement and pay what comes back into the owner's balance."""
        if self.keeps_history:
            self.log.append(
                StakeSettled(seat.number, hand, owner, kind, result, staked, returned, unit)
            )
        self._nets[owner] = self._nets.get(owner, 0) + returned - staked
        if self.balances is not None:
            self.balances[owner] = whole(self.balances.get(owner, 0) + returned)

    # Reading the round -----------------------------------------------------------------

    @property
    def dealer(self) -> Hand:
        """The dealer's cards and total, as a copy."""
        dealer = Hand(0)
        for code in self._dealer.cards:
            dealer.add(code)
        return dealer

    def events_since(self, start: int) -> list[Event]:
        """The events recorded from history position ``start`` on."""
        return self.log[start:]

    def history(self) -> list[Event]:
        """Everything that happened, as a player at the table may see it."""
        return list(self.log)

    def net(self, owner: str) -> Chips:
        """Chips the owner won (positive) or lost in this round; 0 until it is settled."""
        return self._nets.get(owner, 0)

    def outcome(self) -> Outcome:
        """The settled round's result (only once it is settled or voided, and only of a
        round that keeps its history, whose settlements it lists)."""
        if self.phase not in (SETTLED, VOIDED):
            raise refused(Refusal.ROUND_NOT_OVER)
        if not self.keeps_history:
            raise refused(Refusal.NO_HISTORY)
        dealer = self._dealer
        return Outcome(
            dealer=tuple(CARDS[code] for code in dealer.cards),
            dealer_total=dealer.total,
            dealer_natural=self.phase is SETTLED and dealer.natural,
            settlements=tuple(event for event in self.log if isinstance(event, StakeSettled)),
        )

    def view(self) -> PlayerView:
        """What the player whose decision is awaited may see; never the hole card or shoe.

        For a bettor behind, the view is of the seat they bet behind (its hand, or for
        insurance its first hand) with their own legal actions."""
        seat = self.seats[self._seat_index] if self.phase is PLAYER_TURNS else None
        if seat is not None:  # the common case, read without building a `Turn`
            index: int | None = self._hand_index
            decision, owner = HAND_DECISION, seat.owner
        elif (turn := self.turn) is not None:
            index, decision, owner = turn.hand, turn.decision, turn.owner
        else:
            raise refused(Refusal.NO_DECISION_AWAITED)
        hand = self.seats[self._seat_index].hands[index or 0]
        up = self._dealer.cards[0]
        # Positional, in the order of PlayerView's fields: built on every decision, and
        # CPython 3.13 builds a class called with keywords on a slow path, which costs
        # a simulated round 9,200 instructions more (10%, docs/performance.md).
        return PlayerView(
            self.rules,
            self.seats[self._seat_index].number,
            index,
            self.legal_actions(),
            hand.total,
            hand.soft,
            hand.pair_points,
            CARDS[up],
            11 if POINTS[up] == 1 else POINTS[up],
            tuple(self.log),
            decision,
            owner,
        )

    def void(self, reason: str) -> list[Event]:
        """Void a round that cannot be completed: every stake in it goes back, at once.

        Nothing is half-settled: a round that is already settled cannot be voided.
        """
        if self.phase in (SETTLED, VOIDED):
            raise refused(Refusal.ROUND_ALREADY_OVER)
        start = len(self.log)
        if self.keeps_history:
            self.log.append(RoundVoided(reason))
        void = Result.VOID
        for seat in self.seats:
            bet = seat.bet
            for index, hand in enumerate(seat.hands):
                self._record(seat, index, seat.owner, StakeKind.HAND, void, hand.stake,
                             hand.stake, bet)  # fmt: skip
                for behind in seat.behind:
                    if stake := behind.stakes[index]:
                        self._record(seat, index, behind.owner, StakeKind.BEHIND, void, stake,
                                     stake, bet)  # fmt: skip
            if seat.insurance:
                insurance = seat.insurance
                self._record(seat, None, seat.owner, StakeKind.INSURANCE, void, insurance,
                             insurance, bet)  # fmt: skip
            for behind in seat.behind:
                if behind.insurance:
                    self._record(seat, None, behind.owner, StakeKind.INSURANCE, void,
                                 behind.insurance, behind.insurance, behind.amount)  # fmt: skip
            for owner, amount in seat.pair_bets:
                self._record(seat, None, owner, StakeKind.PAIR, void, amount, amount, amount)
        self.phase = VOIDED
        self._legal = None
        return self.log[start:]

    # State -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole round as JSON values, shoe included: server-side state only (see
        `engine.round_codec`)."""
        data: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "shoe": self.shoe.to_json(),
            "balances": None
            if self.balances is None
            else {owner: chips_to_json(v) for owner, v in self.balances.items()},
            "phase": self.phase.value,
            "turn": [
                self._seat_index,
                self._hand_index,
                self._behind_index,
                None if self._following is None else self._following.value,
            ],  # fmt: skip
            "dealer": list(self._dealer.cards),
            "seats": [seat_to_json(seat) for seat in self.seats],
            "log": [event_to_json(event) for event in self.log],
        }
        if not self.keeps_history:  # the nets, which the history's settlements would hold
            data["keep_history"] = False
            data["nets"] = {owner: chips_to_json(net) for owner, net in self._nets.items()}
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], *, rng: Any = None) -> Round:
        """The inverse of `to_json`; the shoe's RNG is not state and is given anew."""
        try:
            rnd = cls(
                Rules.from_json(data["rules"]),
                Shoe.from_json(data["shoe"], rng=rng),
                balances=None
                if data["balances"] is None
                else {owner: chips_from_json(v) for owner, v in data["balances"].items()},
                keep_history=bool(data.get("keep_history", True)),
            )
            rnd.phase = Phase(data["phase"])
            # Rounds stored before bettors behind were asked keep two numbers.
            seat_index, hand_index, behind, following = [*data["turn"], None, None][:4]
            rnd._seat_index, rnd._hand_index = int(seat_index), int(hand_index)
            rnd._behind_index = None if behind is None else int(behind)
            rnd._following = None if following is None else Action(following)
            for code in data["dealer"]:
                rnd._dealer.add(int(code))
            # The dealer never draws to 21: two cards of 21 are a natural.
            rnd._dealer.natural = len(rnd._dealer.cards) == 2 and rnd._dealer.total == 21
            rnd.seats = [seat_from_json(seat) for seat in data["seats"]]
            if not rnd.keeps_history and any(seat.pair_bets for seat in rnd.seats):
                raise ValueError("a round without its history takes no pair bets")
            rnd.log = [event_from_json(entry) for entry in data["log"]]
            nets = rnd._nets
            for event in rnd.log:
                if isinstance(event, StakeSettled):
                    nets[event.owner] = nets.get(event.owner, 0) + event.returned - event.staked
            for owner, net in data.get("nets", {}).items():  # a round without its history
                nets[str(owner)] = chips_from_json(net)
        except (KeyError, TypeError, ValueError) as error:
            raise StateError(f"not a valid round: {error}") from None
        return rnd

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Round) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]
