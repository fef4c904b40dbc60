"""The analysis has a bounded cost for any rules `Rules` allows: caches, memory, finite EVs."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest

from engine import AMERICAN
from engine.strategy import compute_strategy
from engine.strategy.dealer import (
    _falling_factorials_table,
    dealer_distributions,
    dealer_paths,
)
from engine.strategy.hands import hands_containing

CACHES = [dealer_paths, hands_containing, _falling_factorials_table]

#: The costliest rules allowed: one deck (the most distinct shoes), every split option on.
WORST = AMERICAN.replace(
    name="worst",
    decks=1,
    max_hands=4,
    resplit_aces=True,
    hit_split_aces=True,
    dealer_hits_soft_17=True,
    surrender="late",
)


@pytest.mark.parametrize("cached", CACHES, ids=lambda f: f.__name__)
def test_every_analysis_cache_has_a_size_bound(cached):
    assert cached.cache_info().maxsize is not None


def test_the_caches_stay_within_their_bounds_over_every_allowed_deck_count():
    _falling_factorials_table.cache_clear()
    for decks in range(1, 9):
        full = np.array([[4 * decks] * 9 + [16 * decks]])
        for up in range(1, 11):
            for hits_soft_17 in (False, True):
                dealer_distributions(dealer_paths(up, hits_soft_17), full)
    for rank in (None, *range(10)):
        hands_containing(rank)
    for cached in CACHES:
        info = cached.cache_info()
        assert info.currsize <= info.maxsize
    # One table of falling factorials serves many shoe sizes, so a few cover them all.
    assert _falling_factorials_table.cache_info().currsize <= 4


@pytest.mark.parametrize("block", [1, 7, 512])
def test_dealer_probabilities_do_not_depend_on_how_the_shoes_are_blocked(block):
    rng = np.random.default_rng(10)
    shoes = rng.integers(-1, 33, size=(1500, 10))  # a few impossible shoes among them
    paths = dealer_paths(2, True)
    whole = dealer_distributions(paths, shoes, block=len(shoes))
    blocked = dealer_distributions(paths, shoes, block=block)
    # The matrix products may round differently by a unit or two in the last place.
    np.testing.assert_allclose(blocked, whole, rtol=1e-13, atol=1e-16)
    assert (blocked[(shoes < 0).any(axis=1)] == 0).all()


@pytest.mark.parametrize(
    "rules",
    [WORST, WORST.replace(dealer_peeks=False, original_bets_only=True)],
    ids=["peek", "original bets only"],
)
def test_the_costliest_allowed_analysis_fits_the_100_mib_budget(rules):
    tracemalloc.start()  # numpy reports its array buffers to tracemalloc
    try:
        compute_strategy(rules)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The budget is 100 MiB resident, of which the interpreter with numpy takes about 36
    # (docs/performance.md): that leaves 64 MiB for what the analysis allocates.
    assert peak < 64 * 2**20


ONE_DECK_CORNERS = [
    WORST,
    WORST.replace(dealer_peeks=False),
    WORST.replace(dealer_peeks=False, original_bets_only=True),
    WORST.replace(max_hands=3, hit_split_aces=False, dealer_hits_soft_17=False),
    WORST.replace(max_hands=2, resplit_aces=False, double_after_split=False),
    WORST.replace(max_hands=1, resplit_aces=False, surrender="none"),
]


@pytest.mark.parametrize("rules", ONE_DECK_CORNERS, ids=lambda rules: str(rules.to_json()))
def test_every_ev_is_finite_at_the_corners_of_the_allowed_rules(rules):
    strategy = compute_strategy(rules)
    values = [ev for evs in strategy.evs.values() for ev in evs.as_dict().values()]
    values += [v for pair in strategy.multi_card_evs.values() for both in pair for v in both]
    values += [strategy.expected_return, strategy.cd_expected_return]
    assert all(math.isfinite(value) for value in values if value is not None)
