"""The simulation: its figures are those of the rounds it plays, with the bot of its tier."""

from __future__ import annotations

import math
import random
import statistics
import time

import pytest

from engine.bots import BOTS, hard_bot
from engine.errors import EngineError
from engine.round import Phase, Round
from engine.rules import DELUXE, EUROPEAN, Rules
from engine.shoe import Shoe
from engine.simulate import simulate


def nets_played_one_by_one(rules: Rules, tier: str, rounds: int, seed: int) -> list[float]:
    """Each round's result per unit bet, played on a round of the engine's that keeps its
    history, by the tier's bot, from a shoe shuffled by the same seed."""
    bot = hard_bot(rules) if tier == "hard" else BOTS[tier]
    shoe = Shoe.for_rules(rules, random.Random(seed))
    rnd = Round(rules, shoe)
    bet = 2 * rules.blackjack_pays.denominator
    rnd.place_bet(seat=1, amount=bet, owner="bot")
    nets = []
    for _ in range(rounds):
        rnd.deal()
        while rnd.phase in (Phase.PLAYER_TURNS, Phase.INSURANCE):
            rnd.apply(bot(rnd.view()))
        nets.append(float(rnd.net("bot")) / bet)
        rnd.next_round()
    return nets


@pytest.mark.parametrize(
    ("rules", "tier"),
    [(EUROPEAN, "easy"), (EUROPEAN, "normal"), (DELUXE, "hard")],
)
def test_the_mean_and_its_standard_error_are_those_of_the_rounds_played(
    rules: Rules, tier: str
) -> None:
    started = time.perf_counter()
    result = simulate(rules, tier, 300, seed=11)
    elapsed = time.perf_counter() - started
    nets = nets_played_one_by_one(rules, tier, 300, seed=11)
    assert (result.rules, result.tier, result.rounds) == (rules.name, tier, 300)
    assert result.mean == pytest.approx(statistics.fmean(nets), abs=1e-12)
    assert result.stderr == pytest.approx(statistics.pstdev(nets) / math.sqrt(300), abs=1e-12)
    # Timed inside the call, after the hard tier's chart is made: at least the rate seen
    # from outside it.
    assert 300 / elapsed <= result.rounds_per_second < math.inf


def test_each_tier_plays_its_own_bot() -> None:
    """The tiers differ in play, so the same shoe gives them different results."""
    means = {tier: simulate(EUROPEAN, tier, 300, seed=5).mean for tier in BOTS}
    assert len(set(means.values())) == len(BOTS)


def test_a_seed_gives_the_same_result_every_time() -> None:
    first, again = (simulate(EUROPEAN, "normal", 200, seed=3) for _ in range(2))
    assert (first.mean, first.stderr) == (again.mean, again.stderr)


def test_an_unknown_tier_and_too_few_rounds_are_refused_by_name() -> None:
    with pytest.raises(
        EngineError, match="^unknown tier 'expert': choose one of easy, normal, hard$"
    ):
        simulate(EUROPEAN, "expert", 10)
    with pytest.raises(EngineError, match="^rounds must be at least 1$"):
        simulate(EUROPEAN, "normal", 0)
