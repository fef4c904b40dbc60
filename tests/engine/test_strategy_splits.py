"""Split EVs against a brute force that deals every card, in the order the table deals them.

The post-split strategy (docs/strategy.md): every hand after a split is played by the best
play for its own cards, the shoe being the full shoe less the up card, both original pair
cards and the hand's own cards — stand unless hitting is strictly better, double only if
strictly better than both — for the stakes a dealer natural takes from it (the seat's
first hand, or a later one under ``original_bets_only``). A pair card dealt as a hand's
second card is split off to a new hand while the seat holds fewer than ``max_hands``.

The brute force works that strategy out for itself, by recursion over the cards each hand
can draw, and then deals the split round as the table does: the first hand gets its
second card (re-splitting pair cards to new hands), is played to the end, then the next
hand, and so on, every card drawn from what the cards before it left. Only the dealer's
final-total probabilities for a given shoe come from `dealer_distributions` (checked on
its own elsewhere). With a peek, the hole card is drawn last and a natural's share is
left out, then divided out, as the peek's "no natural" conditioning is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache

import numpy as np
import pytest

from engine import AMERICAN, EUROPEAN, NORMAL_CHART, Rules
from engine.chart_vocabulary import Chart, resolve, up_column
from engine.strategy.analysis import Analysis
from engine.strategy.dealer import BUST, NATURAL, dealer_distributions, dealer_paths
from engine.values import Action

Shoe = tuple[int, ...]
#: A finished hand: (total, or 0 if it busted; units staked; whether it is the seat's first).
Finished = tuple[int, int, bool]


@cache
def total_of(hand: tuple[int, ...]) -> int:
    """The best total of a hand given as ranks (0 = ace)."""
    hard = sum(rank + 1 for rank in hand)
    return hard + 10 if 0 in hand and hard <= 11 else hard


class BruteForce:
    """One split of ``pair`` against ``up`` under ``rules``, every card dealt."""

    def __init__(self, rules: Rules, pair: int, up: int) -> None:
        self.rules, self.pair, self.up = rules, pair, up
        shoe = [4 * rules.decks] * 9 + [16 * rules.decks]
        shoe[up] -= 1
        shoe[pair] -= 2
        self.start: Shoe = tuple(shoe)
        self.paths = dealer_paths(up + 1, rules.dealer_hits_soft_17)
        self.dealer: dict[Shoe, tuple[list[float], list[float]]] = {}
        aces = pair == 0
        self.limit = rules.max_hands if not aces or rules.resplit_aces else 2
        self.one_card = aces and not rules.hit_split_aces

    # The dealer -------------------------------------------------------------------------

    def fetch(self, shoes: set[Shoe]) -> None:
        """Dealer probabilities for many shoes in one go, and for each total a player may
        stand on, the chance the dealer ends below it or busts less the chance above."""
        new = sorted(shoe for shoe in shoes if shoe not in self.dealer)
        if new:
            table = dealer_distributions(self.paths, np.array(new))
            above = np.sign(np.arange(22)[None, :] - np.arange(17, 22)[:, None])  # (dealer, us)
            versus = table[:, :BUST] @ above + table[:, [BUST]]
            found = zip(table.tolist(), versus.tolist(), strict=True)
            self.dealer.update(zip(new, found, strict=True))

    def payoff(self, finished: Finished, shoe: Shoe) -> float:
        """A finished hand's expected payoff against the dealer drawing from ``shoe``."""
        total, stake, first = finished
        dist, versus = self.dealer[shoe]
        if self.rules.dealer_peeks:
            natural = 0.0  # left out: the peek's no-natural condition
        elif not self.rules.original_bets_only or total == 0:
            natural = -stake
        else:
            natural = -1.0 if first else 0.0
        if total == 0:
            return -stake * (1 - dist[NATURAL]) + natural * dist[NATURAL]
        return stake * versus[total] + natural * dist[NATURAL]

    # The strategy -----------------------------------------------------------------------

    def shoe_for(self, hand: tuple[int, ...]) -> Shoe:
        """The shoe a hand's decisions are made for: the start less its own cards."""
        shoe = list(self.start)
        for rank in hand[1:]:  # the first card is a pair card, already out
            shoe[rank] -= 1
        return tuple(shoe)

    def prepare_strategy(self) -> None:
        """Fetch the dealer's probabilities for every shoe the strategy may look at: those
        of the hands it can reach, and those after a card that busts one."""
        shoes: set[Shoe] = set()
        walked: set[tuple[int, ...]] = set()

        def walk(hand: tuple[int, ...]) -> None:
            walked.add(hand)
            shoe = self.shoe_for(hand)
            shoes.add(shoe)
            if (total_of(hand) < 21 or len(hand) == 2) and not (self.one_card and len(hand) == 2):
                for rank in range(10):
                    bigger = (hand[0], *sorted((*hand[1:], rank)))
                    if shoe[rank] > 0 and total_of(bigger) > 21:
                        shoes.add(self.shoe_for(bigger))
                    elif shoe[rank] > 0 and bigger not in walked:
                        walk(bigger)

        for second in range(10):
            if self.start[second] > 0:
                walk((self.pair, second))
        self.fetch(shoes)

    @cache  # noqa: B019 - one instance per test
    def options(self, hand: tuple[int, ...], first: bool) -> dict[str, float]:
        """The EV of each play of ``hand`` (its first card the pair card), played on best."""
        shoe = self.shoe_for(hand)
        size = sum(shoe)
        stand = self.payoff((total_of(hand), 1, first), shoe)
        found = {"stand": stand}
        if self.one_card and len(hand) == 2:
            return found
        if total_of(hand) < 21:
            hit = 0.0
            for rank in range(10):
                if shoe[rank]:
                    bigger = (hand[0], *sorted((*hand[1:], rank)))
                    if total_of(bigger) > 21:
                        hit += shoe[rank] / size * self.bust(shoe, rank, 1, first)
                    else:
                        hit += shoe[rank] / size * max(self.options(bigger, first).values())
            found["hit"] = hit
        if len(hand) == 2 and self.may_double(hand):
            double = 0.0
            for rank in range(10):
                if shoe[rank]:
                    bigger = (hand[0], *sorted((*hand[1:], rank)))
                    if total_of(bigger) > 21:
                        value = self.bust(shoe, rank, 2, first)
                    else:
                        value = self.payoff((total_of(bigger), 2, first), self.shoe_for(bigger))
                    double += shoe[rank] / size * value
            found["double"] = double
        return found

    def may_double(self, hand: tuple[int, ...]) -> bool:
        rules = self.rules
        allowed = {"any_two": range(4, 22), "9-11": (9, 10, 11), "10-11": (10, 11)}
        return rules.double_after_split and total_of(hand) in allowed[rules.double_on]

    def bust(self, shoe: Shoe, rank: int, stake: int, first: bool) -> float:
        """A bust on drawing ``rank``: the stake, save where a peek found a natural."""
        left = list(shoe)
        left[rank] -= 1
        self.fetch({tuple(left)})
        return self.payoff((0, stake, first), tuple(left))

    def play(self, hand: tuple[int, ...], first: bool) -> str:
        """Stand unless hitting is strictly better; double only if strictly better still."""
        found = self.options(hand, first)
        choice = "stand"
        for name in ("hit", "double"):
            if name in found and found[name] > found[choice]:
                choice = name
        return choice

    # The deal ---------------------------------------------------------------------------

    def split_ev(self) -> float:
        """The split's EV: every card dealt in order, then the dealer for each end."""
        self.prepare_strategy()
        ends: set[Shoe] = set()
        self.deal(lambda shoe, _: ends.add(shoe) or 0.0, keep=False)  # shoes the dealer meets
        self.fetch(ends)
        ev = self.deal(lambda shoe, done: sum(self.payoff(finished, shoe) for finished in done))
        if self.rules.dealer_peeks:
            natural_rank = {0: 9, 9: 0}.get(self.up)
            if natural_rank is not None:
                ev /= 1 - self.start[natural_rank] / sum(self.start)
        return ev

    def deal(
        self, settle: Callable[[Shoe, tuple[Finished, ...]], float], *, keep: bool = True
    ) -> float:
        """The expected ``settle(shoe left, finished hands)`` over every way the round goes.

        The hands waiting hold a pair card each; the next one gets its second card (a pair
        card splits off to a new hand, which waits its turn, while the seat holds fewer
        than ``limit``) and is played to the end, then the next. A state the deal reaches
        by several orders of the same cards is worked out once. Without ``keep`` the
        finished hands are forgotten but for whether the first has finished (all the play
        depends on), which merges far more states: enough to find the shoes left.
        """
        first_only = self.rules.original_bets_only

        def draws(shoe: Shoe) -> Iterator[tuple[int, float, Shoe]]:
            size = sum(shoe)
            for rank in range(10):
                if shoe[rank]:
                    yield rank, shoe[rank] / size, (*shoe[:rank], shoe[rank] - 1, *shoe[rank + 1 :])

        @cache
        def serve(shoe: Shoe, waiting: int, hands: int, done: tuple[Finished, ...]) -> float:
            if waiting == 0:
                return settle(shoe, done)
            value = 0.0
            for rank, chance, left in draws(shoe):
                if rank == self.pair and hands < self.limit:  # split again
                    value += chance * serve(left, waiting + 1, hands + 1, done)
                else:
                    value += chance * play_on((self.pair, rank), left, waiting, hands, done)
            return value

        @cache
        def play_on(
            hand: tuple[int, ...], shoe: Shoe, waiting: int, hands: int, done: tuple[Finished, ...]
        ) -> float:
            first = not done
            action = self.play(hand, first or not first_only)  # later hands' own, under OBO

            def finish(shoe: Shoe, total: int, stake: int) -> float:
                ended = tuple(sorted((*done, (total, stake, first)))) if keep else ((0, 0, False),)
                return serve(shoe, waiting - 1, hands, ended)

            if action == "stand":
                return finish(shoe, total_of(hand), 1)
            stake = 2 if action == "double" else 1
            value = 0.0
            for rank, chance, left in draws(shoe):
                bigger = (hand[0], *sorted((*hand[1:], rank)))
                total = total_of(bigger)
                if total > 21:
                    value += chance * finish(left, 0, stake)
                elif action == "double":
                    value += chance * finish(left, total, stake)
                else:
                    value += chance * play_on(bigger, left, waiting, hands, done)
            return value

        return serve(self.start, 2, 2, ())


ONE_DECK = EUROPEAN.replace(decks=1, name="one-deck")  # no peek, DAS, re-split to 4
ONE_DECK_PEEK = AMERICAN.replace(decks=1, name="one-deck-peek")
TWO_DECKS = EUROPEAN.replace(decks=2, name="two-decks")
TWO_DECKS_PEEK = AMERICAN.replace(decks=2, name="two-decks-peek")


@cache
def analysis_of(rules: Rules) -> Analysis:
    return Analysis(rules)


def analysed(rules: Rules, pair: int, up: int) -> float:
    split = analysis_of(rules).two_card_evs(pair, pair, up).split
    assert split is not None
    return split


CASES = {
    # Tens, where the old extrapolation was furthest out: re-split to 4 and split once.
    "10,10 v 6, 1 deck": (ONE_DECK, 9, 5),
    "10,10 v 6, 1 deck, peek": (ONE_DECK_PEEK, 9, 5),
    "10,10 v 5, 2 decks": (TWO_DECKS, 9, 4),
    "10,10 v 4, 2 decks, peek": (TWO_DECKS_PEEK, 9, 3),
    "10,10 v 6, 1 deck, split once": (ONE_DECK.replace(max_hands=2), 9, 5),
    "10,10 v 4, 1 deck, re-split to 3": (ONE_DECK.replace(max_hands=3), 9, 3),
    # Aces: one card each, re-split to 4; and hit after a split.
    "A,A v 10, 1 deck, re-split": (ONE_DECK.replace(resplit_aces=True), 0, 9),
    "A,A v A, 1 deck, peek, re-split": (ONE_DECK_PEEK.replace(resplit_aces=True), 0, 0),
    "A,A v 6, 2 decks, once": (TWO_DECKS, 0, 5),
    "A,A v 6, 1 deck, hit split aces": (ONE_DECK.replace(max_hands=2, hit_split_aces=True), 0, 5),
    # Hands that hit and double after the split.
    "8,8 v 10, 1 deck, peek, split once": (ONE_DECK_PEEK.replace(max_hands=2), 7, 9),
    "9,9 v 6, 1 deck, re-split to 4": (ONE_DECK, 8, 5),
    "2,2 v 6, 1 deck, split once": (ONE_DECK.replace(max_hands=2), 1, 5),
    "4,4 v 5, 1 deck, no double after split": (
        ONE_DECK.replace(max_hands=2, double_after_split=False),
        3,
        4,
    ),
    # Original bets only: later hands lose only what busted to a natural.
    "10,10 v A, 1 deck, original bets only, once": (
        ONE_DECK.replace(original_bets_only=True, max_hands=2),
        9,
        0,
    ),
    "8,8 v 10, 1 deck, original bets only, once": (
        ONE_DECK.replace(original_bets_only=True, max_hands=2),
        7,
        9,
    ),
    "A,A v 10, 1 deck, original bets only, re-split": (
        ONE_DECK.replace(original_bets_only=True, resplit_aces=True),
        0,
        9,
    ),
}


@pytest.mark.parametrize(("rules", "pair", "up"), CASES.values(), ids=CASES.keys())
def test_split_evs_are_exact_against_dealing_every_card(rules, pair, up):
    assert analysed(rules, pair, up) == pytest.approx(
        BruteForce(rules, pair, up).split_ev(), abs=1e-9
    )


class ChartBruteForce(BruteForce):
    """The same deal, every hand after the split played by ``chart`` as a player reads it:
    on two cards by the code of its total's row (a pair not split again plays its total;
    no row: hit under 17), after that hitting where the row's code hits."""

    def __init__(self, rules: Rules, pair: int, up: int, chart: Chart) -> None:
        super().__init__(rules, pair, up)
        self.chart = chart

    def prepare_strategy(self) -> None:
        """A chart needs no EVs to decide."""

    def play(self, hand: tuple[int, ...], first: bool) -> str:
        if self.one_card and len(hand) == 2:
            return "stand"
        total = total_of(hand)
        soft = 0 in hand and sum(rank + 1 for rank in hand) <= 11
        row = self.chart.get(f"{'soft' if soft else 'hard'} {total}")
        code = row[up_column(self.up + 1)] if row else ("H" if total < 17 else "S")
        double = len(hand) == 2 and self.may_double(hand)
        allowed = {Action.DOUBLE} if double else set()
        return resolve(code, allowed=allowed, double_after_split=self.rules.double_after_split)


CHART_CASES = {
    "10,10 v 6, 1 deck, re-split to 4": (ONE_DECK, 9, 5),
    "4,4 v 5, 1 deck, split once": (ONE_DECK.replace(max_hands=2), 3, 4),
    "8,8 v 10, 1 deck, peek, split once": (ONE_DECK_PEEK.replace(max_hands=2), 7, 9),
    "A,A v 6, 1 deck, hit split aces": (ONE_DECK.replace(max_hands=2, hit_split_aces=True), 0, 5),
}


@pytest.mark.parametrize(("rules", "pair", "up"), CHART_CASES.values(), ids=CHART_CASES.keys())
def test_split_evs_by_a_chart_are_exact_against_dealing_every_card(rules, pair, up):
    # The chart's edge splits with its own play after the split, not the best one.
    analysis = analysis_of(rules)
    q = analysis.base.hands.index[tuple(2 * (rank == pair) for rank in range(10))]
    norm = float(analysis.base.no_natural[q, up]) if rules.dealer_peeks else 1.0
    by_chart = analysis.split_ev(pair, up, NORMAL_CHART) / norm
    assert by_chart == pytest.approx(
        ChartBruteForce(rules, pair, up, NORMAL_CHART).split_ev(), abs=1e-9
    )
    assert abs(by_chart - analysed(rules, pair, up)) > 1e-6  # the two plays differ here
