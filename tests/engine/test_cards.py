from __future__ import annotations

import pytest

from engine import CARDS, Card, HandValue, hand_value, is_natural, is_pair, parse_cards
from engine.hand import Hand


def test_every_card_has_a_distinct_code_that_indexes_it():
    assert len(set(CARDS)) == 52
    assert all(CARDS[card.code] == card for card in CARDS)


@pytest.mark.parametrize("text", ["1s", "Ax", "", "10", "11h"])
def test_unreadable_cards_are_refused(text):
    with pytest.raises(ValueError):
        Card.parse(text)


def test_ten_and_t_are_the_same_rank():
    assert parse_cards("Td 10d") == [Card("10", "d")] * 2


def test_an_ace_counts_eleven_until_it_would_bust():
    assert hand_value(parse_cards("As As As")) == hand_value(parse_cards("2c As"))  # soft 13
    assert hand_value(parse_cards("As Kd 5c")).total == 16
    assert hand_value(parse_cards("Kd Qc 5c")).bust


def test_naturals_and_pairs():
    assert is_natural(parse_cards("Kd As")) and not is_natural(parse_cards("As 5d 5c"))
    assert is_pair(parse_cards("Jd Qs")) and not is_pair(parse_cards("As Ks"))


@pytest.mark.parametrize(
    ("cards", "total", "soft"),
    [
        ("As Kd", 21, True),  # hard 11: the ace counts 11 and the hand is exactly 21
        ("As 10d", 21, True),
        ("As 9d Ah", 21, True),
        ("As Ah 9d", 21, True),
        ("As 5d 5c", 21, True),
        ("As 9d", 20, True),
        ("As 6h", 17, True),
        ("As Ah", 12, True),
        ("As Kd Ah", 12, False),  # hard 12: an ace as 11 would make 22
        ("As 6h Kd", 17, False),
        ("9c 2d", 11, False),  # hard 11 without an ace
    ],
)
def test_an_ace_counts_eleven_whenever_the_hand_stays_at_or_under_21(cards, total, soft):
    assert hand_value(parse_cards(cards)) == HandValue(total, soft)
    hand = Hand(0)  # the round's own running totals must agree
    for card in parse_cards(cards):
        hand.add(card.code)
    assert (hand.total, hand.soft) == (total, soft)
