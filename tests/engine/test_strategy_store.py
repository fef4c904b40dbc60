"""The analysis store: which rules share an analysis, and where analyses are kept."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from unittest import mock

import pytest

from engine.rules import EUROPEAN, FIELD_NAMES, Burn
from engine.strategy import AnalysisPending, compute_strategy, store, strategy_for

#: EUROPEAN with every field changed that a player's decisions do not depend on.
RENAMED = EUROPEAN.replace(
    name="casino-royale",
    version="2.3.4",
    penetration=Fraction(5, 6),
    burn=Burn.FIRST_CARD_VALUE,
    insurance=True,
    insurance_pays=Fraction(2),
    short_balance_fallback=True,
    max_seats=5,
    seats_per_account=2,
    bet_behind=True,
    pair_bet=True,
    perfect_pair_pays=30,
    coloured_pair_pays=10,
    mixed_pair_pays=5,
)


class MemoryStore:
    """A store in a dictionary, standing for the database one."""

    def __init__(self) -> None:
        self.payloads: dict[str, bytes] = {}

    def get(self, key: str) -> bytes | None:
        return self.payloads.get(key)

    def put(self, key: str, payload: bytes) -> None:
        self.payloads[key] = payload


@pytest.fixture
def memory_store() -> Iterator[MemoryStore]:
    """An empty store in place of the usual one, and no analysis kept in this process."""
    kept = MemoryStore()
    with store.store_used(kept):
        strategy_for.cache_clear()
        yield kept
    strategy_for.cache_clear()


def test_every_rule_field_is_either_in_the_key_or_left_out_for_a_stated_reason() -> None:
    assert set(store.KEY_FIELDS) | set(store.NOT_IN_KEY) == set(FIELD_NAMES)
    assert not set(store.KEY_FIELDS) & set(store.NOT_IN_KEY)


def test_rules_differing_only_in_what_no_decision_depends_on_share_a_key() -> None:
    assert store.rules_key(RENAMED) == store.rules_key(EUROPEAN)


@pytest.mark.parametrize(
    "change",
    [
        {"decks": 2},
        {"dealer_hits_soft_17": True},
        {"blackjack_pays": Fraction(6, 5)},  # the edge values naturals
        {"double_after_split": False},
        {"max_hands": 2},
        {"surrender": "late"},
    ],
)
def test_a_field_the_strategy_depends_on_changes_the_key(change: dict[str, object]) -> None:
    assert store.rules_key(EUROPEAN.replace(**change)) != store.rules_key(EUROPEAN)


def test_the_fields_left_out_of_the_key_do_not_change_the_analysis() -> None:
    plain, renamed = compute_strategy(EUROPEAN), compute_strategy(RENAMED)
    assert renamed.chart == plain.chart
    assert renamed.evs == plain.evs
    assert renamed.multi_card_evs == plain.multi_card_evs
    assert renamed.expected_return == plain.expected_return


def test_rules_sharing_a_key_are_analysed_once(memory_store: MemoryStore) -> None:
    strategy_for(EUROPEAN)
    with mock.patch("engine.strategy.store.compute_strategy", side_effect=AssertionError):
        shared = strategy_for(RENAMED)
    assert list(memory_store.payloads) == [store.rules_key(EUROPEAN)]
    assert shared.rules == RENAMED  # the name it was asked for, with the analysis it shares
    assert shared.chart == strategy_for(EUROPEAN).chart


def test_a_stored_analysis_is_read_back_as_it_was_computed(memory_store: MemoryStore) -> None:
    computed = strategy_for(EUROPEAN)
    strategy_for.cache_clear()  # as in another process
    with mock.patch("engine.strategy.store.compute_strategy", side_effect=AssertionError):
        read = strategy_for(EUROPEAN)
    assert read == computed
    # Kept compact: the same analysis as JSON text is about a megabyte.
    assert len(memory_store.payloads[store.rules_key(EUROPEAN)]) < 600_000


@pytest.mark.parametrize("kept", [b"", b"\x07\x00\x00\x00{}", "cut"])
def test_a_stored_analysis_that_cannot_be_read_is_computed_again(
    memory_store: MemoryStore, kept: bytes | str
) -> None:
    computed = strategy_for(EUROPEAN)
    key = store.rules_key(EUROPEAN)
    payload = memory_store.payloads[key]
    memory_store.payloads[key] = payload[:-8] if kept == "cut" else kept
    strategy_for.cache_clear()
    assert strategy_for(EUROPEAN) == computed
    assert memory_store.payloads[key] == payload


def test_a_process_that_may_not_compute_a_missing_analysis_says_so(
    memory_store: MemoryStore,
) -> None:
    custom = EUROPEAN.replace(decks=2)
    with (
        store.store_used(memory_store, compute_inline=lambda rules: False),
        mock.patch("engine.strategy.store.compute_strategy", side_effect=AssertionError),
        pytest.raises(AnalysisPending) as pending,
    ):
        strategy_for(custom)
    assert pending.value.rules == custom
    assert memory_store.payloads == {}


def test_the_directory_store_keeps_what_it_is_given(tmp_path) -> None:  # type: ignore[no-untyped-def]
    kept = store.DirectoryStore(tmp_path)
    assert kept.get("abc") is None
    kept.put("abc", b"payload")
    assert store.DirectoryStore(tmp_path).get("abc") == b"payload"
