from __future__ import annotations

import json
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
        assert bool(shoe.prepare_round(rules)) == burns


def test_a_stacked_shoe_deals_its_cards_and_then_runs_out():
    shoe = Shoe.stacked("As Kd")
    assert [str(shoe.draw_card()) for _ in range(2)] == ["As", "Kd"]
    with pytest.raises(ShoeError):
        shoe.draw()


def test_the_shoe_round_trips_through_json():
    shoe = Shoe.for_rules(EUROPEAN, random.Random(4))
    shoe.prepare_round(EUROPEAN)
    shoe.draw()
    assert Shoe.from_json(json.loads(json.dumps(shoe.to_json()))) == shoe


@pytest.mark.parametrize("broken", [{}, {"cards": [52], "cut": 1, "position": 0,
                                         "needs_shuffle": False, "stacked_order": False,
                                         "burned": 0}])  # fmt: skip
def test_a_broken_shoe_state_is_refused(broken):
    with pytest.raises(StateError):
        Shoe.from_json(broken)
