"""The betting drill: a true count, and the bet the player's own ramp makes there.

A counter's edge comes from betting more when the count is high, so the bet has to come
at once, without thinking. A question's true count is drawn evenly from two below the
ramp's lowest count to two above its highest, so that the edges of the ramp (where the bet
starts to rise, and where it stops) come up as often as its middle.
"""

from __future__ import annotations

import random

from engine.counting.risk import BetRamp

#: How far beyond its lowest and highest counts a question may fall.
BEYOND = 2


def count_to_bet(rng: random.Random, ramp: BetRamp) -> int:
    """A true count to bet at, around ``ramp``'s counts (−2 to +2 for a ramp without any).

    >>> ramp = BetRamp(bets={1: 2, 3: 8}, below=1)
    >>> sorted({count_to_bet(random.Random(seed), ramp) for seed in range(200)})
    [-1, 0, 1, 2, 3, 4, 5]
    """
    counts = list(ramp.bets) or [0]
    return rng.randint(min(counts) - BEYOND, max(counts) + BEYOND)
