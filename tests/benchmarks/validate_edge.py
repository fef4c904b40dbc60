"""Validation (not run in CI): the exact analysis's expected return against the engine's
own round state machine.

    .venv/bin/python tests/benchmarks/validate_edge.py [--rounds 5000000]

For each preset it simulates ``--rounds`` rounds of the hard tier with `engine.simulate`
(a real `Round` each round, dealt from a shoe with a cut card) and checks that the mean
agrees with ``edge``'s expected return within three standard errors.
"""

from __future__ import annotations

import argparse

from engine.rules import PRESETS
from engine.simulate import simulate
from engine.strategy import strategy_for


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    failures = 0
    for name, rules in PRESETS.items():
        expected = strategy_for(rules).expected_return
        result = simulate(rules, "hard", args.rounds, seed=args.seed)
        gap = (result.mean - expected) / result.stderr
        verdict = "agrees" if abs(gap) <= 3 else "DISAGREES"
        failures += abs(gap) > 3
        print(
            f"{name:9} edge {expected:+.5f}  simulated {result.mean:+.5f} ± {result.stderr:.5f}"
            f"  ({gap:+.2f} SE, {args.rounds:,} rounds)  {verdict}"
        )
    raise SystemExit(1 if failures else 0)


if __name__ == "__main__":
    main()
