"""RULES.md §2 (the Deluxe preset) on stacked shoes: peek, surrender, insurance, split once,
short-balance fallbacks, burn, pair bets, bets behind, seats, void and timeouts."""

from __future__ import annotations

import random

import pytest

from engine import (
    CARDS,
    DELUXE,
    EUROPEAN,
    Action,
    ActionTaken,
    IllegalActionError,
    Phase,
    Round,
    Shoe,
    ShoeShuffled,
)

BET = 10


def dealt(cards: str, *, rules=DELUXE, balances=None, bets=None) -> Round:
    rnd = Round(rules, Shoe.stacked(cards), balances=balances)
    rnd.place_bet(seat=1, amount=BET, owner="p1")
    for place in bets or ():
        place(rnd)
    rnd.deal()
    return rnd


def nets(rnd: Round) -> dict[tuple[str, str], object]:
    """Net chips by (owner, stake kind)."""
    totals: dict[tuple[str, str], object] = {}
    for s in rnd.outcome().settlements:
        key = (s.owner, s.kind)
        totals[key] = totals.get(key, 0) + (s.returned - s.staked)
    return totals


def test_the_dealer_peeks_under_a_ten_and_a_natural_ends_the_round_at_once():
    rnd = dealt("10s Kh 9d Ac 5c")
    assert rnd.phase is Phase.SETTLED
    assert [str(c) for c in rnd.outcome().dealer] == ["Kh", "Ac"]
    assert nets(rnd) == {("p1", "hand"): -BET}


def test_insurance_is_offered_under_an_ace_then_the_dealer_peeks():
    rnd = dealt("10s Ah 9d Kc")
    assert rnd.phase is Phase.INSURANCE
    assert rnd.legal_actions() == (Action.INSURE, Action.NO_INSURANCE)
    rnd.apply(Action.INSURE)
    assert rnd.phase is Phase.SETTLED
    assert nets(rnd) == {("p1", "hand"): -BET, ("p1", "insurance"): BET}  # 5 at 2:1


def test_insurance_is_lost_when_the_dealer_has_no_natural():
    rnd = dealt("10s Ah 9d 7c")
    rnd.apply(Action.INSURE)
    assert rnd.phase is Phase.PLAYER_TURNS
    rnd.apply(Action.STAND)  # 19 against soft 18
    assert nets(rnd) == {("p1", "hand"): BET, ("p1", "insurance"): -5}


def test_insurance_is_offered_to_a_natural_too():
    rnd = dealt("As Ah Kd 7c")
    assert rnd.phase is Phase.INSURANCE
    rnd.apply(Action.NO_INSURANCE)
    assert nets(rnd) == {("p1", "hand"): 15}


def test_a_round_where_every_seat_has_a_natural_ends_without_dealer_draws():
    rnd = dealt("As 5h Kd Kc 9s")
    assert rnd.phase is Phase.SETTLED
    assert [str(c) for c in rnd.outcome().dealer] == ["5h", "Kc"]


def test_surrender_loses_half_the_seat_bet():
    rnd = dealt("10s 9h 6d 7c")
    assert Action.SURRENDER in rnd.legal_actions()
    rnd.apply(Action.SURRENDER)
    assert nets(rnd) == {("p1", "hand"): -5}


def test_no_surrender_against_an_ace_or_ten_value_up_card():
    rnd = dealt("10s Kh 6d 7c")
    assert Action.SURRENDER not in rnd.legal_actions()
    with pytest.raises(IllegalActionError, match="first two cards"):
        rnd.apply(Action.SURRENDER)


def test_surrender_only_before_any_other_action():
    rnd = dealt("2s 9h 3d 7c 4h")
    rnd.apply(Action.HIT)
    assert Action.SURRENDER not in rnd.legal_actions()


def test_split_hands_are_never_split_again():
    rnd = dealt("8s 7h 8d 10c 8h 10d 9c")
    rnd.apply(Action.SPLIT)
    assert Action.SPLIT not in rnd.legal_actions()  # 8s 8h, but split once only


def test_a_double_without_the_balance_becomes_a_hit():
    balances = {"p1": BET}
    rnd = dealt("6s 9h 5d 7c 4h 9d", balances=balances)
    assert balances["p1"] == 0
    assert Action.DOUBLE in rnd.legal_actions()
    events = rnd.apply(Action.DOUBLE)
    assert ActionTaken(seat=1, hand=0, action="double", effective="hit") in events
    assert rnd.phase is Phase.PLAYER_TURNS  # 15, still open: it was a hit
    assert rnd.seats[0].hands[0].stake == BET


def test_a_split_without_the_balance_hits_at_eleven_or_less_else_stands():
    rnd = dealt("5s 9h 5d 7c 4h 9d", balances={"p1": BET})
    assert rnd.apply(Action.SPLIT)[0] == ActionTaken(1, 0, "split", "hit")
    rnd = dealt("8s 9h 8d 7c 4h 9d", balances={"p1": BET})
    assert rnd.apply(Action.SPLIT)[0] == ActionTaken(1, 0, "split", "stand")


def test_without_the_fallback_rule_a_short_balance_simply_removes_double_and_split():
    rnd = dealt("8s 9h 8d 7c", rules=EUROPEAN, balances={"p1": BET})
    assert rnd.legal_actions() == (Action.HIT, Action.STAND)
    with pytest.raises(IllegalActionError, match="balance"):
        rnd.apply(Action.DOUBLE)


@pytest.mark.parametrize("seed", range(12))
def test_a_fresh_shoe_burns_the_first_card_and_as_many_more_as_its_value(seed):
    rnd = Round(DELUXE, Shoe.for_rules(DELUXE, random.Random(seed)))
    rnd.place_bet(seat=1, amount=BET, owner="p1")
    shuffled = rnd.deal()[0]
    assert isinstance(shuffled, ShoeShuffled) and shuffled.shown is not None
    assert shuffled.shown == CARDS[rnd.shoe.cards[0]]
    assert shuffled.burned == 1 + shuffled.shown.points  # ace 1, ten-values 10
    assert rnd.shoe.position == shuffled.burned + 4


@pytest.mark.parametrize(
    ("cards", "kind", "net"),
    [
        ("8s 9h 8s 7c", "perfect_pair", 125),
        ("8h 9h 8d 7c", "coloured_pair", 60),
        ("8s 9h 8h 7c", "mixed_pair", 30),
        ("8s 9h 9s 7c", "lose", -5),
        ("10s 9h Ks 7c", "lose", -5),  # same value, different rank: no pair
    ],
)
def test_pair_side_bet_pays_by_kind(cards, kind, net):
    rnd = dealt(cards + " 5c 5d 5h", bets=[lambda r: r.place_pair_bet(seat=1, amount=5, owner="b")])
    if rnd.phase is not Phase.SETTLED:
        rnd.apply(Action.STAND)
    pair = [s for s in rnd.outcome().settlements if s.kind == "pair"]
    assert [(s.owner, s.result, s.returned - s.staked) for s in pair] == [("b", kind, net)]


def test_a_bet_behind_wins_and_loses_with_the_seat():
    bets = [lambda r: r.place_bet_behind(seat=1, amount=4, owner="b")]
    rnd = dealt("10s 9h 9d 7c 5c", bets=bets)
    rnd.apply(Action.STAND)  # 19 against 9+7+5 = 21
    assert nets(rnd) == {("p1", "hand"): -BET, ("b", "behind"): -4}


@pytest.mark.parametrize(("follow", "net"), [(False, 4), (True, 8)])
def test_a_bet_behind_follows_a_double_only_when_asked(follow, net):
    bets = [lambda r: r.place_bet_behind(seat=1, amount=4, owner="b", follow_double=follow)]
    rnd = dealt("6s 9h 5d 7c 10h 9d", bets=bets)
    rnd.apply(Action.DOUBLE)  # 21 against 9+7+9 = 25
    assert nets(rnd)[("b", "behind")] == net


@pytest.mark.parametrize(("follow", "stakes"), [(False, [4]), (True, [4, 4])])
def test_a_bet_behind_follows_a_split_only_when_asked(follow, stakes):
    bets = [lambda r: r.place_bet_behind(seat=1, amount=4, owner="b", follow_split=follow)]
    rnd = dealt("8s 9h 8d 7c 10h 10d 9d", bets=bets)
    rnd.apply(Action.SPLIT)
    rnd.apply(Action.STAND)
    rnd.apply(Action.STAND)
    behind = [s.staked for s in rnd.outcome().settlements if s.kind == "behind"]
    assert behind == stakes


def test_nobody_bets_behind_their_own_seat():
    rnd = Round(DELUXE, Shoe.stacked("8s 9h 8d 7c"))
    rnd.place_bet(seat=1, amount=BET, owner="p1")
    with pytest.raises(IllegalActionError, match="own seat"):
        rnd.place_bet_behind(seat=1, amount=5, owner="p1")


def test_one_account_holds_at_most_two_seats_at_deluxe_and_one_at_european():
    rnd = Round(DELUXE, Shoe.stacked("8s 9h 8d 7c"))
    rnd.place_bet(seat=1, amount=BET, owner="p1")
    rnd.place_bet(seat=3, amount=BET, owner="p1")
    with pytest.raises(IllegalActionError, match="at most 2"):
        rnd.place_bet(seat=5, amount=BET, owner="p1")
    rnd = Round(EUROPEAN, Shoe.stacked("8s 9h 8d 7c"))
    rnd.place_bet(seat=1, amount=BET, owner="p1")
    with pytest.raises(IllegalActionError, match="at most 1"):
        rnd.place_bet(seat=2, amount=BET, owner="p1")


def test_a_voided_round_refunds_every_bet_at_once():
    balances = {"p1": 100, "b": 100}
    bets = [
        lambda r: r.place_pair_bet(seat=1, amount=5, owner="b"),
        lambda r: r.place_bet_behind(seat=1, amount=7, owner="b"),
    ]
    rnd = dealt("8s 9h 8d 7c 3h 4d", balances=balances, bets=bets)
    rnd.apply(Action.SPLIT)
    assert balances == {"p1": 80, "b": 88}
    rnd.void("internal error")
    assert rnd.phase is Phase.VOIDED
    assert balances == {"p1": 100, "b": 100}
    with pytest.raises(IllegalActionError):
        rnd.apply(Action.STAND)


def test_a_timed_out_player_hits_to_over_eleven_then_stands():
    rnd = dealt("2s 9h 3d 7c 4h 5d 10c")
    rnd.auto_play()  # 5 → 9
    rnd.auto_play()  # 9 → 14
    assert rnd.seats[0].hands[0].total == 14
    rnd.auto_play()  # stands
    assert rnd.phase is Phase.SETTLED


def test_a_voided_round_refunds_the_insurance_too():
    balances = {"p1": 100}
    rnd = dealt("10s Ah 9d 7c", balances=balances)
    rnd.apply(Action.INSURE)
    assert rnd.phase is Phase.PLAYER_TURNS and balances == {"p1": 85}
    rnd.void("internal error")
    assert balances == {"p1": 100}
    refunds = [(s.kind, s.result, s.staked, s.returned) for s in rnd.outcome().settlements]
    assert refunds == [("hand", "void", 10, 10), ("insurance", "void", 5, 5)]


def behind_settlements(rnd: Round) -> list[tuple[int | None, object, object]]:
    """(hand, staked, returned) of every bet-behind settlement, in order."""
    return [(s.hand, s.staked, s.returned) for s in rnd.outcome().settlements if s.kind == "behind"]


def test_original_bets_only_a_bet_behind_loses_only_its_unit_to_a_dealer_natural():
    # Seat p1 splits 8,8 against the ace and doubles the first hand (8 3 2); the bet behind
    # follows both. The dealer's Kc makes a natural: each stake loses only the original
    # unit, on the seat's first hand; the doubled unit and the split hand's come back.
    rules = EUROPEAN.replace(bet_behind=True, original_bets_only=True)
    balances = {"p1": 100, "b": 100}
    bets = [
        lambda r: r.place_bet_behind(
            seat=1, amount=4, owner="b", follow_double=True, follow_split=True
        )
    ]
    rnd = dealt("8s Ah 8d Kc 3h 2c 5d", rules=rules, balances=balances, bets=bets)
    rnd.apply(Action.SPLIT)
    rnd.apply(Action.DOUBLE)
    rnd.apply(Action.STAND)
    assert rnd.outcome().dealer_natural
    assert behind_settlements(rnd) == [(0, 8, 4), (1, 4, 4)]
    assert balances == {"p1": 90, "b": 96}


def test_a_bet_behind_that_cannot_follow_a_resplit_rides_only_on_the_hands_it_followed():
    # b has 8 chips: 4 behind, 4 more to follow the first split of 8,8, none for the
    # second. Hands after the re-split: 8s 10s | 8h 10d (the new hand, nothing behind it)
    # | 8d 10h. The dealer's 6h 10c draws the 9s and busts: every hand wins.
    rules = EUROPEAN.replace(bet_behind=True)
    balances = {"p1": 100, "b": 8}
    bets = [lambda r: r.place_bet_behind(seat=1, amount=4, owner="b", follow_split=True)]
    rnd = dealt("8s 6h 8d 10c 8h 10s 10d 10h 9s", rules=rules, balances=balances, bets=bets)
    rnd.apply(Action.SPLIT)
    rnd.apply(Action.SPLIT)
    assert balances["b"] == 0
    for _ in range(3):
        rnd.apply(Action.STAND)
    assert behind_settlements(rnd) == [(0, 4, 8), (2, 4, 8)]
    assert balances == {"p1": 130, "b": 16}
