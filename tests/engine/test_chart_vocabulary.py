"""The chart's words (engine.chart_vocabulary): codes, their fallbacks, columns, ranks."""

from __future__ import annotations

import pytest

from engine.chart_vocabulary import (
    CODES,
    HITTING_CODES,
    UP_CARDS,
    fallbacks,
    rank_index,
    resolve,
    up_column,
)
from engine.errors import EngineError
from engine.values import Action

HIT, STAND, DOUBLE, SPLIT, SURRENDER = (
    Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER,
)  # fmt: skip


def test_every_code_ends_in_a_play_that_is_always_legal() -> None:
    for code in CODES:
        for das in (False, True):
            assert fallbacks(code, double_after_split=das)[-1] in (HIT, STAND)


def test_split_codes_fall_back_to_the_pairs_play_as_a_total() -> None:
    as_sixteen = (SURRENDER, HIT, STAND)
    assert fallbacks("P", double_after_split=False, unsplit=as_sixteen) == (SPLIT, *as_sixteen)
    assert fallbacks("Rp", double_after_split=True, unsplit=(STAND,)) == (SURRENDER, SPLIT, STAND)
    assert fallbacks("Ph", double_after_split=True) == (SPLIT, HIT, STAND)
    assert fallbacks("Ph", double_after_split=False) == (HIT, STAND)


def test_resolve_takes_the_first_allowed_action() -> None:
    assert resolve("D", allowed=(), double_after_split=True) is HIT
    assert resolve("Ds", allowed=(), double_after_split=True) is STAND
    assert resolve("Ds", allowed={DOUBLE}, double_after_split=True) is DOUBLE
    assert resolve("Rp", allowed={SPLIT}, double_after_split=True) is SPLIT
    assert {"H", "D", "P", "Ph", "R", "Rp"} == HITTING_CODES


def test_an_unknown_code_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown chart code"):
        fallbacks("X", double_after_split=True)


def test_columns_and_rank_indexes() -> None:
    assert [up_column(points) for points in (*range(2, 11), 1)] == list(UP_CARDS)
    assert [rank_index(rank) for rank in ("A", "2", "9", "10", "T", "J", "Q", "K")] == [
        0, 1, 8, 9, 9, 9, 9, 9,
    ]  # fmt: skip
    with pytest.raises(EngineError, match="not a card rank"):
        rank_index("1")
