"""Counting systems: the presets' tags as published, running counts over hand-built shoes,
a custom system checked, and the invariants of balanced and unbalanced counts."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import CARDS, RANKS, Card, parse_cards
from engine.counting import (
    COUNT_RANKS,
    HI_LO,
    KO,
    RED_7,
    SYSTEMS,
    WONG_HALVES,
    CountingError,
    CountingSystem,
    custom_system,
    system_named,
)

#: The tags for 2, 3, …, 9, T, A as /work/shared/COUNTING.md gives them (Red 7's 7: black).
PUBLISHED = {
    "hi-lo": "+1 +1 +1 +1 +1 0 0 0 -1 -1",
    "ko": "+1 +1 +1 +1 +1 +1 0 0 -1 -1",
    "hi-opt-i": "0 +1 +1 +1 +1 0 0 0 -1 0",
    "hi-opt-ii": "+1 +1 +2 +2 +1 +1 0 0 -2 0",
    "omega-ii": "+1 +1 +2 +2 +2 +1 0 -1 -2 0",
    "zen": "+1 +1 +2 +2 +2 +1 0 0 -2 -1",
    "wong-halves": "+1/2 +1 +1 +3/2 +1 +1/2 0 -1/2 -1 -1",
    "red-7": "+1 +1 +1 +1 +1 0 0 0 -1 -1",
}
BALANCED = {"hi-lo", "hi-opt-i", "hi-opt-ii", "omega-ii", "zen", "wong-halves"}


@pytest.mark.parametrize("key", sorted(PUBLISHED))
def test_each_preset_tags_every_card_as_published(key: str) -> None:
    system = SYSTEMS[key]
    expected = [Fraction(tag) for tag in PUBLISHED[key].split()]
    for card in CARDS:
        rank = "10" if card.rank in ("J", "Q", "K") else card.rank
        tag = expected[COUNT_RANKS.index(rank)]
        if key == "red-7" and card.rank == "7" and card.suit in ("d", "h"):
            tag = Fraction(1)
        assert system.tag(card) == tag, card
    assert system.balanced is (key in BALANCED)


def test_only_the_hi_opt_systems_side_count_aces() -> None:
    assert {key for key, system in SYSTEMS.items() if system.ace_side_count} == {
        "hi-opt-i",
        "hi-opt-ii",
    }


@pytest.mark.parametrize("decks", range(1, 9))
def test_ko_starts_at_minus_four_per_deck_after_the_first_and_red_7_at_minus_two_per_deck(
    decks: int,
) -> None:
    assert KO.initial_count(decks) == -4 * (decks - 1)
    assert RED_7.initial_count(decks) == -2 * decks
    assert HI_LO.initial_count(decks) == 0


def test_a_hand_built_shoe_counts_card_by_card() -> None:
    cards = "2c 3d 4h 5s 6c 7d 7s 8h 9c 10d Jh Qs Kc Ad"
    # Hi-Lo: five low (+5), five tens and an ace (-5).
    assert HI_LO.running_count(cards) == 0
    # Wong Halves: 1/2+1+1+3/2+1 (2..6), 1/2+1/2 (two 7s), 0, -1/2, four tens and an ace -5.
    assert WONG_HALVES.running_count(cards) == Fraction(1, 2)
    # Red 7 on two decks: -4, then +5 (2..6), +1 (the red 7 only), -5.
    assert RED_7.running_count(cards, decks=2) == -3
    # KO on six decks: -20, then +5, +2 (both 7s), -5.
    assert KO.running_count(cards, decks=6) == -18


def test_an_unbalanced_count_asks_for_the_decks_it_starts_from() -> None:
    with pytest.raises(CountingError, match="^Red 7 is unbalanced: say how many decks"):
        RED_7.running_count("2c")


@pytest.mark.parametrize("key", sorted(PUBLISHED))
@given(decks=st.integers(1, 8), seed=st.randoms(use_true_random=False))
def test_a_whole_shoe_counts_to_its_initial_count_plus_its_imbalance(
    key: str, decks: int, seed: object
) -> None:
    system = SYSTEMS[key]
    shoe = [CARDS[code] for code in range(52)] * decks
    seed.shuffle(shoe)  # type: ignore[attr-defined]
    final = system.running_count(shoe, decks=decks)
    if system.balanced:
        assert final == 0
    assert final == system.initial_count(decks) + decks * system.imbalance
    if key == "ko":
        assert final == 4  # KO's pivot: a whole shoe ends at +4
    if key == "red-7":
        assert final == 0


@given(cut=st.integers(0, 104), seed=st.randoms(use_true_random=False))
def test_a_count_is_the_sum_of_the_counts_of_its_parts(cut: int, seed: object) -> None:
    shoe = [CARDS[code] for code in range(52)] * 2
    seed.shuffle(shoe)  # type: ignore[attr-defined]
    for system in SYSTEMS.values():
        whole = system.running_count(shoe, decks=2)
        parts = system.running_count(shoe[:cut], decks=2) + sum(
            (system.tag(card) for card in shoe[cut:]), Fraction(0)
        )
        assert whole == parts


def test_the_tags_by_code_are_the_tags_of_the_cards() -> None:
    for system in SYSTEMS.values():
        assert system.tags_by_code() == tuple(system.tag(card) for card in CARDS)


def test_presets_are_found_by_key_or_name_and_an_unknown_one_is_refused() -> None:
    assert system_named("Hi-Lo") is HI_LO
    assert system_named(" red 7 ") is RED_7
    with pytest.raises(CountingError, match="^unknown counting system 'hi-low': choose one of"):
        system_named("hi-low")


def _tags(text: str) -> dict[str, object]:
    return dict(zip(COUNT_RANKS, text.split(), strict=True))


def test_a_custom_system_takes_whole_and_half_tags_written_any_way() -> None:
    tags: dict[str, object] = {**_tags("1 1 1 1 1 0 0 0 -1 -1"), "2": "0.5", "9": "-1/2"}
    tags["T"] = tags.pop("10")
    mine = custom_system(tags, name="Halves-ish")
    assert mine.tag(Card("K", "h")) == -1
    assert mine.tag(Card("2", "c")) == Fraction(1, 2)
    assert mine.name == "Halves-ish"
    assert mine.balanced is False


def test_a_custom_unbalanced_system_counts_a_whole_shoe_back_to_zero_by_default() -> None:
    mine = custom_system(_tags("1 1 1 1 1 1 0 0 -1 -1"))
    shoe = parse_cards([f"{rank}{suit}" for rank in RANKS for suit in "cdhs"] * 3)
    assert mine.running_count(shoe, decks=3) == 0
    ko_like = custom_system(_tags("1 1 1 1 1 1 0 0 -1 -1"), initial_per_deck=-4, initial_offset=4)
    assert ko_like.running_count(shoe, decks=3) == 4


def test_a_custom_system_can_tag_red_cards_apart() -> None:
    mine = custom_system(_tags("1 1 1 1 1 0 0 0 -1 -1"), red_tags={"7": 1})
    assert (mine.tag("7h"), mine.tag("7c")) == (Fraction(1), Fraction(0))
    assert mine.imbalance == RED_7.imbalance == 2


@pytest.mark.parametrize(
    ("tags", "options", "message"),
    [
        ({**_tags("1 1 1 1 1 0 0 0 -1 -1"), "11": 1}, {}, r"^not a rank in the tags: '11'"),
        ({**_tags("1 1 1 1 1 0 0 0 -1 -1"), "J": -1}, {}, r"^not a rank in the tags: 'J'"),
        ({**_tags("1 1 1 1 1 0 0 0 -1 -1"), "T": -1}, {}, r"^10 is tagged twice in the tags$"),
        ({**_tags("1 1 1 1 1 0 0 0 -1 -1"), "5": "x"}, {}, r"^the tag of 5 is not a number"),
        ({**_tags("1 1 1 1 1 0 0 0 -1 -1"), "5": None}, {}, r"^the tag of 5 is not a number"),
        ({**_tags("1 1 1 1 1 0 0 0 -1 -1"), "5": True}, {}, r"^the tag of 5 is not a number"),
        ({**_tags("1 1 1 1 1 0 0 0 -1 -1"), "5": "1/3"}, {}, r"^0.333333 cannot be the tag"),
        ({**_tags("1 1 1 1 1 0 0 0 -1 -1"), "5": 5}, {}, r"^5 cannot be the tag of 5: a tag is"),
        (_tags("1 1 1 1 1 0 0 0 -1 -1"), {"red_tags": {"10": 1}}, r"^red tags are for ranks"),
        (_tags("0 0 0 0 0 0 0 0 0 0"), {}, r"^every tag is 0"),
        (
            _tags("1 1 1 1 1 0 0 0 -1 -1"),
            {"initial_offset": 2},
            r"^a balanced system starts at 0",
        ),
        (
            _tags("1 1 1 1 1 1 0 0 -1 -1"),
            {"initial_per_deck": "minus four"},
            r"^the initial count per deck is not a number",
        ),
        (_tags("1 1 1 1 1 0 0 0 -1 -1"), {"name": "  "}, r"^a counting system needs a name$"),
    ],
)
def test_a_bad_custom_system_is_refused_with_a_clear_message(
    tags: dict[str, object], options: dict[str, object], message: str
) -> None:
    with pytest.raises(CountingError, match=message):
        custom_system(tags, **options)  # type: ignore[arg-type]


def test_a_custom_system_missing_a_rank_names_it() -> None:
    tags = _tags("1 1 1 1 1 0 0 0 -1 -1")
    del tags["8"], tags["A"]
    with pytest.raises(CountingError, match="^no tag given for 8, A$"):
        custom_system(tags)


def test_a_system_is_a_frozen_value() -> None:
    with pytest.raises(AttributeError):
        HI_LO.name = "mine"  # type: ignore[misc]
    assert isinstance(HI_LO, CountingSystem)
    assert SYSTEMS["hi-lo"] == HI_LO
