"""Reads of the rules pages: a preset's exact analysis."""

from __future__ import annotations

from django.http import Http404

from engine.rules import PRESETS
from engine.strategy import Strategy, strategy_for


def strategy_for_preset(name: str) -> Strategy:
    """The exact analysis of a named preset (from the store); an unknown name is a 404."""
    rules = PRESETS.get(name)
    if rules is None:
        raise Http404(f"no rules preset called {name!r}")
    return strategy_for(rules)
