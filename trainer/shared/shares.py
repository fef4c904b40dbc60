"""A share of answers as every page shows it: a whole percentage that never hides a miss
or a right answer."""

from __future__ import annotations


def share(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a whole percentage, rounded half up, or "—" of nothing.

    A share short of all never shows as 100%, and one above none never as 0%: a player
    with one miss in two hundred must not read that they made none.

    >>> share(199, 200), share(2, 3), share(1, 1000), share(0, 0)
    ('99%', '67%', '<1%', '—')
    """
    if not whole:
        return "—"
    percent = (200 * part + whole) // (2 * whole)  # exact: no float rounding at .5
    if percent == 100 and part < whole:
        percent = 99
    if percent == 0 and part > 0:
        return "<1%"
    return f"{percent}%"
