"""A counter's game, simulated: bets by the count, index plays, other players, back-counting.

The counter sits after ``others`` players who flat-bet one unit and play the base strategy
(the tier's bot; ``hard`` is the exact basic strategy of the rules). Before each round the
counter reads the count: the **true count** of a balanced system (`TrueCountMethod`), or
the running count itself for an unbalanced one (KO, Red 7 are played without dividing).
The bet is the ramp's at that count; back-counting, the counter joins at ``enter`` or more
and leaves below ``leave``, watching the rounds in between. Every card dealt is seen by
the end of its round (the hole card is turned over), the first card of a burn too (it is
shown); the rest of a burn is unseen. Decisions use the count of the cards seen so far,
the current round's included, divided over the unseen cards (the hole card among them).

The rounds are cut into chunks of `CHUNK_ROUNDS`; each chunk plays from a fresh shoe with
a generator seeded by ``(seed, chunk number)``, so the same seed gives the same figures
whichever process plays which chunk, and the chunks' exact sums are added in chunk order.

>>> from engine.rules import AMERICAN
>>> result = simulate_counter(AMERICAN, CounterSettings(), 2000, seed=1, processes=1)
>>> result.rounds_played, 1.0 < result.sd_per_round < 1.3
(2000, True)
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.bots import BOTS, Bot, Tier, chart_bot
from engine.chart_vocabulary import Chart, RowKind, RowLabel
from engine.counting.index_table import INDEX_TABLES, INSURANCE_ROW, IndexPlay
from engine.counting.risk import (
    BetRamp,
    desirability_index,
    n0,
    score,
    simple_risk_of_ruin,
)
from engine.counting.systems import HI_LO, CountingError, CountingSystem
from engine.counting.true_count import (
    DEFAULT_METHOD,
    Conversion,
    TrueCountMethod,
    decks_remaining,
)
from engine.round import Phase, Round
from engine.rules import Rules
from engine.shoe import Shoe
from engine.strategy import strategy_for
from engine.values import Action
from engine.view import PlayerView

__all__ = [
    "CHUNK_ROUNDS",
    "SLIP_KINDS",
    "CounterResult",
    "CounterSettings",
    "Slips",
    "simulate_counter",
]

#: Rounds dealt per chunk (one seed stream each): large enough that the shoe cut short at
#: a chunk's end weighs nothing, small enough to share a run among processes.
CHUNK_ROUNDS = 20_000

#: A one-unit flat bet at every count: the flat bettor's edge, and the advantage by count.
FLAT = BetRamp(bets={}, below=1)

COUNTER = "counter"
PAIR, SOFT, HARD = RowKind.PAIR, RowKind.SOFT, RowKind.HARD
NO_INSURANCE = Action.NO_INSURANCE


#: The kinds of a counter's own mistakes, as `Slips` names them.
SLIP_KINDS = ("count", "true_count", "deviations", "bets")


@dataclass(frozen=True, slots=True)
class Slips:
    """A counter's own mistakes, each a chance from 0 to 1 (a player's measured error
    rates, issue 27), drawn from a generator of their own so that the cards dealt stay
    those of the same game played without them:

    - ``count``: per card seen, the running count slips one point up or down, and stays
      off until the shoe ends;
    - ``true_count``: per conversion, the true count comes out one off, up or down;
    - ``deviations``: per index play the count calls for, the base strategy's play instead;
    - ``bets``: per bet, the ramp's bet at a count one off, up or down.
    """

    count: float = 0.0
    true_count: float = 0.0
    deviations: float = 0.0
    bets: float = 0.0

    def check(self) -> None:
        for kind in SLIP_KINDS:
            rate = getattr(self, kind)
            if not (isinstance(rate, float | int) and 0 <= rate <= 1):
                raise CountingError(f"the {kind} slip rate must be from 0 to 1: {rate!r}")

    def any(self) -> bool:
        return any(getattr(self, kind) for kind in SLIP_KINDS)

    def only(self, kind: str) -> Slips:
        """These slips with every kind but ``kind`` left out."""
        return Slips(**{kind: getattr(self, kind)})


NO_SLIPS = Slips()


@dataclass(frozen=True, slots=True)
class CounterSettings:
    """How the counter plays. Bets are in units (the ramp's whole numbers)."""

    system: CountingSystem = HI_LO
    method: TrueCountMethod = DEFAULT_METHOD
    indices: tuple[IndexPlay, ...] = ()
    ramp: BetRamp = FLAT
    #: Players seated before the counter, flat-betting one unit with the base strategy.
    others: int = 0
    #: Back-counting: join at this count or more, leave below ``leave``.
    enter: int | None = None
    leave: int | None = None
    #: The bankroll, in units, whose risk of ruin is reported.
    bank: int = 1000
    #: The base strategy's bot.
    tier: str = "hard"
    #: The counter's own mistakes (none: a perfect counter).
    slips: Slips = NO_SLIPS

    def check(self, rules: Rules) -> None:
        """Refuse settings that cannot be played, with the reason."""
        self.slips.check()
        if self.tier not in BOTS:
            raise CountingError(f"unknown tier {self.tier!r}: choose one of {', '.join(BOTS)}")
        if not 0 <= self.others < rules.max_seats:
            raise CountingError(
                f"other players must be from 0 to {rules.max_seats - 1} (the table has "
                f"{rules.max_seats} seats)"
            )
        if (self.enter is None) != (self.leave is None):
            raise CountingError("back-counting needs both the count to enter and to leave at")
        if self.enter is not None and self.leave is not None:
            if self.leave > self.enter:
                raise CountingError(
                    f"the count to leave at ({self.leave}) is above the count to enter at "
                    f"({self.enter})"
                )
            if self.others == 0:
                raise CountingError("back-counting needs other players at the table to watch")
        book = set(INDEX_TABLES["i18+fab4"])
        tags = (self.system.tags, self.system.red_tags)
        if self.indices and set(self.indices) <= book and tags != (HI_LO.tags, HI_LO.red_tags):
            raise CountingError(
                f"the I18 and Fab 4 are Hi-Lo's indices, not {self.system.name}'s: give a "
                "table computed for it"
            )
        bets = [*self.ramp.bets.values(), self.ramp.below]
        if any(isinstance(bet, bool) or not isinstance(bet, int) or bet < 1 for bet in bets):
            raise CountingError("every bet of the ramp must be a whole number of units, 1 or more")
        if isinstance(self.bank, bool) or not isinstance(self.bank, int) or self.bank < 1:
            raise CountingError(f"the bank must be a whole number of units, 1 or more: {self.bank}")


@dataclass(frozen=True, slots=True)
class _Tally:
    """A chunk's exact sums (chips are whole or `Fraction`): merged by adding."""

    dealt: int = 0
    played: int = 0
    sums: tuple[int | Fraction, ...] = (0, 0, 0, 0)  # of net, net², net³, net⁴ in chips
    wagered: int = 0
    #: Over shoes, each shoe's net X and rounds played N: shoes, ΣX², ΣXN, ΣN².
    shoes: tuple[int | Fraction, ...] = (0, 0, 0, 0)
    #: By count at the bet: [rounds, net chips, chips bet].
    by_count: Mapping[int, tuple[int, int | Fraction, int]] = field(default_factory=dict)

    def plus(self, other: _Tally) -> _Tally:
        by_count = dict(self.by_count)
        for count, (n, net, bet) in other.by_count.items():
            had = by_count.get(count, (0, 0, 0))
            by_count[count] = (had[0] + n, had[1] + net, had[2] + bet)
        return _Tally(
            dealt=self.dealt + other.dealt,
            played=self.played + other.played,
            sums=tuple(a + b for a, b in zip(self.sums, other.sums, strict=True)),
            wagered=self.wagered + other.wagered,
            shoes=tuple(a + b for a, b in zip(self.shoes, other.shoes, strict=True)),
            by_count=by_count,
        )


@dataclass(frozen=True, slots=True)
class CounterResult:
    """A counter's figures per round played, in units, with their standard errors.

    The win's standard error is measured shoe by shoe (rounds of one shoe share its count
    and so its bets: the shoes, not the rounds, are independent); the others come from
    the sample's moments by the delta method, with the win's part widened by as much.
    """

    rules: str
    system: str
    rounds_dealt: int
    rounds_played: int
    #: Mean result per round played, in units, and its standard error.
    win_per_round: float
    win_per_round_stderr: float
    #: The same per 100 rounds played.
    win_per_100: float
    win_per_100_stderr: float
    #: Standard deviation of one round's result, in units.
    sd_per_round: float
    sd_per_round_stderr: float
    sd_per_100: float
    sd_per_100_stderr: float
    #: Average initial bet in units, and the result per unit bet (the counter's edge).
    average_bet: float
    edge: float
    n0: float
    n0_stderr: float
    score: float
    score_stderr: float
    desirability_index: float
    bank: int
    risk_of_ruin: float
    risk_of_ruin_stderr: float
    #: Per count at the bet: rounds, and the result per unit bet (the advantage).
    by_count: dict[int, tuple[int, float]]
    seed: int
    processes: int
    seconds: float
    rounds_per_second: float

    def to_json(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in self.__dataclass_fields__}
        data["by_count"] = {
            str(count): {"rounds": n, "advantage": advantage}
            for count, (n, advantage) in sorted(self.by_count.items())
        }
        return {key: _finite(value) for key, value in data.items()}


def _finite(value: object) -> object:
    """JSON has no infinity: an infinite N0 (no edge) is written as null."""
    return None if isinstance(value, float) and not math.isfinite(value) else value


def simulate_counter(
    rules: Rules,
    settings: CounterSettings,
    rounds: int,
    *,
    seed: int | None = None,
    processes: int | None = None,
    chunk_rounds: int = CHUNK_ROUNDS,
) -> CounterResult:
    """Deal ``rounds`` rounds to a counter playing by ``settings``, on ``processes``
    processes (every core by default); the figures depend on the seed (and the chunk
    size) alone."""
    settings.check(rules)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise CountingError("rounds must be at least 1")
    workers = (os.cpu_count() or 1) if processes is None else processes
    if workers < 1 or chunk_rounds < 1:
        raise CountingError("processes and rounds per chunk must be at least 1")
    if seed is None:
        seed = secrets.randbits(63)  # reported, so the run can be repeated
    # The exact chart is worked out (or read) here, once, not by each process, which might
    # not see the store the host keeps analyses in.
    chart = _plain(strategy_for(rules).chart) if settings.tier == Tier.HARD else None
    chunks = [
        (rules, settings, chart, seed, number, min(chunk_rounds, rounds - start))
        for number, start in enumerate(range(0, rounds, chunk_rounds))
    ]
    workers = min(workers, len(chunks))
    started = time.perf_counter()
    if workers == 1:
        tallies = [_play_chunk(chunk) for chunk in chunks]
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            tallies = pool.map(_play_chunk, chunks, chunksize=1)  # in chunk order
    seconds = time.perf_counter() - started
    total = _Tally()
    for tally in tallies:
        total = total.plus(tally)
    return _figures(rules, settings, total, seed, workers, seconds)


def _figures(
    rules: Rules, settings: CounterSettings, tally: _Tally, seed: int, workers: int, seconds: float
) -> CounterResult:
    n = tally.played
    unit = _unit(rules)
    if n == 0:
        raise CountingError("the counter never played a round: enter at a lower count")
    # Central moments of a round's result in units, from the exact sums.
    s1, s2, s3, s4 = (Fraction(s) / unit**k for k, s in enumerate(tally.sums, start=1))
    mean = s1 / n
    var = s2 / n - mean**2
    m3 = s3 / n - 3 * mean * s2 / n + 2 * mean**3
    m4 = s4 / n - 4 * mean * s3 / n + 6 * mean**2 * s2 / n - 3 * mean**4
    w, v = float(mean), float(var)
    if v <= 0:
        raise CountingError("too few rounds to measure a spread: play more")
    # Delta method: the covariance of (mean, variance) estimates, per round; the mean's
    # variance as the shoes measure it.
    shoes, xx, xn, nn = tally.shoes
    mean_variance = _clustered_variance(
        int(shoes), Fraction(xx) / unit**2, Fraction(xn) / unit, int(nn), s1, n
    )
    cov = (
        (v if mean_variance is None else mean_variance * n, float(m3)),
        (float(m3), float(m4) - v * v),
    )

    def stderr(dw: float, dv: float) -> float:
        spread = dw * dw * cov[0][0] + 2 * dw * dv * cov[0][1] + dv * dv * cov[1][1]
        return math.sqrt(max(spread, 0.0) / n)

    sd = math.sqrt(v)
    risk = simple_risk_of_ruin(w, v, settings.bank)
    risk_grad = (-2 * settings.bank / v * risk, 2 * w * settings.bank / (v * v) * risk)
    by_count = {
        count: (rounds, float(Fraction(net) / bet) if bet else 0.0)
        for count, (rounds, net, bet) in tally.by_count.items()
    }
    return CounterResult(
        rules=rules.name,
        system=settings.system.name,
        rounds_dealt=tally.dealt,
        rounds_played=n,
        win_per_round=w,
        win_per_round_stderr=stderr(1, 0),
        win_per_100=100 * w,
        win_per_100_stderr=100 * stderr(1, 0),
        sd_per_round=sd,
        sd_per_round_stderr=stderr(0, 1 / (2 * sd)),
        sd_per_100=10 * sd,
        sd_per_100_stderr=10 * stderr(0, 1 / (2 * sd)),
        average_bet=tally.wagered / unit / n,
        edge=float(Fraction(tally.sums[0]) / tally.wagered),
        n0=n0(w, v),
        n0_stderr=stderr(-2 * v / w**3, 1 / w**2) if w > 0 else math.inf,
        score=score(w, v),
        score_stderr=stderr(2e6 * w / v, -1e6 * w * w / v**2) if w > 0 else 0.0,
        desirability_index=desirability_index(w, v),
        bank=settings.bank,
        risk_of_ruin=risk,
        risk_of_ruin_stderr=stderr(*risk_grad) if w > 0 else 0.0,
        by_count=by_count,
        seed=seed,
        processes=workers,
        seconds=seconds,
        rounds_per_second=tally.dealt / seconds if seconds > 0 else math.inf,
    )


def _clustered_variance(
    shoes: int, xx: Fraction, xn: Fraction, nn: int, total: Fraction, n: int
) -> float | None:
    """The variance of the mean result per round, from the shoes' totals: the shoes are
    independent, the rounds within one are not. ``xx``, ``xn``, ``nn``: the sums over shoes
    of X², X·N and N² (X a shoe's result, N its rounds played); None below two shoes.

    >>> # Shoes (X, N): (2, 2), (-1, 1), (5, 3). Mean 1; residuals X - N: 0, -2, 2.
    >>> _clustered_variance(3, Fraction(30), Fraction(18), 14, Fraction(6), 6)
    0.3333333333333333
    """
    if shoes < 2:
        return None
    mean = total / n
    residuals = xx - 2 * mean * xn + mean * mean * nn
    return float(residuals / (n * n) * Fraction(shoes, shoes - 1))


def _unit(rules: Rules) -> int:
    """Chips per betting unit: keeps every payout (3:2, halves) in whole chips."""
    return 2 * rules.blackjack_pays.denominator


class _Counter:
    """The counter's eyes and head for one chunk: the count, and the decisions it makes."""

    def __init__(
        self,
        rules: Rules,
        settings: CounterSettings,
        shoe: Shoe,
        slip: random.Random | None = None,
    ) -> None:
        system = settings.system
        tags = system.tags_by_code()
        self.scale = 2 if any(tag.denominator != 1 for tag in tags) else 1
        self.tags = tuple(int(tag * self.scale) for tag in tags)
        self.initial = int(system.initial_count(rules.decks) * self.scale)
        self.balanced = system.balanced
        self.conversion = settings.method.conversion
        # The deck estimate for every number of unseen cards, as (numerator, denominator).
        self.decks = tuple(
            (estimate.numerator, estimate.denominator)
            for estimate in (
                decks_remaining(left, settings.method.estimate)
                for left in range(len(shoe.cards) + 1)
            )
        )
        self.running = self.initial
        self.shoe = shoe
        self.slips = settings.slips
        #: Draws the counter's own mistakes, apart from the shoe's generator.
        self.slip = slip or random.Random()
        #: The entries by (kind, points, up points) as a view gives them: kind "pair",
        #: "soft" or "hard"; a pair's card points (aces 1) or the total; an ace up is 11.
        self.cells: dict[tuple[str, int, int], list[IndexPlay]] = {}
        self.insurance: IndexPlay | None = None
        for entry in settings.indices:
            if entry.row == INSURANCE_ROW:
                self.insurance = self.insurance or entry
            else:
                label = RowLabel.of(entry.row)
                up = 11 if entry.up == "A" else int(entry.up)
                self.cells.setdefault((label.kind, label.points, up), []).append(entry)

    def count(self, running: int, unseen: int) -> int:
        """The count the counter bets and plays by: the true count, or for an unbalanced
        system the running count (floored to a whole number)."""
        if not self.balanced:
            return running // self.scale
        decks_num, decks_den = self.decks[unseen]
        count = _convert(running * decks_den, self.scale * decks_num, self.conversion)
        if self.slips.true_count and self.slip.random() < self.slips.true_count:
            count += self.slip.choice((-1, 1))
        return count

    def see(self, cards: Sequence[int]) -> None:
        """Add the tags of ``cards`` to the running count, with the counter's slips."""
        self.running += sum(map(self.tags.__getitem__, cards))
        rate = self.slips.count
        if rate:
            slip = self.slip
            for _ in cards:
                if slip.random() < rate:
                    self.running += slip.choice((-self.scale, self.scale))

    def decide(self, view: PlayerView, base: Action, start: int, seats: int) -> Action:
        """The index play where the table has one for this hand and count, else ``base``."""
        legal = view.legal
        if view.hand_index is None:
            entry = self.insurance
            if entry is None or Action.INSURE not in legal:
                return base
            play = Action.INSURE if self._count(start, seats) >= entry.index else NO_INSURANCE
            return self._missed(play, base)
        cells, up = self.cells, view.up_points
        entries: list[IndexPlay] = []
        pair = view.pair_points
        if pair:
            entries += cells.get((PAIR, pair, up), ())
        if not pair or base is not Action.SPLIT:
            entries += cells.get((SOFT if view.soft else HARD, view.total, up), ())
        if not entries:
            return base
        if base is Action.SURRENDER and not any(
            Action.SURRENDER in (entry.play, entry.otherwise) for entry in entries
        ):
            return base  # the table was made without surrender: basic strategy's stands
        count = self._count(start, seats)
        below: Action | None = None
        for entry in entries:
            if entry.play in legal:
                if count >= entry.index:
                    return self._missed(entry.play, base)
                if below is None and entry.otherwise in legal:
                    below = entry.otherwise
        return self._missed(below or base, base)

    def _missed(self, play: Action, base: Action) -> Action:
        """``play``, or ``base`` where the counter misses the deviation the count calls for."""
        rate = self.slips.deviations
        if play is not base and rate and self.slip.random() < rate:
            return base
        return play

    def _count(self, start: int, seats: int) -> int:
        """The count of the cards seen so far in a round that began at ``start`` with
        ``seats`` seats dealt, over the cards unseen (the face-down hole card with them)."""
        shoe = self.shoe
        seen = self.running + sum(map(self.tags.__getitem__, shoe.cards[start : shoe.position]))
        hole = start + 2 * seats + 1
        unseen = shoe.remaining
        if hole < shoe.position:  # the hole card is out but face down
            seen -= self.tags[shoe.cards[hole]]
            unseen += 1
        return self.count(seen, min(unseen, len(self.decks) - 1))


def _convert(numerator: int, denominator: int, conversion: Conversion) -> int:
    """`Conversion.apply` on a quotient of integers (the denominator positive), fast."""
    if conversion is Conversion.FLOOR:
        return numerator // denominator
    if conversion is Conversion.TRUNCATE:
        return numerator // denominator if numerator >= 0 else -(-numerator // denominator)
    whole = (2 * abs(numerator) + denominator) // (2 * denominator)
    return whole if numerator >= 0 else -whole


def _plain(chart: Chart) -> dict[str, dict[str, str]]:
    """A chart as plain dictionaries, to send to another process."""
    return {row: dict(cells) for row, cells in chart.items()}


def _play_chunk(
    job: tuple[Rules, CounterSettings, dict[str, dict[str, str]] | None, int, int, int],
) -> _Tally:
    """Play one chunk of rounds from a fresh shoe seeded by (seed, chunk number)."""
    rules, settings, chart, seed, number, rounds = job
    shoe = Shoe.for_rules(rules, random.Random(f"{seed}:{number}"))
    slip = random.Random(f"{seed}:{number}:slips")
    counter = _Counter(rules, settings, shoe, slip)
    bot: Bot = chart_bot(chart) if chart is not None else BOTS[Tier(settings.tier)]
    unit = _unit(rules)
    ramp, tags = settings.ramp, counter.tags
    others = settings.others
    seats = others + 1
    backcounting = settings.enter is not None
    playing = not backcounting
    deciding = (Phase.PLAYER_TURNS, Phase.INSURANCE)
    played = wagered = 0
    s1: int | Fraction = 0
    s2: int | Fraction = 0
    s3: int | Fraction = 0
    s4: int | Fraction = 0
    by_count: dict[int, tuple[int, int | Fraction, int]] = {}
    shoes = nn = 0
    xx: int | Fraction = 0
    xn: int | Fraction = 0
    shoe_net: int | Fraction = 0
    shoe_played = 0
    bets: dict[int, int] = {}  # the ramp's bet in chips by count, looked up once
    rnd: Round | None = None
    for _ in range(rounds):
        burned = shoe.prepare_round(rules)
        if burned is not None:  # a new shoe: the count starts again; the burn card is shown
            counter.running = counter.initial + (tags[burned[0]] if burned else 0)
            if shoe_played:
                shoes, nn = shoes + 1, nn + shoe_played * shoe_played
                xx, xn = xx + shoe_net * shoe_net, xn + shoe_net * shoe_played
                shoe_net, shoe_played = 0, 0
        count = counter.count(counter.running, shoe.remaining)
        if backcounting:
            joined = count >= (settings.leave if playing else settings.enter)  # type: ignore[operator]
            if joined != playing:  # a seat taken or left: a new round's table
                rnd, playing = None, joined
        bet = bets.get(count) or bets.setdefault(count, ramp.bet(count) * unit)
        if settings.slips.bets and slip.random() < settings.slips.bets:
            bet = ramp.bet(count + slip.choice((-1, 1))) * unit
        if rnd is None:
            rnd = Round(rules, shoe, keep_history=False)
            for seat in range(1, others + 1):
                rnd.place_bet(seat=seat, amount=unit, owner=f"other {seat}")
            if playing:
                rnd.place_bet(seat=seats, amount=bet, owner=COUNTER)
        elif playing:
            rnd.change_bet(seat=seats, amount=bet, owner=COUNTER)
        start = shoe.position
        dealt = len(rnd.seats)
        rnd.deal()
        while rnd.phase in deciding:
            view = rnd.view()
            action = bot(view)
            if view.owner == COUNTER:
                action = counter.decide(view, action, start, dealt)
            rnd.apply(action)
        counter.see(shoe.cards[start : shoe.position])
        if playing:
            net = rnd.net(COUNTER)
            played += 1
            wagered += bet
            square = net * net
            s1 += net
            s2 += square
            s3 += square * net
            s4 += square * square
            shoe_net += net
            shoe_played += 1
            had = by_count.get(count, (0, 0, 0))
            by_count[count] = (had[0] + 1, had[1] + net, had[2] + bet)
        rnd.next_round()
    if shoe_played:  # the shoe the chunk ends in
        shoes, nn = shoes + 1, nn + shoe_played * shoe_played
        xx, xn = xx + shoe_net * shoe_net, xn + shoe_net * shoe_played
    return _Tally(
        dealt=rounds,
        played=played,
        sums=(s1, s2, s3, s4),
        wagered=wagered,
        shoes=(shoes, xx, xn, nn),
        by_count=by_count,
    )
