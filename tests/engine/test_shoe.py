from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest

from engine import DELUXE, EUROPEAN, Round, Shoe, ShoeError, ShoeShuffled, StateError
from engine.shoe import _shuffle


def test_a_shoe_holds_every_card_of_its_decks():
    shoe = Shoe.for_rules(EUROPEAN, random.Random(1))
    assert Counter(shoe.cards) == Counter(dict.fromkeys(range(52), 6))
    assert shoe.cut == 234  # 75% of 312


def test_the_shuffle_is_pythons_own_algorithm():
    a, b = list(range(312)), list(range(312))
    random.Random(9).shuffle(a)
    _shuffle(b, random.Random(9))
    assert a == b


def test_a_fresh_shoe_is_shuffled_before_its_first_round_and_again_after_the_cut_card():
    shoe = Shoe.for_rules(EUROPEAN, random.Random(2))
    shuffles = 0
    for _ in range(200):
        rnd = Round(EUROPEAN, shoe)
        rnd.place_bet(seat=1, amount=1)
        starting_at_cut = shoe.position >= shoe.cut
        events = rnd.deal()
        shuffled = any(isinstance(e, ShoeShuffled) for e in events)
        assert shuffled == (shuffles == 0 or starting_at_cut)
        shuffles += shuffled
        while rnd.legal_actions():
            rnd.apply("stand")
    assert shuffles >= 3


def test_only_deluxe_burns():
    for rules, burns in ((EUROPEAN, False), (DELUXE, True)):
        shoe = Shoe.for_rules(rules, random.Random(3))
        assert shoe.burned == 0
        assert bool(shoe.prepare_round(rules)) == burns
        assert (shoe.burned > 0) == burns
    assert Shoe.stacked("As Kd").burned == 0  # never shuffled, so never burns


def test_a_stacked_shoe_deals_its_cards_and_then_runs_out():
    shoe = Shoe.stacked("As Kd")
    assert [str(shoe.draw_card()) for _ in range(2)] == ["As", "Kd"]
    with pytest.raises(ShoeError, match="^the stacked shoe has run out of cards$"):
        shoe.draw()


def test_a_shoe_dealt_to_its_last_card_runs_out():
    shoe = Shoe(list(range(2)), cut=1)
    shoe.draw()
    shoe.draw()
    with pytest.raises(ShoeError, match="^the shoe has run out of cards$"):
        shoe.draw()


def test_the_shoe_round_trips_through_json():
    shoe = Shoe.for_rules(EUROPEAN, random.Random(4))
    shoe.prepare_round(EUROPEAN)
    shoe.draw()
    assert Shoe.from_json(json.loads(json.dumps(shoe.to_json()))) == shoe


def _shoe_at(position: int) -> Shoe:
    """A 52-card European shoe whose cut card lies before the 40th card, dealt to
    ``position``."""
    return Shoe(list(range(52)), cut=40, position=position, rng=random.Random(5))


@pytest.mark.parametrize(("position", "out"), [(39, False), (40, True), (41, True)])
def test_the_cut_card_is_out_once_the_cards_before_it_are_dealt(position, out):
    shoe = _shoe_at(position)
    assert shoe.cut_card_out is out
    assert (shoe.prepare_round(EUROPEAN) is not None) is out  # shuffled before the round
    assert shoe.position == (0 if out else position)


@pytest.mark.parametrize(("position", "out"), [(39, False), (40, True)])
def test_a_round_starting_exactly_at_the_cut_card_is_dealt_from_a_new_shuffle(position, out):
    shoe = _shoe_at(position)
    rnd = Round(EUROPEAN, shoe)
    rnd.place_bet(seat=1, amount=1)
    shuffled = [event for event in rnd.deal() if isinstance(event, ShoeShuffled)]
    assert shuffled == ([ShoeShuffled(shown=None, burned=0)] if out else [])
    assert shoe.position == (4 if out else position + 4)


def test_a_stacked_shoe_never_shows_its_cut_card():
    shoe = Shoe.stacked("As Kd")
    shoe.draw()
    shoe.draw()
    assert not shoe.cut_card_out
    assert shoe.prepare_round(EUROPEAN) is None


def test_shoes_are_equal_only_with_the_same_cards_order_and_state():
    assert Shoe.stacked("As Kd") == Shoe.stacked("As Kd")
    assert Shoe.stacked("As Kd") != Shoe.stacked("Kd As")
    assert Shoe.stacked("As Kd") != Shoe.stacked("As Kd 2c")
    dealt = Shoe.stacked("As Kd")
    dealt.draw()
    assert dealt != Shoe.stacked("As Kd")
    assert _shoe_at(10) != _shoe_at(11)
    assert Shoe(list(range(52)), cut=40) != Shoe(list(range(52)), cut=41)
    assert Shoe(list(range(52)), cut=40) != Shoe(list(range(52)), cut=40, needs_shuffle=True)
    assert Shoe(list(range(52)), cut=40) != Shoe(list(range(52)), cut=40, burned=3)
    assert Shoe(list(range(52)), cut=52) != Shoe(list(range(52)), cut=52, stacked_order=True)
    # The RNG is not state: two fresh shoes with different RNGs are equal until shuffled.
    first = Shoe.for_rules(EUROPEAN, random.Random(1))
    second = Shoe.for_rules(EUROPEAN, random.Random(2))
    assert first == second
    first.prepare_round(EUROPEAN)
    second.prepare_round(EUROPEAN)
    assert first != second
    assert Shoe.stacked("As") != Shoe.stacked("As").to_json()


@pytest.mark.parametrize("broken", [{}, {"cards": [52], "cut": 1, "position": 0,
                                         "needs_shuffle": False, "stacked_order": False,
                                         "burned": 0}])  # fmt: skip
def test_a_broken_shoe_state_is_refused(broken):
    with pytest.raises(StateError):
        Shoe.from_json(broken)


# The shuffle's fairness. Each of a small shoe's cards should land in each position equally
# often. Pearson's statistic over the card-by-position counts of N shuffles of n cards, times
# (n - 1) / n, follows the chi-square law with (n - 1)^2 degrees of freedom when the
# shuffle is uniform: each shuffle adds a permutation matrix, whose cells' covariance is
# (I - J/n) ⊗ (I - J/n) / (n - 1), a projection of rank (n - 1)^2 scaled by 1 / (n - 1),
# where a multinomial table's would be scaled by 1 / n.
FAIR_CARDS = 5
FAIR_SHUFFLES = 150_000  # about a second
# A fair shuffle fails once in a million runs; the biased one below scores about N.
FAIR_SIGNIFICANCE = 1e-6


def _positions_after_shuffles(count: int) -> list[list[int]]:
    """How often each card ends in each position, over ``count`` shuffles of a fresh shoe
    through the production path: `Shoe` with its default RNG, `secrets.SystemRandom`."""
    positions = [[0] * FAIR_CARDS for _ in range(FAIR_CARDS)]
    for _ in range(count):
        shoe = Shoe(list(range(FAIR_CARDS)), cut=0, needs_shuffle=True)
        shoe.prepare_round(EUROPEAN)  # European burns nothing: the order is the shuffle's
        for position, card in enumerate(shoe.cards):
            positions[card][position] += 1
    return positions


def _chi_square_p_value(positions: list[list[int]]) -> float:
    """The chance that a uniform shuffle gives counts at least this far from even."""
    cells = len(positions)
    expected = sum(positions[0]) / cells
    pearson = sum((seen - expected) ** 2 / expected for row in positions for seen in row)
    return _chi_square_survival(pearson * (cells - 1) / cells, (cells - 1) ** 2)


def _chi_square_survival(statistic: float, degrees: int) -> float:
    """P(X > statistic) for X chi-square distributed with an even number of degrees of
    freedom 2k: exp(-x/2) · Σ_{i<k} (x/2)^i / i!  (Abramowitz & Stegun 26.4.21)."""
    half = statistic / 2
    term, total = 1.0, 0.0
    for i in range(degrees // 2):
        if i:
            term *= half / i
        total += term
    return math.exp(-half) * total


def test_the_chi_square_survival_matches_published_critical_values() -> None:
    # NIST/SEMATECH e-Handbook of Statistical Methods, table 1.3.6.7.4 (upper critical
    # values of the chi-square distribution), 16 degrees of freedom.
    for critical, p in ((23.542, 0.10), (26.296, 0.05), (32.000, 0.01), (39.252, 0.001)):
        assert _chi_square_survival(critical, 16) == pytest.approx(p, rel=1e-3)


def test_the_production_shuffle_puts_every_card_in_every_position_alike() -> None:
    assert _chi_square_p_value(_positions_after_shuffles(FAIR_SHUFFLES)) > FAIR_SIGNIFICANCE


def test_the_fairness_test_catches_the_off_by_one_fisher_yates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def off_by_one(cards: list[int], rng: random.Random) -> None:
        # The classic slip: the card for position i is drawn from [0, i), never itself.
        for i in range(len(cards) - 1, 0, -1):
            j = rng.randrange(i)
            cards[i], cards[j] = cards[j], cards[i]

    monkeypatch.setattr("engine.shoe._shuffle", off_by_one)

    assert _chi_square_p_value(_positions_after_shuffles(FAIR_SHUFFLES)) < FAIR_SIGNIFICANCE


def test_a_stacked_shoe_reads_cards_separated_by_commas():
    assert Shoe.stacked("As,Kd, 2c") == Shoe.stacked("As Kd 2c")


def test_a_shuffle_without_a_burn_starts_the_burned_count_again():
    shoe = Shoe(list(range(52)), cut=40, position=45, burned=3, rng=random.Random(6))
    assert shoe.prepare_round(EUROPEAN) == ()
    assert (shoe.position, shoe.burned) == (0, 0)


def test_a_shoe_state_holding_a_card_that_does_not_exist_is_refused_saying_so():
    state = Shoe.stacked("As Kd").to_json()
    state["cards"] = [0, 52]
    with pytest.raises(StateError, match="^not a valid shoe: card code out of range$"):
        Shoe.from_json(state)
