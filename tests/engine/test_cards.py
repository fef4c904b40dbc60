from __future__ import annotations

import pytest

from engine import CARDS, Card, hand_value, is_natural, is_pair, parse_cards


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
