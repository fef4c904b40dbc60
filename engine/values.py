"""The small vocabularies of a round: a player's actions, a stake's result and its kind.

They are string enums, so that a history written as JSON reads as plain words (``"hit"``,
``"blackjack"``, ``"behind"``) and compares equal to them.

>>> Action("double") is Action.DOUBLE, Result.BLACKJACK == "blackjack"
(True, True)
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Action", "Result", "StakeKind"]


class Action(StrEnum):
    """A decision asked of a player: on a hand, or on insurance against a dealer ace."""

    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    INSURE = "insure"
    NO_INSURANCE = "no_insurance"


class Result(StrEnum):
    """How a stake was settled."""

    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    #: A natural, paid at the rules' ``blackjack_pays``.
    BLACKJACK = "blackjack"
    BUST = "bust"
    SURRENDER = "surrender"
    #: The round was voided and the stake handed back.
    VOID = "void"
    #: The pair side bet's results (a loss is `LOSE`).
    PERFECT_PAIR = "perfect_pair"
    COLOURED_PAIR = "coloured_pair"
    MIXED_PAIR = "mixed_pair"


class StakeKind(StrEnum):
    """What a stake was placed on."""

    #: A seat's own bet on one of its hands (doubles and splits included).
    HAND = "hand"
    #: Another player's stake riding on one of the seat's hands.
    BEHIND = "behind"
    INSURANCE = "insurance"
    PAIR = "pair"
