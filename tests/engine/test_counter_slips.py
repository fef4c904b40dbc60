"""A counter's own mistakes (issue 27): each kind of slip does what it says, is drawn
apart from the cards, and `your_game` measures what each costs on the same shoes."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.counting import HI_LO, CountingError
from engine.counting.index_store import IndexRequest
from engine.counting.index_table import I18
from engine.counting.risk import (
    BetRamp,
    bank_for_risk,
    linear_advantage,
    optimal_bet_ramp,
    simple_risk_of_ruin,
)
from engine.counting.simulation import CounterSettings, Slips, _Counter, simulate_counter
from engine.counting.your_game import GameRequest, suggested_ramp, your_game
from engine.rules import AMERICAN
from engine.shoe import Shoe

RAMP = BetRamp(bets={1: 2, 2: 4, 3: 8}, below=1)
FIGURES = ("rounds_played", "win_per_round", "sd_per_round", "by_count", "average_bet")


def figures(settings: CounterSettings, rounds: int = 3000, seed: int = 7) -> list[object]:
    result = simulate_counter(AMERICAN, settings, rounds, seed=seed, processes=1)
    return [getattr(result, name) for name in FIGURES]


def test_slips_that_never_happen_change_nothing() -> None:
    """The slips' generator is apart from the shoe's: drawing from it moves no card."""
    game = CounterSettings(indices=I18, ramp=RAMP)
    assert figures(replace(game, slips=Slips(count=0.0, bets=0.0))) == figures(game)


def test_a_counter_who_misses_every_deviation_plays_the_chart() -> None:
    game = CounterSettings(indices=I18, ramp=RAMP)
    assert figures(replace(game, slips=Slips(deviations=1.0))) == figures(replace(game, indices=()))
    assert figures(game) != figures(replace(game, indices=()))


def test_bet_slips_at_a_flat_bet_change_nothing_and_on_a_ramp_they_do() -> None:
    flat = CounterSettings(ramp=BetRamp(bets={}, below=3))
    assert figures(replace(flat, slips=Slips(bets=1.0))) == figures(flat)
    ramp = CounterSettings(ramp=RAMP)
    assert figures(replace(ramp, slips=Slips(bets=1.0))) != figures(ramp)


@given(cards=st.lists(st.integers(0, 9), max_size=40), seed=st.integers(0, 1000))
def test_each_count_slip_moves_the_running_count_one_point(cards: list[int], seed: int) -> None:
    exact = _Counter(AMERICAN, CounterSettings(), Shoe.for_rules(AMERICAN))
    slipping = _Counter(
        AMERICAN, CounterSettings(slips=Slips(count=1.0)), Shoe.for_rules(AMERICAN),
        random.Random(seed),
    )  # fmt: skip
    exact.see(cards)
    slipping.see(cards)
    off = slipping.running - exact.running
    assert abs(off) <= len(cards) and (off - len(cards)) % 2 == 0


@given(running=st.integers(-40, 40), unseen=st.integers(1, 312), seed=st.integers(0, 1000))
def test_a_true_count_slip_is_one_off(running: int, unseen: int, seed: int) -> None:
    exact = _Counter(AMERICAN, CounterSettings(), Shoe.for_rules(AMERICAN))
    slipping = _Counter(
        AMERICAN, CounterSettings(slips=Slips(true_count=1.0)), Shoe.for_rules(AMERICAN),
        random.Random(seed),
    )  # fmt: skip
    assert abs(slipping.count(running, unseen) - exact.count(running, unseen)) == 1


@pytest.mark.parametrize("rate", [-0.1, 1.5, float("nan")])
def test_a_rate_outside_0_to_1_is_refused(rate: float) -> None:
    with pytest.raises(CountingError, match="from 0 to 1"):
        simulate_counter(AMERICAN, CounterSettings(slips=Slips(bets=rate)), 100, processes=1)


@settings(max_examples=1, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_cost_of_one_kind_is_the_perfect_game_less_that_game(seed: int) -> None:
    """Missing every deviation is the game without index plays: its cost is the perfect
    game's win less that game's, dealt the same shoes, to the last chip."""
    game = CounterSettings(indices=I18, ramp=RAMP)
    report = your_game(
        AMERICAN, game, Slips(deviations=1.0), rounds=2400, seed=seed, chunk_rounds=400
    )
    chart = simulate_counter(
        AMERICAN, replace(game, indices=()), 2400, seed=seed, processes=1, chunk_rounds=400
    )
    perfect = simulate_counter(AMERICAN, game, 2400, seed=seed, processes=1, chunk_rounds=400)
    assert report.perfect.win_per_100 == perfect.win_per_100
    assert report.yours.win_per_100 == chart.win_per_100
    assert set(report.costs) == {"deviations"}
    assert report.costs["deviations"].per_100 == pytest.approx(
        perfect.win_per_100 - chart.win_per_100, abs=1e-9
    )
    assert report.total == report.costs["deviations"] and report.total.stderr > 0


def test_each_kind_is_played_alone_as_well_as_together() -> None:
    report = your_game(
        AMERICAN, CounterSettings(indices=I18, ramp=RAMP), Slips(count=0.05, bets=0.5),
        rounds=2000, seed=3, chunk_rounds=500,
    )  # fmt: skip
    assert set(report.costs) == {"count", "bets"}
    assert report.to_json()["slips"] == {
        "count": 0.05, "true_count": 0.0, "deviations": 0.0, "bets": 0.5
    }  # fmt: skip


def test_a_single_chunk_cannot_measure_a_spread() -> None:
    with pytest.raises(CountingError, match="two chunks"):
        your_game(AMERICAN, CounterSettings(), Slips(), rounds=100, seed=1, chunk_rounds=100)


def test_a_game_request_keeps_its_meaning_and_its_key_follows_every_figure() -> None:
    request = GameRequest(IndexRequest(AMERICAN, HI_LO), RAMP, Slips(count=0.01), 1000)
    again = GameRequest.from_json(request.to_json())
    assert again.to_json() == request.to_json()
    assert again.key() == request.key() and len(request.key()) == 32
    others = [
        replace(request, slips=Slips(count=0.02)),
        replace(request, ramp=BetRamp(bets={1: 2, 2: 4, 3: 9}, below=1)),
        replace(request, rounds=2000),
        replace(request, index=IndexRequest(AMERICAN.replace(decks=2), HI_LO)),
    ]
    assert len({request.key(), *(other.key() for other in others)}) == 5


@given(win=st.floats(0.001, 0.1), variance=st.floats(0.5, 3), risk=st.floats(0.001, 0.5))
def test_the_bank_for_a_risk_has_that_risk(win: float, variance: float, risk: float) -> None:
    bank = bank_for_risk(win, variance, risk)
    assert simple_risk_of_ruin(win, variance, bank) == pytest.approx(risk)


def test_a_game_with_no_edge_needs_an_endless_bank_and_a_risk_is_a_share() -> None:
    assert bank_for_risk(-0.01, 1.3, 0.05) == float("inf")
    for risk in (0, 1, 5):
        with pytest.raises(CountingError):
            bank_for_risk(0.01, 1.3, risk)


LINE = {-1: (500, -0.01), 0: (900, -0.005), 1: (300, 0.0), 2: (200, 0.005), 3: (100, 0.01)}


@given(
    bank=st.integers(100, 100_000),
    risk=st.floats(0.001, 0.5),
    top=st.integers(1, 200),
)
def test_a_suggested_ramp_bets_as_kelly_would_within_the_limits_listing_only_rises(
    bank: int, risk: float, top: int
) -> None:
    ramp = suggested_ramp(LINE, 1.3, bank=bank, risk=risk, maximum=top)
    kelly = min(1.0, -2 / math.log(risk))
    full = optimal_bet_ramp(
        linear_advantage(LINE), variance=1.3, bank=bank, minimum=1, maximum=top, kelly=kelly
    )
    assert all(ramp.bet(count) == full.bet(count) for count in range(-8, 14))
    bets = [bet for _, bet in sorted(ramp.bets.items())]
    assert bets == sorted(set(bets)) and all(1 < bet <= top for bet in bets)


def test_a_lower_risk_suggests_smaller_bets() -> None:
    bold, careful = (
        suggested_ramp(LINE, 1.3, bank=5000, risk=risk, maximum=500) for risk in (0.135, 0.01)
    )
    assert all(careful.bet(count) <= bold.bet(count) for count in range(-2, 12))
    assert careful.bet(6) < bold.bet(6)
