"""The counter's simulation: its count is the true count, its index plays are taken from
the count of the cards it has seen, and its figures depend on the seed alone."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import hard_bot
from engine.counting import (
    HI_LO,
    KO,
    SYSTEMS,
    WONG_HALVES,
    Conversion,
    CountingError,
    DeckEstimate,
    TrueCountMethod,
    true_count,
)
from engine.counting.index_table import FAB_4, I18, INDEX_TABLES, IndexPlay, parse_index_table
from engine.counting.risk import BetRamp, n0, score, simple_risk_of_ruin
from engine.counting.simulation import (
    CounterSettings,
    _convert,
    _Counter,
    simulate_counter,
)
from engine.round import Phase, Round
from engine.rules import AMERICAN, Rules
from engine.shoe import Shoe
from engine.values import Action

SURRENDERING = AMERICAN.replace(surrender="late")


@given(
    numerator=st.integers(-10_000, 10_000),
    denominator=st.integers(1, 500),
    conversion=st.sampled_from(Conversion),
)
def test_the_fast_conversion_is_the_conversion(
    numerator: int, denominator: int, conversion: Conversion
) -> None:
    assert _convert(numerator, denominator, conversion) == conversion.apply(
        Fraction(numerator, denominator)
    )


@given(
    key=st.sampled_from(["hi-lo", "zen", "wong-halves", "omega-ii"]),
    running=st.integers(-60, 60),
    unseen=st.integers(0, 312),
    estimate=st.sampled_from(DeckEstimate),
    conversion=st.sampled_from(Conversion),
)
def test_the_counters_count_is_the_true_count(
    key: str, running: int, unseen: int, estimate: DeckEstimate, conversion: Conversion
) -> None:
    """The counter keeps a running count scaled to whole numbers (Wong Halves: by 2)."""
    method = TrueCountMethod(estimate, conversion)
    counter = _Counter(AMERICAN, CounterSettings(system=SYSTEMS[key], method=method), _shoe())
    real = Fraction(running, counter.scale)
    assert counter.count(running, unseen) == true_count(real, unseen, method)


def test_an_unbalanced_count_is_bet_as_it_stands() -> None:
    counter = _Counter(AMERICAN, CounterSettings(system=KO), _shoe())
    assert counter.initial == -20
    assert counter.count(-7, 100) == -7


def _shoe() -> Shoe:
    return Shoe.for_rules(AMERICAN)


def _decide(rules: Rules, settings: CounterSettings, cards: str, running: int) -> Action:
    """The counter's first decision on a shoe stacked as ``cards`` (its two cards, the up
    card and the hole card in deal order), from a running count before the round."""
    shoe = Shoe.stacked(cards)
    counter = _Counter(rules, settings, shoe)
    counter.running = running
    rnd = Round(rules, shoe, keep_history=False)
    rnd.place_bet(seat=1, amount=4, owner="counter")
    rnd.deal()
    assert rnd.phase in (Phase.PLAYER_TURNS, Phase.INSURANCE)
    view = rnd.view()
    return counter.decide(view, hard_bot(rules)(view), 0, 1)


def test_16_v_10_stands_from_a_true_count_of_0_counting_the_cards_on_the_table() -> None:
    """10, 6 against a 10: the three cards seen count -1. Before the round +1: 0, stand."""
    settings = CounterSettings(indices=I18)
    assert _decide(AMERICAN, settings, "10h 10s 6c 9d", running=1) is Action.STAND
    assert _decide(AMERICAN, settings, "10h 10s 6c 9d", running=0) is Action.HIT


def test_the_face_down_hole_card_is_not_counted() -> None:
    """The same with a 5 in the hole: had the counter seen it, the count would be 0."""
    settings = CounterSettings(indices=I18)
    assert _decide(AMERICAN, settings, "10h 10s 6c 5d", running=0) is Action.HIT


def test_without_index_plays_the_counter_plays_basic_strategy() -> None:
    assert _decide(AMERICAN, CounterSettings(), "10h 10s 6c 9d", running=40) is Action.HIT


def test_a_pair_of_eights_is_split_not_stood_on_as_a_hard_16() -> None:
    settings = CounterSettings(indices=I18)
    assert _decide(AMERICAN, settings, "8h 10s 8c 9d", running=30) is Action.SPLIT


def test_tens_are_split_against_a_5_from_plus_5_only() -> None:
    settings = CounterSettings(indices=I18)
    # Seen: 10, 5, 10 = -1. Unseen: the hole card, one card: half a deck at the least.
    assert _decide(AMERICAN, settings, "10h 5s 10c 9d", running=4) is Action.SPLIT  # +6
    assert _decide(AMERICAN, settings, "10h 5s 10c 9d", running=3) is Action.STAND  # +4


def test_insurance_is_taken_from_plus_3() -> None:
    settings = CounterSettings(indices=I18)
    # Seen: 10, A, 9 = -2; a running count of +4 before: +2 over half a deck = +4.
    assert _decide(AMERICAN.replace(insurance=True), settings, "10h As 9c 5d", 4) is (Action.INSURE)
    assert _decide(AMERICAN.replace(insurance=True), settings, "10h As 9c 5d", 3) is (
        Action.NO_INSURANCE
    )


def test_a_surrender_index_is_tried_before_a_stand_and_basic_surrender_is_kept() -> None:
    both = CounterSettings(indices=INDEX_TABLES["i18+fab4"])
    # 10, 5 against a 10 (seen -1): at +4 or more surrender wins over standing.
    assert _decide(SURRENDERING, both, "10h 10s 5c 9d", running=5) is Action.SURRENDER
    assert _decide(SURRENDERING, both, "10h 10s 5c 9d", running=-3) is Action.HIT
    # 16 v 10 is surrendered by basic strategy; the I18's stand (made without surrender)
    # does not override it.
    assert _decide(SURRENDERING, CounterSettings(indices=I18), "10h 10s 6c 9d", 5) is (
        Action.SURRENDER
    )


def test_the_fab_4_is_four_surrenders() -> None:
    assert {(entry.row, entry.up, entry.play, entry.index) for entry in FAB_4} == {
        ("hard 14", "10", Action.SURRENDER, 3),
        ("hard 15", "10", Action.SURRENDER, 0),
        ("hard 15", "9", Action.SURRENDER, 2),
        ("hard 15", "A", Action.SURRENDER, 1),
    }


RAMP = BetRamp(bets={1: 2, 2: 4, 3: 8}, below=1)


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_same_seed_gives_the_same_figures_on_one_or_two_processes(seed: int) -> None:
    counter = CounterSettings(indices=I18, ramp=RAMP, others=1)
    one, two = (
        simulate_counter(AMERICAN, counter, 1300, seed=seed, processes=p, chunk_rounds=400)
        for p in (1, 2)
    )
    assert (one.processes, two.processes) == (1, 2)
    figures = [
        "rounds_played", "win_per_round", "win_per_round_stderr", "sd_per_round", "n0",
        "score", "risk_of_ruin", "by_count", "edge", "average_bet",
    ]  # fmt: skip
    assert [getattr(one, name) for name in figures] == [getattr(two, name) for name in figures]


def test_another_seed_gives_other_figures() -> None:
    first, second = (
        simulate_counter(AMERICAN, CounterSettings(), 500, seed=seed, processes=1)
        for seed in (1, 2)
    )
    assert first.win_per_round != second.win_per_round


def test_the_bets_follow_the_ramp_at_each_count() -> None:
    result = simulate_counter(AMERICAN, CounterSettings(ramp=RAMP), 3000, seed=5, processes=1)
    rounds = sum(n for n, _ in result.by_count.values())
    assert rounds == result.rounds_played == result.rounds_dealt == 3000
    bets = sum(n * RAMP.bet(count) for count, (n, _) in result.by_count.items())
    assert result.average_bet == pytest.approx(bets / rounds)
    assert min(result.by_count) < 1 < 3 < max(result.by_count)


def test_the_measures_are_those_of_the_win_and_spread_measured() -> None:
    result = simulate_counter(
        AMERICAN.replace(penetration=Fraction(5, 6)),
        CounterSettings(indices=I18, ramp=RAMP, bank=400),
        4000,
        seed=9,
        processes=1,
    )
    w, v = result.win_per_round, result.sd_per_round**2
    assert result.win_per_100 == pytest.approx(100 * w)
    assert result.sd_per_100 == pytest.approx(10 * result.sd_per_round)
    assert result.n0 == pytest.approx(n0(w, v))  # infinite if this run lost
    assert result.score == pytest.approx(score(w, v))
    assert result.risk_of_ruin == pytest.approx(simple_risk_of_ruin(w, v, 400))
    # Measured shoe by shoe; a round's result hardly depends on the shoe's other rounds,
    # so it is close to the standard error of independent rounds.
    independent = result.sd_per_round / math.sqrt(4000)
    assert 0.7 * independent < result.win_per_round_stderr < 1.4 * independent
    assert result.win_per_100_stderr == pytest.approx(100 * result.win_per_round_stderr)
    assert result.edge == pytest.approx(w / result.average_bet)
    for name in ("sd_per_round_stderr", "n0_stderr"):
        assert getattr(result, name) > 0


def test_back_counting_plays_only_from_the_count_it_enters_at_until_it_leaves() -> None:
    result = simulate_counter(
        AMERICAN,
        CounterSettings(others=2, enter=2, leave=0, ramp=RAMP),
        4000,
        seed=3,
        processes=1,
    )
    assert 0 < result.rounds_played < result.rounds_dealt == 4000
    assert min(result.by_count) >= 0  # never played below the count it leaves at
    assert result.by_count.get(2, (0, 0.0))[0] > 0


def test_an_unbalanced_system_bets_on_its_running_count() -> None:
    result = simulate_counter(AMERICAN, CounterSettings(system=KO), 2000, seed=4, processes=1)
    assert min(result.by_count) <= -15  # six decks start KO at -20


def test_halves_are_counted_exactly() -> None:
    result = simulate_counter(
        AMERICAN, CounterSettings(system=WONG_HALVES), 1000, seed=4, processes=1
    )
    assert result.system == "Wong Halves" and result.rounds_played == 1000


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (CounterSettings(others=7), "^other players must be from 0 to 6"),
        (CounterSettings(others=1, enter=2), "^back-counting needs both the count to enter"),
        (CounterSettings(others=1, enter=1, leave=2), r"^the count to leave at \(2\) is above"),
        (CounterSettings(enter=2, leave=0), "^back-counting needs other players"),
        (CounterSettings(ramp=BetRamp({1: 0}, below=1)), "^every bet of the ramp must be"),
        (CounterSettings(bank=0), "^the bank must be a whole number of units"),
        (CounterSettings(tier="expert"), "^unknown tier 'expert'"),
        (
            CounterSettings(system=SYSTEMS["zen"], indices=I18),
            "^the I18 and Fab 4 are Hi-Lo's indices, not Zen's",
        ),
        (
            CounterSettings(system=SYSTEMS["red-7"], indices=FAB_4),
            "^the I18 and Fab 4 are Hi-Lo's indices, not Red 7's",
        ),
    ],
)
def test_settings_that_cannot_be_played_are_refused(
    settings: CounterSettings, message: str
) -> None:
    with pytest.raises(CountingError, match=message):
        simulate_counter(AMERICAN, settings, 100, seed=1, processes=1)


def test_too_few_rounds_are_refused() -> None:
    with pytest.raises(CountingError, match="^rounds must be at least 1$"):
        simulate_counter(AMERICAN, CounterSettings(), 0, seed=1, processes=1)
    with pytest.raises(CountingError, match="^the counter never played a round"):
        simulate_counter(
            AMERICAN, CounterSettings(others=1, enter=30, leave=30), 50, seed=1, processes=1
        )


def test_the_json_has_the_figures_and_no_infinity() -> None:
    result = simulate_counter(AMERICAN, CounterSettings(), 300, seed=1, processes=1)
    data = result.to_json()
    for key in ("win_per_100", "sd_per_100", "n0", "score", "risk_of_ruin", "seed"):
        assert key in data
    assert all(isinstance(key, str) for key in data["by_count"])
    assert HI_LO.name == data["system"]


def test_every_new_shoe_starts_the_count_again() -> None:
    """KO on six decks starts each shoe at -20: about 45 rounds a shoe at 75% penetration,
    so 3,000 rounds bet at -20 some 60 times (the first round of each shoe at least), and
    a count that were not started again would climb by 4 a shoe."""
    result = simulate_counter(AMERICAN, CounterSettings(system=KO), 3000, seed=8, processes=1)
    assert result.by_count[-20][0] >= 3000 // 60
    assert max(result.by_count) < 40  # a shoe's count reaches +20 at times, not +200


def test_index_tables_are_read_from_the_indices_commands_json_and_checked() -> None:
    entry = {"row": "hard 16", "up": "T", "play": "stand", "otherwise": "hit", "index": 0}
    assert parse_index_table({"indices": [entry]}) == (
        IndexPlay("hard 16", "10", Action.STAND, Action.HIT, 0),
    )
    assert parse_index_table([{**entry, "index": 2.3}])[0].index == 3
    assert parse_index_table([{**entry, "index": -1.5}])[0].index == -1
    insurance = {"row": "insurance", "up": "A", "play": "insure", "otherwise": "no insurance"}
    assert parse_index_table([{**insurance, "index": 3}])[0].otherwise is Action.NO_INSURANCE
    assert [IndexPlay(**e.to_json()) for e in I18] == list(I18)  # type: ignore[arg-type]


def test_a_table_the_indices_command_printed_is_read_whole_insurance_too() -> None:
    """The command writes declining insurance as "decline": a counter plays its output."""
    printed = json.loads(
        (Path(__file__).parent / "data" / "indices_hi_lo_6d_s17_das.json").read_text()
    )
    plays = parse_index_table(printed)
    assert len(plays) == len(printed["indices"])
    (insurance,) = (play for play in plays if play.row == "insurance")
    assert (insurance.play, insurance.otherwise) == (Action.INSURE, Action.NO_INSURANCE)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("hard 16", "^index plays must be a list of entries"),
        ([3], "^index play 1: not an object"),
        ([{"row": "hard 16"}], "^index play 1: missing up, play, otherwise, index$"),
        (
            [{"row": "hard 16", "up": "1O", "play": "stand", "otherwise": "hit", "index": 0}],
            "^index play 1: no such up card '1O'",
        ),
        (
            [{"row": "hard 16", "up": "10", "play": "stand", "otherwise": "hit", "index": "0"}],
            "^index play 1: the index must be a true count",
        ),
        (
            [{"row": "hard 16", "up": "10", "play": "stand", "otherwise": "hit", "index": 99}],
            "^index play 1: the index must be a true count from -30 to 30: 99",
        ),
        (
            [{"row": "hard 16", "up": "10", "play": "split", "otherwise": "hit", "index": 0}],
            "^index play 1: only a pair can split",
        ),
        (
            [{"row": "hard 16", "up": "10", "play": "hit", "otherwise": "hit", "index": 0}],
            "^index play 1: play and otherwise are two of",
        ),
        (
            [
                {
                    "row": "insurance",
                    "up": "10",
                    "play": "insure",
                    "otherwise": "no_insurance",
                    "index": 3,
                }
            ],
            "^index play 1: insurance is against an ace",
        ),
    ],
)
def test_a_bad_index_table_is_refused_naming_the_entry(data: object, message: str) -> None:
    with pytest.raises(CountingError, match=message):
        parse_index_table(data)
