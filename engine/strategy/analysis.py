"""The exact combinatorial analysis of a rule set: per-action EVs, the chart, the edge.

Everything is in units of the initial bet. Stand, hit (with optimal continuation) and
double EVs are exact and composition dependent: the shoe is the full shoe less the
player's cards and the up card, and every drawn card is removed as it is drawn.

With a peek, EVs are conditioned on the dealer not having a natural. Inside the analysis
they are carried unnormalised — ``E[value × no dealer natural]`` — which makes every
recursion linear (the decision at a node does not change, since all options share the
node's normaliser) and is divided out only where an EV is reported.

Without a peek a dealer natural takes every bet on the table, or with ``original_bets_only``
only the original one: a doubled hand then gets its second unit back, and after a split the
first hand loses its original unit while the others get their stakes back. A busted hand is
settled before the hole card is turned, so it loses its whole stake either way.

Splits use the standard approximation, documented in the README: each post-split hand is
played by its best stand/hit/double decision for its own cards, with the other hand's
first card removed from the shoe; re-splits up to ``max_hands`` are counted by a branching
process on the chance of drawing the pair card again.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Literal

import numpy as np
import numpy.typing as npt

from engine.chart_vocabulary import HITTING_CODES, UP_CARDS, Chart, resolve, up_column
from engine.rules import Rules
from engine.strategy.dealer import BUST, NATURAL, OUTCOMES, dealer_distributions, dealer_paths
from engine.strategy.hands import HandSet, hands_containing
from engine.values import Action

__all__ = ["ActionEVs", "Analysis"]

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class ActionEVs:
    """The EV of each action for one two-card hand against one up card (None: not allowed)."""

    stand: float
    hit: float
    double: float | None
    split: float | None
    surrender: float | None

    def as_dict(self) -> dict[str, float | None]:
        return {
            "stand": self.stand,
            "hit": self.hit,
            "double": self.double,
            "split": self.split,
            "surrender": self.surrender,
        }

    def best(self) -> str:
        """The name of the action with the highest EV."""
        options = {name: ev for name, ev in self.as_dict().items() if ev is not None}
        return max(options, key=lambda name: options[name])


#: What a dealer natural takes from a hand that has not busted: its whole stake, the
#: original unit only (the hand a seat started with, under ``original_bets_only``), or
#: nothing (the later hands of a split, under ``original_bets_only``).
Settlement = Literal["stake", "original", "none"]
#: A natural's share of each unit staked that comes back, standing or doubled.
_RETURNED_TO_NATURAL: dict[Settlement, tuple[float, float]] = {
    "stake": (0.0, 0.0),
    "original": (0.0, 0.5),
    "none": (1.0, 1.0),
}


class _Batch:
    """EV tables (hand × up card) for one set of hands with one extra card removed."""

    def __init__(
        self,
        analysis: Analysis,
        hands: HandSet,
        extra: int | None,
        settlement: Settlement = "stake",
    ) -> None:
        self.hands = hands
        self.extra = extra
        rows = analysis.dealer_rows(hands.counts, extra)
        dist = analysis.dealer[rows]  # (hand, up, outcome)
        shoes = analysis.shoes_for(hands.counts, extra)  # (hand, up, rank)
        totals = shoes.sum(axis=2)
        valid = (shoes >= 0).all(axis=2) & (totals > 0)
        self.draw = np.where(valid[..., None], shoes / np.maximum(totals, 1)[..., None], 0.0)
        self.no_natural = dist[..., :NATURAL].sum(axis=2)
        self.bust = analysis.bust_values(shoes, totals)  # (hand, up, rank)
        self._dealer, self._rows = analysis.dealer, rows
        self._settle(settlement, _stand(hands.total, dist, analysis.peek), dist[..., NATURAL])

    def _settle(self, settlement: Settlement, unsettled_stand: Floats, natural: Floats) -> None:
        """The values that depend on what a dealer natural takes; the rest is the shoe's."""
        self.settlement = settlement
        single, doubled = _RETURNED_TO_NATURAL[settlement]
        self.doubled_stand = unsettled_stand + doubled * natural
        self.stand = unsettled_stand + single * natural
        self.hit, self.best = self._optimal()
        self.double = self._double()

    def settled(self, settlement: Settlement) -> _Batch:
        """The same hands and shoes with a dealer natural settled otherwise.

        The draw and bust tables (most of a batch's memory) are shared, not recomputed.
        """
        natural = self._dealer[self._rows, :, NATURAL]
        unsettled_stand = self.stand - _RETURNED_TO_NATURAL[self.settlement][0] * natural
        twin = copy.copy(self)
        twin._settle(settlement, unsettled_stand, natural)
        return twin

    def _optimal(self) -> tuple[Floats, Floats]:
        hands = self.hands
        hit = np.zeros_like(self.stand)
        best = self.stand.copy()
        can_hit = hands.total < 21
        for group in _groups_by_hard_total(hands):
            value = self._drawn_value(group, best)
            hit[group] = value
            best[group] = np.where(
                can_hit[group, None], np.maximum(self.stand[group], value), best[group]
            )
        return hit, best

    def _drawn_value(self, group: npt.NDArray[np.int64], values: Floats) -> Floats:
        """Σ over the next card of its probability times the value of the hand after it."""
        after = self.hands.after[group]  # (g, rank)
        following = np.where(
            (after >= 0)[:, None, :],
            values[np.maximum(after, 0)].transpose(0, 2, 1),  # (g, up, rank)
            self.bust[group],
        )
        return np.asarray(np.einsum("gur,gur->gu", self.draw[group], following))

    def _double(self) -> Floats:
        everything = np.arange(len(self.hands.counts))
        return 2 * self._drawn_value(everything, self.doubled_stand)

    def policy(self, plays: Callable[[int, bool, int], bool]) -> Floats:
        """Values of hands played on by a chart: ``plays(total, soft, up) → hit?``."""
        hands = self.hands
        value = self.stand.copy()
        hits = np.array(
            [[plays(int(t), bool(s), up) for up in range(1, 11)]
             for t, s in zip(hands.total, hands.soft, strict=True)]
        ) & (hands.total < 21)[:, None]  # fmt: skip
        for group in _groups_by_hard_total(hands):
            drawn = self._drawn_value(group, value)
            value[group] = np.where(hits[group], drawn, self.stand[group])
        return value

    def policy_hit(self, policy_values: Floats) -> Floats:
        """The value of hitting each hand once, then playing on by the same chart."""
        return self._drawn_value(np.arange(len(self.hands.counts)), policy_values)


def _groups_by_hard_total(hands: HandSet) -> list[npt.NDArray[np.int64]]:
    """Index groups of equal hard total, highest first (successors always come earlier)."""
    return [np.flatnonzero(hands.hard == hard) for hard in range(21, 0, -1)]


def _stand(totals: npt.NDArray[np.int64], dist: Floats, peek: bool) -> Floats:
    """Standing EV for each hand total against each dealer distribution (natural aside)."""
    dealer_totals = np.arange(17, 22)
    compare = np.sign(totals[:, None] - dealer_totals[None, :]).astype(np.float64)  # (h, 5)
    value = np.einsum("hc,huc->hu", compare, dist[..., :BUST]) + dist[..., BUST]
    if not peek:
        value -= dist[..., NATURAL]  # no peek: a dealer natural takes the hand
    return np.asarray(value)


class Analysis:
    """The exact analysis of one `Rules` value (`engine.strategy.strategy_for` keeps one)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.peek = rules.dealer_peeks
        decks = rules.decks
        self.full = np.array([4 * decks] * 9 + [16 * decks], dtype=np.int64)
        self._policies: dict[object, dict[int, Floats]] = {}
        self._evs: dict[tuple[int, int, int, bool], ActionEVs] = {}
        self._split_ranks = list(range(10)) if rules.max_hands >= 2 else []
        removals = self._needed_removals()
        self._rows = {removal: i for i, removal in enumerate(removals)}
        self.dealer = self._dealer_table(removals)
        # The hand a seat starts with, and the first hand of a split, lose their original
        # unit to a natural; with original_bets_only the later hands of a split lose nothing.
        first: Settlement = "original" if rules.original_bets_only else "stake"
        self.base = _Batch(self, hands_containing(None), None, first)
        self.split_batches: dict[int, _Batch] = {
            rank: _Batch(self, hands_containing(rank), rank, first)
            for rank in self._split_ranks
            if not (rank == 0 and not rules.hit_split_aces)
        }
        self.later_batches: dict[int | None, _Batch] = {}
        if rules.original_bets_only and self.split_batches:
            self.later_batches[None] = self.base.settled("none")
            for rank, batch in self.split_batches.items():
                self.later_batches[rank] = batch.settled("none")

    # Shoes and the dealer -------------------------------------------------------------

    def _needed_removals(self) -> list[tuple[int, ...]]:
        seen: dict[tuple[int, ...], None] = {}
        for hand in hands_containing(None).counts:
            seen[tuple(int(k) for k in hand)] = None
        for rank in self._split_ranks:
            source = hands_containing(rank).counts
            if rank == 0 and not self.rules.hit_split_aces:
                source = np.array([h for h in source if h.sum() == 2])
            for hand in source:
                removal = [int(k) for k in hand]
                removal[rank] += 1
                seen[tuple(removal)] = None
        return list(seen)

    def _dealer_table(self, removals: list[tuple[int, ...]]) -> Floats:
        removed = np.array(removals, dtype=np.int64)
        table = np.zeros((len(removals), 10, len(OUTCOMES)))
        for up in range(10):
            shoes = self.full[None, :] - removed
            shoes[:, up] -= 1
            paths = dealer_paths(up + 1, self.rules.dealer_hits_soft_17)
            table[:, up, :] = dealer_distributions(paths, shoes)
        return table

    def dealer_rows(self, hands: npt.NDArray[np.int64], extra: int | None) -> npt.NDArray[np.int64]:
        removals = hands.copy()
        if extra is not None:
            removals[:, extra] += 1
        rows = self._rows
        return np.array([rows[tuple(int(k) for k in removal)] for removal in removals])

    def shoes_for(self, hands: npt.NDArray[np.int64], extra: int | None) -> npt.NDArray[np.int64]:
        """The shoe left for each hand and up card: (hand, up, rank) counts."""
        shoes = self.full[None, None, :] - hands[:, None, :] - np.eye(10, dtype=np.int64)[None]
        if extra is not None:
            shoes[..., extra] -= 1
        return shoes

    def bust_values(self, shoes: npt.NDArray[np.int64], totals: npt.NDArray[np.int64]) -> Floats:
        """The value of busting after drawing each rank: -1, or with a peek -P(no natural)."""
        bust = -np.ones(shoes.shape, dtype=np.float64)
        if not self.peek:
            return bust
        for up, natural_rank in ((0, 9), (9, 0)):  # the hole card that makes a natural
            left = shoes[:, up, natural_rank][:, None] - (np.arange(10) == natural_rank)
            remaining = np.maximum(totals[:, up] - 1, 1)[:, None]
            bust[:, up, :] = -(1 - left / remaining)
        return bust

    # Reading the results ---------------------------------------------------------------

    def two_card_evs(self, first: int, second: int, up: int, *, raw: bool = False) -> ActionEVs:
        """EVs of a two-card hand (rank indexes, 0 = ace) against ``up``, computed once.

        As reported they are conditioned on no dealer natural where the dealer peeks;
        ``raw=True`` gives them multiplied by the chance of no natural, as used inside.
        """
        key = (min(first, second), max(first, second), up, raw)
        found = self._evs.get(key)
        if found is None:
            found = self._evs[key] = self._two_card_evs(*key)
        return found

    def _two_card_evs(self, first: int, second: int, up: int, raw: bool) -> ActionEVs:
        base = self.base
        counts = [0] * 10
        counts[first] += 1
        counts[second] += 1
        q = base.hands.index[tuple(counts)]
        total = int(base.hands.total[q])
        norm = 1.0 if raw or not self.peek else float(base.no_natural[q, up])
        surrender = -0.5 * (float(base.no_natural[q, up]) if self.peek else 1.0)
        splits = first == second and self.rules.max_hands >= 2
        return ActionEVs(
            stand=float(base.stand[q, up]) / norm,
            hit=float(base.hit[q, up]) / norm,
            double=float(base.double[q, up]) / norm if self.rules.may_double(total) else None,
            split=self.split_ev(first, up) / norm if splits else None,
            surrender=surrender / norm if self.rules.may_surrender(up + 1) else None,
        )

    def multi_card_evs(self) -> dict[tuple[int, ...], tuple[tuple[float, float], ...]]:
        """Stand and hit EVs of every hand of three or more cards under 21, per up card.

        Keyed by rank counts (index 0 = ace); the value holds (stand, hit) for each up card,
        conditioned on no dealer natural where the dealer peeks, as `two_card_evs` reports.
        They grade a practice round's later decisions; the cards other hands hold are not
        taken out of the shoe, as a basic-strategy player does not count them.
        """
        base = self.base
        hands = base.hands
        found: dict[tuple[int, ...], tuple[tuple[float, float], ...]] = {}
        for q, counts in enumerate(hands.counts):
            if hands.cards[q] < 3 or hands.total[q] >= 21 or (counts > self.full).any():
                continue
            found[tuple(int(k) for k in counts)] = tuple(
                (float(base.stand[q, up]) / norm, float(base.hit[q, up]) / norm)
                for up in range(10)
                # With a peek, a hand that leaves no card for a natural is certain of none.
                for norm in (float(base.no_natural[q, up]) or 1.0 if self.peek else 1.0,)
            )
        return found

    # Splits ------------------------------------------------------------------------------

    def post_split_value(
        self,
        rank: int,
        second: int,
        up: int,
        chart: Chart | None,
        *,
        other_out: bool = True,
        first: bool = True,
    ) -> float:
        """A post-split hand (rank, second) played optimally, or by ``chart`` if given.

        With ``other_out`` the other hand's pair card is out of the shoe, as it is; without,
        it is not — the two serve to extrapolate to more pair cards out after re-splits.
        ``first`` is the seat's first hand, which alone loses its original unit to a dealer
        natural under ``original_bets_only``.
        """
        counts = [0] * 10
        counts[rank] += 1
        counts[second] += 1
        later = not first and bool(self.later_batches)
        if rank == 0 and not self.rules.hit_split_aces:
            return self._one_card_ace(counts, up, other_out, later)
        if later:
            batch = self.later_batches[rank if other_out else None]
        else:
            batch = self.split_batches[rank] if other_out else self.base
        q = batch.hands.index[tuple(counts)]
        total = int(batch.hands.total[q])
        double = self.rules.double_after_split and self.rules.may_double(total)
        if chart is None:
            options = [batch.stand[q, up], batch.hit[q, up]]
            if double:
                options.append(batch.double[q, up])
            return float(max(options))
        code = chart_code(chart, counts, up, pair_splittable=False)
        action = resolve(
            code,
            allowed={Action.DOUBLE} if double else (),
            double_after_split=self.rules.double_after_split,
        )
        if action == "double":
            return float(batch.double[q, up])
        if action == "stand":
            return float(batch.stand[q, up])
        return float(self.chart_hits(chart, batch)[q, up])

    def _one_card_ace(self, counts: list[int], up: int, other_out: bool, later: bool) -> float:
        removal = list(counts)
        removal[0] += other_out
        row = self._rows[tuple(removal)]
        total = sum((r + 1) * k for r, k in enumerate(counts)) + 10  # an ace and one card
        dist = self.dealer[row][None, :, :]
        value = float(_stand(np.array([total]), dist, self.peek)[0, up])
        return value + float(dist[0, up, NATURAL]) if later else value

    def split_ev(self, rank: int, up: int, chart: Chart | None = None) -> float:
        """EV (units of the initial bet, unnormalised) of splitting a pair of ``rank``.

        Hands get their second cards in turn; one that draws the pair card again is split
        while the seat holds fewer than ``max_hands`` hands. The chance of the pair card,
        and each finished hand's value, follow how many pair cards are out by then (a
        hand's value is extrapolated linearly in that number, from its values with the
        other pair card out and not); the other cards drawn meanwhile are left out.
        """
        shoe = self.full.copy()
        shoe[up] -= 1

        def hand_values(first: bool) -> tuple[Floats, Floats]:
            """A hand's value by its second card: with the other pair card out, and not."""
            value = self.post_split_value
            near = [value(rank, x, up, chart, first=first) for x in range(10)]
            far = [value(rank, x, up, chart, other_out=False, first=first) for x in range(10)]
            return np.array(near), np.array(far)

        first_values = hand_values(first=True)
        later_values = hand_values(first=False) if self.later_batches else first_values
        limit = self.rules.max_hands if rank != 0 or self.rules.resplit_aces else 2

        # Lives for this call only, over at most limit × limit × 2·limit × 2 states.
        @cache
        def expect(waiting: int, hands: int, out: int, first: bool) -> float:
            """The value of ``waiting`` hands yet to get a second card, ``out`` pair cards
            being out of the shoe; ``first`` while the seat's first hand is among them
            (it is always the next one to get its card)."""
            if waiting == 0:
                return 0.0
            left = shoe.copy()
            left[rank] -= out
            again = left[rank] / left.sum()
            near, far = first_values if first else later_values
            values = near + (out - 2) * (near - far)  # besides its own, out - 1 are out
            others = left.copy()
            others[rank] = 0
            value = (1 - again) * ((others * values).sum() / others.sum())
            value += (1 - again) * expect(waiting - 1, hands, out, False)
            if hands < limit:
                value += again * expect(waiting + 1, hands + 1, out + 1, first)
            else:
                value += again * (values[rank] + expect(waiting - 1, hands, out + 1, False))
            return float(value)

        return expect(2, 2, 2, True)

    # Charts and the edge ------------------------------------------------------------------

    def chart_hits(self, chart: Chart, batch: _Batch) -> Floats:
        """Hitting each hand of ``batch`` once, then playing on by ``chart``."""
        policies = self._policies.setdefault(_chart_key(chart), {})
        found = policies.get(id(batch))
        if found is None:

            def plays(total: int, soft: bool, up: int) -> bool:
                return hits_on(chart, total, soft, up - 1)

            found = policies[id(batch)] = batch.policy_hit(batch.policy(plays))
        return found


def _chart_key(chart: Chart) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((row, tuple(cells[up] for up in UP_CARDS)) for row, cells in chart.items())


def up_key(up: int) -> str:
    """The chart column of an up card rank index (0 = ace)."""
    return up_column(up + 1)


def hits_on(chart: Chart, total: int, soft: bool, up: int) -> bool:
    """Whether a hand of three or more cards hits by the chart (D → hit, Ds → stand, …)."""
    row = chart.get(f"{'soft' if soft else 'hard'} {total}")
    if row is None:
        return total < 12 or (soft and total < 18)
    return row[up_key(up)] in HITTING_CODES


def chart_code(chart: Chart, counts: list[int], up: int, *, pair_splittable: bool) -> str:
    """The chart code for a two-card hand given as rank counts."""
    ranks = [r for r, k in enumerate(counts) for _ in range(k)]
    hard = sum(r + 1 for r in ranks)
    soft = 0 in ranks and hard <= 11
    total = hard + 10 if soft else hard
    if ranks[0] == ranks[1] and pair_splittable:
        label = "pair A" if ranks[0] == 0 else f"pair {ranks[0] + 1}"
    elif ranks[0] == ranks[1]:
        # Unsplittable, a pair plays its total; A,A is a soft 12, which the chart hits.
        label = f"hard {total}" if not soft else "soft 12"
    else:
        label = f"{'soft' if soft else 'hard'} {total}"
    row = chart.get(label)
    if row is None:
        return "H" if total < 17 else "S"
    return row[up_key(up)]
