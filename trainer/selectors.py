"""Reads: what a view needs, fetched the one way it should be."""

from __future__ import annotations

from django.http import Http404, HttpRequest

from engine.rules import PRESETS
from engine.strategy import Strategy, strategy_for
from trainer.models import Drill
from trainer.services import Owner


def strategy_for_preset(name: str) -> Strategy:
    """The exact analysis of a named preset (from the store); an unknown name is a 404."""
    rules = PRESETS.get(name)
    if rules is None:
        raise Http404(f"no rules preset called {name!r}")
    return strategy_for(rules)


def owner_of(request: HttpRequest) -> Owner:
    """The account, or for a guest the session (started now if need be), owning drills."""
    if request.user.is_authenticated:
        return Owner(user_id=request.user.pk, session_key="")
    if request.session.session_key is None:
        request.session.save()
    key = request.session.session_key
    assert key is not None
    return Owner(user_id=None, session_key=key)


def latest_drill(owner: Owner) -> Drill | None:
    """The owner's most recently issued drill, answered or not."""
    return Drill.objects.filter(**owner.filter()).order_by("-issued_at", "-pk").first()
