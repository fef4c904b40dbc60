"""How well a counting system's tags follow what the cards do: betting and insurance
correlation, from the exact effects of removal of the rules in play.

A system's tags say how much each card seen moves the count; a card's effect of removal
says how much it moves the player's expectation (`engine.counting.effects`), or the
insurance bet's. The correlation of the two over the thirteen ranks of a deck, each rank
as often as it is in the shoe (the ten-values four times), is the system's betting
(insurance) correlation: 1 when the count moves exactly as the expectation does.

>>> hi_lo = {"2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 0, "8": 0, "9": 0, "10": -1, "A": -1}
>>> round(insurance_correlation(hi_lo), 2)
0.76
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from engine.counting.effects import RANK_KEYS, rank_share
from engine.counting.indices import mean_tags
from engine.counting.systems import CountingSystem
from engine.errors import EngineError
from engine.rules import Rules

__all__ = [
    "betting_correlation",
    "correlation",
    "insurance_correlation",
    "insurance_effects",
    "system_ratings",
]

Tags = Mapping[str, float]


def correlation(tags: Tags, effects: Mapping[str, float]) -> float:
    """The correlation of ``tags`` with ``effects`` over the ranks, each weighed by its
    share of the shoe (keys "2" … "10", "A"; a tag is the average of its cards' tags where
    they differ by suit, as Red 7's sevens do).

    >>> flat = dict.fromkeys(RANK_KEYS, 1.0)
    >>> correlation({**flat, "10": -1.0}, {**flat, "10": -2.0})
    1.0
    """
    missing = [rank for rank in RANK_KEYS if rank not in tags or rank not in effects]
    if missing:
        raise EngineError(f"a tag and an effect are needed for every rank: {', '.join(missing)}")
    weights = [rank_share(rank) for rank in RANK_KEYS]
    xs = [float(tags[rank]) for rank in RANK_KEYS]
    ys = [float(effects[rank]) for rank in RANK_KEYS]
    mean_x = sum(w * x for w, x in zip(weights, xs, strict=True))
    mean_y = sum(w * y for w, y in zip(weights, ys, strict=True))
    cov = sum(w * (x - mean_x) * (y - mean_y) for w, x, y in zip(weights, xs, ys, strict=True))
    var_x = sum(w * (x - mean_x) ** 2 for w, x in zip(weights, xs, strict=True))
    var_y = sum(w * (y - mean_y) ** 2 for w, y in zip(weights, ys, strict=True))
    if var_x == 0 or var_y == 0:
        raise EngineError("tags that are all equal follow nothing: give the ranks different tags")
    return round(cov / math.sqrt(var_x * var_y), 12)


def betting_correlation(
    tags: Tags, effects: Mapping[str, float], *, ace_side_count: bool = False
) -> float:
    """The betting correlation: ``tags`` against the effects of removal on the player's
    expectation (`engine.counting.effects.EffectsOfRemoval.percent`).

    With ``ace_side_count`` the aces are counted apart, so the player can add them back
    with whatever weight suits the bet best: the correlation with the ace's tag that
    follows the effects best (which is how the ace-reckoned ratings are quoted).
    """
    if not ace_side_count:
        return correlation(tags, effects)
    return correlation({**tags, "A": _best_ace_tag(tags, effects)}, effects)


def _best_ace_tag(tags: Tags, effects: Mapping[str, float]) -> float:
    """The ace's tag that makes ``tags`` follow ``effects`` best: the weighted least
    squares fit of the effects on the other tags and an ace indicator, read as a tag."""
    weights = np.array([rank_share(rank) for rank in RANK_KEYS])
    ace = np.array([rank == "A" for rank in RANK_KEYS], dtype=np.float64)
    others = np.array([0.0 if rank == "A" else float(tags[rank]) for rank in RANK_KEYS])
    design = np.stack([np.ones(len(RANK_KEYS)), others, ace], axis=1) * np.sqrt(weights)[:, None]
    target = np.array([float(effects[rank]) for rank in RANK_KEYS]) * np.sqrt(weights)
    (_, slope, ace_effect), *_ = np.linalg.lstsq(design, target, rcond=None)
    if slope == 0:
        raise EngineError("tags that are all equal follow nothing: give the ranks different tags")
    return float(ace_effect / slope)


def insurance_effects(decks: int, insurance_pays: float = 2.0) -> dict[str, float]:
    """The effect of removing one card of each rank on the insurance bet's expectation
    (in percent of the insurance bet), against an ace with the player's two cards unknown:
    it wins, paid ``insurance_pays`` to one, when the hole card is a ten-value.

    >>> effects = insurance_effects(6)
    >>> effects["2"] == effects["A"] > 0 > effects["10"]
    True
    """
    cards = 52 * decks - 1  # the ace up is seen
    tens = 16 * decks

    def value(unseen: int, ten_values: int) -> float:
        chance = ten_values / unseen
        return 100 * (chance * insurance_pays - (1 - chance))

    full = value(cards, tens)
    return {rank: value(cards - 1, tens - (rank == "10")) - full for rank in RANK_KEYS}


def insurance_correlation(tags: Tags, decks: int = 6, insurance_pays: float = 2.0) -> float:
    """The insurance correlation: ``tags`` against the insurance bet's effects of removal
    (their shape is the same for every deck count; the deck count only scales them)."""
    return correlation(tags, insurance_effects(decks, insurance_pays))


def system_ratings(
    system: CountingSystem, effects: Mapping[str, float], rules: Rules
) -> dict[str, float]:
    """A system's betting correlation (as counted, and with the aces side-counted) and
    insurance correlation for ``rules``, its tags averaged over each rank's cards.

    >>> from engine.counting.systems import HI_LO
    >>> from engine.rules import AMERICAN
    >>> round(system_ratings(HI_LO, insurance_effects(6), AMERICAN)["insurance"], 2)
    0.76
    """
    tags = mean_tags(system)
    return {
        "betting": betting_correlation(tags, effects),
        "betting_with_aces_side_counted": betting_correlation(tags, effects, ace_side_count=True),
        "insurance": insurance_correlation(tags, rules.decks, float(rules.insurance_pays)),
    }
