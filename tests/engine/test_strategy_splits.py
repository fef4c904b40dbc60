"""The split approximation against exact split analyses.

Split once: the exact side plays the second hand optimally for the very shoe the first
hand left, in every way the first hand can end; the first hand, played for its own cards,
is valued exactly with only the other pair card out (whatever the second hand does later,
the dealer's cards are still a random draw from what the first hand left: the chance of
any dealer sequence is a martingale over the second hand's draws).

Re-splits: aces, one card each, re-split up to four hands, every deal enumerated.

Each must agree with the approximation within 0.001 of the initial bet (4 decks).

With ``original_bets_only`` a dealer natural takes the first hand's original unit (or its
whole stake if it busted) and from the later hands only what busted.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine import AMERICAN, EUROPEAN, Rules
from engine.strategy.analysis import Analysis
from engine.strategy.dealer import BUST, NATURAL, dealer_distributions, dealer_paths
from engine.strategy.hands import hands_containing


def first_hand_endings(analysis: Analysis, pair: int, up: int, shoe: np.ndarray):
    """Every way the first post-split hand ends, as (probability, cards it drew)."""
    batch = analysis.split_batches[pair]
    endings: list[tuple[float, np.ndarray]] = []

    def walk(counts: list[int], probability: float, drawn: np.ndarray) -> None:
        q = batch.hands.index[tuple(counts)]
        options = {"stand": batch.stand[q, up]}
        if batch.hands.total[q] < 21:
            options["hit"] = batch.hit[q, up]
            if sum(counts) == 2 and analysis.rules.double_after_split:
                options["double"] = batch.double[q, up]
        action = max(options, key=options.__getitem__)
        if action == "stand":
            endings.append((probability, drawn))
            return
        left = shoe - drawn
        for rank in np.flatnonzero(left):
            p = probability * left[rank] / left.sum()
            more = drawn.copy()
            more[rank] += 1
            bigger = list(counts)
            bigger[rank] += 1
            if action == "double" or sum((r + 1) * k for r, k in enumerate(bigger)) > 21:
                endings.append((p, more))
            else:
                walk(bigger, p, more)

    for second in np.flatnonzero(shoe):
        counts = [0] * 10
        counts[pair] += 1
        counts[second] += 1
        drawn = np.zeros(10, dtype=np.int64)
        drawn[second] = 1
        walk(counts, shoe[second] / shoe.sum(), drawn)
    return endings


def best_hand_value(rules: Rules, pair: int, up: int, shoe: np.ndarray) -> float:
    """A later hand holding one pair card, played optimally for exactly this shoe
    (unnormalised)."""
    hands = hands_containing(pair)
    removed = hands.counts - np.eye(10, dtype=np.int64)[pair]
    shoes = shoe[None, :] - removed
    valid = (shoes >= 0).all(axis=1)
    dist = dealer_distributions(dealer_paths(up + 1, rules.dealer_hits_soft_17), shoes)
    compare = np.sign(hands.total[:, None] - np.arange(17, 22)[None, :])
    stand = (compare * dist[:, :BUST]).sum(axis=1) + dist[:, BUST]
    if not rules.dealer_peeks and not rules.original_bets_only:
        stand -= dist[:, NATURAL]  # else a natural takes nothing from a later hand
    sizes = np.maximum(shoes.sum(axis=1), 1)
    draw = np.where(valid[:, None], np.maximum(shoes, 0) / sizes[:, None], 0.0)
    natural_rank = {0: 9, 9: 0}.get(up) if rules.dealer_peeks else None
    if natural_rank is None:
        bust = -np.ones((len(shoes), 10))
    else:
        left = shoes[:, natural_rank][:, None] - (np.arange(10) == natural_rank)[None, :]
        bust = -(1 - left / np.maximum(sizes - 1, 1)[:, None])
    best = stand.copy()
    hit = np.zeros_like(stand)
    for hard in range(21, 0, -1):
        group = np.flatnonzero(hands.hard == hard)
        after = hands.after[group]
        following = np.where(after >= 0, best[np.maximum(after, 0)], bust[group])
        hit[group] = (draw[group] * following).sum(axis=1)
        best[group] = np.where(
            hands.total[group] < 21, np.maximum(stand[group], hit[group]), stand[group]
        )
    double = 2 * (draw * np.where(hands.after >= 0, stand[np.maximum(hands.after, 0)], bust)).sum(
        axis=1
    )
    value = 0.0
    for second in np.flatnonzero(shoe):
        counts = [0] * 10
        counts[pair] += 1
        counts[second] += 1
        q = hands.index[tuple(counts)]
        options = [best[q]] + ([double[q]] if rules.double_after_split else [])
        value += shoe[second] / shoe.sum() * max(options)
    return float(value)


def exact_split(rules: Rules, pair: int, up: int) -> float:
    analysis = Analysis(rules)
    shoe = analysis.full.copy()
    shoe[pair] -= 2
    shoe[up] -= 1
    # The first hand, played for its own cards, is exactly valued with only the other pair
    # card out (the martingale argument above).
    first = sum(
        shoe[x] / shoe.sum() * analysis.post_split_value(pair, x, up, None) for x in range(10)
    )
    second = sum(
        p * best_hand_value(rules, pair, up, shoe - drawn)
        for p, drawn in first_hand_endings(analysis, pair, up, shoe)
    )
    total = first + second
    natural_rank = {0: 9, 9: 0}.get(up) if rules.dealer_peeks else None
    if natural_rank is not None:
        total /= 1 - shoe[natural_rank] / shoe.sum()
    return total


SPLIT_ONCE_PEEK = AMERICAN.replace(decks=4, max_hands=2, name="four-deck-split-once")
SPLIT_ONCE_NO_PEEK = EUROPEAN.replace(decks=4, max_hands=2, name="four-deck-enhc-split-once")
SPLIT_ONCE_OBO = SPLIT_ONCE_NO_PEEK.replace(original_bets_only=True, name="four-deck-obo")


@pytest.mark.parametrize(
    ("rules", "pair", "up"),
    [
        (SPLIT_ONCE_PEEK, 7, 9),  # 8,8 v 10
        (SPLIT_ONCE_NO_PEEK, 8, 6),  # 9,9 v 7, no peek
        (SPLIT_ONCE_NO_PEEK, 1, 5),  # 2,2 v 6, no peek: the most decisions after a split
        (SPLIT_ONCE_OBO, 7, 9),  # 8,8 v 10, original bets only
    ],
    ids=["8,8 v 10", "9,9 v 7 no peek", "2,2 v 6 no peek", "8,8 v 10 obo"],
)
def test_the_split_approximation_is_within_a_thousandth_of_an_exact_split(rules, pair, up):
    approximate = Analysis(rules).two_card_evs(pair, pair, up).split
    exact = exact_split(rules, pair, up)
    assert abs(exact - approximate) < 0.001


def exact_resplit_aces(rules: Rules, up: int) -> float:
    """Aces split and re-split up to ``max_hands``, one card each, every deal enumerated."""
    analysis = Analysis(rules)
    shoe = analysis.full.copy()
    shoe[0] -= 2
    shoe[up] -= 1
    endings: list[tuple[float, np.ndarray, list[int]]] = []

    def deal(waiting: int, hands: int, left: np.ndarray, p: float, totals: list[int]) -> None:
        if waiting == 0:
            endings.append((p, left, totals))
            return
        for rank in np.flatnonzero(left):
            rest = left.copy()
            rest[rank] -= 1
            chance = p * left[rank] / left.sum()
            if rank == 0 and hands < rules.max_hands:
                deal(waiting + 1, hands + 1, rest, chance, totals)  # a new ace: split again
            else:
                deal(waiting - 1, hands, rest, chance, [*totals, rank + 1 + 11 - 10 * (rank == 0)])

    deal(2, 2, shoe, 1.0, [])
    paths = dealer_paths(up + 1, rules.dealer_hits_soft_17)
    dist = dealer_distributions(paths, np.array([left for _, left, _ in endings]))
    total = 0.0
    for (p, _, totals), row in zip(endings, dist, strict=True):
        for index, value in enumerate(totals):
            result = row[BUST] + (row[:BUST] * np.sign(value - np.arange(17, 22))).sum()
            # Without a peek a natural takes each hand, or the first one's original unit.
            taken = not rules.dealer_peeks and (index == 0 or not rules.original_bets_only)
            total += p * (result - (row[NATURAL] if taken else 0.0))
    natural_rank = {0: 9, 9: 0}.get(up) if rules.dealer_peeks else None
    if natural_rank is not None:
        total /= 1 - shoe[natural_rank] / shoe.sum()
    return float(total)


@pytest.mark.parametrize(
    ("rules", "up"),
    [
        (EUROPEAN.replace(decks=4, resplit_aces=True, name="four-deck-enhc-rsa"), 9),
        (AMERICAN.replace(decks=4, resplit_aces=True, name="four-deck-rsa"), 5),
        (EUROPEAN.replace(decks=4, resplit_aces=True, original_bets_only=True, name="obo"), 9),
        (EUROPEAN.replace(decks=4, resplit_aces=True, original_bets_only=True, name="obo"), 0),
    ],
    ids=["A,A v 10 no peek", "A,A v 6", "A,A v 10 obo", "A,A v A obo"],
)
def test_re_splits_are_within_a_thousandth_of_an_exact_count(rules, up):
    approximate = Analysis(rules).two_card_evs(0, 0, up).split
    assert approximate is not None
    assert abs(approximate - exact_resplit_aces(rules, up)) < 0.001
