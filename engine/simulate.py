"""Monte Carlo play of many rounds by one bot: the engine's speed and a check on its EVs."""

from __future__ import annotations

import math
import random
import time
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

from engine.bots import BOTS, Tier, hard_bot
from engine.errors import EngineError
from engine.round import Phase, Round
from engine.rules import Rules
from engine.shoe import Shoe

__all__ = ["SimulationResult", "simulate"]


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """Mean result per initial bet (a statistic, so a float), with its standard error."""

    rules: str
    tier: str
    rounds: int
    mean: float
    stderr: float
    rounds_per_second: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def simulate(rules: Rules, tier: str, rounds: int, *, seed: int | None = None) -> SimulationResult:
    """Play ``rounds`` rounds of one seat played by the ``tier`` bot, with the full engine.

    Each round is a real round of a `Round` (the next, by `Round.next_round`, on the same
    seat): legal actions, the bot's `PlayerView`, dealer play and settlement, exactly as
    at the table.

    >>> from engine.rules import EUROPEAN
    >>> result = simulate(EUROPEAN, "normal", 2000, seed=7)
    >>> result.rounds, -0.2 < result.mean < 0.2
    (2000, True)
    """
    if tier not in BOTS:
        raise EngineError(f"unknown tier {tier!r}: choose one of {', '.join(BOTS)}")
    if rounds < 1:
        raise EngineError("rounds must be at least 1")
    # The hard tier's chart is computed (once) before the clock starts.
    bot = hard_bot(rules) if tier == Tier.HARD else BOTS[Tier(tier)]
    shoe = Shoe.for_rules(rules, random.Random(seed) if seed is not None else None)
    # A bet that keeps every payout (3:2, half-bet surrender and insurance) whole chips.
    bet = 2 * rules.blackjack_pays.denominator
    total: int | Fraction = 0
    total_squares: int | Fraction = 0
    deciding = (Phase.PLAYER_TURNS, Phase.INSURANCE)
    started = time.perf_counter()
    rnd = Round(rules, shoe, keep_history=False)
    rnd.place_bet(seat=1, amount=bet, owner="bot")
    for _ in range(rounds):
        rnd.deal()
        while rnd.phase in deciding:
            rnd.apply(bot(rnd.view()))
        net = rnd.net("bot")
        total += net
        total_squares += net * net
        rnd.next_round()
    seconds = time.perf_counter() - started
    mean = total / (rounds * bet)
    variance = max(total_squares / (rounds * bet * bet) - mean * mean, 0.0)
    return SimulationResult(
        rules=rules.name,
        tier=tier,
        rounds=rounds,
        mean=float(mean),
        stderr=math.sqrt(variance / rounds),
        rounds_per_second=rounds / seconds if seconds > 0 else math.inf,
    )
