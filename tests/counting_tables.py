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
    current_store().put(
        IndexRequest(AMERICAN, HI_LO).key(), zlib.compress(json.dumps(data).encode())
    )
    return data


#: The American rules with H17 and late surrender, as a player writes the changes.
CUSTOM_CHANGES = "dealer_hits_soft_17=true, surrender=late"
CUSTOM_DATA = DATA.with_name("indices_hi_lo_6d_h17_das_ls_hard_14_16.json")


def store_custom_index_table() -> dict[str, Any]:
    """The Hi-Lo table of the American rules with `CUSTOM_CHANGES` (its hard 14 to 16 rows
    only: the Fab 4's), stored under the key the player's changes make."""
    data: dict[str, Any] = json.loads(CUSTOM_DATA.read_text())
    rules = AMERICAN.with_overrides({"dealer_hits_soft_17": "true", "surrender": "late"})
    current_store().put(IndexRequest(rules, HI_LO).key(), zlib.compress(json.dumps(data).encode()))
    return data
