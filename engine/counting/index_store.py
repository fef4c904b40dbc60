"""Index tables kept between processes, keyed by what a table depends on.

An index table costs about a minute of CPU (docs/performance.md), far beyond a request:
it is worked out once per rules, counting system, true-count method and penetration, in
the background where a host runs one (the web app's `trainer.shared.analyses`), and read
back by everyone from the same store as the strategy analyses
(`engine.strategy.store.current_store`). This module decides the key and the bytes.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from fractions import Fraction
from typing import Any

from engine.counting.indices import IndexEntry, IndexTable, compute_indices
from engine.counting.systems import CountingSystem
from engine.counting.true_count import DEFAULT_METHOD, Conversion, DeckEstimate, TrueCountMethod
from engine.errors import EngineError
from engine.rules import Rules
from engine.strategy.store import KEY_FIELDS, current_store

__all__ = [
    "INDICES_VERSION",
    "IndexRequest",
    "IndexTablePending",
    "compute_and_store",
    "decode_table",
    "encode_table",
    "index_key",
    "load_indices",
]

#: Bump when the computation changes what it gives (its sample, its method), so that
#: stored tables are redone.
INDICES_VERSION = 2

#: Rule fields an index table depends on besides the strategy's: insurance is one of its
#: plays.
_MORE_FIELDS = ("insurance", "insurance_pays")


class IndexTablePending(EngineError):
    """The table is not stored yet and this process may not work it out now."""


class IndexRequest:
    """What one index table is of: rules, system, true-count method and penetration (the
    rules' own unless given), as a job keeps it (`to_json`) and keys it (`key`)."""

    def __init__(
        self,
        rules: Rules,
        system: CountingSystem,
        method: TrueCountMethod = DEFAULT_METHOD,
        penetration: Fraction | None = None,
    ) -> None:
        self.rules = rules
        self.system = system
        self.method = method
        self.penetration = rules.penetration if penetration is None else Fraction(penetration)
        if not 0 < self.penetration < 1:
            raise EngineError(f"penetration is a share of the shoe, not {self.penetration}")

    def to_json(self) -> dict[str, Any]:
        system = self.system
        return {
            "rules": self.rules.to_json(),
            "system": {
                "name": system.name,
                "key": system.key,
                "tags": [str(tag) for tag in system.tags],
                "red_tags": [[rank, str(tag)] for rank, tag in system.red_tags],
                "ace_side_count": system.ace_side_count,
                "initial_per_deck": str(system.initial_per_deck),
                "initial_offset": str(system.initial_offset),
            },
            "estimate": self.method.estimate.value,
            "rounding": self.method.conversion.value,
            "penetration": str(self.penetration),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> IndexRequest:
        """The inverse of `to_json`; EngineError (or a KeyError) on anything else."""
        found = data["system"]
        system = CountingSystem(
            name=str(found["name"]),
            key=str(found["key"]),
            tags=tuple(Fraction(tag) for tag in found["tags"]),
            red_tags=tuple((str(rank), Fraction(tag)) for rank, tag in found["red_tags"]),
            ace_side_count=bool(found["ace_side_count"]),
            initial_per_deck=Fraction(found["initial_per_deck"]),
            initial_offset=Fraction(found["initial_offset"]),
        )
        method = TrueCountMethod(DeckEstimate(data["estimate"]), Conversion(data["rounding"]))
        return cls(Rules.from_json(data["rules"]), system, method, Fraction(data["penetration"]))

    def key(self) -> str:
        """A stable hash of everything the table depends on, and of `INDICES_VERSION`: a
        system's name or the rules' labels do not count. Apart from the strategy
        analyses' keys (a hash of other text), and as long (32 characters).

        >>> from engine.counting.systems import HI_LO
        >>> from engine.rules import AMERICAN
        >>> IndexRequest(AMERICAN, HI_LO).key() == IndexRequest(
        ...     AMERICAN.replace(name="house"), HI_LO).key()
        True
        """
        data = self.to_json()
        rules = {field: data["rules"][field] for field in (*KEY_FIELDS, *_MORE_FIELDS)}
        system = {k: v for k, v in data["system"].items() if k not in ("name", "key")}
        text = json.dumps(
            {"indices": INDICES_VERSION, "rules": rules, "system": system,
             "estimate": data["estimate"], "rounding": data["rounding"],
             "penetration": data["penetration"]},
            sort_keys=True,
        )  # fmt: skip
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def index_key(request: IndexRequest) -> str:
    """`IndexRequest.key`."""
    return request.key()


def encode_table(table: IndexTable) -> bytes:
    """A table as bytes: its ``indices`` command object (every entry with its EV
    differences), compressed: about 12 kB for a whole table."""
    return zlib.compress(json.dumps(table.to_json(), separators=(",", ":")).encode())


def decode_table(request: IndexRequest, payload: bytes) -> IndexTable:
    """The inverse of `encode_table`, as the table of ``request``; ValueError if the
    bytes are not an encoded table of it."""
    try:
        data: dict[str, Any] = json.loads(zlib.decompress(payload))
        if data["system"] != request.system.key or data["penetration"] != float(
            request.penetration
        ):
            raise ValueError("an index table of something else")
        entries = tuple(
            IndexEntry(
                row=str(e["row"]),
                up=str(e["up"]),
                play=str(e["play"]),
                otherwise=str(e["otherwise"]),
                index=int(e["index"]),
                ev_difference={int(t): float(d) for t, d in e["ev_difference"].items()},
                shoes={int(t): int(n) for t, n in e["shoes"].items()},
            )
            for e in data["indices"]
        )
        low, high = data["true_counts"]
        method = data["method"]
        nan = float("nan")
        return IndexTable(
            rules=request.rules,
            system=request.system,
            method=request.method,
            penetration=request.penetration,
            counts=tuple(range(int(low), int(high) + 1)),
            per_count=int(method["per_true_count"]),
            seed=int(method["seed"]),
            entries=entries,
            insurance_break_even=nan
            if data["insurance_break_even"] is None
            else float(data["insurance_break_even"]),
            shoes_analysed=int(method["shoes_analysed"]),
            seconds=float(data["seconds"]),
        )
    except (zlib.error, KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"not an encoded index table: {error!r}") from error


def load_indices(request: IndexRequest, *, compute_inline: bool = True) -> IndexTable:
    """The table of ``request`` from the store; else, where ``compute_inline`` allows
    (the command line), computed now and stored, else `IndexTablePending`."""
    payload = current_store().get(request.key())
    if payload is not None:
        try:
            return decode_table(request, payload)
        except ValueError:
            pass  # unreadable: computed again below, and replaced
    if not compute_inline:
        raise IndexTablePending(f"the index table {request.key()} is not worked out yet")
    return compute_and_store(request)


def compute_and_store(request: IndexRequest, **sample: Any) -> IndexTable:
    """Compute the table of ``request`` now (``sample``: `compute_indices`'s sample
    settings, for tests) and put it in the store."""
    table = compute_indices(
        request.rules, request.system, method=request.method,
        penetration=request.penetration, **sample,
    )  # fmt: skip
    current_store().put(request.key(), encode_table(table))
    return table
