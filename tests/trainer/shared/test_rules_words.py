"""The rules in words wherever a page names them, and the engine's refusals in words."""

from __future__ import annotations

import re
import string
from fractions import Fraction

import pytest
from django.utils import translation

from engine.refusals import REFUSALS, Refusal, refused
from engine.rules import DELUXE, EUROPEAN, Rules
from engine.rules_facts import Topic, facts
from engine.values import Action
from trainer.shared.refusals import NOT_OFFERED, REASONS, reason_text
from trainer.shared.rules_words import PRESET_NAMES, RulesWords, fact_text, odds


def test_a_preset_is_named_and_described_fact_by_fact() -> None:
    words = RulesWords.of(EUROPEAN)
    assert (words.title, words.preset, words.custom) == ("European", "european", False)
    assert len(words.details) == len(facts(EUROPEAN))
    assert words.summary.startswith("6 decks · dealer stands on soft 17 · no peek: ")


def test_a_custom_set_is_described_by_what_it_changed() -> None:
    custom = EUROPEAN.with_overrides({"decks": "2", "dealer_hits_soft_17": "true"})
    words = RulesWords.of(custom)
    assert (words.title, words.preset, words.custom) == ("European, changed", "european", True)
    assert words.summary == "2 decks, dealer hits soft 17"


def test_rules_from_no_preset_are_custom_rules_described_in_full() -> None:
    words = RulesWords.of(Rules(name="my-casino", decks=1))
    assert (words.title, words.preset) == ("Custom rules", None)
    assert words.details[0] == "1 deck"  # the singular


def test_a_rules_name_alone_is_named_by_its_preset() -> None:
    assert RulesWords.named("deluxe").details == RulesWords.of(DELUXE).details
    custom = RulesWords.named("deluxe-custom")
    assert (custom.title, custom.preset, custom.details) == (
        "Deluxe, with changes of your own",
        "deluxe",
        (),
    )


@pytest.mark.parametrize("topic", list(Topic))
def test_every_fact_a_rule_set_can_hold_has_words(topic: Topic) -> None:
    variants = [
        EUROPEAN,
        DELUXE,
        EUROPEAN.replace(original_bets_only=True, surrender="early", hit_split_aces=True),
        EUROPEAN.replace(double_on="9-11", double_after_split=False, resplit_aces=True),
        EUROPEAN.replace(double_on="10-11", max_hands=1, dealer_hits_soft_17=True),
        DELUXE.replace(surrender_vs_ace_or_ten=True, insurance=False),
    ]
    seen = {fact.value for rules in variants for fact in facts(rules) if fact.topic is topic}
    assert seen, topic
    for value in seen:
        text = next(
            fact_text(fact)
            for rules in variants
            for fact in facts(rules)
            if fact.value == value and fact.topic is topic
        )
        assert text and "%" not in text


def test_payouts_are_odds() -> None:
    assert (odds(Fraction(3, 2)), odds(Fraction(6, 5)), odds(Fraction(2))) == ("3:2", "6:5", "2:1")


def test_preset_names_are_translated_strings() -> None:
    with translation.override("pl"):
        assert set(PRESET_NAMES) == {"european", "deluxe", "american"}
        assert all(str(name) for name in PRESET_NAMES.values())


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_engine_refusal_has_a_sentence_asking_only_for_the_engines_parameters() -> None:
    assert set(REASONS) == set(REFUSALS)
    for code, english in REFUSALS.items():
        given = _placeholders(english)
        assert set(re.findall(r"%\((\w+)\)s", str(REASONS[code]))) <= given, code
        shown = reason_text(refused(code, **dict.fromkeys(given, 7)))
        assert shown and "%(" not in shown, code


def test_a_refusal_reads_from_its_code_and_parameters() -> None:
    assert reason_text(refused(Refusal.SEAT_TAKEN, seat=4)) == "Seat 4 is taken"
    assert reason_text(refused(Refusal.SEATS_PER_PLAYER, seats=1)).endswith("at most 1 seat")
    assert reason_text(refused(Refusal.SEATS_PER_PLAYER, seats=2)).endswith("at most 2 seats")
    double = refused(Refusal.NOT_OFFERED, action="double")
    assert reason_text(double) == str(NOT_OFFERED[Action.DOUBLE])
