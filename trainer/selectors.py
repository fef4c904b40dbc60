"""Reads: what a view needs, fetched the one way it should be."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404

from engine.rules import PRESETS
from engine.strategy import Strategy
from engine.strategy.store import load_strategy


def strategy_for_preset(name: str) -> Strategy:
    """The exact analysis of a named preset (from the store); an unknown name is a 404."""
    rules = PRESETS.get(name)
    if rules is None:
        raise Http404(f"no rules preset called {name!r}")
    return load_strategy(rules, settings.STRATEGY_CACHE_DIR)
