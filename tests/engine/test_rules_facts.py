"""The facts a description of the rules is made of, and what a custom set changed."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from engine.rules import AMERICAN, DELUXE, EUROPEAN, PRESETS, DoubleOn, Rules, Surrender
from engine.rules_facts import Fact, HoleCard, Topic, base_preset, changes, facts


def _as_dict(rules: Rules) -> dict[Topic, object]:
    return {fact.topic: fact.value for fact in facts(rules)}


def test_european_facts_are_the_documents_game():
    said = _as_dict(EUROPEAN)
    assert said[Topic.DECKS] == 6
    assert said[Topic.SOFT_17] is False  # the dealer stands on soft 17
    assert said[Topic.HOLE_CARD] is HoleCard.NO_PEEK_TAKES_ALL
    assert said[Topic.DOUBLE_ON] is DoubleOn.ANY_TWO
    assert said[Topic.DOUBLE_AFTER_SPLIT] is True
    assert said[Topic.SPLIT_HANDS] == 4
    assert said[Topic.RESPLIT_ACES] is False and said[Topic.HIT_SPLIT_ACES] is False
    assert said[Topic.SURRENDER] is Surrender.NONE
    assert Topic.SURRENDER_VS_ACE_OR_TEN not in said  # no surrender: nothing to restrict
    assert said[Topic.BLACKJACK_PAYS] == Fraction(3, 2)
    assert said[Topic.INSURANCE] is False


def test_deluxe_facts_have_the_peek_one_split_and_late_surrender_but_not_against_ace_or_ten():
    said = _as_dict(DELUXE)
    assert said[Topic.DECKS] == 8 and said[Topic.HOLE_CARD] is HoleCard.PEEK
    assert said[Topic.SPLIT_HANDS] == 2
    assert Topic.RESPLIT_ACES not in said  # two hands at most: aces cannot be split again
    assert said[Topic.SURRENDER] is Surrender.LATE
    assert said[Topic.SURRENDER_VS_ACE_OR_TEN] is False
    assert said[Topic.INSURANCE] is True


def test_original_bets_only_is_its_own_hole_card_fact():
    rules = EUROPEAN.replace(original_bets_only=True)
    assert _as_dict(rules)[Topic.HOLE_CARD] is HoleCard.NO_PEEK_ORIGINAL_BETS


def test_a_game_without_splits_has_no_facts_about_split_hands():
    topics = _as_dict(EUROPEAN.replace(max_hands=1))
    assert Topic.DOUBLE_AFTER_SPLIT not in topics and Topic.HIT_SPLIT_ACES not in topics
    assert topics[Topic.SPLIT_HANDS] == 1


def test_two_hands_bring_the_split_hand_facts_and_three_the_resplitting_of_aces():
    two = _as_dict(EUROPEAN.replace(max_hands=2))
    assert two[Topic.DOUBLE_AFTER_SPLIT] is True and two[Topic.HIT_SPLIT_ACES] is False
    assert Topic.RESPLIT_ACES not in two
    assert _as_dict(EUROPEAN.replace(max_hands=3))[Topic.RESPLIT_ACES] is False


def test_facts_are_listed_in_the_topics_order():
    order = list(Topic)
    for rules in PRESETS.values():
        listed = [order.index(fact.topic) for fact in facts(rules)]
        assert listed == sorted(listed)


def test_changes_are_what_the_custom_set_changed():
    custom = EUROPEAN.with_overrides({"decks": "2", "dealer_hits_soft_17": "true"})
    assert changes(custom, EUROPEAN) == (Fact(Topic.DECKS, 2), Fact(Topic.SOFT_17, True))


def test_a_change_outside_the_facts_changes_nothing_described():
    assert changes(EUROPEAN.replace(penetration=Fraction(1, 2)), EUROPEAN) == ()
    assert changes(EUROPEAN, EUROPEAN) == ()


def test_peek_and_surrender_changes_against_american():
    custom = AMERICAN.replace(surrender="late", dealer_peeks=False)
    assert changes(custom, AMERICAN) == (
        Fact(Topic.HOLE_CARD, HoleCard.NO_PEEK_TAKES_ALL),
        Fact(Topic.SURRENDER, Surrender.LATE),
        Fact(Topic.SURRENDER_VS_ACE_OR_TEN, True),
    )


def test_base_preset_of_a_custom_set_is_the_preset_it_was_made_from():
    for name, rules in PRESETS.items():
        assert base_preset(rules) is rules
        assert base_preset(rules.with_overrides({"decks": "1"})) is PRESETS[name]
    assert base_preset(Rules(name="my-casino")) is None


@given(
    decks=st.integers(1, 8),
    hits=st.booleans(),
    hands=st.integers(1, 4),
    surrender=st.sampled_from(["none", "late"]),
)
def test_changes_are_exactly_the_facts_the_base_does_not_hold(
    decks: int, hits: bool, hands: int, surrender: str
):
    custom = EUROPEAN.replace(
        decks=decks, dealer_hits_soft_17=hits, max_hands=hands, surrender=surrender
    )
    changed = changes(custom, EUROPEAN)
    assert set(changed) == set(facts(custom)) - set(facts(EUROPEAN))
    assert (Fact(Topic.DECKS, decks) in changed) == (decks != EUROPEAN.decks)
