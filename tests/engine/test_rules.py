from __future__ import annotations

from fractions import Fraction

import pytest

from engine import AMERICAN, DELUXE, EUROPEAN, PRESETS, Burn, Rules, RulesError, Surrender, preset


def test_the_european_preset_is_the_game_of_rules_md():
    assert (EUROPEAN.name, EUROPEAN.version, EUROPEAN.decks) == ("european", "1.0.0", 6)
    assert EUROPEAN.penetration == Fraction(3, 4)
    assert not EUROPEAN.dealer_hits_soft_17 and not EUROPEAN.dealer_peeks
    assert not EUROPEAN.original_bets_only  # a dealer natural takes doubles and splits
    assert EUROPEAN.double_after_split and EUROPEAN.max_hands == 4
    assert not EUROPEAN.resplit_aces and EUROPEAN.split_aces_one_card
    assert EUROPEAN.blackjack_pays == Fraction(3, 2)
    assert EUROPEAN.surrender is Surrender.NONE and not EUROPEAN.insurance
    assert EUROPEAN.burn is Burn.NONE


def test_the_deluxe_preset_is_the_live_table_of_rules_md():
    assert DELUXE.decks == 8 and DELUXE.dealer_peeks and DELUXE.max_hands == 2
    assert DELUXE.surrender is Surrender.LATE and not DELUXE.surrender_vs_ace_or_ten
    assert DELUXE.insurance and DELUXE.insurance_pays == 2
    assert DELUXE.burn is Burn.FIRST_CARD_VALUE and DELUXE.short_balance_fallback
    assert DELUXE.seats_per_account == 2 and DELUXE.bet_behind and DELUXE.pair_bet
    pays = (DELUXE.perfect_pair_pays, DELUXE.coloured_pair_pays, DELUXE.mixed_pair_pays)
    assert pays == (25, 12, 6)


def test_the_american_control_preset():
    assert AMERICAN.decks == 6 and AMERICAN.dealer_peeks and AMERICAN.double_after_split
    assert AMERICAN.max_hands == 4 and AMERICAN.surrender is Surrender.NONE
    assert set(PRESETS) == {"european", "deluxe", "american"}


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"dealer_peeks": True, "original_bets_only": True}, "original_bets_only"),
        ({"resplit_aces": True, "max_hands": 2}, "resplit_aces"),
        ({"decks": 0}, "decks"),
        ({"penetration": Fraction(1)}, "penetration"),
        ({"seats_per_account": 8}, "seats_per_account"),
    ],
)
def test_a_contradictory_combination_is_refused_naming_the_fields(changes, named):
    with pytest.raises(RulesError, match=named):
        Rules(**changes)


def test_overrides_from_text_are_typed_and_checked():
    rules = EUROPEAN.with_overrides({"decks": "2", "blackjack_pays": "6/5", "surrender": "late"})
    assert (rules.decks, rules.blackjack_pays, rules.surrender) == (2, Fraction(6, 5), "late")
    assert rules.name == "european-custom"
    for bad in ({"decks": "two"}, {"nonsense": "1"}, {"insurance": "maybe"},
                {"blackjack_pays": 1.5}):  # fmt: skip
        with pytest.raises(RulesError):
            EUROPEAN.with_overrides(bad)


def test_rules_round_trip_through_json():
    for rules in PRESETS.values():
        assert Rules.from_json(rules.to_json()) == rules


def test_an_unknown_preset_names_the_known_ones():
    with pytest.raises(RulesError, match="european"):
        preset("vegas")
