"""Risk of ruin, the counter's measures (N0, DI, SCORE) and an optimal bet ramp.

A game is summed up by two numbers per hand, in betting units: the win ``W`` (the mean
result) and the variance ``σ²`` (its spread). From them:

- the **simple risk of ruin** of a bank ``B`` played for ever: ``exp(−2·W·B / σ²)``
  (Blackjack Attack, 3rd ed., p. 112);
- **Hall's risk of ruin with a goal**: the chance of losing ``B`` before winning ``G``,
  from the ruin of a biased coin betting ``√asw`` (``asw = σ² + W²``, the average squared
  win) with ``P(win) = ½ + W / (2√asw)``: ``R = (1 − S^g) / (1 − S^(b+g))``, ``S = P/(1−P)``,
  ``b = B/√asw`` and ``g = G/√asw``;
- **N0** ``= σ²/W²``: the hands after which the expected win equals one standard deviation;
- **DI** ``= 1000·W/σ``, the desirability index;
- **SCORE** ``= DI² = 10⁶·W²/σ² = 10⁶/N0``: the win per 100 hands of a player whose bank
  is 10,000 units and who scales every bet so the simple risk of ruin is 13.5% (``e⁻²``,
  full Kelly betting). Scaling all bets by ``k`` makes the win ``kW`` and the variance
  ``k²σ²``; a risk of ``e⁻²`` needs ``2·kW·10⁴ / (k²σ²) = 2``, so ``k = 10⁴·W/σ²`` and the
  win per 100 hands is ``100·kW = 10⁶·W²/σ²``. SCORE compares games and ramps whatever
  their unit.

>>> round(simple_risk_of_ruin(0.0151, 3.887, 300), 4)
0.0972
>>> round(n0(0.0151, 3.887)), round(score(0.0151, 3.887), 2)
(17047, 58.66)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from engine.counting.systems import CountingError

__all__ = [
    "BetRamp",
    "bank_for_risk",
    "desirability_index",
    "linear_advantage",
    "n0",
    "optimal_bet_ramp",
    "risk_of_ruin_with_goal",
    "score",
    "simple_risk_of_ruin",
]

#: SCORE's bank, in units, and the risk it is played at: e^-2, full Kelly.
SCORE_BANK = 10_000
SCORE_RISK = math.exp(-2)


def _check(win: float, variance: float) -> None:
    if not (math.isfinite(win) and math.isfinite(variance)):
        raise CountingError("the win and the variance must be finite numbers")
    if variance <= 0:
        raise CountingError(f"the variance per hand must be more than 0: {variance}")


def simple_risk_of_ruin(win: float, variance: float, bank: float) -> float:
    """The chance of ever losing ``bank`` units, playing for ever: ``exp(−2·W·B/σ²)``;
    certain ruin for a game with no edge.

    >>> simple_risk_of_ruin(-0.005, 1.3, 1000), simple_risk_of_ruin(0.01, 1.3, 0)
    (1.0, 1.0)
    """
    _check(win, variance)
    if bank < 0:
        raise CountingError(f"the bank must be 0 or more: {bank}")
    if win <= 0:
        return 1.0
    return math.exp(-2 * win * bank / variance)


def risk_of_ruin_with_goal(win: float, variance: float, bank: float, goal: float) -> float:
    """Hall's chance of losing ``bank`` units before winning ``goal`` more.

    >>> round(risk_of_ruin_with_goal(0.0, 1.0, 100, 300), 4)  # an even game: G / (B + G)
    0.75
    """
    _check(win, variance)
    if bank < 0 or goal < 0:
        raise CountingError("the bank and the goal must be 0 or more")
    if bank == 0:
        return 1.0
    if goal == 0:
        return 0.0
    root = math.sqrt(variance + win * win)
    b, g = bank / root, goal / root
    p = 0.5 + win / (2 * root)
    if p == 0.5:
        return g / (b + g)
    log_s = math.log(p / (1 - p))
    if log_s < 0:
        return math.expm1(g * log_s) / math.expm1((b + g) * log_s)
    # The same as S^-b (1 − S^-g) / (1 − S^-(b+g)): no power of S above 1 to overflow.
    return math.exp(-b * log_s) * math.expm1(-g * log_s) / math.expm1(-(b + g) * log_s)


def n0(win: float, variance: float) -> float:
    """Hands to play before the expected win equals one standard deviation: ``σ²/W²``;
    never, for a game without an edge."""
    _check(win, variance)
    return math.inf if win <= 0 else variance / (win * win)


def desirability_index(win: float, variance: float) -> float:
    """``1000·W/σ``: SCORE's square root, with the win's sign.

    >>> round(desirability_index(0.0151, 3.887), 3)
    7.659
    """
    _check(win, variance)
    return 1000 * win / math.sqrt(variance)


def score(win: float, variance: float) -> float:
    """Win per 100 hands with a 10,000-unit bank at 13.5% risk, optimal betting: ``DI²``
    (0 for a game with no edge, which an optimal bettor does not play)."""
    _check(win, variance)
    return 0.0 if win <= 0 else 1_000_000 * win * win / variance


def bank_for_risk(win: float, variance: float, risk: float) -> float:
    """The bankroll, in units, whose simple risk of ruin is ``risk`` (the inverse of
    `simple_risk_of_ruin`); infinite for a game with no edge.

    >>> round(simple_risk_of_ruin(0.02, 1.3, bank_for_risk(0.02, 1.3, 0.05)), 6)
    0.05
    """
    if not 0 < risk < 1:
        raise CountingError(f"a risk is above 0 and below 1: {risk}")
    if variance <= 0:
        raise CountingError("the variance must be above 0")
    return math.inf if win <= 0 else -variance * math.log(risk) / (2 * win)


@dataclass(frozen=True, slots=True)
class BetRamp:
    """Whole-chip bets by true count: ``bets[tc]`` for the counts given, the bet of the
    highest count given below it for a count between them or above them all, ``below``
    for any count below them all.

    >>> ramp = BetRamp(bets={1: 10, 2: 25, 4: 50}, below=5)
    >>> ramp.bet(-3), ramp.bet(2), ramp.bet(3), ramp.bet(9)
    (5, 25, 25, 50)
    """

    bets: Mapping[int, int]
    below: int

    def bet(self, true_count: int) -> int:
        """The bet at ``true_count``."""
        if true_count in self.bets:
            return self.bets[true_count]
        reached = [count for count in self.bets if count < true_count]
        return self.bets[max(reached)] if reached else self.below

    def to_json(self) -> dict[str, object]:
        return {
            "bets": {str(tc): bet for tc, bet in sorted(self.bets.items())},
            "below": self.below,
        }


def optimal_bet_ramp(
    advantage: Mapping[int, float],
    *,
    variance: float,
    bank: int,
    minimum: int,
    maximum: int,
    chip: int = 1,
    kelly: float = 1.0,
) -> BetRamp:
    """Bets in proportion to the advantage at each true count: ``kelly × bank × advantage /
    variance`` (the Kelly bet), rounded down to whole chips, within the table's limits.

    ``advantage`` is the player's expectation per unit bet at each true count (for example
    from a simulation, `engine.simulate`); ``variance`` is the variance per hand of a unit
    bet (about 1.3 in a shoe game). A count with no edge gets the table minimum. The bets
    never fall as the count rises: an estimated advantage that dips (noise) keeps the bet
    of the count below. Rounding down means the ramp never bets more than Kelly, so its
    risk stays at or below the 13.5% of full Kelly.

    >>> ramp = optimal_bet_ramp(
    ...     {0: -0.005, 1: 0.0, 2: 0.005, 3: 0.01, 4: 0.015, 5: 0.02},
    ...     variance=1.3, bank=10_000, minimum=10, maximum=200, chip=5,
    ... )
    >>> [ramp.bet(tc) for tc in range(-1, 7)]
    [10, 10, 10, 35, 75, 115, 150, 150]
    """
    for name, value in (("bank", bank), ("minimum", minimum), ("maximum", maximum), ("chip", chip)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise CountingError(f"the {name} must be a whole number of chips, 1 or more: {value!r}")
    if maximum < minimum:
        raise CountingError(f"the maximum bet {maximum} is below the minimum {minimum}")
    if minimum % chip or maximum % chip:
        raise CountingError(f"the table's limits must be whole {chip}-chip multiples")
    if not 0 < kelly <= 1:
        raise CountingError(f"the Kelly fraction must be above 0 and at most 1: {kelly}")
    if not advantage:
        raise CountingError("give the advantage at one true count at least")
    _check(0.0, variance)
    bets: dict[int, int] = {}
    floor = minimum
    for tc in range(min(advantage), max(advantage) + 1):
        if tc not in advantage:
            raise CountingError(f"the advantage at true count {tc} is missing")
        edge = advantage[tc]
        if not math.isfinite(edge):
            raise CountingError(f"the advantage at true count {tc} is not a number")
        kelly_bet = kelly * bank * max(edge, 0.0) / variance
        bet = min(max(math.floor(kelly_bet / chip) * chip, floor), maximum)
        bets[tc] = floor = bet
    return BetRamp(bets=bets, below=minimum)


def linear_advantage(
    measured: Mapping[int, tuple[int, float]], *, lowest: int = -5, highest: int = 10
) -> dict[int, float]:
    """The advantage at each count from ``lowest`` to ``highest``, from the straight line
    that fits ``measured`` (count → rounds, advantage per unit bet) best, each count
    weighted by its rounds (refused if it does not rise). The advantage rises near
    linearly with the true count, and a line smooths the noise of the rare high counts
    that a ramp bets most on.

    >>> line = linear_advantage({0: (100, -0.005), 1: (50, 0.0), 2: (25, 0.005)},
    ...                         lowest=0, highest=3)
    >>> {count: round(edge, 6) for count, edge in line.items()}
    {0: -0.005, 1: 0.0, 2: 0.005, 3: 0.01}
    """
    points = [(count, n, edge) for count, (n, edge) in measured.items() if n > 0]
    weight = sum(n for _, n, _ in points)
    if len({count for count, _, _ in points}) < 2:
        raise CountingError("the advantage must be measured at two counts at least")
    mean_count = sum(n * count for count, n, _ in points) / weight
    mean_edge = sum(n * edge for _, n, edge in points) / weight
    spread = sum(n * (count - mean_count) ** 2 for count, n, _ in points)
    slope = sum(n * (count - mean_count) * (edge - mean_edge) for count, n, edge in points) / spread
    if slope <= 0:
        raise CountingError(
            "the advantage does not rise with the count in these figures: measure more rounds"
        )
    return {count: mean_edge + slope * (count - mean_count) for count in range(lowest, highest + 1)}


def parse_ramp(text: str, below: int) -> BetRamp:
    """A ramp written as COUNT:BET pairs ("1:2, 2:4, 3:8"), betting ``below`` under its
    lowest count; refused if a pair is not two whole numbers, a bet is under 1, or the
    bets fall as the count rises.

    >>> parse_ramp("1:2, 3:8", below=1).bet(2)
    2
    """
    bets: dict[int, int] = {}
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        count, sep, bet = part.partition(":")
        try:
            if not sep:
                raise ValueError
            bets[int(count)] = int(bet)
        except ValueError:
            raise CountingError(f"a ramp takes COUNT:BET pairs in units, not {part!r}") from None
    if any(bet < 1 for bet in bets.values()) or below < 1:
        raise CountingError("every bet of a ramp is at least 1 unit")
    values = sorted(bets.items())
    if any(later < earlier for (_, earlier), (_, later) in zip(values, values[1:], strict=False)):
        raise CountingError("the ramp's bets must not fall as the count rises")
    return BetRamp(bets=bets, below=below)
