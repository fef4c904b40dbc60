"""An index table stored as the background job stores it, for the pages that drill it:
the American rules for Hi-Lo (half deck, floored), worked out by `compute_indices` with 24
shoes per count and seed 26 (tests/engine/data/, tests/engine/test_counting_indices.py)."""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

from engine.counting.index_store import IndexRequest
from engine.counting.systems import HI_LO
from engine.rules import AMERICAN
from engine.strategy.store import current_store

DATA = Path(__file__).resolve().parent / "engine" / "data" / "indices_hi_lo_6d_s17_das.json"


def store_index_table() -> dict[str, Any]:
    """Store the table in the store the web app reads; return it, as the command prints it."""
    data: dict[str, Any] = json.loads(DATA.read_text())
    data.setdefault("playing_efficiency", None)  # the file is from before that field
    current_store().put(
        IndexRequest(AMERICAN, HI_LO).key(), zlib.compress(json.dumps(data).encode())
    )
    return data
