"""RULES.md §2 (the Deluxe preset) on stacked shoes: peek, surrender, insurance, split once,
short-balance fallbacks, burn, pair bets, bets behind, seats, void and timeouts."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from engine import (
    CARDS,
    DELUXE,
    EUROPEAN,
    Action,
    ActionTaken,
    BehindDecided,
    CardDealt,
    Decision,
    IllegalActionError,
    Phase,
    Result,
    Round,
    RoundVoided,
    Shoe,
    ShoeShuffled,
    StakeKind,
    StakeSettled,
    Turn,
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


def test_double_and_split_are_not_offered_at_a_zero_balance():
    balances = {"p1": BET}
    rnd = dealt("8s 9h 8d 7c 4h 9d", balances=balances)
    assert balances["p1"] == 0
    assert rnd.legal_actions() == (Action.HIT, Action.STAND, Action.SURRENDER)
    for action in (Action.DOUBLE, Action.SPLIT):
        with pytest.raises(IllegalActionError, match="balance does not cover"):
            rnd.apply(action)
    assert rnd.seats[0].hands[0].stake == BET and len(rnd.seats[0].hands) == 1


def test_double_and_split_are_offered_when_the_balance_covers_them():
    rnd = dealt("8s 9h 8d 7c 4h 9d", balances={"p1": 2 * BET})
    assert rnd.legal_actions() == (
        Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER,
    )  # fmt: skip


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
    assert rnd.shoe.burned == shuffled.burned  # kept with the shoe until its next shuffle


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


def behind_of(*owners: str, amount: int = 4, seat: int = 1):
    """Bets behind ``seat``, placed in the order given."""
    return [
        lambda r, owner=owner: r.place_bet_behind(seat=seat, amount=amount, owner=owner)
        for owner in owners
    ]


def test_a_bettor_behind_is_asked_to_follow_a_double_before_its_card_is_dealt():
    rnd = dealt("6s 9h 5d 7c 10h 9d", bets=behind_of("b"))
    rnd.apply(Action.DOUBLE)
    assert rnd.phase is Phase.FOLLOW
    assert rnd.turn == Turn(1, 0, "b", Decision.FOLLOW_DOUBLE, 0)
    assert rnd.legal_actions() == (Action.FOLLOW, Action.NO_FOLLOW)
    assert len(rnd.seats[0].hands[0].cards) == 2  # the double's card waits for the answer
    view = rnd.view()
    assert (view.decision, view.owner, view.seat, view.total) == ("follow_double", "b", 1, 11)


@pytest.mark.parametrize(("answer", "staked", "net"), [("follow", 8, 8), ("no_follow", 4, 4)])
def test_a_bettor_behind_who_follows_a_double_doubles_the_stake_else_it_stays_the_same(
    answer, staked, net
):
    balances = {"p1": 100, "b": 100}
    rnd = dealt("6s 9h 5d 7c 10h 9d", balances=balances, bets=behind_of("b"))
    rnd.apply(Action.DOUBLE)
    events = rnd.apply(answer, owner="b")
    assert events[0] == BehindDecided(1, 0, 0, "b", Action(answer))
    assert events[1] == CardDealt(1, 0, CARDS[rnd.seats[0].hands[0].cards[2]])
    # 5 + 6 + 10h = 21 against 9 + 7 + 9 = 25: the behind stake wins as the hand does.
    assert [s.staked for s in rnd.outcome().settlements if s.kind == "behind"] == [staked]
    assert nets(rnd)[("b", "behind")] == net
    assert balances["b"] == 100 + net


@pytest.mark.parametrize(("answer", "stakes"), [("follow", [4, 4]), ("no_follow", [4])])
def test_a_bettor_behind_who_follows_a_split_stakes_as_much_on_the_second_hand_else_only_the_first(
    answer, stakes
):
    balances = {"p1": 100, "b": 100}
    rnd = dealt("8s 9h 8d 7c 10h 10d 9d", balances=balances, bets=behind_of("b"))
    rnd.apply(Action.SPLIT)
    assert rnd.turn == Turn(1, 0, "b", Decision.FOLLOW_SPLIT, 0)
    assert [len(hand.cards) for hand in rnd.seats[0].hands] == [1, 1]  # no second card yet
    rnd.apply(answer, owner="b")
    assert [len(hand.cards) for hand in rnd.seats[0].hands] == [2, 1]
    rnd.apply(Action.STAND)
    rnd.apply(Action.STAND)  # 18 and 18 against 9 + 7 + 9 = 25
    assert [s.staked for s in rnd.outcome().settlements if s.kind == "behind"] == stakes
    assert balances["b"] == 100 + sum(stakes)


def test_bettors_behind_are_asked_one_after_another_in_the_order_their_bets_were_placed():
    rnd = dealt("6s 9h 5d 7c 10h 9d", bets=behind_of("c", "b", "a"))
    rnd.apply(Action.DOUBLE)
    asked = []
    while rnd.phase is Phase.FOLLOW:
        asked.append((rnd.turn.owner, rnd.turn.behind))
        rnd.apply(Action.FOLLOW)
    assert asked == [("c", 0), ("b", 1), ("a", 2)]


def test_a_bettor_behind_who_cannot_afford_to_follow_is_not_asked_and_does_not_follow():
    balances = {"p1": 100, "b": 4, "c": 100}
    rnd = dealt("6s 9h 5d 7c 10h 9d", balances=balances, bets=behind_of("b", "c"))
    events = rnd.apply(Action.DOUBLE)
    assert BehindDecided(1, 0, 0, "b", Action.NO_FOLLOW) in events
    assert rnd.turn == Turn(1, 0, "c", Decision.FOLLOW_DOUBLE, 1)
    assert rnd.legal_actions() == (Action.FOLLOW, Action.NO_FOLLOW)  # c's balance, not b's


def test_a_bettor_behind_cannot_answer_for_another_nor_the_seated_player_for_a_bettor():
    rnd = dealt("6s 9h 5d 7c 10h 9d", bets=behind_of("b"))
    rnd.apply(Action.DOUBLE)
    before = rnd.to_json()
    with pytest.raises(IllegalActionError, match="^it is not your turn$"):
        rnd.apply(Action.FOLLOW, owner="p1")
    with pytest.raises(IllegalActionError, match="^first decide whether to follow$"):
        rnd.apply(Action.HIT)
    assert rnd.to_json() == before


def test_a_bettor_behind_asked_about_insurance_must_answer_that_first():
    rnd = dealt("10s Ah 9d 7c", balances={"p1": 100, "b": 100}, bets=behind_of("b"))
    rnd.apply(Action.NO_INSURANCE)
    before = rnd.to_json()
    with pytest.raises(IllegalActionError, match="^first decide on insurance$"):
        rnd.apply(Action.FOLLOW, owner="b")
    assert rnd.to_json() == before


def test_unanswered_decisions_behind_are_all_answered_no_at_once():
    balances = {"p1": 100, "b": 100, "c": 100}
    rnd = dealt("8s 9h 8d 7c 10h 10d 9d", balances=balances, bets=behind_of("b", "c"))
    rnd.apply(Action.SPLIT)
    events = rnd.decline_behind()
    assert events[:2] == [
        BehindDecided(1, 0, 0, "b", Action.NO_FOLLOW),
        BehindDecided(1, 0, 1, "c", Action.NO_FOLLOW),
    ]
    assert rnd.turn == Turn(1, 0, "p1") and balances == {"p1": 80, "b": 96, "c": 96}
    assert rnd.decline_behind() == []  # the seated player's decision is not a bettor's


def test_unanswered_insurance_behind_is_declined_at_once():
    balances = {"p1": 100, "b": 100}
    rnd = dealt("10s Ah 9d 7c 2c 2d 2h", balances=balances, bets=behind_of("b"))
    rnd.apply(Action.NO_INSURANCE, owner="p1")
    events = rnd.decline_behind()
    assert events[0] == BehindDecided(1, None, 0, "b", Action.NO_INSURANCE)
    assert rnd.turn == Turn(1, 0, "p1") and balances["b"] == 96  # no insurance taken


def test_a_timed_out_bettor_behind_does_not_follow():
    rnd = dealt("6s 9h 5d 7c 10h 9d", bets=behind_of("b"))
    rnd.apply(Action.DOUBLE)
    assert rnd.auto_play()[0] == BehindDecided(1, 0, 0, "b", Action.NO_FOLLOW)


@pytest.mark.parametrize(("hole", "net", "balance"), [("Kc", 4, 100), ("7c", -2, 102)])
def test_a_bettor_behind_insures_half_their_own_stake_at_2_to_1(hole, net, balance):
    # Against the ace: p1 declines, b insures the 4 behind (2 chips). A natural pays them
    # 4 and takes the stake behind; otherwise the 2 chips are lost (and 19 beats 18).
    balances = {"p1": 100, "b": 100}
    rnd = dealt(f"10s Ah 9d {hole} 2c 2d 2h", balances=balances, bets=behind_of("b"))
    assert rnd.turn == Turn(1, None, "p1", Decision.INSURANCE)
    rnd.apply(Action.NO_INSURANCE, owner="p1")
    assert rnd.turn == Turn(1, None, "b", Decision.BEHIND_INSURANCE, 0)
    assert rnd.legal_actions() == (Action.INSURE, Action.NO_INSURANCE)
    rnd.apply(Action.INSURE, owner="b")
    if rnd.phase is not Phase.SETTLED:
        rnd.apply(Action.STAND)
    assert nets(rnd)[("b", "insurance")] == net
    insured = [s for s in rnd.outcome().settlements if s.kind == "insurance"]
    assert [(s.seat, s.owner, s.staked, s.unit) for s in insured] == [(1, "b", 2, 4)]
    assert balances["b"] == balance


def test_insurance_is_asked_seat_by_seat_each_holder_then_the_bettors_behind_it():
    rnd = Round(DELUXE, Shoe.stacked("10s 9c Ah 9d 10c 7c 5s"))
    rnd.place_bet(seat=1, amount=BET, owner="p1")
    rnd.place_bet(seat=2, amount=BET, owner="p2")
    rnd.place_bet_behind(seat=2, amount=4, owner="c")
    rnd.place_bet_behind(seat=1, amount=4, owner="b")
    rnd.place_bet_behind(seat=1, amount=4, owner="p2")
    rnd.deal()
    asked = []
    while rnd.phase is Phase.INSURANCE:
        asked.append((rnd.turn.seat, rnd.turn.owner, rnd.turn.decision))
        rnd.auto_play()
    assert asked == [
        (1, "p1", "insurance"),
        (1, "b", "behind_insurance"),
        (1, "p2", "behind_insurance"),
        (2, "p2", "insurance"),
        (2, "c", "behind_insurance"),
    ]


def test_a_bettor_behind_who_cannot_afford_insurance_is_not_asked():
    balances = {"p1": 100, "b": 4}
    rnd = dealt("10s Ah 9d 7c", balances=balances, bets=behind_of("b"))
    events = rnd.apply(Action.NO_INSURANCE)
    assert events[1] == BehindDecided(1, None, 0, "b", Action.NO_INSURANCE)
    assert rnd.phase is Phase.PLAYER_TURNS


@pytest.mark.parametrize(
    ("amount", "left", "asked"), [(4, 2, True), (4, 1, False), (2, 1, True), (6, 2, False)]
)
def test_a_bettor_behind_is_asked_about_insurance_when_half_their_stake_is_left(
    amount, left, asked
):
    balances = {"p1": 100, "b": amount + left}
    rnd = dealt("10s Ah 9d 7c", balances=balances, bets=behind_of("b", amount=amount))
    rnd.apply(Action.NO_INSURANCE)
    assert (rnd.phase is Phase.INSURANCE) is asked
    if asked:
        assert rnd.turn == Turn(1, None, "b", Decision.BEHIND_INSURANCE, 0)
        assert rnd.legal_actions() == (Action.INSURE, Action.NO_INSURANCE)


def test_a_bettor_behind_who_did_not_follow_a_split_is_passed_over_for_the_next_on_its_double():
    # a declines to follow the split of 8,8 and b follows; the second hand, 8d 3d, doubles:
    # only b has a stake on it, so b is asked, after a is passed over.
    rules = EUROPEAN.replace(bet_behind=True)
    rnd = dealt("8s 6h 8d 10c 10s 3d 9h", rules=rules, bets=behind_of("a", "b"))
    rnd.apply(Action.SPLIT)
    rnd.apply(Action.NO_FOLLOW, owner="a")
    rnd.apply(Action.FOLLOW, owner="b")
    rnd.apply(Action.STAND)  # 8s 10s
    rnd.apply(Action.DOUBLE)  # 8d 3d
    assert rnd.turn == Turn(1, 1, "b", Decision.FOLLOW_DOUBLE, 1)


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
    rnd = dealt("8s Ah 8d Kc 3h 2c 5d", rules=rules, balances=balances, bets=behind_of("b"))
    rnd.apply(Action.SPLIT)
    rnd.apply(Action.FOLLOW)
    rnd.apply(Action.DOUBLE)
    rnd.apply(Action.FOLLOW)
    rnd.apply(Action.STAND)
    assert rnd.outcome().dealer_natural
    assert behind_settlements(rnd) == [(0, 8, 4), (1, 4, 4)]
    assert balances == {"p1": 90, "b": 96}


def eights_split_and_followed(chips: int) -> tuple[Round, dict[str, int]]:
    """p1's 8s 8d against the dealer's 6h 10c, with b's 4 chips behind it, split and the
    split followed by b, who had ``chips``: the first hand draws the 8h, another pair.
    Hands after a re-split: 8s 10s | 8h 10d (the new hand) | 8d 10h; the dealer draws
    the 9s and busts, so every hand wins."""
    rules = EUROPEAN.replace(bet_behind=True)
    balances = {"p1": 100, "b": chips}
    bets = behind_of("b")
    rnd = dealt("8s 6h 8d 10c 8h 10s 10d 10h 9s", rules=rules, balances=balances, bets=bets)
    rnd.apply(Action.SPLIT)
    rnd.apply(Action.FOLLOW)
    return rnd, balances


def test_a_bet_behind_that_cannot_follow_a_resplit_rides_only_on_the_hands_it_followed():
    rnd, balances = eights_split_and_followed(8)  # nothing left to follow again with
    events = rnd.apply(Action.SPLIT)  # so b is not asked
    assert BehindDecided(1, 0, 0, "b", Action.NO_FOLLOW) in events
    assert balances["b"] == 0
    for _ in range(3):
        rnd.apply(Action.STAND)
    assert behind_settlements(rnd) == [(0, 4, 8), (2, 4, 8)]
    assert balances == {"p1": 130, "b": 16}


def test_a_bet_behind_that_follows_a_resplit_rides_on_the_new_hand_beside_the_one_split():
    rnd, balances = eights_split_and_followed(12)
    rnd.apply(Action.SPLIT)
    rnd.apply(Action.FOLLOW)
    for _ in range(3):
        rnd.apply(Action.STAND)
    # b's third stake is on the new hand, the second of three, not on the last.
    assert behind_settlements(rnd) == [(0, 4, 8), (1, 4, 8), (2, 4, 8)]
    assert balances == {"p1": 130, "b": 24}


def test_one_account_on_two_seats_bets_the_same_on_both():
    rnd = Round(DELUXE, Shoe.stacked("8s 9h 8d 7c"), balances={"p1": 100})
    rnd.place_bet(seat=1, amount=10, owner="p1")
    with pytest.raises(IllegalActionError, match="same bet: 10 chips"):
        rnd.place_bet(seat=3, amount=30, owner="p1")
    assert rnd.balances == {"p1": 90} and len(rnd.seats) == 1
    rnd.place_bet(seat=3, amount=10, owner="p1")
    assert [seat.bet for seat in rnd.seats] == [10, 10]


def betting(balances: dict[str, int] | None = None) -> Round:
    """A Deluxe round taking bets (its shoe deals two seats, should a test deal it)."""
    return Round(DELUXE, Shoe.stacked("10s 10d 9h 8c 8h 7c"), balances=balances)


def two_seats_of(balance: int, bet: int = BET) -> Round:
    rnd = betting({"p1": balance})
    rnd.place_bet(seat=1, amount=bet, owner="p1")
    rnd.place_bet(seat=3, amount=bet, owner="p1")
    return rnd


def test_raising_one_seat_repeats_it_on_the_other_when_the_balance_allows():
    rnd = two_seats_of(60)
    rnd.change_bet(seat=3, amount=30, owner="p1")
    assert [seat.bet for seat in rnd.seats] == [30, 30]
    assert rnd.balances == {"p1": 0}


def test_a_lone_seats_bet_changes_by_itself_up_to_the_whole_balance():
    rnd = betting({"player": 40})
    rnd.place_bet(seat=2, amount=BET)  # the owner is "player" when none is named
    rnd.change_bet(seat=2, amount=4 * BET)  # no second seat to share the raise with
    assert [seat.bet for seat in rnd.seats] == [4 * BET] and rnd.balances == {"player": 0}


def test_a_pair_bet_without_an_owner_named_is_the_players():
    rnd = betting({"player": 100})
    rnd.place_bet(seat=2, amount=BET)
    rnd.place_pair_bet(seat=2, amount=5)
    assert rnd.balances == {"player": 85}


def test_a_bet_is_lowered_on_a_round_that_keeps_no_balances():
    rnd = betting()
    rnd.place_bet(seat=2, amount=3 * BET)
    rnd.change_bet(seat=2, amount=BET)
    assert [seat.bet for seat in rnd.seats] == [BET] and rnd.balances is None


def test_otherwise_the_raise_splits_the_total_evenly_between_the_two_seats():
    # 10 + 30 = 40 in all: 20 on each, which costs the 20 raising one seat would.
    rnd = two_seats_of(40)
    rnd.change_bet(seat=1, amount=30, owner="p1")
    assert [seat.bet for seat in rnd.seats] == [20, 20]
    assert rnd.balances == {"p1": 0}
    rnd.deal()
    assert [hand.stake for seat in rnd.seats for hand in seat.hands] == [20, 20]


def test_an_odd_total_splits_to_whole_chips_and_the_odd_chip_stays_in_the_balance():
    rnd = two_seats_of(40)
    rnd.change_bet(seat=1, amount=25, owner="p1")  # 35 in all: 17 each, 1 chip kept
    assert [seat.bet for seat in rnd.seats] == [17, 17]
    assert rnd.balances == {"p1": 6}


def test_on_a_table_with_steps_the_even_split_rounds_down_to_a_step():
    rnd = two_seats_of(90, bet=20)  # 50 free: 50 on both would take 60
    rnd.change_bet(seat=1, amount=50, owner="p1", step=10)  # 70 in all: 35 → 30 each
    assert [seat.bet for seat in rnd.seats] == [30, 30]
    assert rnd.balances == {"p1": 30}
    rnd = two_seats_of(50, bet=20)
    with pytest.raises(IllegalActionError, match="raising both"):
        rnd.change_bet(seat=1, amount=30, owner="p1", step=10)  # 50 in all: 25 → 20
    assert [seat.bet for seat in rnd.seats] == [20, 20] and rnd.balances == {"p1": 10}


def test_a_raise_the_balance_cannot_cover_even_on_one_seat_is_refused():
    rnd = two_seats_of(30)
    with pytest.raises(IllegalActionError, match="more than your balance"):
        rnd.change_bet(seat=1, amount=25, owner="p1")  # 15 more; 10 free
    assert [seat.bet for seat in rnd.seats] == [10, 10] and rnd.balances == {"p1": 10}


def test_lowering_one_seat_lowers_both_and_gives_the_chips_back():
    rnd = two_seats_of(100, bet=30)
    rnd.change_bet(seat=3, amount=10, owner="p1")
    assert [seat.bet for seat in rnd.seats] == [10, 10]
    assert rnd.balances == {"p1": 80}


def test_a_single_seat_changes_its_own_bet_only_before_the_deal():
    rnd = Round(DELUXE, Shoe.stacked("10s 9h 8c 7c 9d 7d"), balances={"p1": 100, "p2": 100})
    rnd.place_bet(seat=1, amount=10, owner="p1")
    rnd.place_bet(seat=2, amount=10, owner="p2")
    rnd.change_bet(seat=1, amount=40, owner="p1")
    assert [seat.bet for seat in rnd.seats] == [40, 10]
    assert rnd.balances == {"p1": 60, "p2": 90}
    with pytest.raises(IllegalActionError, match="not yours"):
        rnd.change_bet(seat=2, amount=20, owner="p1")
    rnd.deal()
    with pytest.raises(IllegalActionError, match="bets are closed"):
        rnd.change_bet(seat=1, amount=20, owner="p1")


def test_a_void_settles_every_stake_as_void_at_its_seat_and_hand():
    # p1 insures against the ace (no natural under it), splits 8,8 (hand 0: 8s 3h); b
    # has a pair bet and a bet behind that follows the split. Then the round is voided.
    bets = [
        lambda r: r.place_pair_bet(seat=1, amount=5, owner="b"),
        lambda r: r.place_bet_behind(seat=1, amount=7, owner="b"),
    ]
    rnd = dealt("8s Ah 8d 7c 3h", bets=bets)
    rnd.apply(Action.INSURE)
    rnd.apply(Action.INSURE, owner="b")
    rnd.apply(Action.SPLIT)
    rnd.apply(Action.FOLLOW, owner="b")
    events = rnd.void("internal error")

    def void(hand: int | None, owner: str, kind: StakeKind, stake: int, unit: int) -> StakeSettled:
        return StakeSettled(1, hand, owner, kind, Result.VOID, stake, stake, unit)

    refunds = [
        void(0, "p1", StakeKind.HAND, 10, BET),
        void(0, "b", StakeKind.BEHIND, 7, BET),
        void(1, "p1", StakeKind.HAND, 10, BET),
        void(1, "b", StakeKind.BEHIND, 7, BET),
        void(None, "p1", StakeKind.INSURANCE, 5, BET),
        void(None, "b", StakeKind.INSURANCE, Fraction(7, 2), 7),
        void(None, "b", StakeKind.PAIR, 5, 5),
    ]
    assert events == [RoundVoided("internal error"), *refunds]
    assert list(rnd.outcome().settlements) == refunds
    assert rnd.legal_actions() == ()


@pytest.mark.parametrize("over", ["settled", "voided"])
def test_a_round_that_is_over_cannot_be_voided(over):
    rnd = dealt("10s 9h 9d 7c 2s")
    if over == "settled":
        rnd.apply(Action.STAND)
    else:
        rnd.void("internal error")
    before = rnd.to_json()
    with pytest.raises(IllegalActionError, match="^the round is already over$"):
        rnd.void("again")
    assert rnd.to_json() == before


@pytest.mark.parametrize(
    ("cards", "taken"),
    [("2s 9h 9d 7c 10s Ks", "hit"), ("3s 9h 9d 7c 2s", "stand")],  # 11 hits; 12 stands
)
def test_a_timed_out_player_hits_at_eleven_and_stands_at_twelve(cards, taken):
    rnd = dealt(cards)
    assert rnd.auto_play()[0] == ActionTaken(1, 0, taken, taken)


def test_a_timed_out_player_declines_insurance():
    rnd = dealt("10s Ah 9d 7c")
    assert rnd.auto_play()[0] == ActionTaken(1, None, "no_insurance", "no_insurance")
    assert rnd.phase is Phase.PLAYER_TURNS and rnd.seats[0].insurance == 0


def test_no_decision_is_taken_for_a_player_once_the_round_is_over():
    rnd = dealt("10s 9h 9d 7c 2s")
    rnd.apply(Action.STAND)
    with pytest.raises(IllegalActionError, match="^no decision is awaited$"):
        rnd.auto_play()
    with pytest.raises(IllegalActionError, match="^no decision is awaited$"):
        rnd.view()
