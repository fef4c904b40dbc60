"""RULES.md §1 (the European preset), one rule per test, each on a stacked shoe.

A one-seat shoe deals: player, dealer up, player, dealer hole, then hits in play order.
"""

from __future__ import annotations

import pytest

from engine import (
    EUROPEAN,
    Action,
    CardDealt,
    HandClosed,
    HoleCardRevealed,
    IllegalActionError,
    Phase,
    Round,
    Shoe,
    StakeSettled,
)
from engine.cards import parse_cards
from engine.events import DEALER

BET = 10


def dealt(cards: str, *, seats: int = 1, rules=EUROPEAN, balances=None) -> Round:
    rnd = Round(rules, Shoe.stacked(cards), balances=balances)
    for seat in range(1, seats + 1):
        rnd.place_bet(seat=seat, amount=BET, owner=f"p{seat}")
    rnd.deal()
    return rnd


def hand_results(rnd: Round) -> list[tuple[int, str, int]]:
    """(seat, result, net chips) of every hand stake, in settlement order."""
    return [
        (s.seat, s.result, s.returned - s.staked)
        for s in rnd.outcome().settlements
        if s.kind == "hand"
    ]


def test_a_natural_pays_three_to_two_and_does_not_act():
    rnd = dealt("As 9h Kd 7c")
    assert rnd.phase is Phase.SETTLED
    assert hand_results(rnd) == [(1, "blackjack", 15)]


def test_a_natural_against_a_dealer_natural_pushes():
    rnd = dealt("As Ah Kd Kc")
    assert hand_results(rnd) == [(1, "push", 0)]


def test_dealer_draws_nothing_when_every_hand_is_already_decided():
    rnd = dealt("As 6h Kd 5c 9s")  # the dealer's 11 would draw, but the natural is paid
    assert [str(card) for card in rnd.outcome().dealer] == ["6h", "5c"]


def test_a_player_with_a_natural_is_skipped_in_seat_order():
    # seat 1: As Kd (natural), seat 2: 9c 7d; dealer 5h ?
    rnd = dealt("As 9c 5h Kd 7d 10c", seats=2)
    assert rnd.turn is not None and rnd.turn.seat == 2


def test_no_peek_the_dealer_natural_is_found_only_after_the_players_act():
    rnd = dealt("6s Ah 5d Kc")
    assert rnd.phase is Phase.PLAYER_TURNS  # no peek under an ace
    assert Action.INSURE not in rnd.legal_actions()


def test_dealer_natural_takes_the_whole_doubled_bet_without_peek():
    rnd = dealt("6s Ah 5d Kc 9h")
    rnd.apply(Action.DOUBLE)
    assert rnd.outcome().dealer_natural
    assert hand_results(rnd) == [(1, "lose", -20)]


def test_dealer_natural_takes_every_split_hand_without_peek():
    rnd = dealt("8s Ah 8d Kc 3h 2c 5d")
    rnd.apply(Action.SPLIT)
    rnd.apply(Action.DOUBLE)  # 8+3 doubled
    rnd.apply(Action.STAND)  # 8+2
    assert hand_results(rnd) == [(1, "lose", -20), (1, "lose", -10)]


def test_original_bets_only_variant_returns_doubles_and_splits():
    rules = EUROPEAN.replace(original_bets_only=True)
    rnd = dealt("8s Ah 8d Kc 3h 2c 5d", rules=rules)
    rnd.apply(Action.SPLIT)
    rnd.apply(Action.DOUBLE)
    rnd.apply(Action.STAND)
    assert sum(net for _, _, net in hand_results(rnd)) == -BET


def test_hit_is_legal_under_21_and_a_hand_reaching_21_stands_automatically():
    rnd = dealt("5s 9h 6d 7c Kh 8d")
    assert Action.HIT in rnd.legal_actions()
    events = rnd.apply(Action.HIT)  # 5+6+K = 21
    assert HandClosed(seat=1, hand=0, total=21) in events
    assert rnd.phase is Phase.SETTLED
    assert hand_results(rnd) == [(1, "win", 10)]


def test_stand_ends_play_of_the_hand_at_once():
    rnd = dealt("10s 9h 2d 8c")
    rnd.apply(Action.STAND)
    assert rnd.phase is Phase.SETTLED
    assert hand_results(rnd) == [(1, "lose", -10)]  # 12 against 17


def test_double_only_on_the_first_two_cards():
    rnd = dealt("2s 9h 3d 7c 4h 9d")
    rnd.apply(Action.HIT)
    assert Action.DOUBLE not in rnd.legal_actions()
    before = rnd.to_json()
    with pytest.raises(IllegalActionError, match="first two cards"):
        rnd.apply(Action.DOUBLE)
    assert rnd.to_json() == before


def test_double_doubles_the_bet_deals_exactly_one_card_and_closes_the_hand():
    rnd = dealt("2s 10h 3d 8c 4h")
    rnd.apply(Action.DOUBLE)  # 2+3+4 = 9, closed though low
    assert rnd.phase is Phase.SETTLED
    assert hand_results(rnd) == [(1, "lose", -20)]


def test_split_needs_two_cards_of_the_same_point_value_so_ten_and_king_split():
    rnd = dealt("10s 9h Kd 7c")
    assert Action.SPLIT in rnd.legal_actions()
    rnd = dealt("9s 9h 8d 7c")
    assert Action.SPLIT not in rnd.legal_actions()
    with pytest.raises(IllegalActionError, match="same value"):
        rnd.apply(Action.SPLIT)


def test_the_split_hand_gets_an_equal_bet_and_is_played_before_the_next_gets_its_card():
    rnd = dealt("8s 7h 8d 9c 3h 10d 10s 6c")
    events = rnd.apply(Action.SPLIT)
    dealt_cards = [e for e in events if isinstance(e, CardDealt)]
    assert [(e.hand, str(e.card)) for e in dealt_cards] == [(0, "3h")]  # only the first hand
    assert rnd.turn is not None and rnd.turn.hand == 0
    events = rnd.apply(Action.DOUBLE)  # first hand: 8+3+10 = 21, doubled after split
    assert [(e.hand, str(e.card)) for e in events if isinstance(e, CardDealt)] == [
        (0, "10d"),
        (1, "10s"),
    ]
    rnd.apply(Action.STAND)  # second hand: 8+10
    assert hand_results(rnd) == [(1, "win", 20), (1, "win", 10)]  # dealer 7+9+6 bust


def test_split_up_to_four_hands_and_a_fifth_is_refused():
    rnd = dealt("8s 7h 8d 9c 8h 8c 8s 2d 3d 4d 10h 10c 10d")
    rnd.apply(Action.SPLIT)  # hands: 8s+8h | 8d
    rnd.apply(Action.SPLIT)  # 8s+8c | 8h | 8d
    rnd.apply(Action.SPLIT)  # 8s+8s | 8c | 8h | 8d : four hands
    assert len(rnd.seats[0].hands) == 4
    assert Action.SPLIT not in rnd.legal_actions()
    with pytest.raises(IllegalActionError):
        rnd.apply(Action.SPLIT)


def test_split_aces_get_one_card_each_and_ace_ten_after_a_split_pays_even_money():
    rnd = dealt("As 9h Ad 8c Kh 5c")
    rnd.apply(Action.SPLIT)
    assert rnd.phase is Phase.SETTLED  # both aces closed after one card: no decision
    assert [len(hand.cards) for hand in rnd.seats[0].hands] == [2, 2]
    # A+K after a split is 21 but not a natural: 1:1 against the dealer's 17
    assert hand_results(rnd) == [(1, "win", 10), (1, "lose", -10)]


def test_split_aces_are_split_once_only():
    rnd = dealt("As 9h Ad 7c Ah 5c 10d")
    rnd.apply(Action.SPLIT)  # first ace draws another ace: it may not be split again
    assert [len(hand.cards) for hand in rnd.seats[0].hands] == [2, 2]
    assert rnd.phase is Phase.SETTLED


def test_no_double_on_split_aces():
    rules = EUROPEAN.replace(hit_split_aces=True)
    rnd = dealt("As 9h Ad 7c 5h 5c 10d", rules=rules)
    rnd.apply(Action.SPLIT)
    assert rnd.legal_actions() == (Action.HIT, Action.STAND)


def test_dealer_stands_on_soft_17():
    rnd = dealt("10s Ah 8d 6c 5s")
    rnd.apply(Action.STAND)
    assert [str(card) for card in rnd.outcome().dealer] == ["Ah", "6c"]
    assert hand_results(rnd) == [(1, "win", 10)]


def test_dealer_draws_to_17_and_hits_soft_17_only_where_the_rules_say():
    rnd = dealt("10s Ah 8d 6c 5s 7d", rules=EUROPEAN.replace(dealer_hits_soft_17=True))
    rnd.apply(Action.STAND)
    # soft 17 hits; A+6+5 is a hard 12, which draws again to 19
    assert [str(card) for card in rnd.outcome().dealer] == ["Ah", "6c", "5s", "7d"]
    assert hand_results(rnd) == [(1, "lose", -10)]


def test_a_bust_hand_loses_even_when_the_dealer_busts_later():
    rnd = dealt("10s 6h 5d 10c 9s", seats=1)
    rnd.apply(Action.HIT)  # 10+5+9 = 24
    assert rnd.phase is Phase.SETTLED
    assert hand_results(rnd) == [(1, "bust", -10)]


def test_a_hand_of_exactly_22_is_bust_and_leaves_the_dealer_nothing_to_draw_for():
    rnd = dealt("10s 6h 2d 10c Ks", seats=1)  # the shoe holds no card for the dealer
    rnd.apply(Action.HIT)  # 10+2+10 = 22
    assert [str(card) for card in rnd.outcome().dealer] == ["6h", "10c"]
    assert hand_results(rnd) == [(1, "bust", -10)]


def test_a_bust_hand_loses_though_another_seat_makes_the_dealer_draw_and_bust():
    # seat 1: 10s 5d; seat 2: 10h 8c; dealer 6h 10c, draws 9s → bust
    rnd = dealt("10s 10h 6h 5d 8c 10c 9d 9s", seats=2)
    rnd.apply(Action.HIT)  # seat 1: 10+5+9 = 24, bust
    rnd.apply(Action.STAND)  # seat 2: 18
    assert rnd.outcome().dealer_total > 21
    assert hand_results(rnd) == [(1, "bust", -10), (2, "win", 10)]
    # The history shows the card the dealer drew face up, on the dealer's one hand (the
    # hole card was dealt face down, and turned by an event of its own).
    dealers = [event for event in rnd.log if isinstance(event, CardDealt) and event.seat == DEALER]
    up, drawn = parse_cards("6h 9s")
    assert dealers == [
        CardDealt(DEALER, 0, up),
        CardDealt(DEALER, 0, None),
        CardDealt(DEALER, 0, drawn),
    ]


def test_an_ace_counts_eleven_unless_that_busts_the_hand():
    rnd = dealt("As 10h 5d 8c 9h")
    view = rnd.view()
    assert (view.total, view.soft) == (16, True)
    rnd.apply(Action.HIT)  # A+5+9 = 15 (the ace now counts 1)
    view = rnd.view()
    assert (view.total, view.soft) == (15, False)


def test_win_loss_and_push_settle_at_plus_one_minus_one_and_zero():
    assert hand_results(_stand("10s 10h 9d 8c")) == [(1, "win", 10)]
    assert hand_results(_stand("10s 10h 8d 9c")) == [(1, "lose", -10)]
    assert hand_results(_stand("10s 10h 8d 8c")) == [(1, "push", 0)]


def _stand(cards: str) -> Round:
    rnd = dealt(cards)
    rnd.apply(Action.STAND)
    return rnd


def test_insurance_and_surrender_are_off():
    rnd = dealt("10s Ah 6d 7c")
    assert rnd.legal_actions() == (Action.HIT, Action.STAND, Action.DOUBLE)
    with pytest.raises(IllegalActionError, match="no surrender"):
        rnd.apply(Action.SURRENDER)
    with pytest.raises(IllegalActionError, match="insurance"):
        rnd.apply(Action.INSURE)


def test_the_hole_card_is_dealt_face_down_and_revealed_after_the_players():
    rnd = Round(EUROPEAN, Shoe.stacked("10s 9h 8d 8c"))
    rnd.place_bet(seat=1, amount=BET)
    events = rnd.deal()
    assert events[-1] == CardDealt(seat=0, hand=0, card=None)
    events = rnd.apply(Action.STAND)
    assert any(isinstance(e, HoleCardRevealed) and str(e.card) == "8c" for e in events)
    assert any(isinstance(e, StakeSettled) for e in events)


def _dealer_after_stand(cards: str, rules=EUROPEAN) -> list[str]:
    rnd = dealt(cards, rules=rules)
    rnd.apply(Action.STAND)
    return [str(card) for card in rnd.outcome().dealer]


def test_dealer_draws_again_on_a_16_made_by_drawing():
    # Player 10s 9d = 19; dealer 10h 2c = 12 draws the 4s (16), so must draw the 5d: 21.
    assert _dealer_after_stand("10s 10h 9d 2c 4s 5d") == ["10h", "2c", "4s", "5d"]


def test_dealer_stands_on_a_hard_17_made_by_drawing():
    # Dealer 10h 2c = 12 draws the 5s: 17, and stands; the 9c stays in the shoe.
    assert _dealer_after_stand("10s 10h 9d 2c 5s 9c") == ["10h", "2c", "5s"]


@pytest.mark.parametrize(
    ("hits_soft_17", "dealer", "result"),
    [
        # S17: Ah 2c 4s is a soft 17 and stands; the player's 18 wins.
        (False, ["Ah", "2c", "4s"], (1, "win", 10)),
        # H17: the three-card soft 17 draws the 2d: soft 19 beats 18.
        (True, ["Ah", "2c", "4s", "2d"], (1, "lose", -10)),
    ],
)
def test_a_soft_17_of_three_cards_draws_under_h17_only(hits_soft_17, dealer, result):
    rules = EUROPEAN.replace(dealer_hits_soft_17=hits_soft_17)
    rnd = dealt("10s Ah 8d 2c 4s 2d", rules=rules)
    rnd.apply(Action.STAND)
    assert [str(card) for card in rnd.outcome().dealer] == dealer
    assert hand_results(rnd) == [result]


def test_h17_stands_on_a_hard_17_that_holds_an_ace():
    # Dealer Ah 6c is a soft 17 and draws under H17; the Kd makes a hard 17: it stands.
    rules = EUROPEAN.replace(dealer_hits_soft_17=True)
    assert _dealer_after_stand("10s Ah 8d 6c Kd 4s", rules) == ["Ah", "6c", "Kd"]


@pytest.mark.parametrize(
    ("cards", "actions", "total"),
    [
        ("As 9h 7d 8c", [Action.STAND], 18),  # A,7 stands: the ace counts 11
        ("As 9h 5d 8c 5s", [Action.HIT], 21),  # A,5 hits a 5: 21 closes by itself
        ("As 9h Ad 8c 9s", [Action.HIT], 21),  # A,A hits a 9: A,9,A is 21
        ("As 9h 5d 8c 10s", [Action.HIT, Action.STAND], 16),  # A,5,10: the ace counts 1
    ],
)
def test_a_hand_closes_on_its_best_total_the_ace_counted_eleven_when_it_fits(cards, actions, total):
    rnd = dealt(cards)
    events = [event for action in actions for event in rnd.apply(action)]
    closed = [event for event in events if isinstance(event, HandClosed)]
    assert closed == [HandClosed(seat=1, hand=0, total=total)]


def test_a_natural_closes_at_21():
    rnd = Round(EUROPEAN, Shoe.stacked("As 9h Kd 7c"))
    rnd.place_bet(seat=1, amount=BET)
    assert HandClosed(seat=1, hand=0, total=21) in rnd.deal()


# Surrender without a peek (issue 13): nobody has checked the hole card when a hand is
# given up, so the rule says what a dealer natural does to it.
LATE_SURRENDER = EUROPEAN.replace(surrender="late")
EARLY_SURRENDER = EUROPEAN.replace(surrender="early")


def test_late_surrender_without_a_peek_loses_the_whole_bet_to_a_dealer_natural():
    rnd = dealt("10s Ah 6d Kc", rules=LATE_SURRENDER)  # 16 against the ace; hole: a king
    rnd.apply(Action.SURRENDER)
    assert rnd.outcome().dealer_natural
    assert hand_results(rnd) == [(1, "lose", -BET)]


@pytest.mark.parametrize("rules", [LATE_SURRENDER, EARLY_SURRENDER], ids=["late", "early"])
def test_surrender_without_a_peek_gets_half_back_when_the_dealer_has_no_natural(rules):
    rnd = dealt("10s Ah 6d 7c", rules=rules)
    rnd.apply(Action.SURRENDER)
    assert hand_results(rnd) == [(1, "surrender", -BET // 2)]


def test_early_surrender_gets_half_back_even_against_a_dealer_natural():
    rnd = dealt("10s Ah 6d Kc", rules=EARLY_SURRENDER)
    rnd.apply(Action.SURRENDER)
    assert rnd.outcome().dealer_natural
    assert hand_results(rnd) == [(1, "surrender", -BET // 2)]


def test_late_surrender_under_original_bets_only_still_loses_the_whole_bet_to_a_natural():
    # The surrendered bet is the original bet, which a natural takes.
    rnd = dealt("10s Kh 6d Ac", rules=LATE_SURRENDER.replace(original_bets_only=True))
    rnd.apply(Action.SURRENDER)
    assert hand_results(rnd) == [(1, "lose", -BET)]
