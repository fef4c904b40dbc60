"""What a player may do at a decision, and why anything else is refused.

The one home of the rules for hitting, doubling, splitting and surrendering a hand and
for insurance: `hand_actions` lists what is legal, `hand_refusal` says why an action is
not, and `effective_action` is what a double or split becomes on a short balance. The
round asks them with the hand in turn; ``covered`` says whether the player's balance
covers another seat bet (always, without balances). The round calls these on every
decision, so their arguments are positional: a keyword call costs CPython 3.13 several
times as much.

>>> from engine.cards import card_code
>>> from engine.rules import EUROPEAN
>>> hand = Hand(10)
>>> hand.add(card_code("8s")); hand.add(card_code("8d"))
>>> hand_actions(EUROPEAN, hand, 1, 10, True)
(<Action.HIT: 'hit'>, <Action.STAND: 'stand'>, <Action.DOUBLE: 'double'>, <Action.SPLIT: 'split'>)
>>> hand_refusal(Action.SURRENDER, EUROPEAN, hand, True)
'this table has no surrender'
>>> effective_action(Action.SPLIT, hand, False)
<Action.STAND: 'stand'>
"""

from __future__ import annotations

from engine.hand import Hand
from engine.rules import Rules, Surrender
from engine.values import Action

__all__ = [
    "effective_action",
    "hand_actions",
    "hand_refusal",
    "insurance_actions",
    "insurance_refusal",
    "may_split",
]

HIT, STAND, DOUBLE, SPLIT, SURRENDER = (
    Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER,
)  # fmt: skip


def hand_actions(
    rules: Rules, hand: Hand, hands_held: int, up_points: int, covered: bool
) -> tuple[Action, ...]:
    """The legal actions on the hand in turn, in a fixed order; standing always is.

    ``hands_held`` is how many hands the seat holds, ``up_points`` the dealer's up card
    (ace 1), ``covered`` whether the balance covers another seat bet.
    """
    # Split aces take one card each, unless the rules let them hit.
    hit = not hand.split_aces or rules.hit_split_aces
    if len(hand.cards) != 2:
        return _OFFERS[hit, False, False, False]
    # A double or split is offered when the balance covers it, or where a short balance
    # turns it into a hit or stand (Deluxe's short_balance_fallback).
    funded = covered or rules.short_balance_fallback
    # A double: of a total the rules allow; after a split only where they allow it, and
    # never on split aces.
    double = (
        funded
        and rules.may_double(hand.total)
        and (not hand.from_split or (rules.double_after_split and not hand.split_aces))
    )
    split = funded and may_split(rules, hand, hands_held)
    # Late surrender: not on a hand made by a split, against the up cards the rules allow.
    surrender = not hand.from_split and rules.may_surrender(up_points)
    return _OFFERS[hit, double, split, surrender]


def may_split(rules: Rules, hand: Hand, hands_held: int) -> bool:
    """Two cards of one point value (10 and K are a pair), while the seat holds fewer
    than ``max_hands`` hands; split aces again only where the rules allow it. (The
    balance is `hand_actions`'s to check.)"""
    return (
        hand.pair_points > 0
        and hands_held < rules.max_hands
        and (not hand.split_aces or rules.resplit_aces)
    )


#: The legal actions by (hit, double, split, surrender) allowed, each tuple built once.
_OFFERS: dict[tuple[bool, bool, bool, bool], tuple[Action, ...]] = {
    (hit, double, split, surrender): tuple(
        action
        for action, allowed in (
            (HIT, hit),
            (STAND, True),
            (DOUBLE, double),
            (SPLIT, split),
            (SURRENDER, surrender),
        )  # fmt: skip
        if allowed
    )
    for hit in (False, True)
    for double in (False, True)
    for split in (False, True)
    for surrender in (False, True)
}


def hand_refusal(action: Action, rules: Rules, hand: Hand, covered: bool) -> str:
    """Why ``action``, which `hand_actions` does not list, is refused — fit to show a
    player."""
    if action in (Action.INSURE, Action.NO_INSURANCE):
        return "insurance is not on offer now"
    if action is HIT:
        return "split aces take one card only"
    if action is SURRENDER:
        if rules.surrender is Surrender.NONE:
            return "this table has no surrender"
        return "surrender is only allowed on the first two cards, before any other action"
    if len(hand.cards) != 2:
        return f"you can only {action.value} on your first two cards"
    if not (covered or rules.short_balance_fallback):
        return f"your balance does not cover another bet to {action.value}"
    if action is DOUBLE:
        return "you cannot double this hand"
    return "you can only split two cards of the same value, up to the hand limit"


def effective_action(action: Action, hand: Hand, covered: bool) -> Action:
    """What a legal action does: on a short balance (Deluxe) a double becomes a hit, and
    a split a hit at 11 or less, else a stand."""
    if covered or action not in (DOUBLE, SPLIT):
        return action
    return HIT if action is DOUBLE or hand.total <= 11 else STAND


def insurance_actions(covered: bool) -> tuple[Action, ...]:
    """Insurance costs half the seat bet: offered when the balance ``covered`` it."""
    return (Action.INSURE, Action.NO_INSURANCE) if covered else (Action.NO_INSURANCE,)


def insurance_refusal(action: Action) -> str:
    """Why ``action`` is refused while insurance is being decided."""
    if action is Action.INSURE:
        return "your balance does not cover insurance"
    return "first decide on insurance"
