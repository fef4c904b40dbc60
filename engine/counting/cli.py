"""The counter's options of ``python -m engine simulate``, and their run.

With ``--system`` the simulation plays a counter (`engine.counting.simulation`); without
it, the bot of ``--tier`` flat-bets as before.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.counting.index_table import INDEX_TABLES, IndexPlay, parse_index_table
from engine.counting.risk import BetRamp, linear_advantage, optimal_bet_ramp, parse_ramp
from engine.counting.simulation import FLAT, CounterSettings, simulate_counter
from engine.counting.systems import SYSTEMS, CountingError, CountingSystem, custom_system
from engine.counting.true_count import Conversion, DeckEstimate, TrueCountMethod
from engine.rules import Rules

__all__ = ["COUNTER_OPTIONS", "add_counter_options", "run_counter"]

HELP = {
    "--system": "play a counter with this counting system (see docs/counting.md)",
    "--tags": "a custom system: RANK=TAG for 2 to 10 and A, e.g. 2=1,3=1,…,10=-1,A=-1",
    "--estimate": "the decks-left estimate of the true count (default half)",
    "--rounding": "the true count's conversion (default floor)",
    "--indices": "index plays: none, i18, fab4, i18+fab4, or a JSON file of the indices command",
    "--ramp": "bets in units by count, e.g. 1:2,2:4,3:8 (higher counts bet the last)",
    "--min-bet": "the bet in units below the ramp's lowest count (default 1)",
    "--optimal-ramp": "instead of --ramp: the Kelly ramp for --bank from MIN to MAX units, "
    "e.g. 1:12, from the advantage by count a flat-bet run measures first",
    "--penetration": "share of the shoe dealt before the cut card, e.g. 5/6",
    "--others": "other players at the table, before the counter (default 0)",
    "--enter": "back-count: join the table at this count or more",
    "--leave": "back-count: leave the table below this count",
    "--bank": "bankroll in units whose risk of ruin is reported (default 1000)",
    "--processes": "processes to play on (default: every core)",
}

#: The options that make sense only for a counter.
COUNTER_OPTIONS = (
    "tags", "estimate", "rounding", "indices", "ramp", "min_bet", "optimal_ramp",
    "penetration", "others", "enter", "leave", "bank",
)  # fmt: skip


def add_counter_options(command: argparse.ArgumentParser) -> None:
    """The counter's options, on the ``simulate`` command."""
    group = command.add_argument_group("a counter (with --system or --tags)")
    group.add_argument("--system", choices=sorted(SYSTEMS), help=HELP["--system"])
    group.add_argument("--tags", help=HELP["--tags"])
    group.add_argument(
        "--estimate", choices=[e.value for e in DeckEstimate], help=HELP["--estimate"]
    )
    group.add_argument("--rounding", choices=[c.value for c in Conversion], help=HELP["--rounding"])
    group.add_argument("--indices", help=HELP["--indices"])
    group.add_argument("--ramp", help=HELP["--ramp"])
    group.add_argument("--min-bet", type=int, help=HELP["--min-bet"])
    group.add_argument("--optimal-ramp", help=HELP["--optimal-ramp"])
    group.add_argument("--penetration", help=HELP["--penetration"])
    group.add_argument("--others", type=int, help=HELP["--others"])
    group.add_argument("--enter", type=int, help=HELP["--enter"])
    group.add_argument("--leave", type=int, help=HELP["--leave"])
    group.add_argument("--bank", type=int, help=HELP["--bank"])
    group.add_argument("--processes", type=int, help=HELP["--processes"])


def wants_counter(args: argparse.Namespace) -> bool:
    """Whether the options ask for a counter; `CountingError` for counter options alone."""
    if args.system or args.tags:
        return True
    given = [name for name in COUNTER_OPTIONS if getattr(args, name) is not None]
    if given:
        options = ", ".join("--" + name.replace("_", "-") for name in given)
        verb = "needs" if len(given) == 1 else "need"
        raise CountingError(f"{options} {verb} a counter: give --system or --tags")
    return False


def run_counter(rules: Rules, args: argparse.Namespace) -> dict[str, Any]:
    """Play the counter the options describe; its figures as the JSON object to print."""
    system = _system(args.system, args.tags)
    method = TrueCountMethod(
        DeckEstimate(args.estimate or DeckEstimate.HALF),
        Conversion(args.rounding or Conversion.FLOOR),
    )
    settings = CounterSettings(
        system=system,
        method=method,
        indices=_indices(args.indices or "none"),
        ramp=_ramp(args.ramp, 1 if args.min_bet is None else args.min_bet),
        others=args.others or 0,
        enter=args.enter,
        leave=args.leave,
        bank=1000 if args.bank is None else args.bank,
        tier=args.tier or "hard",
    )
    seed, optimal = args.seed, None
    if args.optimal_ramp is not None:
        if args.ramp is not None or args.min_bet is not None:
            raise CountingError("give --optimal-ramp or --ramp and --min-bet, not both")
        lowest, highest = _limits(args.optimal_ramp)
        flat = simulate_counter(
            rules, replace(settings, ramp=FLAT), args.rounds, seed=seed, processes=args.processes
        )
        seed = flat.seed  # the same shoes again, with the ramp
        ramp = optimal_bet_ramp(
            linear_advantage(flat.by_count),
            variance=flat.sd_per_round**2,
            bank=settings.bank,
            minimum=lowest,
            maximum=highest,
        )
        settings = replace(settings, ramp=ramp)
        optimal = {"flat_edge": flat.edge, "flat_edge_stderr": flat.win_per_round_stderr}
    result = simulate_counter(rules, settings, args.rounds, seed=seed, processes=args.processes)
    stderr = result.win_per_round_stderr / result.average_bet
    # The flat simulation's keys first, with the same meanings: mean is per unit bet.
    return {
        "rules": result.rules,
        "tier": settings.tier,
        "rounds": result.rounds_dealt,
        "mean": result.edge,
        "stderr": stderr,
        "rounds_per_second": result.rounds_per_second,
        **result.to_json(),
        "estimate": method.estimate.value,
        "rounding": method.conversion.value,
        "indices": args.indices or "none",
        "ramp": settings.ramp.to_json(),
        "penetration": str(rules.penetration),
        "others": settings.others,
        "enter": settings.enter,
        "leave": settings.leave,
        **(optimal or {}),
    }


def _system(key: str | None, tags: str | None) -> CountingSystem:
    if key and tags:
        raise CountingError("give --system or --tags, not both")
    if key:
        return SYSTEMS[key]
    assert tags is not None
    pairs: dict[str, object] = {}
    for part in tags.replace(" ", "").split(","):
        rank, sep, tag = part.partition("=")
        if not sep:
            raise CountingError(f"--tags takes RANK=TAG pairs, not {part!r}")
        pairs[rank] = tag
    return custom_system(pairs)


def _indices(text: str) -> tuple[IndexPlay, ...]:
    key = text.strip().lower()
    if key in INDEX_TABLES:
        return INDEX_TABLES[key]
    path = Path(text)
    if not path.is_file():
        raise CountingError(
            f"--indices takes {', '.join(INDEX_TABLES)} or a JSON file: no file {text!r}"
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CountingError(f"cannot read the index plays in {text!r}: {error}") from None
    return parse_index_table(data)


def _limits(text: str) -> tuple[int, int]:
    low, sep, high = text.replace(" ", "").partition(":")
    try:
        if not sep:
            raise ValueError
        lowest, highest = int(low), int(high)
    except ValueError:
        raise CountingError(f"--optimal-ramp takes MIN:MAX in units, not {text!r}") from None
    if not 1 <= lowest <= highest:
        raise CountingError(f"--optimal-ramp needs 1 <= MIN <= MAX units, not {text!r}")
    return lowest, highest


def _ramp(text: str | None, below: int) -> BetRamp:
    try:
        return parse_ramp(text or "", below)
    except CountingError as error:
        raise CountingError(f"--ramp: {error}") from None
