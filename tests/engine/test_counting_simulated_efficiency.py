"""Playing efficiency by simulation (engine/counting/simulated_efficiency.py): shoes drawn
as a player meets them, each analysed exactly, and their decisions played by the chart,
by a counter's index table, perfectly and by the perfect linear player."""

from __future__ import annotations

import dataclasses
import io
import json
import math
import zlib

import pytest

from engine.__main__ import main
from engine.counting.index_store import IndexRequest, decode_table
from engine.counting.indices import IndexEntry, IndexTable
from engine.counting.simulated_efficiency import simulated_efficiency
from engine.counting.systems import HI_LO, KO
from engine.errors import EngineError
from engine.rules import AMERICAN
from engine.strategy.analysis import Analysis
from engine.strategy.chart import deal_probability, two_card_hands
from tests.counting_tables import DATA

SHOES = 4


@pytest.fixture(scope="module")
def hi_lo() -> IndexTable:
    """The stored Hi-Lo table of the American rules (24 shoes per count, seed 26)."""
    payload = zlib.compress(DATA.read_bytes())
    return decode_table(IndexRequest(AMERICAN, HI_LO), payload)


def _only(table: IndexTable, *entries: IndexEntry) -> IndexTable:
    return dataclasses.replace(table, entries=entries)


@pytest.fixture(scope="module")
def measured(hi_lo):
    """Hi-Lo's table, and KO's made to stand on 11 v 6 at every count."""
    always_stand = IndexEntry("hard 11", "6", "double", "stand", 99, {0: 0.0}, {0: 1})
    ko = dataclasses.replace(_only(hi_lo, always_stand), system=KO)
    return simulated_efficiency([hi_lo, ko], shoes=SHOES)


def test_no_player_gains_more_than_perfect_play_on_the_same_shoes(measured):
    found = measured
    hi_lo = found.systems["hi-lo"]
    assert found.perfect_gain > 0
    assert hi_lo.gain <= found.perfect_gain
    assert found.linear_gain <= found.perfect_gain
    assert hi_lo.of_perfect == pytest.approx(hi_lo.gain / found.perfect_gain)
    assert hi_lo.of_linear == pytest.approx(hi_lo.gain / found.linear_gain)
    assert math.isfinite(hi_lo.of_perfect_error) and hi_lo.of_perfect_error > 0


def test_a_counter_whose_table_never_departs_from_the_chart_gains_nothing(hi_lo):
    nothing = _only(hi_lo, IndexEntry("hard 16", "10", "stand", "hit", 99, {0: 0.0}, {0: 1}))
    found = simulated_efficiency([nothing], shoes=2)
    assert found.systems["hi-lo"].gain == 0
    assert found.systems["hi-lo"].of_perfect == 0


def test_a_play_the_table_calls_for_at_every_count_costs_what_the_chart_says(measured):
    """KO's table here stands on 11 v 6 whatever the count (double at 99 or more, else
    stand): it gives up about what the full shoe's analysis says standing there costs, on
    shoes that are the full shoe on average (within the few shoes' spread)."""
    found = measured
    full = Analysis(AMERICAN)
    cost = 0.0
    for first, second in two_card_hands("hard 11"):
        counts = [0] * 10
        counts[first] += 1
        counts[second] += 1
        evs = full.two_card_evs(first, second, 5, raw=True).as_dict()
        cost += deal_probability(full, counts, 5) * (evs["stand"] - evs["double"])
    assert cost < 0
    assert found.systems["ko"].gain == pytest.approx(cost, rel=0.15)


def test_a_system_measured_beside_others_keeps_its_figures(hi_lo, measured):
    """The systems play the same shoes: adding one changes no other's figures."""
    found = measured
    alone = simulated_efficiency([hi_lo], shoes=SHOES)
    assert alone.systems["hi-lo"] == found.systems["hi-lo"]
    assert alone.perfect_gain == found.perfect_gain


def test_tables_of_other_rules_are_refused(hi_lo):
    other = dataclasses.replace(hi_lo, rules=AMERICAN.with_overrides({"decks": "2"}))
    with pytest.raises(EngineError, match="same rules"):
        simulated_efficiency([hi_lo, other], shoes=2)
    with pytest.raises(EngineError, match="two shoes"):
        simulated_efficiency([hi_lo], shoes=1)


def test_the_command_prints_each_systems_figures(hi_lo, monkeypatch):
    """`efficiency` reads each system's table from the store (here, the stored test one)."""
    monkeypatch.setattr("engine.__main__.load_indices", lambda request: hi_lo)
    out = io.StringIO()
    main(["efficiency", "--rules", "american", "--shoes", "2"], stdout=out)
    data = json.loads(out.getvalue())
    assert data["shoes"] == 2
    assert set(data["systems"]) == {"hi-lo"}
    assert set(data["systems"]["hi-lo"]) == {
        "gain", "of_perfect", "of_perfect_error", "of_linear", "of_linear_error"
    }  # fmt: skip
