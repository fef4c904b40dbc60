"""Benchmark: the cost of one cold analysis, for the presets and the costliest allowed rules.

    .venv/bin/python tests/benchmarks/bench_analysis_budget.py

Each rule set is analysed by `compute_strategy` in a fresh process, so nothing is cached
and the figures are those of a server worker meeting new rules. It prints the child's CPU
seconds (user + system, imports included) and its peak resident memory (interpreter and
numpy included), against the budget of a new analysis: 2 s of CPU and 100 MiB. Like the
web app's analyses (`trainer.shared.analyses.launch`), the child keeps numpy to one thread: on a
shared machine idle BLAS threads spin, and their CPU time would count. The engine's
bytecode is compiled first, as a deployed app's is.
"""

from __future__ import annotations

import compileall
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Every costly field at its limit (all but the deck count).
EVERYTHING_ON: dict[str, object] = {
    "max_hands": 4,
    "resplit_aces": True,
    "hit_split_aces": True,
    "dealer_hits_soft_17": True,
    "surrender": "late",
}

#: name → overrides of a preset; the worst cases push every costly field to its limit.
RULE_SETS: dict[str, tuple[str, dict[str, object]]] = {
    "european": ("european", {}),
    "deluxe": ("deluxe", {}),
    "american": ("american", {}),
    "1 deck, everything on": ("american", {"decks": 1, **EVERYTHING_ON}),
    "8 decks, everything on": ("american", {"decks": 8, **EVERYTHING_ON}),
    "1 deck, no peek, original bets only": (
        "european",
        {"decks": 1, **EVERYTHING_ON, "original_bets_only": True},
    ),
    "1 deck, no peek": (
        "european",
        {"decks": 1, "max_hands": 4, "resplit_aces": True, "hit_split_aces": True},
    ),
}

#: As `trainer.shared.analyses.launch` starts an analysis.
ONE_THREAD = {
    **os.environ,
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}

_CHILD = """
import json, resource, sys
from engine.rules import Rules, preset
from engine.strategy import compute_strategy
base, changes = json.loads(sys.argv[1])
rules = Rules.from_json({**preset(base).to_json(), **changes})
compute_strategy(rules)
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"cpu": usage.ru_utime + usage.ru_stime, "rss_kib": usage.ru_maxrss}))
"""


def measure(base: str, changes: dict[str, object]) -> dict[str, float]:
    """CPU seconds and peak RSS (KiB, as Linux reports it) of one cold analysis."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps([base, changes])],
        cwd=ROOT, capture_output=True, text=True, check=True, env=ONE_THREAD,
    )  # fmt: skip
    return dict(json.loads(done.stdout))


def main() -> None:
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    compileall.compile_dir(ROOT / "engine", quiet=1)
    for name, (base, changes) in RULE_SETS.items():
        figures = measure(base, changes)
        mib = figures["rss_kib"] / 1024
        verdict = "within" if figures["cpu"] <= 2.0 and mib <= 100 else "OVER"
        print(f"{name:38} CPU {figures['cpu']:.2f} s, peak RSS {mib:.0f} MiB ({verdict} budget)")


if __name__ == "__main__":
    main()
