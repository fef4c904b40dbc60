"""Chip amounts: whole numbers, or exact fractions where a payout splits a chip.

Never a float: 3:2 on a bet of 5 is ``Fraction(15, 2)``, and an amount that comes out
whole is an ``int`` again, so that equal amounts look equal.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["Chips", "scaled", "whole"]

Chips = int | Fraction


def scaled(amount: Chips, numerator: int, denominator: int = 1) -> Chips:
    """``amount * numerator / denominator``, as an int when that is whole.

    >>> scaled(10, 5, 2), scaled(5, 5, 2), scaled(Fraction(5, 2), 2)
    (25, Fraction(25, 2), 5)
    """
    product = amount * numerator
    if isinstance(product, int) and product % denominator == 0:
        return product // denominator
    return whole(Fraction(product, denominator))


def whole(value: Chips) -> Chips:
    """A chip amount as an int whenever it is whole.

    >>> whole(Fraction(4, 2)), whole(Fraction(3, 2))
    (2, Fraction(3, 2))
    """
    if isinstance(value, int) or value.denominator != 1:
        return value
    return int(value)
