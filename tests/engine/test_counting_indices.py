"""Index plays computed from exactly analysed depleted shoes (engine/counting/indices.py).

The acceptance tests read tables computed once by ``python -m engine indices`` (24 shoes
analysed per true count, seed 26; a minute or two each, too slow for every run) and kept in
``tests/engine/data/``; `test_a_stored_table_is_what_the_computation_gives` recomputes some
rows of one (seconds, since each shoe's analysis covers only those rows' hands), so the
stored tables cannot drift from the code. The other tests compute
reduced samples.
"""

from __future__ import annotations

import io
import json
import re
from fractions import Fraction
from operator import itemgetter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.__main__ import HELP, main
from engine.counting.indices import compute_indices, insurance_break_even, true_counts
from engine.counting.systems import HI_LO, KO, RED_7
from engine.counting.true_count import Conversion, DeckEstimate, TrueCountMethod, true_count
from engine.errors import EngineError
from engine.rules import AMERICAN, EUROPEAN
from engine.strategy.analysis import Analysis
from engine.strategy.chart import two_card_hands

DATA = Path(__file__).parent / "data"

#: The Illustrious 18 (Hi-Lo, 6 decks, S17, DAS, peek; Blackjack Attack): (row, up card,
#: play, otherwise, book index). Where the books differ, the other figure is the second.
ILLUSTRIOUS_18 = [
    ("insurance", "A", "insure", "decline", 3, None),
    ("hard 16", "10", "stand", "hit", 0, None),
    ("hard 15", "10", "stand", "hit", 4, None),
    ("pair 10", "5", "split", "stand", 5, None),
    ("pair 10", "6", "split", "stand", 4, 5),
    ("hard 10", "10", "double", "hit", 4, None),
    ("hard 12", "3", "stand", "hit", 2, None),
    ("hard 12", "2", "stand", "hit", 3, 4),
    ("hard 11", "A", "double", "hit", 1, None),
    ("hard 9", "2", "double", "hit", 1, None),
    ("hard 10", "A", "double", "hit", 4, 3),
    ("hard 9", "7", "double", "hit", 3, 4),
    ("hard 16", "9", "stand", "hit", 5, 4),
    ("hard 13", "2", "stand", "hit", -1, None),
    ("hard 12", "4", "stand", "hit", 0, None),
    ("hard 12", "5", "stand", "hit", -2, -1),
    ("hard 12", "6", "stand", "hit", -1, None),
    ("hard 13", "3", "stand", "hit", -2, None),
]
#: The Fab 4 (late surrender): the book's figures are the S17 game's (docs/counting.md).
FAB_4 = [
    ("hard 14", "10", 3),
    ("hard 15", "10", 0),
    ("hard 15", "9", 2),
    ("hard 15", "A", 1),
]


def stored(name: str) -> dict[str, Any]:
    table: dict[str, Any] = json.loads((DATA / name).read_text())
    return table


def entry(table: dict[str, Any], row: str, up: str, play: str, otherwise: str) -> dict[str, Any]:
    found = [
        e
        for e in table["indices"]
        if (e["row"], e["up"], e["play"], e["otherwise"]) == (row, up, play, otherwise)
    ]
    assert len(found) == 1, (row, up, play, otherwise)
    return found[0]


@pytest.mark.parametrize(
    ("row", "up", "play", "otherwise", "book", "other_book"),
    ILLUSTRIOUS_18,
    ids=[f"{r[0]} v {r[1]}" for r in ILLUSTRIOUS_18],
)
def test_the_illustrious_18_are_within_one_of_the_book(row, up, play, otherwise, book,
                                                       other_book):  # fmt: skip
    table = stored("indices_hi_lo_6d_s17_das.json")
    assert table["system"] == "hi-lo" and table["rules"] == "american"
    index = entry(table, row, up, play, otherwise)["index"]
    assert abs(index - book) <= 1
    if other_book is not None:  # where the books differ: which ours supports, in the docs
        assert index in (book, other_book) or (row, up) == ("hard 16", "9")


@pytest.mark.parametrize(("row", "up", "book"), FAB_4, ids=[f"{r[0]} v {r[1]}" for r in FAB_4])
def test_the_fab_4_are_within_one_of_the_book(row, up, book):
    table = stored("indices_hi_lo_6d_s17_das_ls_hard_14_16.json")
    assert abs(entry(table, row, up, "surrender", "hit")["index"] - book) <= 1


def test_dealer_hitting_soft_17_moves_only_the_surrenders_against_an_ace():
    """Against a 9 or a ten the dealer can never hold a soft 17, so those indices are the
    same; 15 v A falls from +1 to -1 (its book +1 is the S17 game's)."""
    s17 = stored("indices_hi_lo_6d_s17_das_ls_hard_14_16.json")
    h17 = stored("indices_hi_lo_6d_h17_das_ls_hard_14_16.json")
    for row, up, _ in FAB_4[:3]:
        assert entry(h17, row, up, "surrender", "hit") == entry(s17, row, up, "surrender", "hit")
    assert entry(h17, "hard 15", "A", "surrender", "hit")["index"] == -1


def test_each_entry_plays_its_play_where_it_earns_more():
    """The EV difference of play less otherwise, weighed over the counts at or above the
    index, is positive: the entry says which side of the index each action belongs."""
    table = stored("indices_hi_lo_6d_s17_das.json")
    for found in table["indices"]:
        above = [d for t, d in found["ev_difference"].items() if int(t) >= found["index"]]
        assert above and sum(above) > 0, found["row"]
        assert found["play"] != found["otherwise"]


#: Rows recomputed from the stored full table: stand or hit, doubles, a soft double and a
#: split, each from an analysis of only the hands these rows reach.
RECOMPUTED_ROWS = ["hard 16", "hard 12", "hard 10", "soft 18", "pair 10"]


def test_a_stored_table_is_what_the_computation_gives():
    """Recompute rows of the stored table (computed from whole analyses of each shoe) with
    its seed and sample: the same shoes are drawn, and the analyses restricted to the rows'
    hands give the same indices, EV differences and shoe counts."""
    table = stored("indices_hi_lo_6d_s17_das.json")
    computed = compute_indices(AMERICAN, HI_LO, per_count=24, rows=RECOMPUTED_ROWS,
                               seed=table["method"]["seed"]).to_json()  # fmt: skip
    cell = itemgetter("row", "up", "play", "otherwise")
    mine = sorted((e for e in computed["indices"] if e["row"] in RECOMPUTED_ROWS), key=cell)
    kept = sorted((e for e in table["indices"] if e["row"] in RECOMPUTED_ROWS), key=cell)
    assert {e["row"] for e in kept} == set(RECOMPUTED_ROWS)
    assert [
        (e["row"], e["up"], e["play"], e["otherwise"], e["index"], e["shoes"]) for e in mine
    ] == [(e["row"], e["up"], e["play"], e["otherwise"], e["index"], e["shoes"]) for e in kept]
    for found, expected in zip(mine, kept, strict=True):
        assert found["ev_difference"] == pytest.approx(expected["ev_difference"], abs=1e-12)


@settings(max_examples=6, deadline=None)
@given(
    dealt=st.integers(0, 200),
    rows=st.lists(st.sampled_from(["hard 16", "hard 9", "soft 17", "pair 8", "pair A", "pair 10"]),
                  min_size=1, max_size=3, unique=True),
    european=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)  # fmt: skip
def test_an_analysis_of_some_hands_gives_their_evs_as_the_whole_analysis(
    dealt, rows, european, seed
):
    """The index rows' analysis works out only the hands they reach and their pairs'
    splits: every EV it gives is the whole analysis's, on any depleted shoe."""
    rules = EUROPEAN if european else AMERICAN
    full = np.array([4 * rules.decks] * 9 + [16 * rules.decks])
    shoe = full - np.random.default_rng(seed).multivariate_hypergeometric(full, dealt)
    hands = sorted({(min(h), max(h)) for row in rows for h in two_card_hands(row)})
    whole = Analysis(rules, shoe.tolist())
    part = Analysis(rules, shoe.tolist(), only=hands)
    assert len(part.base.hands.counts) < len(whole.base.hands.counts)
    for first, second in hands:
        for up in range(10):
            mine = part.two_card_evs(first, second, up, raw=True).as_dict()
            theirs = whole.two_card_evs(first, second, up, raw=True).as_dict()
            assert mine.keys() == theirs.keys()
            for action, ev in theirs.items():
                assert (mine[action] is None) == (ev is None)
                if ev is not None:
                    assert mine[action] == pytest.approx(ev, abs=1e-12), (first, second, up)


def test_an_analysis_of_one_hard_row_reaches_few_hands_and_splits_nothing():
    """Hard 16's hands reach only hands of 16 or more: a sliver of the 3,082, no split."""
    part = Analysis(AMERICAN, None, only=two_card_hands("hard 16"))
    assert len(part.base.hands.counts) < 200
    assert all(int(hard) >= 16 for hard in part.base.hands.hard)
    assert part.split_evs() == {}


def _linear_break_even(decks: int) -> float:
    """Hi-Lo's insurance break-even by the best linear prediction of the tens left from
    the count (Griffin's method), worked out by hand from the shoe's make-up: with the ace
    up gone, the N cards unseen hold 20·d low cards (+1), 12·d neutral, 16·d tens (−1) and
    4·d − 1 aces (−1). A sample's tens are predicted from its tags' sum S by the
    population's covariance over its variance; insurance breaks even where the predicted
    share of tens is a third, and the true count there is −52·S/u (the seen cards count
    minus what the unseen ones do)."""
    unseen = 52 * decks - 1
    mean_tag = (20 * decks - 16 * decks - (4 * decks - 1)) / unseen
    tens = 16 * decks / unseen
    covariance = -tens - mean_tag * tens
    variance = (40 * decks - 1) / unseen - mean_tag**2
    per_card = mean_tag + (1 / 3 - tens) * variance / covariance
    return -52 * per_card


@pytest.mark.parametrize(("decks", "published"), [(1, 1.4), (2, 2.4), (4, 2.9), (6, 3.0), (8, 3.1)])
def test_insurance_breaks_even_at_the_published_count_by_decks(decks, published):
    """The published figures, and the linear prediction worked out apart, within the
    rounding and the pool's noise (about ±0.03 at 200,000 shoes): the shoes are weighed by
    their chance of dealing the ace up."""
    rules = AMERICAN.with_overrides({"decks": str(decks)})
    found = insurance_break_even(rules, pool=200_000)
    assert found == pytest.approx(published, abs=0.06)
    assert found == pytest.approx(_linear_break_even(decks), abs=0.06)


def test_insurance_waits_for_a_higher_count_in_a_bigger_shoe():
    found = [
        insurance_break_even(AMERICAN.with_overrides({"decks": str(d)}), pool=50_000)
        for d in (1, 2, 4, 8)
    ]
    assert found == sorted(found)


@given(
    running=st.integers(-80, 80).map(lambda n: Fraction(n, 2)),
    cards_left=st.integers(0, 416),
    estimate=st.sampled_from(list(DeckEstimate)),
    conversion=st.sampled_from(list(Conversion)),
)
def test_true_counts_for_many_shoes_are_the_true_count_of_each(
    running, cards_left, estimate, conversion
):
    method = TrueCountMethod(estimate, conversion)
    many = true_counts(np.array([float(running)]), np.array([cards_left]), method)
    assert int(many[0]) == true_count(running, cards_left, method)


@pytest.fixture(scope="module")
def small() -> Any:
    """A reduced sample: two shoes per count, two rows, two decks."""
    rules = AMERICAN.with_overrides({"decks": "2"})
    return compute_indices(rules, HI_LO, per_count=2, rows=["hard 16", "hard 12"],
                           counts=range(-3, 6), pool=5_000)  # fmt: skip


def test_a_reduced_table_names_rows_and_plays_as_the_chart_does(small):
    cells = {(e.row, e.up) for e in small.entries}
    assert ("insurance", "A") in cells
    assert {row for row, _ in cells} <= {"insurance", "hard 16", "hard 12"}
    actions = {"stand", "hit", "double", "surrender", "split", "insure", "decline"}
    for found in small.entries:
        assert {found.play, found.otherwise} <= actions
        assert min(small.counts) < found.index <= max(small.counts) or found.row == "insurance"
        assert set(found.ev_difference) <= set(range(-10, 16))
    assert small.shoes_analysed <= 2 * (len(small.counts) + 2)


def test_the_same_seed_gives_the_same_table(small):
    again = compute_indices(
        AMERICAN.with_overrides({"decks": "2"}), HI_LO, per_count=2,
        rows=["hard 16", "hard 12"], counts=range(-3, 6), pool=5_000,
    )  # fmt: skip
    assert again.entries == small.entries


def test_an_unbalanced_and_a_colour_counted_system_give_tables_too():
    for system in (KO, RED_7):
        table = compute_indices(AMERICAN.with_overrides({"decks": "1"}), system, per_count=1,
                                rows=["hard 16"], counts=range(-2, 3), pool=2_000)  # fmt: skip
        assert table.system is system
        assert table.to_json()["system"] == system.key


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rows": ["hard 99"]}, "not a chart row: hard 99"),
        ({"penetration": Fraction(3, 2)}, "between 0 and 1"),
        ({"counts": [2]}, "two true counts"),
        ({"per_count": 0}, "one shoe per count"),
    ],
)
def test_bad_settings_are_refused_with_what_is_wrong(kwargs, message):
    with pytest.raises(EngineError, match=message):
        compute_indices(AMERICAN, HI_LO, **kwargs)


def test_indices_prints_one_object_with_entries_as_the_issue_gives_them():
    out = io.StringIO()
    argv = ["indices", "--rules", "american", "--set", "decks=1", "--system", "hi-lo",
            "--estimate", "quarter", "--rounding", "truncate", "--penetration", "0.5",
            "--per-count", "1"]  # fmt: skip
    assert main(argv, stdout=out) == 0
    printed = json.loads(out.getvalue())
    assert (printed["system"], printed["estimate"], printed["rounding"]) == (
        "hi-lo", "quarter", "truncate",
    )  # fmt: skip
    assert printed["penetration"] == 0.5
    first = printed["indices"][0]
    assert {"row", "up", "play", "otherwise", "index", "ev_difference"} <= set(first)
    assert first["row"] == "insurance" and first["play"] == "insure"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--system", "nope"], "invalid choice: 'nope'"),
        (["--system", "ko", "--penetration", "1.5"], "between 0 and 1"),
        (["--system", "ko", "--rounding", "up"], "invalid choice: 'up'"),
        ([], "--system"),
    ],
)
def test_bad_indices_arguments_exit_with_status_2(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["indices", *argv])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_help_says_what_eor_and_indices_and_their_options_are_for(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")  # one line per option: nothing wrapped
    with pytest.raises(SystemExit):
        main(["--help"])
    top = capsys.readouterr().out
    options = {
        "eor": ["--set", "--strategy"],
        "indices": ["--set", "--system", "--estimate", "--rounding", "--penetration",
                    "--per-count"],
    }  # fmt: skip
    for command, named in options.items():
        assert HELP[command] in top
        with pytest.raises(SystemExit):
            main([command, "--help"])
        shown = capsys.readouterr().out
        for option in named:
            assert re.search(rf"^  {option}\b.*  {re.escape(HELP[option])}", shown, re.M), option
