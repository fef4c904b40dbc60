"""What a player may do at a decision, and why anything else is refused.

The one home of the rules for hitting, doubling, splitting and surrendering a hand and
for insurance: `hand_actions` lists what is legal, `hand_refusal` says why an action is
not, `preselect_actions` what may be chosen before the turn comes and `carried_out` what
such a choice does when it comes (`effective_action`: a double or split on a balance
that has become short). The
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
>>> str(hand_refusal(Action.SURRENDER, EUROPEAN, hand, True))
'this table has no surrender'
>>> effective_action(Action.SPLIT, hand, False)
<Action.STAND: 'stand'>
"""

from __future__ import annotations

from engine.errors import IllegalActionError
from engine.hand import Hand
from engine.refusals import Refusal, refused
from engine.rules import Rules, Surrender
from engine.values import Action

__all__ = [
    "behind_refusal",
    "carried_out",
    "effective_action",
    "follow_actions",
    "hand_actions",
    "hand_refusal",
    "insurance_actions",
    "insurance_refusal",
    "may_split",
    "preselect_actions",
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
    # A double or split is offered only when the balance covers it (Deluxe's fallback is
    # for a pre-selected one whose turn finds the balance short, not for one offered now).
    # A double: of a total the rules allow; after a split only where they allow it, and
    # never on split aces.
    double = (
        covered
        and rules.may_double(hand.total)
        and (not hand.from_split or (rules.double_after_split and not hand.split_aces))
    )
    split = covered and may_split(rules, hand, hands_held)
    # Surrender (early or late): not on a hand made by a split, against the up cards the
    # rules allow.
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


def hand_refusal(action: Action, rules: Rules, hand: Hand, covered: bool) -> IllegalActionError:
    """Why ``action``, which `hand_actions` does not list, is refused: the error to raise,
    its reason's code among `engine.refusals.REFUSALS`."""
    if action in (Action.INSURE, Action.NO_INSURANCE):
        return refused(Refusal.NO_INSURANCE_NOW)
    if action is HIT:
        return refused(Refusal.SPLIT_ACES_ONE_CARD)
    if action is SURRENDER:
        if rules.surrender is Surrender.NONE:
            return refused(Refusal.NO_SURRENDER)
        return refused(Refusal.SURRENDER_FIRST)
    if action not in (DOUBLE, SPLIT):  # a bettor behind's choice, asked of a hand
        return refused(Refusal.NOT_OFFERED, action=action.value)
    if len(hand.cards) != 2:
        return refused(
            Refusal.DOUBLE_FIRST_TWO_CARDS if action is DOUBLE else Refusal.SPLIT_FIRST_TWO_CARDS
        )
    if not covered:
        return refused(Refusal.DOUBLE_BALANCE if action is DOUBLE else Refusal.SPLIT_BALANCE)
    if action is DOUBLE:
        return refused(Refusal.CANNOT_DOUBLE)
    return refused(Refusal.CANNOT_SPLIT)


def effective_action(action: Action, hand: Hand, covered: bool) -> Action:
    """What a pre-selected double or split does on a balance that has become short
    (Deluxe): a double becomes a hit, and a split a hit at 11 or less, else a stand."""
    if covered or action not in (DOUBLE, SPLIT):
        return action
    return HIT if action is DOUBLE or hand.total <= 11 else STAND


def preselect_actions(
    rules: Rules, hand: Hand, hands_held: int, up_points: int, covered: bool
) -> tuple[Action, ...]:
    """What a seat may pre-select before its turn comes: what `hand_actions` would offer
    its first hand were the turn its now (a double or split only while the balance covers
    it), and nothing for a hand that takes no decision (a natural).

    Only the balance can change before the turn comes — the hand's two cards and the up
    card are face up — so a pre-selection stays legal unless another of the holder's
    stakes has taken the chips meanwhile (see `carried_out`).
    """
    if hand.closed:
        return ()
    return hand_actions(rules, hand, hands_held, up_points, covered)


def carried_out(
    action: Action, rules: Rules, hand: Hand, legal: tuple[Action, ...], covered: bool
) -> Action | None:
    """What a pre-selected ``action`` does when the seat's turn comes, ``legal`` being the
    actions offered then: the action itself while it is offered; a double or split the
    balance no longer covers becomes a hit or stand where the rules have that fallback
    (Deluxe, `effective_action`); otherwise None: it lapses and the player decides.

    >>> from engine.cards import card_code
    >>> from engine.rules import DELUXE, EUROPEAN
    >>> eleven = Hand(10)
    >>> eleven.add(card_code("6s")); eleven.add(card_code("5d"))
    >>> carried_out(DOUBLE, DELUXE, eleven, (HIT, STAND, DOUBLE), True)
    <Action.DOUBLE: 'double'>
    >>> carried_out(DOUBLE, DELUXE, eleven, (HIT, STAND), False)
    <Action.HIT: 'hit'>
    >>> carried_out(DOUBLE, EUROPEAN, eleven, (HIT, STAND), False) is None
    True
    """
    if action in legal:
        return action
    if rules.short_balance_fallback and not covered and action in (DOUBLE, SPLIT):
        return effective_action(action, hand, covered)
    return None


def insurance_actions(covered: bool) -> tuple[Action, ...]:
    """Insurance costs half the seat bet: offered when the balance ``covered`` it."""
    return (Action.INSURE, Action.NO_INSURANCE) if covered else (Action.NO_INSURANCE,)


def insurance_refusal(action: Action) -> IllegalActionError:
    """Why ``action`` is refused while insurance is being decided."""
    if action is Action.INSURE:
        return refused(Refusal.INSURANCE_BALANCE)
    return refused(Refusal.INSURANCE_FIRST)


def follow_actions(covered: bool) -> tuple[Action, ...]:
    """A bettor behind a seat that doubles or splits may follow with as much again when
    their balance ``covered`` it; not following is always allowed (the default)."""
    return (Action.FOLLOW, Action.NO_FOLLOW) if covered else (Action.NO_FOLLOW,)


def behind_refusal(action: Action, insurance: bool) -> IllegalActionError:
    """Why ``action`` is refused from a bettor behind, whose decision is ``insurance``
    or whether to follow a double or split."""
    if insurance:
        return insurance_refusal(action)
    if action is Action.FOLLOW:
        return refused(Refusal.FOLLOW_BALANCE)
    return refused(Refusal.FOLLOW_FIRST)
