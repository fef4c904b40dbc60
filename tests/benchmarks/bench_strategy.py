"""Benchmark: cold cost of the exact strategy analysis, and the cost of a cached lookup.

    .venv/bin/python tests/benchmarks/bench_strategy.py

For each preset, in a fresh process (so that nothing is cached, imports included), it
times `compute_strategy` — dealer probabilities and hand EVs, the chart, all two-card EVs
for all ten up cards, and the edge of the chart and of optimal play — and prints the split.
Then it times a chart-cell read and an EV read of a cached analysis. Targets: a cold
analysis within 2 s, a cached lookup within 10 µs.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_COLD = """
import json, time
started = time.perf_counter()
from engine.rules import preset
from engine.strategy import compute_strategy
imported = time.perf_counter()
strategy = compute_strategy(preset({name!r}))
print(json.dumps({{"imports": imported - started, **strategy.timings}}))
"""


def main() -> None:
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    for name in ("european", "deluxe", "american"):
        done = subprocess.run(
            [sys.executable, "-c", _COLD.format(name=name)],
            cwd=ROOT, capture_output=True, text=True, check=True,
        )  # fmt: skip
        parts = json.loads(done.stdout)
        split = ", ".join(
            f"{part} {seconds:.3f}" for part, seconds in parts.items() if part != "total"
        )
        verdict = "within" if parts["total"] <= 2.0 else "OVER"
        print(f"{name:9} cold {parts['total']:.3f} s ({verdict} 2 s): {split}")

    from engine.rules import EUROPEAN
    from engine.strategy import strategy_for

    strategy = strategy_for(EUROPEAN)
    rounds = 200_000
    cell = timeit.timeit(lambda: strategy.chart["hard 16"]["10"], number=rounds) / rounds
    ev = timeit.timeit(lambda: strategy.evs[5, 9, 9], number=rounds) / rounds
    parsed = timeit.timeit(lambda: strategy.ev("10,6", "10"), number=rounds) / rounds
    print(f"cached chart cell {cell * 1e6:.2f} µs, EV by index {ev * 1e6:.2f} µs, "
          f"EV from text {parsed * 1e6:.2f} µs (target 10 µs)")  # fmt: skip


if __name__ == "__main__":
    main()
