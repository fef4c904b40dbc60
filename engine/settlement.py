"""Settlement: what each stake wins, as plain functions of hands, rules and the dealer.

A hand's `hand_result` compares it with the dealer's hand; `hand_return` is what comes
back of a stake on it (the stake itself included, so a loss returns 0). Bets behind a
seat share its hands' results. Insurance and the pair bet are settled on their own.

>>> from engine.cards import card_code
>>> from engine.rules import EUROPEAN
>>> def hand_of(*cards: str) -> Hand:
...     hand = Hand(10)
...     for card in cards:
...         hand.add(card_code(card))
...     return hand
>>> natural = hand_of("As", "Kd")
>>> natural.natural = True
>>> result = hand_result(natural, hand_of("10c", "9h"), EUROPEAN)
>>> result, hand_return(result, 10, EUROPEAN, 10, True, False)
(<Result.BLACKJACK: 'blackjack'>, 25)
"""

from __future__ import annotations

from fractions import Fraction

from engine.cards import CARDS, Card
from engine.chips import Chips, scaled
from engine.hand import Hand
from engine.rules import Rules
from engine.values import Result

__all__ = [
    "hand_result",
    "hand_return",
    "insurance_return",
    "pair_bet_return",
    "pair_result",
    "pair_return",
]


def hand_result(hand: Hand, dealer: Hand, rules: Rules) -> Result:
    """A hand's result against the dealer's finished hand.

    A bust is settled whatever the dealer holds, and so is a surrender — but for a late
    surrender without a peek, which a dealer natural beats (`Rules.surrender_lost_to_natural`).
    A dealer natural beats every other hand and pushes a natural; a natural beats any
    other dealer hand.
    """
    if hand.surrendered:
        lost = dealer.natural and rules.surrender_lost_to_natural
        return Result.LOSE if lost else Result.SURRENDER
    total = hand.total
    if total > 21:
        return Result.BUST
    if dealer.natural:
        return Result.PUSH if hand.natural else Result.LOSE
    if hand.natural:
        return Result.BLACKJACK
    dealer_total = dealer.total
    if dealer_total > 21 or total > dealer_total:
        return Result.WIN
    return Result.PUSH if total == dealer_total else Result.LOSE


def hand_return(
    result: Result,
    stake: Chips,
    rules: Rules,
    unit: Chips,
    first_hand: bool,
    dealer_natural: bool,
) -> Chips:
    """What comes back of ``stake`` on a hand with this result: a natural's payout
    (``blackjack_pays``), half on a surrender, double on a win, the stake on a push.

    ``unit`` is the original bet the stake started from. Under ``original_bets_only`` a
    dealer natural takes only that: from the seat's first hand (``first_hand``) its
    original unit, from the hands later split off nothing.
    """
    if result is Result.WIN:
        return 2 * stake
    if result is Result.PUSH:
        return stake
    if result is Result.BLACKJACK:
        odds = rules.blackjack_pays
        return scaled(stake, odds.numerator + odds.denominator, odds.denominator)
    if result is Result.SURRENDER:
        return scaled(stake, 1, 2)
    if result is Result.LOSE and dealer_natural and rules.original_bets_only:
        return stake - unit if first_hand else stake
    return 0  # a loss or a bust


def insurance_return(stake: Chips, rules: Rules, dealer_natural: bool) -> tuple[Result, Chips]:
    """Insurance wins ``insurance_pays`` (2:1) when the dealer has a natural, else loses."""
    if not dealer_natural:
        return Result.LOSE, 0
    odds = rules.insurance_pays
    return Result.WIN, scaled(stake, odds.numerator + odds.denominator, odds.denominator)


def pair_result(first: Card, second: Card) -> Result:
    """The pair bet on a seat's first two cards: the same rank and suit (perfect), rank
    and colour (coloured), rank only (mixed), else a loss.

    >>> pair_result(Card("Q", "h"), Card("Q", "d")), pair_result(Card("Q", "h"), Card("K", "h"))
    (<Result.COLOURED_PAIR: 'coloured_pair'>, <Result.LOSE: 'lose'>)
    """
    if first.rank != second.rank:
        return Result.LOSE
    if first.suit == second.suit:
        return Result.PERFECT_PAIR
    if first.colour == second.colour:
        return Result.COLOURED_PAIR
    return Result.MIXED_PAIR


def pair_return(result: Result, amount: int, rules: Rules) -> int:
    """What comes back of a pair bet: the amount and its odds for a pair, else 0."""
    odds = {
        Result.PERFECT_PAIR: rules.perfect_pair_pays,
        Result.COLOURED_PAIR: rules.coloured_pair_pays,
        Result.MIXED_PAIR: rules.mixed_pair_pays,
    }.get(result, 0)
    return amount * (1 + odds) if odds else 0


def pair_bet_return(rules: Rules) -> Fraction:
    """The pair bet's return to player: what a chip staked on it brings back on average,
    its own chip included, over every first two cards a full shoe of the rules' decks
    can deal a seat (each card in ``rules.decks`` copies). Exact, from `pair_return`.

    >>> from engine.rules import DELUXE
    >>> float(pair_bet_return(DELUXE)) < 1
    True
    """
    copies = rules.decks
    cards = len(CARDS) * copies
    returned = 0
    for first in CARDS:
        for second in CARDS:
            ways = copies * (copies - 1 if second == first else copies)
            returned += ways * pair_return(pair_result(first, second), 1, rules)
    return Fraction(returned, cards * (cards - 1))
