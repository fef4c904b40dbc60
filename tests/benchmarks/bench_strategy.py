"""Benchmark: cold cost of the exact strategy analysis, and the cost of a cached lookup.

    .venv/bin/python tests/benchmarks/bench_strategy.py [--repeat N]

For each preset, a fresh process (so that nothing is cached) starts Python, imports the
engine, runs the analysis as the command line does (`strategy_for`: dealer probabilities
and hand EVs, the chart, every two-card EV, the edge of the chart and of optimal play) and
puts it in an empty folder store, then exits. The figures are the whole process's: wall
seconds from start to exit, CPU seconds and peak resident memory, with the child's own
split of the wall time. Like the web app's analyses, the child keeps numpy to one thread.
The engine's bytecode is compiled first, as an installed app's is (with
``PYTHONDONTWRITEBYTECODE`` set, every cold process would compile it again).
Then it times a chart-cell read and an EV read of a cached analysis. Targets: a cold
analysis within 0.8 s and 100 MiB, a cached lookup within 10 µs.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_COLD = """
import time
started = time.perf_counter()
import json, sys
from pathlib import Path
from engine.rules import preset
from engine.strategy import strategy_for
from engine.strategy.store import use_directory
imported = time.perf_counter()
use_directory(Path(sys.argv[1]))
strategy = strategy_for(preset({name!r}))
stored = time.perf_counter()
parts = {{"imports": imported - started, **strategy.timings}}
parts["store"] = stored - imported - parts.pop("total")
print(json.dumps(parts))
"""

#: As `trainer.shared.analyses.launch` starts an analysis.
ONE_THREAD = {
    **os.environ,
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


def cold(name: str) -> dict[str, float]:
    """One cold process analysing preset ``name``: wall, CPU, peak RSS and its parts."""
    with tempfile.TemporaryDirectory() as store:
        started = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-c", _COLD.format(name=name), store],
            cwd=ROOT, stdout=subprocess.PIPE, text=True, env=ONE_THREAD,
        )  # fmt: skip
        assert child.stdout is not None
        output = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"the analysis of {name} failed")
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss_mib": usage.ru_maxrss / 1024,  # Linux reports KiB
        **json.loads(output),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="cold runs per preset")
    repeat = parser.parse_args().repeat
    compileall.compile_dir(ROOT / "engine", quiet=1)
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
        f", load {os.getloadavg()[0]:.1f}"
    )
    for name in ("european", "deluxe", "american"):
        runs = [cold(name) for _ in range(repeat)]
        wall = sorted(run["wall"] for run in runs)
        cpu = sorted(run["cpu"] for run in runs)
        rss = max(run["rss_mib"] for run in runs)
        parts = ", ".join(
            f"{part} {statistics.median(run[part] for run in runs):.3f}"
            for part in runs[0]
            if part not in ("wall", "cpu", "rss_mib")
        )
        verdict = "within" if statistics.median(wall) <= 0.8 and rss <= 100 else "OVER"
        print(
            f"{name:9} cold {statistics.median(wall):.3f} s ({wall[0]:.3f}-{wall[-1]:.3f}), "
            f"CPU {statistics.median(cpu):.3f} s, peak {rss:.0f} MiB ({verdict} 0.8 s, 100 MiB)"
            f"; median parts: {parts}"
        )

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
