"""What a `Rules` value means to a player, as values an app can put in its own words.

A rules' label (``european-custom v1.0.0``) says nothing about the game; these facts say
what is played — decks, soft 17, the peek, doubling, splitting, surrender, the payouts —
and `changes` says what a custom rule set changed against the preset it was made from.
The engine keeps no wording of its own here: the facts are data, the sentences are the
app's (in its player's language).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from engine.rules import PRESETS, Rules, Surrender

__all__ = ["Fact", "HoleCard", "Topic", "base_preset", "changes", "facts"]


class Topic(StrEnum):
    """What one fact is about, in the order a description lists them."""

    DECKS = "decks"
    SOFT_17 = "soft_17"
    HOLE_CARD = "hole_card"
    DOUBLE_ON = "double_on"
    DOUBLE_AFTER_SPLIT = "double_after_split"
    SPLIT_HANDS = "split_hands"
    RESPLIT_ACES = "resplit_aces"
    HIT_SPLIT_ACES = "hit_split_aces"
    SURRENDER = "surrender"
    SURRENDER_VS_ACE_OR_TEN = "surrender_vs_ace_or_ten"
    BLACKJACK_PAYS = "blackjack_pays"
    INSURANCE = "insurance"


class HoleCard(StrEnum):
    """What the dealer's hole card means for the players' bets (peek and original bets
    together: a player meets them as one rule)."""

    #: The dealer checks for a natural first: a natural ends the round before anyone acts.
    PEEK = "peek"
    #: No peek, and a dealer natural takes every bet on a hand, doubles and splits included.
    NO_PEEK_TAKES_ALL = "no_peek_takes_all"
    #: No peek, and a dealer natural takes only the original bets.
    NO_PEEK_ORIGINAL_BETS = "no_peek_original_bets"


@dataclass(frozen=True, slots=True)
class Fact:
    """One thing the rules say: a topic and its value (an int, a yes or no, a fraction,
    or one of the rules' choices)."""

    topic: Topic
    value: int | bool | Fraction | StrEnum


def facts(rules: Rules) -> tuple[Fact, ...]:
    """What ``rules`` say a player meets, topic by topic; a topic that cannot arise under
    them (doubling after a split where nothing splits) is left out.

    >>> [(fact.topic.value, fact.value) for fact in facts(Rules(max_hands=1))][:4]
    [('decks', 6), ('soft_17', False), ('hole_card', <HoleCard.NO_PEEK_TAKES_ALL: \
'no_peek_takes_all'>), ('double_on', <DoubleOn.ANY_TWO: 'any_two'>)]
    >>> Topic.DOUBLE_AFTER_SPLIT in {fact.topic for fact in facts(Rules(max_hands=1))}
    False
    """
    listed: list[Fact] = [
        Fact(Topic.DECKS, rules.decks),
        Fact(Topic.SOFT_17, rules.dealer_hits_soft_17),
        Fact(Topic.HOLE_CARD, _hole_card(rules)),
        Fact(Topic.DOUBLE_ON, rules.double_on),
    ]
    if rules.max_hands > 1:
        listed.append(Fact(Topic.DOUBLE_AFTER_SPLIT, rules.double_after_split))
    listed.append(Fact(Topic.SPLIT_HANDS, rules.max_hands))
    if rules.max_hands > 2:
        listed.append(Fact(Topic.RESPLIT_ACES, rules.resplit_aces))
    if rules.max_hands > 1:
        listed.append(Fact(Topic.HIT_SPLIT_ACES, rules.hit_split_aces))
    listed.append(Fact(Topic.SURRENDER, rules.surrender))
    if rules.surrender is not Surrender.NONE:
        listed.append(Fact(Topic.SURRENDER_VS_ACE_OR_TEN, rules.surrender_vs_ace_or_ten))
    listed.append(Fact(Topic.BLACKJACK_PAYS, rules.blackjack_pays))
    listed.append(Fact(Topic.INSURANCE, rules.insurance))
    return tuple(listed)


def _hole_card(rules: Rules) -> HoleCard:
    if rules.dealer_peeks:
        return HoleCard.PEEK
    return (
        HoleCard.NO_PEEK_ORIGINAL_BETS if rules.original_bets_only else HoleCard.NO_PEEK_TAKES_ALL
    )


def changes(rules: Rules, base: Rules) -> tuple[Fact, ...]:
    """The facts of ``rules`` that ``base`` does not share, in the order `facts` lists
    them: what a custom rule set changed against its preset. A change that only fields
    outside the facts make (the penetration, the seats) changes no fact.

    >>> from engine.rules import EUROPEAN
    >>> custom = EUROPEAN.with_overrides({"decks": "2", "dealer_hits_soft_17": "yes"})
    >>> [(fact.topic.value, fact.value) for fact in changes(custom, EUROPEAN)]
    [('decks', 2), ('soft_17', True)]
    """
    theirs = set(facts(base))
    return tuple(fact for fact in facts(rules) if fact not in theirs)


def base_preset(rules: Rules) -> Rules | None:
    """The preset ``rules`` are, or were made from (``european-custom`` from
    ``european``, as `Rules.with_overrides` names them); None for rules from elsewhere.

    >>> base_preset(PRESETS["deluxe"].with_overrides({"decks": "6"})).name
    'deluxe'
    >>> base_preset(Rules(name="mine")) is None
    True
    """
    name = rules.name.removesuffix("-custom")
    return PRESETS.get(name)
