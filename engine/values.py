"""The small vocabularies of a round: a player's actions, a stake's result and its kind.

They are string enums, so that a history written as JSON reads as plain words (``"hit"``,
``"blackjack"``, ``"behind"``) and compares equal to them.

>>> Action("double") is Action.DOUBLE, Result.BLACKJACK == "blackjack"
(True, True)
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Action", "Decision", "Result", "StakeKind"]


class Action(StrEnum):
    """A decision asked of a player: on a hand, or on insurance against a dealer ace."""

    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    INSURE = "insure"
    NO_INSURANCE = "no_insurance"
    #: A bettor behind a seat that doubles or splits: follow it (stake more), or not.
    FOLLOW = "follow"
    NO_FOLLOW = "no_follow"


class Decision(StrEnum):
    """The kind of decision a round waits for (`engine.round.Turn`), and so who makes it:
    the seat's holder (a hand, insurance), or one bettor behind the seat."""

    HAND = "hand"
    INSURANCE = "insurance"
    #: A bettor behind the seat: insurance for their own stake (half of it, 2:1).
    BEHIND_INSURANCE = "behind_insurance"
    #: A bettor behind a seat that has just doubled, or split: follow with as much again?
    FOLLOW_DOUBLE = "follow_double"
    FOLLOW_SPLIT = "follow_split"


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
    #: Insurance: the seat holder's, or a bettor behind's on their own stake (its owner).
    INSURANCE = "insurance"
    PAIR = "pair"
