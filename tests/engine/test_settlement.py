"""What each stake wins (engine.settlement) and how the dealer draws (engine.dealer_play),
on hand-built hands."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Card, card_code
from engine.dealer_play import dealer_draws, dealer_must_play
from engine.hand import Hand
from engine.rules import DELUXE, EUROPEAN
from engine.seat import Seat
from engine.settlement import (
    hand_result,
    hand_return,
    insurance_return,
    pair_bet_return,
    pair_result,
    pair_return,
)
from engine.values import Result


def hand(*cards: str, natural: bool = False) -> Hand:
    dealt = Hand(10)
    for card in cards:
        dealt.add(card_code(card))
    dealt.natural = natural
    return dealt


@pytest.mark.parametrize(
    ("player", "dealer", "result"),
    [
        (hand("10s", "9d"), hand("10c", "8h"), Result.WIN),
        (hand("10s", "8d"), hand("10c", "8h"), Result.PUSH),
        (hand("10s", "7d"), hand("10c", "8h"), Result.LOSE),
        (hand("10s", "2d"), hand("10c", "6h", "9d"), Result.WIN),  # the dealer busts
        (hand("10s", "6d", "9c"), hand("10c", "6h", "9d"), Result.BUST),  # settled first
        (hand("As", "Kd", natural=True), hand("10c", "9h"), Result.BLACKJACK),
        (hand("As", "Kd", natural=True), hand("Ac", "Qh", natural=True), Result.PUSH),
        (hand("5s", "6d", "Kc"), hand("Ac", "Qh", natural=True), Result.LOSE),  # 21 < natural
        (hand("As", "Kd"), hand("10c", "9h", "2d"), Result.PUSH),  # 21 after a split: no natural
    ],
)
def test_a_hand_against_the_dealer(player: Hand, dealer: Hand, result: Result) -> None:
    assert hand_result(player, dealer, EUROPEAN) is result


def test_a_surrendered_hand_gets_half_back_whatever_the_dealer_holds() -> None:
    surrendered = hand("10s", "6d")
    surrendered.surrendered = True
    early = EUROPEAN.replace(surrender="early")
    assert hand_result(surrendered, hand("Ac", "Qh", natural=True), early) is Result.SURRENDER
    assert hand_result(surrendered, hand("Ac", "Qh"), DELUXE) is Result.SURRENDER
    assert hand_return(Result.SURRENDER, 10, EUROPEAN, 10, True, True) == 5
    assert hand_return(Result.SURRENDER, 5, EUROPEAN, 5, True, False) == Fraction(5, 2)


def test_a_late_surrender_without_a_peek_loses_to_a_dealer_natural() -> None:
    surrendered = hand("10s", "6d")
    surrendered.surrendered = True
    late = EUROPEAN.replace(surrender="late")
    assert hand_result(surrendered, hand("Ac", "Qh", natural=True), late) is Result.LOSE
    assert hand_result(surrendered, hand("Ac", "6h"), late) is Result.SURRENDER


def test_returns_at_fixed_odds_and_a_natural_at_the_rules_odds() -> None:
    assert hand_return(Result.WIN, 20, EUROPEAN, 10, True, False) == 40
    assert hand_return(Result.PUSH, 20, EUROPEAN, 10, True, False) == 20
    assert hand_return(Result.LOSE, 20, EUROPEAN, 10, True, False) == 0
    assert hand_return(Result.BUST, 20, EUROPEAN, 10, True, False) == 0
    assert hand_return(Result.BLACKJACK, 10, EUROPEAN, 10, True, False) == 25
    assert hand_return(Result.BLACKJACK, 5, EUROPEAN, 5, True, False) == Fraction(25, 2)
    six_to_five = EUROPEAN.replace(blackjack_pays=Fraction(6, 5))
    assert hand_return(Result.BLACKJACK, 10, six_to_five, 10, True, False) == 22


def test_original_bets_only_a_dealer_natural_takes_the_first_hands_unit_only() -> None:
    rules = EUROPEAN.replace(original_bets_only=True)
    # A doubled first hand (20 staked on a bet of 10) gets its double back ...
    assert hand_return(Result.LOSE, 20, rules, 10, True, True) == 10
    # ... a hand split off it keeps its whole stake ...
    assert hand_return(Result.LOSE, 10, rules, 10, False, True) == 10
    # ... and without a dealer natural, or without the rule, a loss is a loss.
    assert hand_return(Result.LOSE, 20, rules, 10, True, False) == 0
    assert hand_return(Result.LOSE, 20, EUROPEAN, 10, True, True) == 0


def test_insurance_pays_two_to_one_on_a_dealer_natural() -> None:
    assert insurance_return(5, EUROPEAN, True) == (Result.WIN, 15)
    assert insurance_return(5, EUROPEAN, False) == (Result.LOSE, 0)


@pytest.mark.parametrize(
    ("first", "second", "result", "returned"),
    [
        ("Qh", "Qh", Result.PERFECT_PAIR, 260),
        ("Qh", "Qd", Result.COLOURED_PAIR, 130),
        ("Qh", "Qs", Result.MIXED_PAIR, 70),
        ("Qh", "Kh", Result.LOSE, 0),
    ],
)
def test_the_pair_bet(first: str, second: str, result: Result, returned: int) -> None:
    got = pair_result(Card.parse(first), Card.parse(second))
    assert got is result
    assert pair_return(got, 10, EUROPEAN) == returned


def test_the_dealer_draws_below_17_and_on_soft_17_only_under_h17() -> None:
    h17 = EUROPEAN.replace(dealer_hits_soft_17=True)
    assert dealer_draws(hand("10c", "6h"), EUROPEAN)
    assert not dealer_draws(hand("10c", "7h"), EUROPEAN)
    assert not dealer_draws(hand("Ac", "6h"), EUROPEAN)
    assert dealer_draws(hand("Ac", "6h"), h17)
    assert not dealer_draws(hand("Ac", "6h", "10d"), h17)  # a hard 17 holding an ace


def test_the_dealer_plays_only_while_some_hand_depends_on_the_total() -> None:
    seat = Seat(1, "player", 10)
    seat.hands = [hand("10s", "6d", "9c")]
    assert not dealer_must_play([seat])  # bust
    seat.hands.append(hand("10s", "7d"))
    assert dealer_must_play([seat])
    seat.hands[1].surrendered = True
    assert not dealer_must_play([seat])


def test_the_pair_bet_returns_398_of_415_at_deluxe_and_9_of_17_off_one_deck():
    # Eight decks: after the first card, 415 are left; 7 match it in rank and suit (25:1,
    # 26 back), 8 in rank and colour (12:1, 13 back), 16 in rank only (6:1, 7 back).
    assert pair_bet_return(DELUXE) == Fraction(7 * 26 + 8 * 13 + 16 * 7, 415)
    # One deck: no perfect pair can come; 1 of 51 is coloured, 2 are mixed.
    assert pair_bet_return(DELUXE.replace(decks=1)) == Fraction(1 * 13 + 2 * 7, 51)


@given(
    decks=st.integers(1, 8),
    perfect=st.integers(0, 30),
    coloured=st.integers(0, 30),
    mixed=st.integers(0, 30),
)
def test_the_pair_bets_return_is_each_pairs_chance_times_what_it_brings_back(
    decks: int, perfect: int, coloured: int, mixed: int
) -> None:
    rules = DELUXE.replace(
        decks=decks, perfect_pair_pays=perfect, coloured_pair_pays=coloured, mixed_pair_pays=mixed
    )
    back = {pays: pays + 1 if pays else 0 for pays in (perfect, coloured, mixed)}
    left = 52 * decks - 1
    expected = Fraction(
        (decks - 1) * back[perfect] + decks * back[coloured] + 2 * decks * back[mixed], left
    )
    assert pair_bet_return(rules) == expected
