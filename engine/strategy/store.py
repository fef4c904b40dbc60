"""Analyses kept on disk, keyed by a hash of the rules, so that no process — a web worker,
the command line — waits for an analysis another one has already computed."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from engine.rules import Rules
from engine.strategy import ActionEVs, Strategy, compute_strategy

__all__ = [
    "ANALYSIS_VERSION",
    "default_directory",
    "load_strategy",
    "rules_key",
    "use_directory",
]

#: Bump when the analysis changes what it computes, so that stored results are redone.
ANALYSIS_VERSION = 3
_FIELDS = ("stand", "hit", "double", "split", "surrender")


def rules_key(rules: Rules) -> str:
    """A stable hash of every rule field and of the analysis version."""
    text = json.dumps({"analysis": ANALYSIS_VERSION, "rules": rules.to_json()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


_configured: Path | None = None


def use_directory(directory: Path | None) -> None:
    """Keep analyses in ``directory`` from now on (the web app sets it from its settings)."""
    global _configured
    _configured = directory


def default_directory() -> Path:
    """The folder given to `use_directory`, else ``$BLACKJACK_STRATEGY_CACHE``, else the
    user's cache folder."""
    if _configured is not None:
        return _configured
    configured = os.environ.get("BLACKJACK_STRATEGY_CACHE")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "blackjack-trainer" / "strategy"


def load_strategy(rules: Rules, directory: Path | None = None) -> Strategy:
    """The analysis of ``rules`` from disk, else computed now and written there."""
    directory = directory or default_directory()
    path = directory / f"{rules_key(rules)}.json"
    try:
        return _from_json(rules, json.loads(path.read_text()))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    strategy = compute_strategy(rules)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=directory, delete=False, suffix=".tmp") as out:
            json.dump(_to_json(strategy), out)
        os.replace(out.name, path)  # atomic: readers never see half a file
    except OSError:
        pass  # a read-only disk only costs the next process a recomputation
    return strategy


def _to_json(strategy: Strategy) -> dict[str, Any]:
    return {
        "chart": strategy.chart,
        "evs": [
            [*key, *(getattr(evs, name) for name in _FIELDS)] for key, evs in strategy.evs.items()
        ],
        "multi_card_evs": [
            [*counts, *(ev for pair in values for ev in pair)]
            for counts, values in strategy.multi_card_evs.items()
        ],
        "expected_return": strategy.expected_return,
        "cd_expected_return": strategy.cd_expected_return,
    }


def _from_json(rules: Rules, data: dict[str, Any]) -> Strategy:
    return Strategy(
        rules=rules,
        chart={row: dict(cells) for row, cells in data["chart"].items()},
        evs={(int(a), int(b), int(up)): ActionEVs(*values) for a, b, up, *values in data["evs"]},
        multi_card_evs={
            tuple(int(k) for k in row[:10]): tuple(
                (float(row[i]), float(row[i + 1])) for i in range(10, 30, 2)
            )
            for row in data["multi_card_evs"]
        },
        expected_return=float(data["expected_return"]),
        cd_expected_return=float(data["cd_expected_return"]),
    )
