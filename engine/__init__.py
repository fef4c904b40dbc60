"""The blackjack engine: rules, cards, shoe, rounds, settlement, bots and simulation.

Pure Python with no Django in it, usable on its own (``python -m engine --help``).

>>> rnd = Round(EUROPEAN, Shoe.stacked("As 6h Kd 5c"))
>>> rnd.place_bet(seat=1, amount=10)
>>> _ = rnd.deal()
>>> rnd.phase, rnd.outcome().net("player")
(<Phase.SETTLED: 'settled'>, 15)
"""

from __future__ import annotations

from engine.bots import BOTS, NORMAL_CHART, Bot, Tier, chart_bot, easy, hard, normal
from engine.cards import CARDS, RANKS, SUITS, Card, card_code, parse_cards, rank_points
from engine.chart_vocabulary import Chart
from engine.errors import EngineError, IllegalActionError, ShoeError, StateError
from engine.events import (
    ActionTaken,
    BehindDecided,
    CardDealt,
    DealerPeeked,
    Event,
    HandClosed,
    HandSplit,
    HoleCardRevealed,
    RoundVoided,
    ShoeShuffled,
    StakeSettled,
)
from engine.hand import HandValue, hand_value, is_natural, is_pair
from engine.round import Outcome, Phase, Round, Turn
from engine.rule_ranges import RulesError
from engine.rules import (
    AMERICAN,
    DELUXE,
    EUROPEAN,
    PRESETS,
    Burn,
    DoubleOn,
    Rules,
    Surrender,
    preset,
)
from engine.shoe import Shoe
from engine.simulate import SimulationResult, simulate
from engine.values import Action, Decision, Result, StakeKind
from engine.view import PlayerView

__all__ = [
    "AMERICAN",
    "BOTS",
    "CARDS",
    "DELUXE",
    "EUROPEAN",
    "NORMAL_CHART",
    "PRESETS",
    "RANKS",
    "SUITS",
    "Action",
    "ActionTaken",
    "BehindDecided",
    "Bot",
    "Burn",
    "Card",
    "CardDealt",
    "Chart",
    "DealerPeeked",
    "Decision",
    "DoubleOn",
    "EngineError",
    "Event",
    "HandClosed",
    "HandSplit",
    "HandValue",
    "HoleCardRevealed",
    "IllegalActionError",
    "Outcome",
    "Phase",
    "PlayerView",
    "Result",
    "Round",
    "RoundVoided",
    "Rules",
    "RulesError",
    "Shoe",
    "ShoeError",
    "ShoeShuffled",
    "SimulationResult",
    "StakeKind",
    "StakeSettled",
    "StateError",
    "Surrender",
    "Tier",
    "Turn",
    "card_code",
    "chart_bot",
    "easy",
    "hand_value",
    "hard",
    "is_natural",
    "is_pair",
    "normal",
    "parse_cards",
    "preset",
    "rank_points",
    "simulate",
]
