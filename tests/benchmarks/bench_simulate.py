"""Benchmark: the engine's simulation speed against two blackjack engines from PyPI.

    .venv/bin/python tests/benchmarks/bench_simulate.py [--rounds 1000000]

Runs, interleaved in one run and each pinned to the same single core: our ``python -m
engine simulate --rules european --tier hard`` (the full engine: each round a real round
of a `Round`, legal actions, a `PlayerView` per decision, dealer play, settlement) and the
reference engines of ``third_party.py``. The references are installed only here, in a
throwaway virtualenv (``.bench-venv/``, git-ignored), never as project dependencies. It
prints each engine's best rounds per second over ``--repeat`` runs and the ratios; the
machines are shared and noisy, so only ratios measured side by side mean anything.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH_VENV = ROOT / ".bench-venv"
REFERENCES = ("blackjack-api", "blackjack21")
TARGET_RATIO = 2.5


def _pin_to_one_core() -> None:
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def _json_line(command: list[str]) -> dict[str, object]:
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, check=True,
        preexec_fn=_pin_to_one_core,
    )  # fmt: skip
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _reference_python() -> str:
    python = BENCH_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *REFERENCES], check=True)
    return str(python)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1_000_000, help="rounds of our engine")
    parser.add_argument("--reference-rounds", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    reference_python = _reference_python()
    ours = [sys.executable, "-m", "engine", "simulate", "--rules", "european",
            "--tier", "hard", "--rounds", str(args.rounds), "--seed", str(args.seed)]  # fmt: skip
    best: dict[str, dict[str, object]] = {}
    for _ in range(args.repeat):
        runs = [("engine", ours)] + [
            (name, [reference_python, "tests/benchmarks/third_party.py", "--engine", name,
                    "--rounds", str(args.reference_rounds), "--seed", str(args.seed)])
            for name in REFERENCES
        ]  # fmt: skip
        for name, command in runs:
            result = _json_line(command)
            if name not in best or float(result["rounds_per_second"]) > float(  # type: ignore[arg-type]
                best[name]["rounds_per_second"]  # type: ignore[arg-type]
            ):
                best[name] = result
    speed = {name: float(result["rounds_per_second"]) for name, result in best.items()}  # type: ignore[arg-type]
    fastest = max(REFERENCES, key=speed.__getitem__)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {_cpu_model()}, "
          f"Python {platform.python_version()}, one core each")  # fmt: skip
    for name in ("engine", *REFERENCES):
        result = best[name]
        print(f"{name:14} {speed[name]:>10,.0f} rounds/s  mean {float(result['mean']):+.4f}"  # type: ignore[arg-type]
              f"  ({result.get('rounds')} rounds)")  # fmt: skip
    ratio = speed["engine"] / speed[fastest]
    verdict = "meets" if ratio >= TARGET_RATIO else "misses"
    print(f"engine / {fastest} = {ratio:.2f}x  ({verdict} the {TARGET_RATIO:g}x target)")


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    main()
