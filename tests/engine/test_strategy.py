"""The exact strategy analysis: dealer probabilities, EVs, the chart and the edge."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from engine import AMERICAN, DELUXE, EUROPEAN, NORMAL_CHART, Rules
from engine.chart_vocabulary import UP_CARDS
from engine.errors import EngineError
from engine.strategy import (
    ActionEVs,
    chart_differences,
    compute_strategy,
    strategy_for,
)
from engine.strategy.dealer import NATURAL, OUTCOMES, dealer_distributions, dealer_paths


def shoe(**counts: int) -> np.ndarray:
    """A shoe of rank counts: shoe(ace=1, seven=2, ten=1)."""
    names = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    return np.array([[counts.get(name, 0) for name in names]])


def outcome(dist: np.ndarray, name: str) -> float:
    return float(dist[0, OUTCOMES.index(name)])


# Dealer probabilities -----------------------------------------------------------------


@pytest.mark.parametrize("hits_soft_17", [False, True])
@pytest.mark.parametrize("up", range(1, 11))
def test_dealer_probabilities_sum_to_one(up, hits_soft_17):
    full = np.array([24] * 9 + [96])
    full[up - 1] -= 1
    dist = dealer_distributions(dealer_paths(up, hits_soft_17), full[None, :])
    assert dist.sum() == pytest.approx(1.0, abs=1e-12)
    assert (dist >= 0).all()


def test_a_single_deck_natural_needs_the_right_hole_card():
    deck = np.array([4] * 9 + [16])
    under_ten = deck.copy()
    under_ten[9] -= 1
    under_ace = deck.copy()
    under_ace[0] -= 1
    ten = dealer_distributions(dealer_paths(10, False), under_ten[None, :])
    ace = dealer_distributions(dealer_paths(1, False), under_ace[None, :])
    assert float(ten[0, NATURAL]) == pytest.approx(4 / 51, abs=1e-15)
    assert float(ace[0, NATURAL]) == pytest.approx(16 / 51, abs=1e-15)


def test_a_two_card_shoe_by_hand():
    # Up 10 with a seven and a ten left: the hole card is either, then the dealer stands.
    dist = dealer_distributions(dealer_paths(10, False), shoe(seven=1, ten=1))
    assert (outcome(dist, "17"), outcome(dist, "20")) == (pytest.approx(0.5), pytest.approx(0.5))


def test_soft_17_stands_or_hits_by_the_rule():
    # Up 6 with an ace and a two left. Hole ace: soft 17, which stands (S17) or draws the
    # two to 19 (H17). Hole two: 8, draws the ace: soft 19.
    stands = dealer_distributions(dealer_paths(6, False), shoe(ace=1, two=1))
    hits = dealer_distributions(dealer_paths(6, True), shoe(ace=1, two=1))
    assert (outcome(stands, "17"), outcome(stands, "19")) == (
        pytest.approx(0.5),
        pytest.approx(0.5),
    )
    assert outcome(hits, "19") == pytest.approx(1.0)


def test_a_shoe_that_cannot_hold_the_cards_has_no_outcomes():
    dist = dealer_distributions(dealer_paths(6, False), shoe(ace=-1, ten=5))
    assert float(dist.sum()) == 0.0


# EVs against an independent brute-force oracle ------------------------------------------


def oracle(hand: tuple[int, ...], up: int, rules: Rules) -> dict[str, float]:
    """Stand, hit and double EVs by direct recursion over the actual cards (rank points).

    Written independently of the engine: plain dictionaries and recursion, the dealer's hole
    card drawn last (which, by exchangeability, is the same as drawn first).
    """
    start = [4 * rules.decks] * 9 + [16 * rules.decks]
    for points in (*hand, up):
        start[points - 1] -= 1
    natural_hole = {1: 10, 10: 1}.get(up) if rules.dealer_peeks else None

    def value(hard: int, ace: bool) -> int:
        return hard + 10 if ace and hard <= 11 else hard

    @cache
    def dealer(left: tuple[int, ...], hard: int, ace: bool, cards: int) -> dict[str, float]:
        total = value(hard, ace)
        if cards == 2 and total == 21:
            return {"natural": 1.0}
        if total > 21:
            return {"bust": 1.0}
        if total >= 17 and not (rules.dealer_hits_soft_17 and total == 17 and ace and hard <= 11):
            return {str(total): 1.0}
        result: dict[str, float] = {}
        size = sum(left)
        for points in range(1, 11):
            if left[points - 1]:
                rest = list(left)
                rest[points - 1] -= 1
                sub = dealer(tuple(rest), hard + points, ace or points == 1, cards + 1)
                for name, p in sub.items():
                    result[name] = result.get(name, 0.0) + left[points - 1] / size * p
        return result

    def no_natural(left: tuple[int, ...]) -> float:
        if natural_hole is None:
            return 1.0
        return 1 - left[natural_hole - 1] / sum(left)

    def stand(left: tuple[int, ...], total: int) -> float:
        ev = 0.0
        for name, p in dealer(left, up, up == 1, 1).items():
            if name == "natural":
                ev -= 0.0 if rules.dealer_peeks else p
            elif name == "bust" or total > int(name):
                ev += p
            elif total < int(name):
                ev -= p
        return ev

    @cache
    def best(left: tuple[int, ...], hard: int, ace: bool) -> float:
        options = [stand(left, value(hard, ace))]
        if value(hard, ace) < 21:
            options.append(hit(left, hard, ace))
        return max(options)

    def draws(left: tuple[int, ...]):
        size = sum(left)
        for points in range(1, 11):
            if left[points - 1]:
                rest = list(left)
                rest[points - 1] -= 1
                yield points, left[points - 1] / size, tuple(rest)

    def hit(left: tuple[int, ...], hard: int, ace: bool, *, then=best) -> float:
        ev = 0.0
        for points, p, rest in draws(left):
            new_hard, new_ace = hard + points, ace or points == 1
            if new_hard > 21:
                ev -= p * no_natural(rest)
            else:
                ev += p * then(rest, new_hard, new_ace)
        return ev

    def doubled(left: tuple[int, ...], hard: int, ace: bool) -> float:
        def after(rest: tuple[int, ...], h: int, a: bool) -> float:
            ev = stand(rest, value(h, a))
            if rules.original_bets_only:
                # A natural takes only the original half of the doubled stake (a bust loses
                # it all, as the hand is settled before the hole card is turned).
                ev += dealer(rest, up, up == 1, 1).get("natural", 0.0) / 2
            return ev

        return 2 * hit(left, hard, ace, then=after)

    left = tuple(start)
    hard, ace = sum(hand), 1 in hand
    norm = no_natural(left)
    return {
        "stand": stand(left, value(hard, ace)) / norm,
        "hit": hit(left, hard, ace) / norm,
        "double": doubled(left, hard, ace) / norm,
    }


def engine_evs(rules: Rules, hand: tuple[int, ...], up: int) -> ActionEVs:
    """The engine's EVs of a hand given as point values (1 = ace), as the oracle takes it."""
    text = {1: "A"}
    return strategy_for(rules).ev(
        ",".join(text.get(p, str(p)) for p in hand), text.get(up, str(up))
    )


ONE_DECK_PEEK = AMERICAN.replace(decks=1, name="one-deck")
ONE_DECK_NO_PEEK = EUROPEAN.replace(decks=1, name="one-deck-enhc")
ONE_DECK_OBO = EUROPEAN.replace(decks=1, original_bets_only=True, name="one-deck-obo")
EVERY_PEEK_RULE = [ONE_DECK_PEEK, ONE_DECK_NO_PEEK, ONE_DECK_OBO]
PEEK_IDS = ["peek", "no-peek", "original-bets-only"]


@pytest.mark.parametrize("rules", EVERY_PEEK_RULE, ids=PEEK_IDS)
@pytest.mark.parametrize(
    ("hand", "up"),
    [
        ((10, 6), 10),
        ((10, 4), 7),
        ((9, 2), 1),
        ((1, 7), 9),
        ((10, 2), 4),
        ((8, 4), 1),
        ((9, 3), 10),
    ],
)
def test_stand_hit_and_double_evs_are_exact(rules, hand, up):
    expected = oracle(hand, up, rules)
    evs = engine_evs(rules, hand, up)
    assert evs.stand == pytest.approx(expected["stand"], abs=1e-9)
    assert evs.hit == pytest.approx(expected["hit"], abs=1e-9)
    assert evs.double == pytest.approx(expected["double"], abs=1e-9)


@pytest.mark.parametrize("rules", EVERY_PEEK_RULE, ids=PEEK_IDS)
@pytest.mark.parametrize(
    ("hand", "up"), [((4, 2, 10), 10), ((2, 3, 7), 6), ((1, 2, 3), 9), ((5, 5, 3, 2), 1)]
)
def test_stand_and_hit_evs_of_three_cards_or_more_are_exact(rules, hand, up):
    expected = oracle(hand, up, rules)
    evs = engine_evs(rules, hand, up)
    assert evs.stand == pytest.approx(expected["stand"], abs=1e-9)
    assert evs.hit == pytest.approx(expected["hit"], abs=1e-9)
    assert (evs.double, evs.split, evs.surrender) == (None, None, None)


def test_a_hand_of_21_or_one_card_takes_no_decision():
    strategy = strategy_for(EUROPEAN)
    for hand in ("10,5,6", "A,K,Q", "7"):
        with pytest.raises(EngineError, match="no decision"):
            strategy.ev(hand, "10")


def test_evs_do_not_depend_on_how_a_ten_is_written():
    strategy = strategy_for(AMERICAN)
    assert strategy.ev("K,6", "10") == strategy.ev("10,6", "Q") == strategy.ev("6,J", "K")
    assert strategy.ev("A,7", "9") == strategy.ev("7,A", "9")


# The chart ----------------------------------------------------------------------------

# The widely published basic strategy for 4–8 decks, dealer stands on soft 17, double after
# split, dealer peeks (Wikipedia, "Blackjack", basic strategy table; also the multi-deck
# charts of Wizard of Odds and of Griffin's "The Theory of Blackjack"). The table's
# surrender cells (16 v 9–A, 15 v 10) are written as their "if not allowed" play, since
# the American preset has no surrender. Columns: 2 3 4 5 6 7 8 9 10 A.
PUBLISHED_S17_DAS = """
hard 5   H H H H H H H H H H
hard 6   H H H H H H H H H H
hard 7   H H H H H H H H H H
hard 8   H H H H H H H H H H
hard 9   H D D D D H H H H H
hard 10  D D D D D D D D H H
hard 11  D D D D D D D D D H
hard 12  H H S S S H H H H H
hard 13  S S S S S H H H H H
hard 14  S S S S S H H H H H
hard 15  S S S S S H H H H H
hard 16  S S S S S H H H H H
hard 17  S S S S S S S S S S
hard 18  S S S S S S S S S S
hard 19  S S S S S S S S S S
hard 20  S S S S S S S S S S
hard 21  S S S S S S S S S S
soft 13  H H H D D H H H H H
soft 14  H H H D D H H H H H
soft 15  H H D D D H H H H H
soft 16  H H D D D H H H H H
soft 17  H D D D D H H H H H
soft 18  S Ds Ds Ds Ds S S H H H
soft 19  S S S S S S S S S S
soft 20  S S S S S S S S S S
soft 21  S S S S S S S S S S
pair 2   P P P P P P H H H H
pair 3   P P P P P P H H H H
pair 4   H H H P P H H H H H
pair 5   D D D D D D D D H H
pair 6   P P P P P H H H H H
pair 7   P P P P P P H H H H
pair 8   P P P P P P P P P P
pair 9   P P P P P S P P S S
pair 10  S S S S S S S S S S
pair A   P P P P P P P P P P
"""


def parse_chart(text: str) -> dict[str, dict[str, str]]:
    chart = {}
    for line in text.strip().splitlines():
        kind, total, *codes = line.split()
        chart[f"{kind} {total}"] = dict(zip(UP_CARDS, codes, strict=True))
    return chart


def test_the_american_chart_is_the_published_chart_cell_by_cell():
    assert chart_differences(strategy_for(AMERICAN).chart, parse_chart(PUBLISHED_S17_DAS)) == []


def test_the_american_house_edge_is_the_published_one():
    # Wizard of Odds house-edge calculator, 6 decks, S17, DAS, split to 4, no resplit of
    # aces, no surrender, 3:2: 0.40%.
    assert -100 * strategy_for(AMERICAN).expected_return == pytest.approx(0.40, abs=0.02)


def test_the_deluxe_return_to_player_is_the_documents_maximum():
    assert strategy_for(DELUXE).edge_json()["rtp_percent"] == pytest.approx(99.53, abs=0.02)


def test_the_european_chart_differs_from_the_normal_chart_only_where_no_peek_matters():
    european = strategy_for(EUROPEAN).chart
    differences = chart_differences(european, NORMAL_CHART)
    assert {(row, up) for row, up, _, _ in differences} == {
        ("hard 11", "10"),
        ("pair 8", "10"),
        ("pair 8", "A"),
        ("pair A", "A"),
    }
    # The same game with a peek plays the normal chart exactly: no peek made the difference.
    peeked = strategy_for(EUROPEAN.replace(dealer_peeks=True, name="european-peek")).chart
    assert chart_differences(peeked, NORMAL_CHART) == []


EUROPEAN_OBO = EUROPEAN.replace(original_bets_only=True, name="european-obo")
EUROPEAN_PEEK = EUROPEAN.replace(dealer_peeks=True, name="european-peek")


@pytest.mark.parametrize(
    ("hand", "up"), [("6,5", "10"), ("A,6", "A"), ("5,4", "10"), ("10,6", "10"), ("8,7", "A")]
)
def test_original_bets_only_is_the_peek_game_with_the_natural_taking_one_unit(hand, up):
    # Whatever the player does (stand, hit, or a double that cannot bust), a dealer natural
    # takes exactly the original bet; without a natural the hand plays as in the peek game.
    peek = strategy_for(EUROPEAN_PEEK).ev(hand, up)
    obo = strategy_for(EUROPEAN_OBO).ev(hand, up)
    ranks = [1 if card == "A" else int(card) for card in hand.split(",")]
    shoe = [24] * 9 + [96]
    for points in (*ranks, 1 if up == "A" else int(up)):
        shoe[points - 1] -= 1
    natural = shoe[0 if up == "10" else 9] / sum(shoe)  # the hole card that completes it
    assert obo.stand == pytest.approx(-natural + (1 - natural) * peek.stand, abs=1e-12)
    assert obo.hit == pytest.approx(-natural + (1 - natural) * peek.hit, abs=1e-12)
    if 1 in ranks or sum(ranks) <= 11:  # one card cannot bust it
        assert obo.double == pytest.approx(-natural + (1 - natural) * peek.double, abs=1e-12)
    else:
        # A doubled hand that busts is lost whole, natural or not: worse than the formula.
        assert obo.double < -natural + (1 - natural) * peek.double - 1e-4


def test_original_bets_only_brings_back_the_doubles_a_natural_would_take():
    european = strategy_for(EUROPEAN).chart
    obo = strategy_for(EUROPEAN_OBO).chart
    peeked = strategy_for(EUROPEAN_PEEK).chart
    assert european["hard 11"]["10"] == "H" and obo["hard 11"]["10"] == "D"
    # Stand, hit and doubles that cannot bust rank as in the peek game; only a split's
    # busted hands (lost whole even to a natural) could tell the two apart, against a
    # ten or an ace.
    for row, up, _, _ in chart_differences(obo, peeked):
        assert row.startswith("pair") and up in ("10", "A")
    # Yet the European game's other no-peek differences are gone with the natural's sting.
    assert obo["pair 8"]["10"] == peeked["pair 8"]["10"] == "P"


def test_surrender_appears_only_where_the_rules_offer_it():
    deluxe = strategy_for(DELUXE).chart
    surrenders = {(row, up) for row, cells in deluxe.items() for up, c in cells.items() if "R" in c}
    assert surrenders == {("hard 16", "9")}  # never against an ace or a ten at Deluxe
    assert not any(
        "R" in c for cells in strategy_for(AMERICAN).chart.values() for c in cells.values()
    )


def test_a_cold_computation_agrees_with_the_cached_one():
    cold = compute_strategy(AMERICAN)
    assert cold.chart == strategy_for(AMERICAN).chart
    assert cold.expected_return == strategy_for(AMERICAN).expected_return


def test_optimal_play_beats_the_chart_but_only_slightly():
    for rules in (AMERICAN, EUROPEAN, DELUXE):
        strategy = strategy_for(rules)
        assert 0 <= strategy.cd_expected_return - strategy.expected_return < 0.0005


def test_an_actions_ev_is_read_only_where_the_rules_allow_the_action():
    evs = strategy_for(EUROPEAN).ev("10,6", "10")  # European has no surrender
    assert evs.of("hit") == evs.hit and evs.of("stand") == evs.stand
    with pytest.raises(ValueError, match="surrender is not allowed here"):
        evs.of("surrender")
