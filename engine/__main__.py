"""The engine's command line: ``play``, ``simulate``, ``chart``, ``ev``, ``edge``, ``eor``,
``indices`` and ``efficiency``.

Bad arguments, rules out of range included, print a usage message and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import TextIO

from engine.cards import CARDS
from engine.counting.cli import add_counter_options, run_counter, wants_counter
from engine.counting.effects import effects_of_removal
from engine.counting.efficiency import playing_efficiency
from engine.counting.index_store import IndexRequest, load_indices
from engine.counting.indices import compute_indices, mean_tags
from engine.counting.ratings import system_ratings
from engine.counting.simulated_efficiency import simulated_efficiency
from engine.counting.systems import SYSTEMS
from engine.counting.true_count import DEFAULT_METHOD, Conversion, DeckEstimate, TrueCountMethod
from engine.errors import EngineError, IllegalActionError
from engine.hand import hand_value
from engine.round import Phase, Round
from engine.rules import PRESETS, Rules, preset
from engine.shoe import Shoe
from engine.simulate import simulate
from engine.strategy import chart_csv, chart_text, compute_strategy, strategy_for
from engine.values import Action

_KEYS = {"h": Action.HIT, "s": Action.STAND, "d": Action.DOUBLE, "p": Action.SPLIT,
         "r": Action.SURRENDER, "i": Action.INSURE, "n": Action.NO_INSURANCE}  # fmt: skip


#: What each command and option is for, as ``--help`` says it.
HELP = {
    "play": "play rounds against the dealer in the terminal",
    "simulate": "play many rounds with a bot, or a card counter; print JSON",
    "chart": "the exact basic-strategy chart of the rules",
    "ev": "each action's EV for one two-card hand (a natural: its value); JSON",
    "edge": "expected return of the chart and of optimal play; print JSON",
    "eor": "effect of removing one card of each rank, and every system's ratings; JSON",
    "--strategy": "fixed (default): the full shoe's basic strategy held; optimal: re-optimised",
    "indices": "index plays computed for the rules and a counting system; JSON",
    "efficiency": "playing efficiency of counting systems' index tables, by simulation; JSON",
    "--system": "the counting system: " + ", ".join(sorted(SYSTEMS)),
    "--systems": "the counting systems, by commas (default hi-lo); their index tables are "
    "read from the store, or worked out and stored first (a minute or two each)",
    "--shoes": "shoes simulated, each analysed exactly (about 0.3 s each for six decks)",
    "--estimate": "how finely the decks left are judged: full, half (default), quarter, exact",
    "--rounding": "how the true count is made whole: floor (default), truncate, round",
    "--penetration": "share of the shoe dealt before the shuffle, e.g. 0.75 (default: the rules')",
    "--per-count": "shoes analysed exactly per true count (more: slower, less noise)",
    "--set": "override a rule, e.g. --set decks=2 --set dealer_hits_soft_17=true",
    "--seed": "seed the shuffle (repeatable runs)",
    "--no-cache": "compute afresh (for benchmarks)",
    "--hand": "two ranks, e.g. 10,6 or A,7",
    "--up": "the dealer's up card rank, e.g. 10 or A",
    "--tier": "the bot (required without a counter; a counter's base strategy, default hard)",
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    def with_rules(command: argparse.ArgumentParser) -> None:
        command.add_argument("--rules", default="european", choices=sorted(PRESETS))
        command.add_argument(
            "--set",
            action="append",
            default=[],
            metavar="FIELD=VALUE",
            help=HELP["--set"],
        )
        command.add_argument("--seed", type=int, help=HELP["--seed"])

    def with_count_method(command: argparse.ArgumentParser) -> None:
        command.add_argument(
            "--estimate",
            choices=[e.value for e in DeckEstimate],
            default=DEFAULT_METHOD.estimate.value,
            metavar="E",
            help=HELP["--estimate"],
        )
        command.add_argument(
            "--rounding",
            choices=[c.value for c in Conversion],
            default=DEFAULT_METHOD.conversion.value,
            metavar="R",
            help=HELP["--rounding"],
        )
        command.add_argument("--penetration", type=_share, metavar="P", help=HELP["--penetration"])

    play = commands.add_parser("play", help=HELP["play"])
    with_rules(play)
    play.add_argument("--bankroll", type=_positive, default=1000)
    play.add_argument("--bet", type=_positive, default=10)

    sim = commands.add_parser("simulate", help=HELP["simulate"])
    with_rules(sim)
    sim.add_argument("--tier", choices=("easy", "normal", "hard"), help=HELP["--tier"])
    sim.add_argument("--rounds", required=True, type=_positive)
    add_counter_options(sim)

    def analysed(name: str) -> argparse.ArgumentParser:
        command = commands.add_parser(name, help=HELP[name])
        with_rules(command)
        command.add_argument("--no-cache", action="store_true", help=HELP["--no-cache"])
        return command

    chart = analysed("chart")
    chart.add_argument("--format", choices=("csv", "text"), default="csv")
    ev = analysed("ev")
    ev.add_argument("--hand", required=True, help=HELP["--hand"])
    ev.add_argument("--up", required=True, help=HELP["--up"])
    analysed("edge")
    eor = commands.add_parser("eor", help=HELP["eor"])
    with_rules(eor)
    eor.add_argument("--strategy", choices=("fixed", "optimal"), default="fixed",
                     metavar="S", help=HELP["--strategy"])  # fmt: skip
    indices = commands.add_parser("indices", help=HELP["indices"])
    with_rules(indices)
    indices.add_argument("--system", required=True, choices=sorted(SYSTEMS), metavar="S",
                         help=HELP["--system"])  # fmt: skip
    with_count_method(indices)
    indices.add_argument("--per-count", type=_positive, default=12, metavar="K",
                         help=HELP["--per-count"])  # fmt: skip
    efficiency = commands.add_parser("efficiency", help=HELP["efficiency"])
    with_rules(efficiency)
    efficiency.add_argument("--systems", type=_systems, default=["hi-lo"], metavar="S,S",
                            help=HELP["--systems"])  # fmt: skip
    with_count_method(efficiency)
    efficiency.add_argument("--shoes", type=_positive, default=400, metavar="N",
                            help=HELP["--shoes"])  # fmt: skip
    return parser


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value}")
    return value


def _systems(text: str) -> list[str]:
    keys = [key.strip() for key in text.split(",") if key.strip()]
    unknown = [key for key in keys if key not in SYSTEMS]
    if not keys or unknown:
        known = ", ".join(sorted(SYSTEMS))
        raise argparse.ArgumentTypeError(f"not a counting system: {text!r} (known: {known})")
    return keys


def _count_method(args: argparse.Namespace) -> TrueCountMethod:
    """The true-count method of ``with_count_method``'s options."""
    return TrueCountMethod(DeckEstimate(args.estimate), Conversion(args.rounding))


def _share(text: str) -> Fraction:
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1: {text}")
    return value


def _rules(parser: argparse.ArgumentParser, name: str, settings: list[str]) -> Rules:
    overrides = {}
    for setting in settings:
        field, sep, value = setting.partition("=")
        if not sep:
            parser.error(f"--set takes FIELD=VALUE, not {setting!r}")
        overrides[field.strip()] = value.strip()
    try:
        return preset(name).with_overrides(overrides)
    except EngineError as error:
        parser.error(str(error))


def main(
    argv: Sequence[str] | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout
) -> int:
    """Run one command; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    penetration = getattr(args, "penetration", None)  # the counter's shorthand for --set
    rules = _rules(
        parser, args.rules, [*args.set, *([f"penetration={penetration}"] * bool(penetration))]
    )
    try:
        return _run(rules, args, stdin, stdout)
    except EngineError as error:  # rules the command cannot handle: a message, no traceback
        parser.error(str(error))


def _run(rules: Rules, args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    if args.command == "simulate":
        if wants_counter(args):
            print(json.dumps(run_counter(rules, args)), file=stdout)
            return 0
        if args.tier is None:
            raise EngineError("the following arguments are required: --tier (or --system)")
        result = simulate(rules, args.tier, args.rounds, seed=args.seed)
        print(json.dumps(result.to_json()), file=stdout)
        return 0
    if args.command == "play":
        return _play(rules, args, stdin, stdout)
    if args.command == "indices":
        table = compute_indices(
            rules,
            SYSTEMS[args.system],
            method=_count_method(args),
            penetration=args.penetration,
            per_count=args.per_count,
            seed=26 if args.seed is None else args.seed,
        )
        print(json.dumps(table.to_json()), file=stdout)
        return 0
    if args.command == "efficiency":
        tables = [
            load_indices(IndexRequest(rules, SYSTEMS[key], _count_method(args), args.penetration))
            for key in args.systems
        ]
        found = simulated_efficiency(tables, shoes=args.shoes,
                                     seed=27 if args.seed is None else args.seed)  # fmt: skip
        print(json.dumps(found.to_json()), file=stdout)
        return 0
    if args.command == "eor":
        effects = effects_of_removal(rules, args.strategy)
        ratings = {key: {**system_ratings(system, effects.percent, rules),
                         "playing": playing_efficiency(mean_tags(system), rules)}
                   for key, system in SYSTEMS.items()}  # fmt: skip
        print(json.dumps({**effects.to_json(), "ratings": ratings}), file=stdout)
        return 0
    strategy = compute_strategy(rules) if args.no_cache else strategy_for(rules)
    if args.command == "chart":
        print(
            (chart_csv if args.format == "csv" else chart_text)(strategy.chart), end="", file=stdout
        )
    elif args.command == "ev":
        evs = strategy.ev(args.hand, args.up)  # checks the ranks, for a natural too
        if _is_natural(args.hand):
            # No play is taken on a natural: it is paid (or pushes a dealer natural).
            natural = {"natural": True, "value": _natural_value(rules, args.up)}
            print(json.dumps(natural), file=stdout)
        else:
            print(json.dumps(evs.as_dict()), file=stdout)
    else:
        print(json.dumps(strategy.edge_json()), file=stdout)
    return 0


def _tens(text: str) -> str:
    rank = text.strip().upper()
    return "10" if rank in ("T", "J", "Q", "K") else rank


def _is_natural(hand: str) -> bool:
    return sorted(_tens(rank) for rank in hand.split(",")) == ["10", "A"]


def _natural_value(rules: Rules, up: str) -> float:
    """A natural's value in bets: the payout, times the chance that the dealer has no
    natural where the dealer does not peek (a dealer natural pushes it). With a peek the
    EVs are conditioned on no dealer natural, so it is the payout."""
    payout = float(rules.blackjack_pays)
    up_rank = _tens(up)
    if rules.dealer_peeks or up_rank not in ("10", "A"):
        return payout
    left = 52 * rules.decks - 3  # the player's ace and ten and the up card are out
    # The hole card that makes the dealer's natural; one of its kind is in the player's hand.
    completing = 16 * rules.decks - 1 if up_rank == "A" else 4 * rules.decks - 1
    return payout * (1 - completing / left)


def _play(rules: Rules, args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    """A text table: one seat against the dealer, until the player quits or is broke."""
    shoe = Shoe.for_rules(rules, random.Random(args.seed) if args.seed is not None else None)
    balances = {"you": args.bankroll}
    keys = ", ".join(f"{key}={action.value}" for key, action in _KEYS.items())
    print(f"{rules.label}: {args.bankroll} chips, {args.bet} a round. Keys: {keys}", file=stdout)
    while balances["you"] >= args.bet:
        rnd = Round(rules, shoe, balances=balances)
        rnd.place_bet(seat=1, amount=args.bet, owner="you")
        rnd.deal()
        while rnd.phase in (Phase.PLAYER_TURNS, Phase.INSURANCE):
            view = rnd.view()
            hands = "  |  ".join(" ".join(map(str, hand)) for hand in view.hands)
            print(f"dealer {view.up_card} ??   you {hands}   (total {view.total})", file=stdout)
            keys = "/".join(k for k, a in _KEYS.items() if a in view.legal)
            print(f"your move [{keys}]: ", end="", file=stdout, flush=True)
            line = stdin.readline()
            if not line:
                return 0
            try:
                rnd.apply(_KEYS.get(line.strip().lower()[:1], line.strip()))
            except IllegalActionError as error:
                print(error, file=stdout)
        dealer = [CARDS[code] for code in rnd.dealer.cards]
        print(f"dealer {' '.join(map(str, dealer))} ({hand_value(dealer).total}); "
              f"you {rnd.net('you'):+} → {balances['you']} chips", file=stdout)  # fmt: skip
        print("another round? [Y/n] ", end="", file=stdout, flush=True)
        if stdin.readline().strip().lower().startswith("n"):
            return 0
    print("not enough chips for another round", file=stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
