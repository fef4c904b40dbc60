"""The rules of what a player may do (engine.legality), on hand-built hands."""

from __future__ import annotations

import pytest

from engine.cards import card_code
from engine.hand import Hand
from engine.legality import (
    behind_refusal,
    effective_action,
    follow_actions,
    hand_actions,
    hand_refusal,
    insurance_actions,
    insurance_refusal,
)
from engine.rules import DELUXE, EUROPEAN, DoubleOn, Rules
from engine.values import Action

HIT, STAND, DOUBLE, SPLIT, SURRENDER = (
    Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER,
)  # fmt: skip


def hand(*cards: str, from_split: bool = False, split_aces: bool = False) -> Hand:
    dealt = Hand(10)
    for card in cards:
        dealt.add(card_code(card))
    dealt.from_split, dealt.split_aces = from_split, split_aces
    return dealt


def test_two_cards_may_hit_stand_and_double_and_a_pair_split() -> None:
    assert hand_actions(EUROPEAN, hand("10s", "6d"), 1, 10, True) == (HIT, STAND, DOUBLE)
    assert hand_actions(EUROPEAN, hand("8s", "8d"), 1, 10, True) == (HIT, STAND, DOUBLE, SPLIT)


def test_three_cards_may_only_hit_or_stand() -> None:
    assert hand_actions(EUROPEAN, hand("2s", "3d", "4c"), 1, 10, True) == (HIT, STAND)


def test_double_only_on_the_totals_the_rules_allow() -> None:
    rules = EUROPEAN.replace(double_on=DoubleOn.TEN_OR_ELEVEN)
    assert DOUBLE not in hand_actions(rules, hand("5s", "4d"), 1, 10, True)
    assert DOUBLE in hand_actions(rules, hand("5s", "5d"), 1, 10, True)


def test_no_double_after_a_split_where_the_rules_forbid_it_nor_on_split_aces() -> None:
    split_nine = hand("5s", "4d", from_split=True)
    assert DOUBLE in hand_actions(EUROPEAN, split_nine, 2, 10, True)
    no_das = EUROPEAN.replace(double_after_split=False)
    assert DOUBLE not in hand_actions(no_das, split_nine, 2, 10, True)
    aces = hand("As", "9d", from_split=True, split_aces=True)
    assert hand_actions(EUROPEAN.replace(hit_split_aces=True), aces, 2, 10, True) == (
        HIT,
        STAND,
    )


def test_split_up_to_the_hand_limit() -> None:
    eights = hand("8s", "8d", from_split=True)
    assert SPLIT in hand_actions(DELUXE.replace(max_hands=3), eights, 2, 10, True)
    assert SPLIT not in hand_actions(DELUXE, eights, 2, 10, True)  # Deluxe splits once
    assert SPLIT not in hand_actions(EUROPEAN.replace(max_hands=1), hand("8s", "8d"), 1, 10, True)


def test_surrender_late_on_first_two_cards_against_the_up_cards_the_rules_allow() -> None:
    sixteen = hand("10s", "6d")
    assert SURRENDER in hand_actions(DELUXE, sixteen, 1, 9, True)
    assert SURRENDER not in hand_actions(DELUXE, sixteen, 1, 10, True)  # not against a ten
    assert SURRENDER not in hand_actions(DELUXE, sixteen, 1, 1, True)  # nor an ace
    assert SURRENDER not in hand_actions(EUROPEAN, sixteen, 1, 9, True)  # no surrender
    split = hand("10s", "6d", from_split=True)
    assert SURRENDER not in hand_actions(DELUXE, split, 2, 9, True)


def test_early_surrender_is_offered_where_late_is_against_any_up_card_and_not_after_a_split() -> (
    None
):
    early = EUROPEAN.replace(surrender="early")
    sixteen, split = hand("10s", "6d"), hand("10s", "6d", from_split=True)
    for up in (1, 9, 10):
        assert SURRENDER in hand_actions(early, sixteen, 1, up, True)
        assert SURRENDER not in hand_actions(early, split, 2, up, True)
    not_against_ten = early.replace(surrender_vs_ace_or_ten=False)
    assert SURRENDER not in hand_actions(not_against_ten, sixteen, 1, 10, True)


def test_double_and_split_are_offered_only_when_the_balance_covers_them() -> None:
    # Deluxe too: its fallback is for a pre-selected action, not for one offered now.
    eights = hand("8s", "8d")
    for rules in (EUROPEAN, DELUXE):
        assert hand_actions(rules, eights, 1, 10, False) == (HIT, STAND)
        assert hand_actions(rules, eights, 1, 10, True) == (HIT, STAND, DOUBLE, SPLIT)
        reason = str(hand_refusal(DOUBLE, rules, eights, False))
        assert reason == "your balance does not cover another bet to double"


def test_a_short_balance_turns_a_double_into_a_hit_and_a_split_into_hit_or_stand() -> None:
    assert effective_action(DOUBLE, hand("8s", "8d"), False) is HIT
    assert effective_action(SPLIT, hand("4s", "4d"), False) is HIT  # 8: 11 or less
    assert effective_action(SPLIT, hand("8s", "8d"), False) is STAND  # 16
    assert effective_action(SPLIT, hand("8s", "8d"), True) is SPLIT


@pytest.mark.parametrize(
    ("rules", "cards", "action", "covered", "reason"),
    [
        (EUROPEAN, ("10s", "6d"), SURRENDER, True, "this table has no surrender"),
        (DELUXE, ("10s", "6d", "2c"), SURRENDER, True, "surrender is only allowed on the first"),
        (EUROPEAN, ("10s", "3d", "2c"), DOUBLE, True, "you can only double on your first two"),
        (EUROPEAN, ("8s", "8d"), SPLIT, False, "your balance does not cover another bet to split"),
        (EUROPEAN.replace(double_on="10-11"), ("9s", "8d"), DOUBLE, True, "you cannot double"),
        (EUROPEAN, ("9s", "8d"), SPLIT, True, "you can only split two cards of the same value"),
        (EUROPEAN, ("9s", "8d"), Action.INSURE, True, "insurance is not on offer now"),
    ],
)
def test_each_refusal_says_why(
    rules: Rules, cards: tuple[str, ...], action: Action, covered: bool, reason: str
) -> None:
    dealt = hand(*cards)
    assert action not in hand_actions(rules, dealt, 1, 10, covered)
    assert str(hand_refusal(action, rules, dealt, covered)).startswith(reason)


def test_insurance_is_offered_when_the_balance_covers_it() -> None:
    assert insurance_actions(True) == (Action.INSURE, Action.NO_INSURANCE)
    assert insurance_actions(False) == (Action.NO_INSURANCE,)
    assert str(insurance_refusal(Action.INSURE)) == "your balance does not cover insurance"
    assert str(insurance_refusal(Action.HIT)) == "first decide on insurance"


def test_rules_answer_may_double_and_may_surrender() -> None:
    assert EUROPEAN.may_double(5)
    nine_to_eleven = EUROPEAN.replace(double_on=DoubleOn.NINE_TO_ELEVEN)
    assert [t for t in range(4, 22) if nine_to_eleven.may_double(t)] == [9, 10, 11]
    assert not EUROPEAN.may_surrender(6)
    assert [up for up in range(1, 11) if DELUXE.may_surrender(up)] == list(range(2, 10))
    anything = DELUXE.replace(surrender_vs_ace_or_ten=True)
    assert all(anything.may_surrender(up) for up in range(1, 11))


def test_a_refusal_carries_its_reason_code_for_an_app_to_word():
    """The trainer says a refusal in the player's language from its code and parameters."""
    eights = hand("8s", "8d", "5c")
    error = hand_refusal(DOUBLE, EUROPEAN, eights, True)
    assert (error.code, dict(error.params)) == ("double_first_two_cards", {})
    assert hand_refusal(Action.SURRENDER, EUROPEAN, eights, True).code == "no_surrender"


def test_a_bettor_behinds_choice_asked_of_a_hand_is_not_offered_by_name() -> None:
    """Following is a bettor behind's decision; asked of a seat's own hand it is refused,
    and the refusal names the action so that the player's language can say which."""
    error = hand_refusal(Action.FOLLOW, EUROPEAN, hand("8s", "8d"), True)
    assert (error.code, dict(error.params)) == ("not_offered", {"action": "follow"})
    assert str(error) == "you cannot follow here"


def test_a_bettor_behind_is_refused_for_the_decision_in_front_of_them() -> None:
    """While insurance is decided the refusal is insurance's; then, following's."""
    assert behind_refusal(Action.INSURE, True).code == "insurance_balance"
    assert behind_refusal(Action.FOLLOW, True).code == "insurance_first"
    assert behind_refusal(Action.FOLLOW, False).code == "follow_balance"
    assert str(behind_refusal(Action.FOLLOW, False)) == "your balance does not cover following"
    assert behind_refusal(Action.INSURE, False).code == "follow_first"


def test_following_is_offered_only_when_the_balance_covers_it() -> None:
    assert follow_actions(True) == (Action.FOLLOW, Action.NO_FOLLOW)
    assert follow_actions(False) == (Action.NO_FOLLOW,)
