from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import AMERICAN, DELUXE, EUROPEAN, PRESETS, Burn, Rules, RulesError, Surrender, preset
from engine import rules as rules_module
from engine.rules import ALLOWED, FIELD_NAMES, DoubleOn


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
    with pytest.raises(RulesError, match="european") as refusal:
        preset("vegas")
    assert refusal.value.code == "unknown_preset"


# Every field's documented range (shared/RULES.md and issue 10): these are the casino's,
# written out here rather than read from the engine's table, so a change to one shows.
WHOLE_RANGES = {
    "decks": (1, 8),
    "max_hands": (1, 4),
    "max_seats": (1, 7),
    "seats_per_account": (1, 2),
    "perfect_pair_pays": (0, 30),
    "coloured_pair_pays": (0, 30),
    "mixed_pair_pays": (0, 30),
}
FRACTION_RANGES = {
    "penetration": (Fraction(1, 2), Fraction(9, 10)),
    "blackjack_pays": (Fraction(1), Fraction(2)),
    "insurance_pays": (Fraction(2), Fraction(2)),
}


@pytest.mark.parametrize("field", sorted(WHOLE_RANGES))
@given(value=st.integers(-(10**30), 10**30))
def test_a_whole_number_field_takes_exactly_its_range(field, value):
    low, high = WHOLE_RANGES[field]
    if low <= value <= high:
        assert getattr(Rules(**{field: value}), field) == value
    else:
        expected = f"^{field} must be a whole number from {low} to {high}$"
        with pytest.raises(RulesError, match=expected):
            Rules(**{field: value})


@pytest.mark.parametrize("field", sorted(FRACTION_RANGES))
@given(value=st.fractions(max_denominator=1000) | st.integers(-(10**30), 10**30).map(Fraction))
def test_a_fraction_field_takes_exactly_its_range(field, value):
    low, high = FRACTION_RANGES[field]
    if low <= value <= high:
        assert getattr(Rules(**{field: value}), field) == value
    else:
        with pytest.raises(RulesError, match=f"^{field} must be ") as refused:
            Rules(**{field: value})
        assert (refused.value.field, str(low)) == (field, str(refused.value.allowed.low))


def _edges(field: str, low: Any, high: Any, step: Any) -> list[Any]:
    """A field's bounds, admitted, and the values just outside them, refused."""
    values = {low - step: False, low: True, high: True, high + step: False}
    return [pytest.param(field, value, ok, id=f"{field}={value}") for value, ok in values.items()]


EDGES = [
    *(edge for field, (low, high) in WHOLE_RANGES.items() for edge in _edges(field, low, high, 1)),
    *(
        edge
        for field, (low, high) in FRACTION_RANGES.items()
        for edge in _edges(field, low, high, Fraction(1, 1000))
    ),
]


@pytest.mark.parametrize(("field", "value", "allowed"), EDGES)
def test_each_range_admits_its_bounds_and_refuses_the_values_just_outside(field, value, allowed):
    if allowed:
        assert getattr(Rules(**{field: value}), field) == value
    else:
        with pytest.raises(RulesError, match=f"^{field} must be "):
            Rules(**{field: value})


@pytest.mark.parametrize("field", ["perfect_pair_pays", "coloured_pair_pays", "mixed_pair_pays"])
def test_a_pair_bet_never_pays_a_negative_amount(field):
    with pytest.raises(RulesError, match=f"^{field} must be a whole number from 0 to 30$"):
        Rules(**{field: -1})
    assert getattr(Rules(**{field: 0}), field) == 0  # a pair that only returns the stake


@pytest.mark.parametrize("penetration", [Fraction(0), Fraction(-1, 2), Fraction(1, 3)])
def test_a_shoe_is_dealt_at_least_halfway_to_its_cut_card(penetration):
    with pytest.raises(RulesError, match="^penetration must be a fraction from 1/2 to 9/10$"):
        Rules(penetration=penetration)


@pytest.mark.parametrize(
    ("field", "text", "message"),
    [
        ("decks", "1000000000", "decks must be a whole number from 1 to 8"),
        ("decks", "100000", "decks must be a whole number from 1 to 8"),
        ("decks", "9" * 5000, "decks must be a whole number from 1 to 8"),
        ("max_hands", "1000", "max_hands must be a whole number from 1 to 4"),
        ("blackjack_pays", "1e400", "blackjack_pays must be a fraction from 1 to 2"),
        ("blackjack_pays", "1e999999999999", "blackjack_pays must be a fraction from 1 to 2"),
        ("blackjack_pays", "9" * 5000, "blackjack_pays must be a fraction from 1 to 2"),
        ("blackjack_pays", "5/2", "blackjack_pays must be a fraction from 1 to 2"),
        ("penetration", "1", "penetration must be a fraction from 1/2 to 9/10"),
        ("insurance_pays", "3", "insurance_pays must be exactly 2"),
        ("original_bets_only", "maybe", "original_bets_only must be true or false"),
        ("surrender", "always", "surrender must be one of: none, early, late"),
        ("name", "x" * 41, "name must be 1 to 40 letters, digits, - or _"),
        ("name", "<script>", "name must be 1 to 40 letters, digits, - or _"),
        ("version", "1" * 21, "version must be 1 to 20 letters, digits, ., +, - or _"),
    ],
)
def test_text_out_of_range_is_refused_quickly_naming_the_field_and_its_range(field, text, message):
    with pytest.raises(RulesError) as refused:
        EUROPEAN.with_overrides({field: text})
    assert str(refused.value) == message
    assert refused.value.field == field and refused.value.code == "range"


def test_a_value_of_the_wrong_type_is_refused_like_one_out_of_range():
    for changes in ({"decks": True}, {"decks": 2.0}, {"blackjack_pays": 1.5},
                    {"dealer_peeks": 1}, {"surrender": "Late"}, {"name": 7}):  # fmt: skip
        with pytest.raises(RulesError, match=f"^{next(iter(changes))} must be "):
            Rules(**changes)


def test_values_of_a_fields_type_are_normalised():
    rules = Rules(blackjack_pays=2, surrender="late", double_on="10-11")
    assert type(rules.blackjack_pays) is Fraction
    assert rules.surrender is Surrender.LATE and rules.double_on is DoubleOn.TEN_OR_ELEVEN


def test_every_field_has_a_documented_range():
    assert set(ALLOWED) == set(FIELD_NAMES)
    for field, allowed in ALLOWED.items():
        assert allowed.about and allowed.describe(), field
    assert ALLOWED["decks"].describe() == "a whole number from 1 to 8"
    assert ALLOWED["double_on"].choices == ("any_two", "9-11", "10-11")


def test_a_contradiction_names_its_fields_in_its_error():
    with pytest.raises(RulesError) as refused:
        Rules(resplit_aces=True, max_hands=2)
    assert (refused.value.field, refused.value.code) == ("resplit_aces", "resplit_aces_hands")
    with pytest.raises(RulesError) as refused:
        EUROPEAN.with_overrides({"nonsense": "1"})
    assert (refused.value.field, refused.value.code) == ("nonsense", "unknown_field")
    assert str(refused.value) == "unknown rule field: nonsense"


NO_PEEK = "only applies when the dealer does not peek (dealer_peeks=False)"


@pytest.mark.parametrize(
    ("fields", "field", "code", "message"),
    [
        ({"original_bets_only": True}, "original_bets_only", "original_bets_with_peek",
         f"original_bets_only {NO_PEEK}"),
        ({"surrender": "early"}, "surrender", "early_surrender_with_peek",
         f"early surrender {NO_PEEK}"),
        ({"resplit_aces": True, "max_hands": 2}, "resplit_aces", "resplit_aces_hands",
         "resplit_aces needs max_hands of 3 or more"),
        ({"max_seats": 1}, "seats_per_account", "seats_over_max",
         "seats_per_account must not be more than max_seats"),
    ],
)  # fmt: skip
def test_each_contradiction_is_refused_naming_its_field_and_code(
    fields: dict[str, Any], field: str, code: str, message: str
) -> None:
    with pytest.raises(RulesError) as refused:
        DELUXE.replace(**fields)  # the dealer peeks; two seats a player
    assert (refused.value.field, refused.value.code, str(refused.value)) == (field, code, message)


@pytest.mark.parametrize("value", [None, "3/2", [3, 2], 1.5])
def test_odds_of_any_other_type_are_refused_as_out_of_range(value: Any) -> None:
    with pytest.raises(RulesError) as refused:
        EUROPEAN.replace(blackjack_pays=value)
    assert (refused.value.field, refused.value.code) == ("blackjack_pays", "range")


def test_early_surrender_is_refused_where_the_dealer_peeks():
    # Early surrender is decided before the peek, and a round has no decision there.
    assert EUROPEAN.with_overrides({"surrender": "early"}).surrender is Surrender.EARLY
    with pytest.raises(RulesError, match="^early surrender only applies when the dealer does not"):
        DELUXE.replace(surrender="early")
    with pytest.raises(RulesError) as refused:
        EUROPEAN.with_overrides({"surrender": "early", "dealer_peeks": "yes"})
    assert (refused.value.field, refused.value.code) == ("surrender", "early_surrender_with_peek")


@given(value=st.integers(-(10**50), 10**50))
def test_a_whole_number_typed_as_text_is_held_to_the_same_range(value):
    if 1 <= value <= 8:
        assert EUROPEAN.with_overrides({"decks": str(value)}).decks == value
    else:
        with pytest.raises(RulesError, match="^decks must be a whole number from 1 to 8$"):
            EUROPEAN.with_overrides({"decks": str(value)})


@pytest.mark.parametrize(("field", "choices"), [
    ("double_on", {"any_two", "9-11", "10-11"}), ("surrender", {"none", "early", "late"}),
    ("burn", {"none", "first_card_value"}),
])  # fmt: skip
@given(
    text=st.text(max_size=20)
    | st.sampled_from(["any_two", "9-11", "10-11", "none", "early", "late"])
)
def test_a_choice_takes_exactly_its_values(field, choices, text):
    if text in choices:
        assert getattr(Rules(**{field: text}), field) == text
    else:
        with pytest.raises(RulesError, match=f"^{field} must be one of: "):
            Rules(**{field: text})


@pytest.mark.parametrize(
    ("text", "value"),
    [("yes", True), ("TRUE", True), ("1", True), ("on", True), ("no", False),
     ("false", False), ("0", False), (" Off ", False)],
)  # fmt: skip
def test_a_yes_no_rule_reads_the_usual_words(text, value):
    assert EUROPEAN.with_overrides({"insurance": text}).insurance is value


def test_text_of_the_longest_allowed_length_is_read():
    assert EUROPEAN.with_overrides({"name": "x" * 40}).name == "x" * 40


@pytest.mark.parametrize(
    ("field", "text"), [("decks", "two"), ("blackjack_pays", "1/0"), ("blackjack_pays", "abc")]
)
def test_text_that_is_not_a_number_is_refused_naming_its_field(field, text):
    with pytest.raises(RulesError, match=f"^{field} must be ") as refused:
        EUROPEAN.with_overrides({field: text})
    assert (refused.value.field, refused.value.code) == (field, "range")


# The ranges below are made afresh, not read from ALLOWED: that table is made once, on
# import, where a mutation test cannot switch a mutant on (docs/architecture.md).
def test_a_whole_number_range_admits_its_bounds_only_and_says_so():
    decks = rules_module._whole(1, 8, "decks in the shoe")
    assert (decks.about, decks.describe()) == ("decks in the shoe", "a whole number from 1 to 8")
    assert [decks.admit("decks", n) for n in (1, 8)] == [1, 8]
    for refused in (0, 9, Fraction(2), True):
        with pytest.raises(RulesError, match="^decks must be a whole number from 1 to 8$"):
            decks.admit("decks", refused)


def test_a_fraction_range_admits_its_bounds_only_and_says_so():
    pays = rules_module._fraction(Fraction(1), Fraction(2), "what a natural pays")
    assert (pays.about, pays.describe()) == ("what a natural pays", "a fraction from 1 to 2")
    assert pays.admit("blackjack_pays", 2) == Fraction(2)
    assert pays.admit("blackjack_pays", pays.parse("blackjack_pays", " 6/5 ")) == Fraction(6, 5)
    with pytest.raises(RulesError, match="^blackjack_pays must be a fraction from 1 to 2$"):
        pays.admit("blackjack_pays", Fraction(5, 2))


def test_a_yes_no_field_admits_only_true_and_false():
    peeks = rules_module._yes_no("the dealer peeks")
    assert (peeks.about, peeks.describe()) == ("the dealer peeks", "true or false")
    assert peeks.admit("dealer_peeks", False) is False
    with pytest.raises(RulesError, match="^dealer_peeks must be true or false$"):
        peeks.admit("dealer_peeks", 1)


def test_a_choice_admits_its_values_as_their_enum():
    double_on = rules_module._choice(DoubleOn, "which cards may be doubled")
    assert double_on.about == "which cards may be doubled"
    assert double_on.describe() == "one of: any_two, 9-11, 10-11"
    assert double_on.admit("double_on", "9-11") is DoubleOn.NINE_TO_ELEVEN
    with pytest.raises(RulesError, match="^double_on must be one of: any_two, 9-11, 10-11$"):
        double_on.admit("double_on", "8-11")
