"""A counter's own game beside the same game played without mistakes (issue 27).

`your_game` deals the same shoes to a perfect counter, to the counter with all their
slips (`Slips`: the error rates the drills measured), and to the counter with each kind of
slip alone, chunk by chunk (`CHUNK_ROUNDS` rounds, one seed stream each, as
`simulate_counter` deals them). The games share every shoe, and their slips are drawn
apart from the cards, so they part only where a mistake changes a bet or a play, until
the shoe ends: the cost of a kind of mistake is the perfect game's win less the game with
that kind alone, measured chunk by chunk, its standard error from the chunks' spread.
The costs of the kinds need not add up to the whole: one mistake may hide another.

>>> from engine.rules import AMERICAN
>>> from engine.counting.risk import parse_ramp
>>> report = your_game(
...     AMERICAN,
...     CounterSettings(ramp=parse_ramp("2:4, 4:8", below=1)),
...     Slips(bets=0.5),
...     rounds=4000, seed=1, chunk_rounds=1000,
... )
>>> sorted(report.costs), report.perfect.rounds_played
(['bets'], 4000)
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from engine.bots import Tier
from engine.counting.index_store import IndexRequest, load_indices
from engine.counting.index_table import parse_index_table
from engine.counting.risk import BetRamp, linear_advantage, optimal_bet_ramp
from engine.counting.simulation import (
    CHUNK_ROUNDS,
    FLAT,
    NO_SLIPS,
    SLIP_KINDS,
    CounterResult,
    CounterSettings,
    Slips,
    _figures,
    _plain,
    _play_chunk,
    _Tally,
    _unit,
)
from engine.counting.systems import CountingError
from engine.rules import Rules
from engine.strategy import strategy_for

__all__ = [
    "Cost",
    "GameRequest",
    "YourGame",
    "advantage_key",
    "play_request",
    "suggested_ramp",
    "your_game",
]

#: The chunks a request's rounds are dealt in: enough to measure the costs' spread, and
#: as many steps of progress to show.
CHUNKS = 50

PERFECT = "perfect"
YOURS = "yours"
FLAT_BET = "flat"


@dataclass(frozen=True, slots=True)
class Cost:
    """What one kind of mistake (or all of them) costs, in units per 100 rounds, and the
    standard error of that figure."""

    per_100: float
    stderr: float

    def to_json(self) -> dict[str, float]:
        return {"per_100": self.per_100, "stderr": self.stderr}


@dataclass(frozen=True, slots=True)
class YourGame:
    """The perfect game, the player's game, and what each kind of their mistakes costs."""

    slips: Slips
    perfect: CounterResult
    yours: CounterResult
    #: The perfect counter betting one unit at every count: the flat bettor's edge, and
    #: the advantage and spread per unit bet that a suggested ramp is worked out from.
    flat: CounterResult
    #: The cost of all the mistakes together.
    total: Cost
    #: The cost of each kind made alone, for the kinds the player makes.
    costs: dict[str, Cost]

    @property
    def costliest(self) -> str | None:
        """The kind of mistake that costs most, if any costs anything."""
        dear = [kind for kind, cost in self.costs.items() if cost.per_100 > 0]
        return max(dear, key=lambda kind: self.costs[kind].per_100, default=None)

    def to_json(self) -> dict[str, Any]:
        return {
            "slips": {kind: getattr(self.slips, kind) for kind in SLIP_KINDS},
            "perfect": self.perfect.to_json(),
            "yours": self.yours.to_json(),
            "flat": self.flat.to_json(),
            "total": self.total.to_json(),
            "costs": {kind: cost.to_json() for kind, cost in self.costs.items()},
            "costliest": self.costliest,
        }


@dataclass(frozen=True)
class GameRequest:
    """What one simulation of a player's game is of, as a background job keeps it
    (`to_json`) and keys it (`key`): the rules, system and method of their computed index
    table (played in full), their bet ramp, their slips and the rounds dealt."""

    index: IndexRequest
    ramp: BetRamp
    slips: Slips
    rounds: int

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index.to_json(),
            "ramp": self.ramp.to_json(),
            "slips": {kind: getattr(self.slips, kind) for kind in SLIP_KINDS},
            "rounds": self.rounds,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRequest:
        """The inverse of `to_json`."""
        ramp = data["ramp"]
        return cls(
            index=IndexRequest.from_json(data["index"]),
            ramp=BetRamp(
                bets={int(count): int(bet) for count, bet in ramp["bets"].items()},
                below=int(ramp["below"]),
            ),
            slips=Slips(**{kind: float(data["slips"][kind]) for kind in SLIP_KINDS}),
            rounds=int(data["rounds"]),
        )

    def key(self) -> str:
        """A hash of everything the figures depend on, 32 characters like the analyses'
        keys and apart from them (it hashes other text)."""
        data = self.to_json()
        data["index"] = self.index.key()
        text = json.dumps({"game": 1, **data}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def advantage_key(index: IndexRequest) -> str:
    """Where the flat bettor's advantage by count of ``index``'s game is kept (any
    simulation of it stores it: it depends on neither the ramp nor the mistakes)."""
    return hashlib.sha256(f"advantage:{index.key()}".encode()).hexdigest()[:32]


def play_request(request: GameRequest, progress: Callable[[float], None] | None = None) -> YourGame:
    """`your_game` for ``request``, with its stored index table (`IndexTablePending` if it
    is not worked out) and a seed drawn from its key, so that the same request always
    gives the same figures."""
    table = load_indices(request.index, compute_inline=False)
    fields = ("row", "up", "play", "otherwise", "index")
    entries = [{name: getattr(entry, name) for name in fields} for entry in table.entries]
    indices = parse_index_table(entries)
    settings = CounterSettings(
        system=request.index.system,
        method=request.index.method,
        indices=indices,
        ramp=request.ramp,
    )
    rules = request.index.rules.replace(penetration=request.index.penetration)
    seed = int(request.key()[:15], 16)
    chunk = max(1, request.rounds // CHUNKS)
    return your_game(
        rules,
        settings,
        request.slips,
        rounds=request.rounds,
        seed=seed,
        chunk_rounds=chunk,
        progress=progress,
    )


def your_game(
    rules: Rules,
    settings: CounterSettings,
    slips: Slips,
    *,
    rounds: int,
    seed: int,
    chunk_rounds: int = CHUNK_ROUNDS,
    progress: Callable[[float], None] | None = None,
) -> YourGame:
    """Play ``settings`` perfectly, with ``slips``, and with each kind of slip alone, on
    the same ``rounds`` rounds of shoes (in this process: the background job that runs it
    has one core); ``progress`` is told the share done after each chunk."""
    slips.check()
    settings = replace(settings, slips=NO_SLIPS)
    settings.check(rules)
    if rounds < 2 * chunk_rounds:
        raise CountingError("play two chunks at least, to measure the costs' spread")
    kinds = [kind for kind in SLIP_KINDS if getattr(slips, kind)]
    games = {
        PERFECT: settings,
        YOURS: replace(settings, slips=slips),
        FLAT_BET: replace(settings, ramp=FLAT),
        **{kind: replace(settings, slips=slips.only(kind)) for kind in kinds if len(kinds) > 1},
    }
    chart = _plain(strategy_for(rules).chart) if settings.tier == Tier.HARD else None
    totals = {name: _Tally() for name in games}
    # Per chunk, each game's win in units: the costs are measured chunk by chunk.
    wins: dict[str, list[float]] = {name: [] for name in games}
    unit = _unit(rules)
    starts = range(0, rounds, chunk_rounds)
    for done, (number, start) in enumerate(enumerate(starts), start=1):
        size = min(chunk_rounds, rounds - start)
        for name, game in games.items():
            tally = _play_chunk((rules, game, chart, seed, number, size))
            totals[name] = totals[name].plus(tally)
            wins[name].append(float(tally.sums[0]) / unit)
        if progress is not None:
            progress(done / len(starts))
    results = {name: _figures(rules, games[name], totals[name], seed, 1, 0.0) for name in games}
    played = results[PERFECT].rounds_played
    alone = {kinds[0]: YOURS} if len(kinds) == 1 else {kind: kind for kind in kinds}
    return YourGame(
        slips=slips,
        perfect=results[PERFECT],
        yours=results[YOURS],
        flat=results[FLAT_BET],
        total=_cost(wins[PERFECT], wins[YOURS], played),
        costs={kind: _cost(wins[PERFECT], wins[name], played) for kind, name in alone.items()},
    )


def _cost(perfect: list[float], slipped: list[float], played: int) -> Cost:
    """The perfect game's win less the slipped game's, per 100 rounds, with the standard
    error of the chunks' paired differences (the chunks are independent)."""
    differences = [a - b for a, b in zip(perfect, slipped, strict=True)]
    k = len(differences)
    mean = sum(differences) / k
    spread = sum((d - mean) ** 2 for d in differences) / (k - 1)
    stderr = 100 * math.sqrt(spread * k) / played
    return Cost(per_100=100 * sum(differences) / played, stderr=stderr)


def suggested_ramp(
    by_count: dict[int, tuple[int, float]],
    variance: float,
    *,
    bank: int,
    risk: float,
    minimum: int = 1,
    maximum: int,
) -> BetRamp:
    """The ramp the engine suggests: bets in proportion to the advantage at each count
    (`optimal_bet_ramp`, from the straight line through a flat bettor's ``by_count``, with
    ``variance`` per unit bet), at the fraction of Kelly whose risk of ruin is ``risk``
    (full Kelly's is e⁻² = 13.5%; a fraction k of it, e^(−2/k)), within ``minimum`` and
    ``maximum`` units. Only the counts where the bet rises are listed.

    >>> line = {0: (900, -0.005), 1: (300, 0.0), 2: (200, 0.005), 3: (100, 0.01)}
    >>> ramp = suggested_ramp(line, 1.3, bank=1000, risk=0.05, maximum=12)
    >>> ramp.to_json()
    {'bets': {'2': 2, '3': 5, '4': 7, '5': 10, '6': 12}, 'below': 1}
    """
    if not 0 < risk < 1:
        raise CountingError(f"a risk is above 0 and below 1: {risk}")
    kelly = min(1.0, -2 / math.log(risk))
    full = optimal_bet_ramp(
        linear_advantage(by_count),
        variance=variance,
        bank=bank,
        minimum=minimum,
        maximum=maximum,
        kelly=kelly,
    )
    rises: dict[int, int] = {}
    for count, bet in sorted(full.bets.items()):
        if bet > max(rises.values(), default=minimum):
            rises[count] = bet
    return BetRamp(bets=rises, below=minimum)
