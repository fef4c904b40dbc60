"""Surrender's EV in the analysis, against the round's own payouts and a published chart.

The round is the independent side: for one hand and up card, every hole card the shoe
can hold is dealt on a stacked shoe, the hand surrendered, and the net read from the
settlement; weighted by how many such cards the shoe holds, that is surrender's EV as
the game pays it (with a peek, over the hole cards that let the player act, as the
analysis conditions on no dealer natural).
"""

from __future__ import annotations

import pytest

from engine import AMERICAN, EUROPEAN, Action, Phase, Round, Rules, Shoe
from engine.strategy import strategy_for

ONE_DECK = EUROPEAN.replace(decks=1, name="one-deck")
ONE_DECK_LATE = ONE_DECK.replace(surrender="late")
ONE_DECK_EARLY = ONE_DECK.replace(surrender="early")
ONE_DECK_OBO_LATE = ONE_DECK_LATE.replace(original_bets_only=True)
ONE_DECK_PEEK_LATE = AMERICAN.replace(decks=1, surrender="late", name="one-deck-peek")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
BET = 10


def surrender_by_the_round(rules: Rules, hand: tuple[str, str], up: str) -> float:
    """Surrender's EV per unit bet: each hole card dealt and the surrender settled."""
    left = dict.fromkeys(RANKS, 4 * rules.decks)
    left["10"] *= 4
    for rank in (*hand, up):
        left[rank] -= 1
    total = weight = 0.0
    for hole, count in left.items():
        rnd = Round(rules, Shoe.stacked(f"{hand[0]}s {up}h {hand[1]}d {hole}c"))
        rnd.place_bet(seat=1, amount=BET)
        rnd.deal()
        if rnd.phase is Phase.INSURANCE:
            rnd.apply(Action.NO_INSURANCE)
        if rnd.phase is not Phase.PLAYER_TURNS:
            continue  # the peek found a natural: nobody acts
        rnd.apply(Action.SURRENDER)
        total += count * rnd.net("player") / BET
        weight += count
    return total / weight


@pytest.mark.parametrize(
    "rules",
    [ONE_DECK_LATE, ONE_DECK_EARLY, ONE_DECK_OBO_LATE, ONE_DECK_PEEK_LATE],
    ids=["late-no-peek", "early-no-peek", "late-original-bets-only", "late-peek"],
)
@pytest.mark.parametrize(
    ("hand", "up"), [(("10", "6"), "A"), (("10", "6"), "10"), (("8", "8"), "10"), (("9", "7"), "9")]
)
def test_surrender_is_valued_as_the_round_pays_it(rules, hand, up):
    expected = surrender_by_the_round(rules, hand, up)
    analysed = strategy_for(rules).ev(",".join(hand), up).surrender
    assert analysed == pytest.approx(expected, abs=1e-12)


def test_late_surrender_without_a_peek_is_worth_less_than_half_against_an_ace():
    # 16 against an ace, one deck: 15 tens of 49 cards left make a natural, which takes
    # the whole bet; otherwise half comes back.
    natural = 15 / 49
    evs = strategy_for(ONE_DECK_LATE).ev("10,6", "A")
    assert evs.surrender == pytest.approx(-0.5 * (1 - natural) - natural, abs=1e-12)
    assert strategy_for(ONE_DECK_EARLY).ev("10,6", "A").surrender == -0.5


# Wizard of Odds, blackjack appendix 6 ("Early or Late Surrender"): early surrender against
# an ace: hard 5-7 and 12-17, and 3,3, 6,6, 7,7 and 8,8; against a ten: hard 14-16, 7,7
# and 8,8; against anything else, as late surrender (four decks or more, S17: hard 16
# against a 9).
PUBLISHED_EARLY_SURRENDERS = {
    *(("hard " + str(total), "A") for total in (5, 6, 7, 12, 13, 14, 15, 16, 17)),
    *(("pair " + str(pair), "A") for pair in (3, 6, 7, 8)),
    *(("hard " + str(total), "10") for total in (14, 15, 16)),
    ("pair 7", "10"),
    ("pair 8", "10"),
    ("hard 16", "9"),
}


def test_the_european_chart_with_early_surrender_is_the_published_one():
    chart = strategy_for(EUROPEAN.replace(surrender="early")).chart
    surrenders = {(row, up) for row, cells in chart.items() for up, c in cells.items() if "R" in c}
    assert surrenders == PUBLISHED_EARLY_SURRENDERS


def test_surrender_without_a_peek_helps_the_player_more_the_earlier_it_is_decided():
    # An option can only add to the best play's return, and early surrender pays at least
    # what late does in every case; late surrender no longer turns the house edge over.
    returns = [
        strategy_for(EUROPEAN.replace(surrender=surrender)).cd_expected_return
        for surrender in ("none", "late", "early")
    ]
    assert returns[0] < returns[1] < 0 < returns[2]
    late = strategy_for(EUROPEAN.replace(surrender="late"))
    assert late.expected_return < 0
