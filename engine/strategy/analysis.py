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

Split EVs are exact for a fixed post-split strategy: each hand after a split is played by
the best play for its own cards with the shoe less the up card, both original pair cards
and its own cards (`Analysis._split_policy`), the same for every split hand; re-splits up
to ``max_hands`` are counted exactly by how many pair cards they take (Farmer's method,
docs/strategy.md).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Literal

import numpy as np
import numpy.typing as npt

from engine.chart_vocabulary import HITTING_CODES, UP_CARDS, Chart, resolve, up_column
from engine.rules import Rules, Surrender
from engine.strategy.dealer import BUST, NATURAL, OUTCOMES, dealer_distributions, dealer_paths
from engine.strategy.hands import HandSet, count_keys, hands_containing, hands_reached
from engine.values import Action

__all__ = ["ActionEVs", "Analysis"]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


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

    def of(self, action: str) -> float:
        """The EV of an action the rules allow here (a `ValueError` for one they do not)."""
        ev = self.as_dict()[action]
        if ev is None:
            raise ValueError(f"{action} is not allowed here")
        return ev

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


class _Draws:
    """What the next card does to some of a `HandSet`'s hands (``rows``), per up card: the
    chance of each rank, and the value of busting summed over the ranks that bust (it does
    not depend on how the hands are played, so it is summed once)."""

    def __init__(self, analysis: Analysis, hands: HandSet, rows: Ints, out: Ints) -> None:
        """``out`` (row, rank): the cards out of the full shoe for each row besides the up
        card, the hand's own included."""
        self.hands = hands
        self.position = np.full(len(hands.counts), -1, dtype=np.int64)
        self.position[rows] = np.arange(len(rows))
        shoes = analysis.full[None, None, :] - out[:, None, :] - _UNIT[None]  # (row, up, rank)
        totals = shoes.sum(axis=2)
        valid = (shoes >= 0).all(axis=2) & (totals > 0)
        self.chance = np.where(valid[..., None], shoes / np.maximum(totals, 1)[..., None], 0.0)
        busts = (hands.after[rows] < 0)[:, None, :]
        bust = np.where(busts, analysis.bust_values(shoes, totals), 0.0)
        self.bust = np.asarray(np.einsum("gur,gur->gu", self.chance, bust))  # (row, up)

    def value(self, group: Ints, values: Floats) -> Floats:
        """(hand of ``group``, up card): Σ over the next card of its chance times the value
        after it — the bust's, or ``values``' row of the hand it makes (`_padded`)."""
        at = self.position[group]
        after = values[self.hands.after[group]]  # (hand, rank, up); a bust reads zeros
        return np.asarray(self.bust[at] + np.einsum("gur,gru->gu", self.chance[at], after))


def _padded(values: Floats) -> Floats:
    """``values`` (hand, up card) and a row of zeros after them, which a bust (-1) reads."""
    return np.concatenate([values, np.zeros((1, values.shape[1]))])


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
        out = hands.counts if extra is None else hands.counts + _UNIT[extra]
        dist = analysis.dealer[analysis.dealer_rows(out)]  # (hand, up, outcome)
        self.draws = _Draws(analysis, hands, np.arange(len(out)), out)
        self.no_natural = dist[..., :NATURAL].sum(axis=2)
        self._natural = dist[..., NATURAL]
        self._settle(settlement, _stand(hands.total, dist, analysis.peek))

    def _settle(self, settlement: Settlement, unsettled_stand: Floats) -> None:
        """The values that depend on what a dealer natural takes; the rest is the shoe's."""
        self.settlement = settlement
        single, doubled = _RETURNED_TO_NATURAL[settlement]
        self.doubled_stand = unsettled_stand + doubled * self._natural
        self.stand = unsettled_stand + single * self._natural
        self.hit = self._optimal_hit()
        everything = np.arange(len(self.hands.counts))
        self.double = 2 * self.draws.value(everything, _padded(self.doubled_stand))

    def settled(self, settlement: Settlement) -> _Batch:
        """The same hands and shoes with a dealer natural settled otherwise.

        The draw tables (most of a batch's memory) are shared, not recomputed.
        """
        unsettled_stand = self.stand - _RETURNED_TO_NATURAL[self.settlement][0] * self._natural
        twin = copy.copy(self)
        twin._settle(settlement, unsettled_stand)
        return twin

    def _optimal_hit(self) -> Floats:
        """Hitting each hand, then playing on at best."""
        hands = self.hands
        hit = np.zeros_like(self.stand)
        best = _padded(self.stand)
        can_hit = hands.total < 21
        for group in _groups_by_hard_total(hands):
            value = self.draws.value(group, best)
            hit[group] = value
            best[group] = np.where(
                can_hit[group, None], np.maximum(self.stand[group], value), best[group]
            )
        return hit

    def policy(self, hits: npt.NDArray[np.bool_]) -> Floats:
        """Values of hands played on by a chart: ``hits`` (hand, up card) where it hits."""
        hands = self.hands
        value = _padded(self.stand)
        hits = hits & (hands.total < 21)[:, None]
        for group in _groups_by_hard_total(hands):
            drawn = self.draws.value(group, value)
            value[group] = np.where(hits[group], drawn, self.stand[group])
        return value[:-1]

    def policy_hit(self, policy_values: Floats) -> Floats:
        """The value of hitting each hand once, then playing on by the same chart."""
        everything = np.arange(len(self.hands.counts))
        return self.draws.value(everything, _padded(policy_values))


#: A post-split hand's first decision, on its first two cards.
_STAND, _HIT, _DOUBLE = 0, 1, 2


def _pair_with(rank: int, second: int) -> tuple[int, ...]:
    """Rank counts of a pair card and a second card."""
    counts = [0] * 10
    counts[rank] += 1
    counts[second] += 1
    return tuple(counts)


@dataclass(frozen=True)
class _SplitPolicy:
    """A fixed strategy for the hands after a split of one rank (`hands_containing`)."""

    #: (second card, up card): `_STAND`, `_HIT` or `_DOUBLE` on the first two cards.
    start: npt.NDArray[np.int64]
    #: (hand, up card): whether a hand of three or more cards hits.
    hits: npt.NDArray[np.bool_]

    def stands_needed(self, hands: HandSet, starts: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """(hand, up card): where this strategy can end standing, doubled or not — the only
        hands whose dealer probabilities its EVs need."""
        # Hands the strategy moves on from (hitting), or doubles on; each padded with a row
        # that a missing smaller hand (-1) reads.
        moving = np.zeros((len(hands.counts) + 1, 10), dtype=np.bool_)
        doubling = np.zeros_like(moving)
        moving[starts] = self.start == _HIT
        doubling[starts] = self.start == _DOUBLE
        ends = np.zeros_like(self.hits)
        ends[starts] = self.start == _STAND
        for group in reversed(_groups_by_hard_total(hands)):  # lowest first
            before = hands.before[group]  # (hand, rank): the hand it was a card ago
            reached = moving[before].any(axis=1)
            ends[group] |= doubling[before].any(axis=1) | (reached & ~self.hits[group])
            moving[group] |= reached & self.hits[group]
        return ends

    @cached_property
    def hitting(self) -> Ints:
        """The hands (of three cards or more) this strategy hits against some up card."""
        return np.flatnonzero(self.hits.any(axis=1))

    def values(
        self,
        hands: HandSet,
        starts: npt.NDArray[np.int64],
        draws: _Draws,
        stand: Floats,
        doubled_stand: Floats,
    ) -> Floats:
        """(second card, up card): the EV of a hand of a pair card and a second card played
        by this strategy, from the shoes ``draws`` describes (it needs only the starts and
        the hands this strategy hits)."""
        value = _padded(stand)
        for group in _groups_by_hard_total(hands, self.hitting):
            drawn = draws.value(group, value)
            value[group] = np.where(self.hits[group], drawn, stand[group])
        hit = draws.value(starts, value)
        double = 2 * draws.value(starts, _padded(doubled_stand))
        return np.choose(self.start, [stand[starts], hit, double])


_UNIT = np.eye(10, dtype=np.int64)


@cache
def _starts(rank: int) -> Ints:
    """The hands of a pair card and each second card, as indexes of `hands_containing`."""
    hands = hands_containing(rank)
    return np.array([hands.index[_pair_with(rank, second)] for second in range(10)])


def _groups_by_hard_total(hands: HandSet, rows: Ints | None = None) -> list[Ints]:
    """Index groups of equal hard total, highest first (successors always come earlier):
    of every hand, or of ``rows`` only."""
    if rows is None:
        return hands.by_hard_total
    return [rows[hands.hard[rows] == hard] for hard in range(21, 0, -1)]


class _Rows:
    """Table rows by removal key, found in bulk by a binary search of the sorted keys."""

    def __init__(self, keys: Ints) -> None:
        self._order = np.argsort(keys, kind="stable")
        self._sorted = keys[self._order]

    def find(self, keys: Ints) -> Ints:
        """The row of each key, or -1 where there is none."""
        if not len(self._sorted):
            return np.full(len(keys), -1, dtype=np.int64)
        at = np.minimum(np.searchsorted(self._sorted, keys), len(self._sorted) - 1)
        return np.where(self._sorted[at] == keys, self._order[at], -1)

    def extended(self, keys: Ints) -> _Rows:
        """The same rows and then one per key, in order."""
        grown = _Rows(keys)
        grown._order += len(self._sorted)
        # Two sorted runs, which a stable sort (Timsort for integers) merges in one pass.
        keys = np.concatenate([self._sorted, grown._sorted])
        merged = np.argsort(keys, kind="stable")
        grown._sorted = keys[merged]
        grown._order = np.concatenate([self._order, grown._order])[merged]
        return grown


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

    def __init__(
        self,
        rules: Rules,
        shoe: Sequence[int] | None = None,
        *,
        only: Sequence[tuple[int, int]] | None = None,
    ) -> None:
        """``shoe``: the rank counts (ace first, ten-values last) dealt from, when not the
        rules' full shoe — a shoe depleted by the cards already played, for the effects of
        removal and the index plays (`engine.counting`).

        ``only``: the two-card hands (rank indexes) whose EVs are wanted, when not all of
        them: the analysis then works out only the hands they reach and the splits of the
        pairs among them, with the same values (an index table's rows need no more).
        """
        self.rules = rules
        self.peek = rules.dealer_peeks
        decks = rules.decks
        full = [4 * decks] * 9 + [16 * decks] if shoe is None else list(shoe)
        if len(full) != 10 or min(full) < 0:
            raise ValueError(f"a shoe is ten rank counts, none negative, not {full!r}")
        self.full = np.array(full, dtype=np.int64)
        self._policies: dict[object, dict[int, Floats]] = {}
        self._evs: dict[tuple[int, int, int, bool], ActionEVs] = {}
        #: Per play after a split (`_play_key`), per pair rank, the split EV by up card.
        self._split_evs: dict[object, dict[int, Floats]] = {}
        splits = list(range(10)) if rules.max_hands >= 2 else []
        if only is None:
            self._hands = hands_containing(None)
        else:
            starts = np.zeros((len(only), 10), dtype=np.int64)
            for row, (first, second) in enumerate(only):
                starts[row, first] += 1
                starts[row, second] += 1
            self._hands = hands_reached(starts)
            splits = [rank for rank in splits if (rank, rank) in only]
        self._split_ranks = splits
        removals = self._needed_removals()
        self._rows = _Rows(count_keys(removals))
        self.dealer = self._dealer_table(removals)
        #: Per up card, the shoes beyond the table that split EVs need (more pair cards
        #: out): their rows and dealer probabilities, each shoe computed once.
        self._more_dealer: dict[int, tuple[_Rows, Floats]] = {}
        # The hand a seat starts with, and the first hand of a split, lose their original
        # unit to a natural; with original_bets_only the later hands of a split lose nothing.
        self.first: Settlement = "original" if rules.original_bets_only else "stake"
        self._settlements: list[Settlement] = [self.first]
        if rules.original_bets_only:
            self._settlements.append("none")
        self.base = _Batch(self, self._hands, None, self.first)

    # Shoes and the dealer -------------------------------------------------------------

    def _needed_removals(self) -> Ints:
        """Every hand, and every hand holding a pair card with the other pair card out:
        the removals (rank counts out of the shoe) the table has rows for, each once."""
        removals = [self._hands.counts]
        for rank in self._split_ranks:
            source = hands_containing(rank).counts
            if rank == 0 and not self.rules.hit_split_aces:
                source = source[source.sum(axis=1) == 2]
            removals.append(source + np.eye(10, dtype=np.int64)[rank])
        every = np.concatenate(removals)
        _, first = np.unique(count_keys(every), return_index=True)
        return every[np.sort(first)]  # in the order first met

    def _dealer_table(self, removed: Ints) -> Floats:
        table = np.zeros((len(removed), 10, len(OUTCOMES)))
        for up in range(10):
            shoes = self.full[None, :] - removed
            shoes[:, up] -= 1
            paths = dealer_paths(up + 1, self.rules.dealer_hits_soft_17)
            table[:, up, :] = dealer_distributions(paths, shoes)
        return table

    def dealer_rows(self, removals: Ints) -> Ints:
        """The table's row of each removal (rank counts out of the shoe)."""
        return self._rows.find(count_keys(removals))

    def dealer_for(self, removals: Ints, up: int) -> Floats:
        """Dealer probabilities (row, outcome) with each removal and the up card out of the
        shoe: from the table where it has the removal, else computed once per shoe (see
        `add_dealer_rows`); zeros where the shoe cannot hold the cards."""
        keys = count_keys(removals)
        found = np.zeros((len(keys), len(OUTCOMES)))
        rows = self._rows.find(keys)
        known = rows >= 0
        found[known] = self.dealer[rows[known], up]
        more = np.flatnonzero(~known)
        if (self._more_table(up)[0].find(keys[more]) < 0).any():  # or cannot hold the cards
            self.add_dealer_rows(removals[more], up)
        more_rows, more_table = self._more_table(up)
        at = more_rows.find(keys[more])
        found[more[at >= 0]] = more_table[at[at >= 0]]
        return found

    def add_dealer_rows(self, removals: Ints, up: int) -> None:
        """Compute the dealer's probabilities against ``up`` for the shoes less ``removals``
        that no table holds yet and that can hold the cards, each once, in one call (small
        calls cost more per shoe)."""
        rows, table = self._more_table(up)
        keys = count_keys(removals)
        new = (self._rows.find(keys) < 0) & (rows.find(keys) < 0)
        new_keys, first = np.unique(keys[new], return_index=True)
        shoes = self.full[None, :] - removals[new][first]
        shoes[:, up] -= 1
        possible = (shoes >= 0).all(axis=1)
        if possible.any():
            paths = dealer_paths(up + 1, self.rules.dealer_hits_soft_17)
            computed = dealer_distributions(paths, shoes[possible])
            self._more_dealer[up] = (
                rows.extended(new_keys[possible]),
                np.concatenate([table, computed]),
            )

    def _more_table(self, up: int) -> tuple[_Rows, Floats]:
        """The rows and dealer probabilities against ``up`` of the shoes beyond the table."""
        empty = _Rows(np.zeros(0, dtype=np.int64)), np.zeros((0, len(OUTCOMES)))
        return self._more_dealer.get(up, empty)

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
        surrender = self._surrender_value(float(base.no_natural[q, up]))
        splits = first == second and self.rules.max_hands >= 2
        return ActionEVs(
            stand=float(base.stand[q, up]) / norm,
            hit=float(base.hit[q, up]) / norm,
            double=float(base.double[q, up]) / norm if self.rules.may_double(total) else None,
            split=self.split_ev(first, up) / norm if splits else None,
            surrender=surrender / norm if self.rules.may_surrender(up + 1) else None,
        )

    def _surrender_value(self, no_natural: float) -> float:
        """Surrendering, unnormalised like every other EV: half the bet lost when the dealer
        has no natural; when he has one, what surrender loses to it less what every other
        play loses to it at once (with a peek, the whole bet, which the edge takes off;
        without one it is already in their values).

        Early surrender loses half the bet to a natural too; late surrender loses it all
        (`Rules.surrender_lost_to_natural`) — with a peek as much as the others, since a
        natural ends the round first, so it counts for nothing there (docs/strategy.md).
        """
        natural = 1.0 - no_natural
        lost_to_natural = 0.5 if self.rules.surrender is Surrender.EARLY else 1.0
        lost_by_the_others = 1.0 if self.peek else 0.0
        return -0.5 * no_natural + natural * (lost_by_the_others - lost_to_natural)

    def multi_card_evs(self) -> dict[tuple[int, ...], tuple[tuple[float, float], ...]]:
        """Stand and hit EVs of every hand of three or more cards under 21, per up card.

        Keyed by rank counts (index 0 = ace); the value holds (stand, hit) for each up card,
        conditioned on no dealer natural where the dealer peeks, as `two_card_evs` reports.
        They grade a practice round's later decisions; the cards other hands hold are not
        taken out of the shoe, as a basic-strategy player does not count them.
        """
        base = self.base
        hands = base.hands
        kept = (hands.cards >= 3) & (hands.total < 21) & (hands.counts <= self.full).all(axis=1)
        norm = np.ones_like(base.stand[kept])
        if self.peek:  # a hand that leaves no card for a natural is certain of none
            no_natural = base.no_natural[kept]
            norm = np.where(no_natural == 0, 1.0, no_natural)
        evs = np.stack([base.stand[kept] / norm, base.hit[kept] / norm], axis=2)  # (hand, up, 2)
        return {
            tuple(counts): tuple(map(tuple, by_up))
            for counts, by_up in zip(hands.counts[kept].tolist(), evs.tolist(), strict=True)
        }

    # Splits ------------------------------------------------------------------------------

    def split_ev(self, rank: int, up: int, chart: Chart | None = None) -> float:
        """EV (units of the initial bet, unnormalised) of splitting a pair of ``rank``.

        Exact for the post-split strategy of `_split_policy` (or ``chart``'s codes), with
        re-splits up to ``max_hands``: see `_exact_split_evs`. Worked out for every pair
        and up card at once, the first time any is asked for (see `work_out_splits`).
        """
        return float(self.split_evs(chart)[rank][up])

    def split_evs(self, chart: Chart | None = None) -> dict[int, Floats]:
        """`split_ev` of every pair rank, by up card."""
        key = _play_key(chart)
        if key not in self._split_evs:
            self.work_out_splits(chart)
        return self._split_evs[key]

    def work_out_splits(self, *charts: Chart | None) -> None:
        """Work out the split EVs of every pair against every up card, for each play after
        a split: the best play (None) or a chart's (its hard and soft rows, all it reads
        there). Plays worked out together share the dealer's probabilities and each
        level's shoes, draws and busts, so a chart's costs little beside the best play's.

        Each pair's hands with the other pair card out (`_split_batches`) give its best
        play and its first level, and are let go before the next pair's: kept for every
        pair, they would double the analysis's memory. The dealer rows the other levels
        need are then computed for all pairs at once, one up card at a time."""
        plays = {_play_key(chart): chart for chart in charts}
        plays = {key: chart for key, chart in plays.items() if key not in self._split_evs}
        if not plays:
            return
        for key in plays:  # empty where no pair is split (`only`, or no splits at all)
            self._split_evs[key] = {}
        jobs: dict[int, list[tuple[_SplitPolicy, Settlement]]] = {}
        stands: dict[int, npt.NDArray[np.bool_]] = {}
        levels: dict[int, list[list[tuple[Floats, Floats]]]] = {}
        for rank in self._split_ranks:
            batches = self._split_batches(rank)
            jobs[rank] = [
                (self._split_policy(rank, chart, batches.get(settlement)), settlement)
                for chart in plays.values()
                for settlement in self._settlements
            ]
            stands[rank] = self._stands_needed(rank, jobs[rank])
            levels[rank] = [self._split_level_values(rank, jobs[rank], stands[rank], batches, 0)]
        self._prepare_split_dealer(stands)
        size = len(self._settlements)  # a play's jobs: its first hand's, then the later ones'
        for rank in self._split_ranks:
            levels[rank] += [
                self._split_level_values(rank, jobs[rank], stands[rank], {}, extra)
                for extra in self._split_levels(rank)[1:]
            ]
            values = [
                (np.array([level[job][0] for level in levels[rank]]),
                 np.array([level[job][1] for level in levels[rank]]))
                for job in range(len(jobs[rank]))
            ]  # fmt: skip
            for play, key in enumerate(plays):
                self._split_evs.setdefault(key, {})[rank] = self._exact_split_evs(
                    rank, values[play * size], values[play * size + size - 1]
                )

    def _split_batches(self, rank: int) -> dict[Settlement, _Batch]:
        """The hands holding a pair card of ``rank``, the other pair card out, played on at
        their best, by settlement (none for split aces that take one card only)."""
        if rank == 0 and not self.rules.hit_split_aces:
            return {}
        batch = _Batch(self, hands_containing(rank), rank, self.first)
        if self.rules.original_bets_only:
            return {self.first: batch, "none": batch.settled("none")}
        return {self.first: batch}

    def _split_limit(self, rank: int) -> int:
        """The most hands a pair of ``rank`` can become."""
        rules = self.rules
        return rules.max_hands if rank != 0 or rules.resplit_aces else 2

    def _split_levels(self, rank: int) -> range:
        """How many pair cards beyond the two split any term of `_exact_split_evs` has out."""
        return range(2 * self._split_limit(rank) - 3)

    def _split_policy(self, rank: int, chart: Chart | None, batch: _Batch | None) -> _SplitPolicy:
        """How a hand after a split is played: by its own cards and the up card alone.

        Without a chart, each decision is the best one for the hand's cards with the shoe
        less the up card, both original pair cards and the hand's own cards (stand unless
        hitting is strictly better, double only if strictly better than both), for the
        stakes a dealer natural takes from it: ``batch``'s values (None: split aces that
        take one card only, which stand).
        """
        hands = hands_containing(rank)
        counts = hands.counts
        two_card = hands.cards == 2
        can_hit = (hands.total < 21)[:, None]
        start = np.zeros((10, 10), dtype=np.int64)  # (second card, up): STAND, HIT or DOUBLE
        if batch is None:
            return _SplitPolicy(start, np.zeros((len(counts), 10), dtype=np.bool_))
        starts = _starts(rank)
        rules = self.rules
        doubles = np.array(
            [rules.double_after_split and rules.may_double(int(hands.total[q])) for q in starts]
        )
        if chart is None:
            hits = (batch.hit > batch.stand) & can_hit
            stand, hit, double = batch.stand[starts], batch.hit[starts], batch.double[starts]
            hit_better = hits[starts]
            start[hit_better] = _HIT
            best = np.where(hit_better, hit, stand)
            start[doubles[:, None] & (double > best)] = _DOUBLE
        else:
            hits = _hits_by_chart(chart, hands) & can_hit
            for second, q in enumerate(starts):
                for up in range(10):
                    code = chart_code(chart, list(counts[q]), up, pair_splittable=False)
                    action = resolve(
                        code,
                        allowed={Action.DOUBLE} if doubles[second] else (),
                        double_after_split=self.rules.double_after_split,
                    )
                    start[second, up] = {
                        Action.STAND: _STAND,
                        Action.HIT: _HIT,
                        Action.DOUBLE: _DOUBLE,
                    }[action]
        hits &= ~two_card[:, None]  # a two-card hand is only ever a start
        return _SplitPolicy(start, hits)

    def _stands_needed(
        self, rank: int, jobs: list[tuple[_SplitPolicy, Settlement]]
    ) -> npt.NDArray[np.bool_]:
        """(hand, up card): where any of these strategies can end standing."""
        hands = hands_containing(rank)
        stands = np.zeros((len(hands.counts), 10), dtype=np.bool_)
        for policy, _ in jobs:
            stands |= policy.stands_needed(hands, _starts(rank))
        return stands

    def _prepare_split_dealer(self, stands: dict[int, npt.NDArray[np.bool_]]) -> None:
        """Compute, one up card at a time, the dealer's probabilities for every shoe the
        levels beyond the first need (`_split_dealer`) that no table holds yet: each shoe
        once, whichever pairs, levels and plays share it."""
        for up in range(10):
            removals = [
                hands_containing(rank).counts[needed[:, up]] + (1 + extra) * _UNIT[rank]
                for rank, needed in stands.items()
                for extra in self._split_levels(rank)[1:]
            ]
            if removals:
                self.add_dealer_rows(np.concatenate(removals), up)

    def _exact_split_evs(
        self, rank: int, first: tuple[Floats, Floats], later: tuple[Floats, Floats]
    ) -> Floats:
        """The split EV of a pair of ``rank`` against every up card, exactly, from the
        values of a first hand and of a later one, by level (`_split_level_values`).

        Every hand after the split is played by a fixed strategy of its own cards, so by
        exchangeability the order in which hands get their cards does not change the joint
        law of everything dealt: deal every hand its second card first (re-splitting pair
        cards while hands are short of the limit), then play them out. A hand's EV then
        depends only on how many pair cards the re-splits took (a) and how many other
        hands' second cards are known not to be pair cards (b); the rest are random cards,
        which leave a fixed strategy's EV unchanged. Removing a card known not to be a
        pair card is removing a random card less the chance it was one, which reduces
        every term to a hand's value from the shoe with a + b pair cards more out
        (Farmer's method; docs/strategy.md).
        """
        limit = self._split_limit(rank)
        first_x, first_p = first
        later_x, later_p = later

        shoe = (
            self.full[None, :] - np.eye(10, dtype=np.int64) - 2 * np.eye(10, dtype=np.int64)[rank]
        )
        size = shoe.sum(axis=1).astype(np.float64)  # per up card
        pairs = shoe[:, rank].astype(np.float64)

        @cache
        def any_second(a: int, b: int, later: bool) -> Floats:
            """A hand whose second card may be anything; a + 2 pair cards and b other
            hands' (non-pair) second cards out."""
            if b == 0:
                return np.asarray((later_x if later else first_x)[a])
            chance = (pairs - a) / (size - a - b + 1)  # a random card being a pair card
            lower = any_second(a, b - 1, later)
            return np.asarray((lower - chance * any_second(a + 1, b - 1, later)) / (1 - chance))

        @cache
        def non_pair_second(a: int, b: int, later: bool) -> Floats:
            """The same hand given that its second card is not a pair card."""
            chance = (pairs - a) / (size - a - b)
            if b == 0:
                x_values, p_values = (later_x, later_p) if later else (first_x, first_p)
                return np.asarray((x_values[a] - chance * p_values[a]) / (1 - chance))
            lower = non_pair_second(a, b - 1, later)
            return np.asarray(
                (lower - chance * non_pair_second(a + 1, b - 1, later)) / (1 - chance)
            )

        total = np.zeros(10)

        def deal(hands: int, done: int, probability: Floats) -> None:
            """Second cards dealt in turn: ``done`` hands have a non-pair card so far."""
            nonlocal total
            a = hands - 2
            if hands == limit:  # the rest take any card
                if done == 0:
                    value = any_second(a, 0, False) + (limit - 1) * any_second(a, 0, True)
                else:
                    value = non_pair_second(a, done - 1, False)
                    value = value + (done - 1) * non_pair_second(a, done - 1, True)
                    value = value + (limit - done) * any_second(a, done, True)
                total = total + probability * value
            elif done == hands:
                value = non_pair_second(a, hands - 1, False)
                total = total + probability * (
                    value + (hands - 1) * non_pair_second(a, hands - 1, True)
                )
            else:
                left = size - a - done
                deal(hands + 1, done, probability * (pairs - a) / left)
                deal(hands, done + 1, probability * (size - pairs - done) / left)

        deal(2, 0, np.ones(10))
        return total

    def _split_level_values(
        self,
        rank: int,
        jobs: list[tuple[_SplitPolicy, Settlement]],
        stands: npt.NDArray[np.bool_],
        batches: dict[Settlement, _Batch],
        extra: int,
    ) -> list[tuple[Floats, Floats]]:
        """For each job (policy, settlement), by up card: the EV of a hand holding one pair
        card, with the other pair card and ``extra`` more out, and a random second card,
        then with the pair card as its second card (both unnormalised)."""
        hands = hands_containing(rank)
        starts = _starts(rank)
        # The shoe before the second card, per up card: both pair cards and the extra out.
        start_shoe = np.maximum(
            self.full[None, :] - np.eye(10, dtype=np.int64) - (2 + extra) * _UNIT[rank], 0
        )
        start_draw = start_shoe / np.maximum(start_shoe.sum(axis=1, keepdims=True), 1)
        tables = self._split_level_tables(rank, jobs, stands, batches, extra)
        found = []
        for policy, settlement in jobs:
            draws, stand, doubled_stand = tables(settlement)
            value = policy.values(hands, starts, draws, stand, doubled_stand)
            found.append((np.einsum("us,su->u", start_draw, value), value[rank]))  # (up,)
        return found

    def _split_level_tables(
        self,
        rank: int,
        jobs: list[tuple[_SplitPolicy, Settlement]],
        stands: npt.NDArray[np.bool_],
        batches: dict[Settlement, _Batch],
        extra: int,
    ) -> Callable[[Settlement], tuple[_Draws, Floats, Floats]]:
        """The draws, stand and doubled-stand values (hand, up card) of the hands holding a
        pair card with the other and ``extra`` more out, by settlement. With no extra they
        are the split batches' own; else the draws are worked out only for the jobs' starts
        and the hands they hit, the stand values only where ``stands``."""
        if extra == 0 and batches:

            def batch_tables(settlement: Settlement) -> tuple[_Draws, Floats, Floats]:
                batch = batches[settlement]
                return batch.draws, batch.stand, batch.doubled_stand

            return batch_tables
        hands = hands_containing(rank)
        out = hands.counts + (1 + extra) * _UNIT[rank]  # the other pair cards too
        # The starts and every hand a job hits (a set operation would load numpy.ma).
        moves = np.zeros(len(hands.counts), dtype=np.bool_)
        moves[_starts(rank)] = True
        for job, _ in jobs:
            moves[job.hitting] = True
        moving = np.flatnonzero(moves)
        draws = _Draws(self, hands, moving, out[moving])
        dist = self._split_dealer(out, stands)
        unsettled = _stand(hands.total, dist, self.peek)
        natural = dist[..., NATURAL]
        del dist

        def level_tables(settlement: Settlement) -> tuple[_Draws, Floats, Floats]:
            single, doubled = _RETURNED_TO_NATURAL[settlement]
            return draws, unsettled + single * natural, unsettled + doubled * natural

        return level_tables

    def _split_dealer(self, out: Ints, stands: npt.NDArray[np.bool_]) -> Floats:
        """Dealer probabilities (hand, up card, outcome) with the cards ``out`` (hand, rank)
        out of the shoe, where ``stands``; elsewhere zeros."""
        dist = np.zeros((len(out), 10, len(OUTCOMES)))
        for up in range(10):
            hands = np.flatnonzero(stands[:, up])
            dist[hands, up] = self.dealer_for(out[hands], up)
        return dist

    # Charts and the edge ------------------------------------------------------------------

    def chart_hits(self, chart: Chart, batch: _Batch) -> Floats:
        """Hitting each hand of ``batch`` once, then playing on by ``chart``."""
        policies = self._policies.setdefault(_chart_key(chart), {})
        found = policies.get(id(batch))
        if found is None:
            hits = _hits_by_chart(chart, batch.hands)
            found = policies[id(batch)] = batch.policy_hit(batch.policy(hits))
        return found


def _play_key(chart: Chart | None) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
    """What a play after a split depends on: the best play, or a chart's hard and soft rows
    (a pair card dealt to a split hand is split off again while the seat may)."""
    if chart is None:
        return None
    return _chart_key({row: cells for row, cells in chart.items() if not row.startswith("pair")})


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


def _hits_by_chart(chart: Chart, hands: HandSet) -> npt.NDArray[np.bool_]:
    """(hand, up card): whether each hand, of three or more cards, hits by the chart."""
    by_total = np.array(
        [[[hits_on(chart, total, soft, up) for up in range(10)] for soft in (False, True)]
         for total in range(22)]
    )  # fmt: skip
    return np.asarray(by_total[hands.total, hands.soft.astype(np.int64)])


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
