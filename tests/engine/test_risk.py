"""Risk of ruin, N0, DI, SCORE and the optimal bet ramp, each against hand-worked values."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.counting import CountingError
from engine.counting.risk import (
    BetRamp,
    desirability_index,
    linear_advantage,
    n0,
    optimal_bet_ramp,
    risk_of_ruin_with_goal,
    score,
    simple_risk_of_ruin,
)

# Hall's example: a win of 0.0151 units a hand and an average squared win of 3.887.
HALL_WIN = 0.0151
HALL_VARIANCE = 3.887 - HALL_WIN**2


def test_the_simple_risk_of_ruin_is_e_to_the_minus_two_w_b_over_the_variance() -> None:
    # 2 × 0.01 × 100 / 1 = 2: e^-2.
    assert simple_risk_of_ruin(0.01, 1.0, 100) == pytest.approx(0.1353352832, abs=1e-9)
    # 2 × 0.02 × 50 / 1.3 = 1.538…: e^-1.538… = 0.2147.
    assert simple_risk_of_ruin(0.02, 1.3, 50) == pytest.approx(0.2147112, abs=1e-7)


def test_a_game_without_an_edge_ruins_for_certain() -> None:
    assert simple_risk_of_ruin(0.0, 1.3, 10_000) == 1.0
    assert simple_risk_of_ruin(-0.01, 1.3, 10_000) == 1.0


def test_halls_example_doubling_300_units_risks_9_percent() -> None:
    """Hall: P = 0.5 + 0.0151 / (2√3.887) = 0.50383, a = b = 300/√3.887 = 152.16 coin
    units. Doubling, R = 1 / (1 + S^152.16): with Hall's rounded S = 1.0153 that is 9.03%;
    unrounded, S = 1.015393 and R = 8.86%. Both are 9% to the percent."""
    risk = risk_of_ruin_with_goal(HALL_WIN, HALL_VARIANCE, 300, 300)
    p = 0.5 + 0.0151 / (2 * math.sqrt(3.887))
    assert p == pytest.approx(0.50383, abs=1e-5)
    units = 300 / math.sqrt(3.887)
    assert units == pytest.approx(152.16, abs=0.01)
    assert risk == pytest.approx(1 / (1 + (p / (1 - p)) ** units), rel=1e-9)
    assert risk == pytest.approx(0.0886, abs=0.0001)
    assert round(risk, 2) == 0.09
    assert 1 / (1 + 1.0153**units) == pytest.approx(0.090, abs=0.0005)  # Hall's rounding


def test_a_fair_game_risks_the_goal_over_bank_and_goal() -> None:
    assert risk_of_ruin_with_goal(0.0, 1.3, 200, 600) == pytest.approx(0.75)
    assert risk_of_ruin_with_goal(0.01, 1.3, 0, 600) == 1.0
    assert risk_of_ruin_with_goal(0.01, 1.3, 200, 0) == 0.0


@given(
    win=st.floats(0.001, 0.05),
    variance=st.floats(0.8, 4.0),
    bank=st.integers(10, 2000),
    goal=st.integers(1, 2000),
)
def test_a_goal_always_risks_less_than_playing_for_ever(
    win: float, variance: float, bank: int, goal: int
) -> None:
    with_goal = risk_of_ruin_with_goal(win, variance, bank, goal)
    further = risk_of_ruin_with_goal(win, variance, bank, goal * 2)
    assert 0 <= with_goal <= further + 1e-12
    # The coin's ruin for ever is S^-b, close to the simple formula for small edges.
    assert further <= simple_risk_of_ruin(win, variance, bank) * 1.05 + 1e-12


def test_a_goal_of_a_million_units_is_the_risk_of_playing_for_ever() -> None:
    for_ever = risk_of_ruin_with_goal(HALL_WIN, HALL_VARIANCE, 300, 10**6)
    assert for_ever == pytest.approx(simple_risk_of_ruin(HALL_WIN, HALL_VARIANCE, 300), rel=0.01)


def test_n0_di_and_score_by_hand() -> None:
    # W 0.02, σ 1.2: N0 = 1.44 / 0.0004 = 3600; DI = 1000 × 0.02 / 1.2 = 16.67;
    # SCORE = DI² = 277.8.
    assert n0(0.02, 1.44) == pytest.approx(3600)
    assert desirability_index(0.02, 1.44) == pytest.approx(50 / 3)
    assert score(0.02, 1.44) == pytest.approx(2500 / 9)
    assert desirability_index(-0.02, 1.44) == pytest.approx(-50 / 3)
    assert (score(-0.02, 1.44), n0(0.0, 1.44), n0(-0.02, 1.44)) == (0.0, math.inf, math.inf)


@given(win=st.floats(0.0005, 0.1), variance=st.floats(0.5, 20.0))
def test_score_is_the_win_per_100_hands_of_a_10000_unit_bank_at_135_percent_risk(
    win: float, variance: float
) -> None:
    """Betting k units a hand with k = 10⁴·W/σ² (full Kelly for that bank) risks e⁻² of
    10,000 units and wins SCORE per 100 hands."""
    k = 10_000 * win / variance
    assert simple_risk_of_ruin(k * win, k * k * variance, 10_000) == pytest.approx(math.exp(-2))
    assert 100 * k * win == pytest.approx(score(win, variance))
    assert score(win, variance) == pytest.approx(desirability_index(win, variance) ** 2)
    assert n0(win, variance) * score(win, variance) == pytest.approx(1_000_000)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: simple_risk_of_ruin(0.01, 0.0, 100), "^the variance per hand must be more"),
        (lambda: simple_risk_of_ruin(0.01, 1.3, -1), "^the bank must be 0 or more"),
        (lambda: risk_of_ruin_with_goal(0.01, 1.3, 10, -1), "^the bank and the goal must"),
        (lambda: n0(math.nan, 1.3), "^the win and the variance must be finite"),
    ],
)
def test_bad_figures_are_refused(call: object, message: str) -> None:
    with pytest.raises(CountingError, match=message):
        call()  # type: ignore[operator]


ADVANTAGE = {-1: -0.01, 0: -0.005, 1: 0.0, 2: 0.005, 3: 0.010, 4: 0.015, 5: 0.020, 6: 0.025}


def test_the_optimal_ramp_bets_the_kelly_fraction_of_the_bank_in_whole_chips() -> None:
    # 10,000 × edge / 1.3: +2 → 38.5, +3 → 76.9, +4 → 115.4, +5 → 153.8, +6 → 192.3,
    # rounded down to 5-chip multiples and held to 10 … 150.
    ramp = optimal_bet_ramp(ADVANTAGE, variance=1.3, bank=10_000, minimum=10, maximum=150, chip=5)
    bets = " ".join(str(ramp.bet(tc)) for tc in range(-3, 9))
    assert bets == "10 10 10 10 10 35 75 115 150 150 150 150"  # from -3 to +8
    half = optimal_bet_ramp(
        ADVANTAGE, variance=1.3, bank=10_000, minimum=10, maximum=150, chip=5, kelly=0.5
    )
    # Half Kelly: 19.2, 38.5, 57.7, 76.9, 96.2 → 15 (the minimum holds), 35, 55, 75, 95.
    assert [half.bet(tc) for tc in range(2, 7)] == [15, 35, 55, 75, 95]


def test_a_noisy_dip_in_the_advantage_never_lowers_the_bet() -> None:
    noisy = {**ADVANTAGE, 4: 0.004}
    ramp = optimal_bet_ramp(noisy, variance=1.3, bank=10_000, minimum=10, maximum=500)
    assert ramp.bet(4) == ramp.bet(3) == 76


@given(
    edges=st.lists(st.floats(-0.05, 0.1), min_size=1, max_size=12),
    start=st.integers(-5, 3),
    bank=st.integers(100, 100_000),
    chip=st.sampled_from([1, 5, 25]),
)
def test_a_ramp_is_whole_chips_within_the_limits_and_never_falls(
    edges: list[float], start: int, bank: int, chip: int
) -> None:
    advantage = {start + i: edge for i, edge in enumerate(edges)}
    ramp = optimal_bet_ramp(
        advantage, variance=1.3, bank=bank, minimum=chip * 2, maximum=chip * 40, chip=chip
    )
    bets = [ramp.bet(tc) for tc in range(start - 2, start + len(edges) + 2)]
    assert all(isinstance(bet, int) and bet % chip == 0 for bet in bets)
    assert all(chip * 2 <= bet <= chip * 40 for bet in bets)
    assert bets == sorted(bets)
    for i, tc in enumerate(advantage):  # never above the best Kelly bet so far, or the minimum
        kelly = bank * max(edges[: i + 1]) / 1.3
        assert ramp.bet(tc) == chip * 2 or ramp.bet(tc) <= kelly


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"minimum": 0}, "^the minimum must be a whole number of chips"),
        ({"chip": 2.5}, "^the chip must be a whole number of chips"),
        ({"maximum": 5}, "^the maximum bet 5 is below the minimum 10"),
        ({"chip": 3}, "^the table's limits must be whole 3-chip multiples"),
        ({"kelly": 1.5}, "^the Kelly fraction must be above 0 and at most 1"),
        ({"advantage": {}}, "^give the advantage at one true count at least"),
        ({"advantage": {1: 0.01, 3: 0.02}}, "^the advantage at true count 2 is missing"),
        ({"advantage": {1: math.nan}}, "^the advantage at true count 1 is not a number"),
    ],
)
def test_a_bad_ramp_request_is_refused(options: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {
        "advantage": ADVANTAGE,
        "variance": 1.3,
        "bank": 10_000,
        "minimum": 10,
        "maximum": 150,
        "chip": 5,
        **options,
    }
    with pytest.raises(CountingError, match=message):
        optimal_bet_ramp(**arguments)  # type: ignore[arg-type]


def test_a_ramp_reads_as_json_with_its_counts_in_order() -> None:
    ramp = BetRamp(bets={2: 20, 1: 10}, below=5)
    assert ramp.to_json() == {"bets": {"1": 10, "2": 20}, "below": 5}


def test_the_advantage_line_is_the_rounds_weighted_least_squares_fit() -> None:
    # Counts 0, 1, 2 with 1, 2, 1 rounds and advantages 0, 0.01, 0.01: the weighted means
    # are count 1 and edge 0.0075; the slope is (1×-1×-0.0075 + 1×1×0.0025) / 2 = 0.005.
    line = linear_advantage(
        {0: (1, 0.0), 1: (2, 0.01), 2: (1, 0.01), 5: (0, 9.0)}, lowest=-1, highest=3
    )
    assert list(line) == [-1, 0, 1, 2, 3]
    assert [round(line[count], 6) for count in line] == [-0.0025, 0.0025, 0.0075, 0.0125, 0.0175]


def test_an_advantage_line_needs_two_counts() -> None:
    with pytest.raises(CountingError, match="^the advantage must be measured at two counts"):
        linear_advantage({1: (100, 0.01), 2: (0, 0.02)})


def test_an_advantage_that_falls_with_the_count_is_noise_and_refused() -> None:
    with pytest.raises(CountingError, match="^the advantage does not rise with the count"):
        linear_advantage({1: (100, 0.01), 2: (100, 0.0)})


def test_a_ramp_with_a_gap_bets_the_count_below_it_until_the_next() -> None:
    """1:2, 3:8 bets 2 units at +2, not the top bet: a count between two listed ones
    takes the lower one's bet (a player raises at +3, not before)."""
    ramp = BetRamp(bets={1: 2, 3: 8}, below=1)
    assert [ramp.bet(count) for count in (0, 1, 2, 3, 4)] == [1, 2, 2, 8, 8]
