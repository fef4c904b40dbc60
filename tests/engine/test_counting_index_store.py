"""Index tables stored once, keyed by what they depend on (engine/counting/index_store.py)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from engine.counting import index_store
from engine.counting.index_store import (
    IndexRequest,
    IndexTablePending,
    compute_and_store,
    decode_table,
    encode_table,
    load_indices,
)
from engine.counting.indices import compute_indices
from engine.counting.systems import HI_LO, KO, RED_7, custom_system
from engine.counting.true_count import Conversion, DeckEstimate, TrueCountMethod
from engine.errors import EngineError
from engine.rules import AMERICAN
from engine.strategy.store import DirectoryStore, store_used

RULES = AMERICAN.with_overrides({"decks": "1"})
#: A small sample: one shoe per count, one row.
SAMPLE: dict[str, Any] = {
    "per_count": 1,
    "rows": ["hard 16"],
    "counts": range(-2, 3),
    "pool": 2_000,
}


def test_a_table_reads_back_as_it_was_computed(tmp_path: Path) -> None:
    request = IndexRequest(RULES, RED_7, TrueCountMethod(DeckEstimate.QUARTER), Fraction(2, 3))
    with store_used(DirectoryStore(tmp_path)):
        table = compute_and_store(request, **SAMPLE)
    again = decode_table(request, encode_table(table))
    assert again == table
    assert again.to_json() == {**table.to_json(), "seconds": again.seconds}


def test_a_request_survives_its_json_as_a_job_keeps_it() -> None:
    mine = custom_system(dict(zip(["2", "3", "4", "5", "6", "7", "8", "9", "10", "A"],
                                  [1, 1, 1, 1, 1, "1/2", 0, 0, -1, -1], strict=True)))  # fmt: skip
    for system in (HI_LO, KO, RED_7, mine):
        request = IndexRequest(RULES, system, TrueCountMethod(conversion=Conversion.ROUND))
        back = IndexRequest.from_json(request.to_json())
        assert back.system == system
        assert back.key() == request.key()


def test_the_key_follows_what_the_table_depends_on_and_nothing_else() -> None:
    key = IndexRequest(RULES, HI_LO).key()
    assert len(key) == 32
    same = [
        IndexRequest(RULES.replace(name="house"), HI_LO),
        IndexRequest(RULES, HI_LO, penetration=RULES.penetration),
    ]
    assert {request.key() for request in same} == {key}
    other = [
        IndexRequest(RULES, KO),
        IndexRequest(RULES, HI_LO, TrueCountMethod(DeckEstimate.FULL)),
        IndexRequest(RULES, HI_LO, TrueCountMethod(conversion=Conversion.TRUNCATE)),
        IndexRequest(RULES, HI_LO, penetration=Fraction(1, 2)),
        IndexRequest(RULES.with_overrides({"dealer_hits_soft_17": "true"}), HI_LO),
        IndexRequest(RULES.with_overrides({"insurance": "false"}), HI_LO),
    ]
    keys = {request.key() for request in other}
    assert key not in keys and len(keys) == len(other)


def test_a_table_is_computed_once_then_read_by_everyone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = IndexRequest(RULES, HI_LO)
    computed: list[IndexRequest] = []
    real = compute_indices

    def counted(*args: Any, **kwargs: Any) -> Any:
        computed.append(request)
        return real(*args, **{**kwargs, **SAMPLE})

    monkeypatch.setattr(index_store, "compute_indices", counted)
    with store_used(DirectoryStore(tmp_path)):
        first = load_indices(request)
        second = load_indices(request, compute_inline=False)
    assert len(computed) == 1
    assert second == first


def test_a_missing_table_is_pending_where_it_may_not_be_computed(tmp_path: Path) -> None:
    with store_used(DirectoryStore(tmp_path)), pytest.raises(IndexTablePending):
        load_indices(IndexRequest(RULES, HI_LO), compute_inline=False)
    assert not list(tmp_path.iterdir())


def test_an_unreadable_or_foreign_payload_is_refused() -> None:
    request = IndexRequest(RULES, HI_LO)
    with pytest.raises(ValueError, match="not an encoded index table"):
        decode_table(request, b"rubbish")
    table_of_ko = encode_table(compute_indices(RULES, KO, **SAMPLE))
    with pytest.raises(ValueError, match="something else"):
        decode_table(request, table_of_ko)


def test_a_penetration_outside_the_shoe_is_refused() -> None:
    with pytest.raises(EngineError, match="penetration"):
        IndexRequest(RULES, HI_LO, penetration=Fraction(1))
