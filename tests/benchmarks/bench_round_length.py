"""Benchmark: how long a live round lasts with bettors behind who never answer.

    .venv/bin/python tests/benchmarks/bench_round_length.py [--rounds 500] [--idle 35]

A table of ann (seat 3, a person who answers every decision of hers the moment it is
asked, with the normal bot's chart) and normal bots in seats 1, 2, 5, 6 and 7; ``--idle``
bettors behind, spread over the seats in turn, answer nothing. Each round is dealt from a
freshly shuffled shoe (seeded by its number) and played on the engine's own clock
(`LiveTable.advance` to each deadline), so the figure is the table's pace, not the
machine's: seconds from the deal to the result, mean, median, 99th percentile and most.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.bots import BOTS, Tier  # noqa: E402
from engine.live_public import Stage  # noqa: E402
from engine.live_table import LiveTable  # noqa: E402
from engine.rules import DELUXE  # noqa: E402
from engine.table import BotSeat  # noqa: E402

SEATS = (1, 2, 3, 5, 6, 7)


def round_length(seed: int, idle: int) -> float:
    bots = [BotSeat(seat, "normal") for seat in SEATS if seat != 3]
    table = LiveTable.new(DELUXE, now=0.0, bots=bots, rng=random.Random(seed))
    table.buy_in("ann", 100_000, now=0.0)
    table.sit("ann", 3, now=0.0)
    for i in range(idle):
        name = f"idle {i}"
        table.buy_in(name, 100_000, now=0.0)
        table.bet_behind(name, SEATS[i % len(SEATS)], 10, now=0.0)
    table.bet("ann", 3, 10, now=1.0)  # the only person seated has bet: dealt at 1
    while table.stage is Stage.PLAYING:
        public = table.public("ann")
        if public.turn is not None and public.turn.owner == "ann" and public.decision:
            table.act("ann", BOTS[Tier.NORMAL](public.decision), now=table.deadline - 10.0)
        else:
            table.advance(table.deadline)
    return table.deadline - table.result_seconds - 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--idle", type=int, default=35)
    args = parser.parse_args()
    lengths = sorted(round_length(seed, args.idle) for seed in range(args.rounds))
    p99 = lengths[min(len(lengths) - 1, int(0.99 * len(lengths)))]
    print(
        f"{args.rounds} rounds, {args.idle} idle bettors behind: mean "
        f"{statistics.mean(lengths):.1f} s, median {statistics.median(lengths):.1f} s, "
        f"p99 {p99:.1f} s, most {lengths[-1]:.1f} s"
    )


if __name__ == "__main__":
    main()
