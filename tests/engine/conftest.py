"""Fixtures shared by the engine tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine import PlayerView


def _public(view: PlayerView) -> tuple[Any, ...]:
    """Everything a view shows, to compare two views."""
    return (
        view.rules,
        view.seat,
        view.hand_index,
        view.legal,
        view.total,
        view.soft,
        view.pair_points,
        view.up_points,
        view.hands,
        view.hand,
        view.up_card,
        view.history,
        view.decision,
        view.owner,
        repr(view),
    )


@pytest.fixture(scope="session")
def public() -> Callable[[PlayerView], tuple[Any, ...]]:
    """The public content of a view (session-scoped, so hypothesis tests may use it)."""
    return _public
