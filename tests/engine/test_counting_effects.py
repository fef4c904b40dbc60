"""Effects of removal, from the exact analysis (engine/counting/effects.py)."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.__main__ import main
from engine.counting.effects import RANK_KEYS, effects_of_removal, rank_share
from engine.errors import EngineError
from engine.rules import AMERICAN, Rules

#: Wizard of Odds, blackjack appendix 7 (6 decks, double any two, DAS), percent per card
#: removed: dealer stands / hits soft 17. Their page does not say so, but the figures are
#: for a game with late surrender (docs/counting.md, "Where ours differed").
PUBLISHED = {
    False: dict(zip(RANK_KEYS, (.069, .082, .110, .141, .079, .041, -.008, -.040, -.091, -.094),
                    strict=True)),
    True: dict(zip(RANK_KEYS, (.071, .086, .117, .143, .084, .038, -.010, -.045, -.097, -.084),
                   strict=True)),
}  # fmt: skip
#: The issue's threshold: a difference above it needs explaining.
EXPLAINED = 0.005
#: Without surrender ours still agree this well (0.022 at most, the 5).
TOLERANCE = 0.025


@pytest.mark.parametrize("hits_soft_17", [False, True], ids=["S17", "H17"])
def test_with_late_surrender_the_published_effects_are_reproduced_to_the_issues_threshold(
    hits_soft_17,
):
    """The published column is a late-surrender game's, basic strategy held fixed: with
    that one rule added every rank agrees to 0.005, and without it the small cards do
    not (so surrender, not rounding, is what the gap was)."""
    rules = AMERICAN.with_overrides({"dealer_hits_soft_17": str(hits_soft_17).lower()})
    with_surrender = effects_of_removal(rules.with_overrides({"surrender": "late"}))
    without = effects_of_removal(rules)
    published = PUBLISHED[hits_soft_17]
    for rank in RANK_KEYS:
        assert with_surrender.percent[rank] == pytest.approx(published[rank], abs=EXPLAINED), rank
    assert max(abs(without.percent[rank] - published[rank]) for rank in RANK_KEYS) > 2 * EXPLAINED


@given(decks=st.integers(1, 2), hits_soft_17=st.booleans(), das=st.booleans())
@settings(max_examples=3, deadline=None)
def test_with_strategy_fixed_a_random_card_burnt_changes_nothing(decks, hits_soft_17, das):
    """Burning an unseen card leaves a fixed strategy's expectation as it was, so the
    effects weighed by each rank's share of the shoe sum to zero."""
    rules = Rules(decks=decks, dealer_hits_soft_17=hits_soft_17, double_after_split=das)
    effects = effects_of_removal(rules)
    assert sum(rank_share(rank) * effects.percent[rank] for rank in RANK_KEYS) == pytest.approx(
        0, abs=1e-9
    )


@pytest.mark.parametrize("hits_soft_17", [False, True], ids=["S17", "H17"])
def test_six_deck_effects_agree_with_the_published_within_the_documented_tolerance(
    hits_soft_17,
):
    rules = AMERICAN.with_overrides(
        {"dealer_hits_soft_17": str(hits_soft_17).lower(), "max_hands": "2"}
    )
    effects = effects_of_removal(rules, "optimal")
    for rank, published in PUBLISHED[hits_soft_17].items():
        assert effects.percent[rank] == pytest.approx(published, abs=TOLERANCE), rank
    # What a counter relies on: small cards help when gone, tens and aces hurt, the 5 most.
    ours = effects.percent
    assert max(ours, key=ours.__getitem__) == "5"
    assert all(ours[rank] > 0 for rank in ("2", "3", "4", "5", "6", "7"))
    assert all(ours[rank] < 0 for rank in ("8", "9", "10", "A"))


def test_re_optimising_for_the_depleted_shoe_gains_on_average():
    """Re-optimised play is at least as good as the fixed strategy for every shoe, and
    strictly better for some, so burning a random card gains it something on average."""
    optimal = effects_of_removal(AMERICAN, "optimal")
    assert sum(rank_share(rank) * optimal.percent[rank] for rank in RANK_KEYS) > 0


def test_an_unknown_strategy_is_refused():
    with pytest.raises(EngineError, match="fixed, optimal"):
        effects_of_removal(AMERICAN, "hopeful")  # type: ignore[arg-type]


def test_eor_prints_one_object_keyed_by_rank_with_the_strategy_assumed():
    out = io.StringIO()
    assert main(["eor", "--rules", "american"], stdout=out) == 0
    printed = json.loads(out.getvalue())
    assert set(RANK_KEYS) <= set(printed)
    assert printed["strategy"] == "fixed"
    assert "held fixed" in printed["strategy_assumed"]
    assert printed["5"] == pytest.approx(effects_of_removal(AMERICAN).percent["5"])
    hi_lo = printed["ratings"]["hi-lo"]
    assert hi_lo["betting"] == pytest.approx(0.97, abs=0.01)
    assert hi_lo["insurance"] == pytest.approx(0.76, abs=0.01)
    assert printed["ratings"]["omega-ii"]["betting_with_aces_side_counted"] > 0.98


def test_eor_takes_the_rules_settings(capsys):
    out = io.StringIO()
    assert main(["eor", "--rules", "american", "--set", "decks=1", "--strategy",
                 "optimal"], stdout=out) == 0  # fmt: skip
    printed = json.loads(out.getvalue())
    assert printed["strategy"] == "optimal"
    assert printed["5"] > 0.5  # one card of a single deck weighs six times as much
    with pytest.raises(SystemExit) as exit_info:
        main(["eor", "--strategy", "hopeful"], stdout=io.StringIO())
    assert exit_info.value.code == 2
