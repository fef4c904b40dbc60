"""Reads: what a view needs, fetched the one way it should be."""

from __future__ import annotations

import secrets

from django.db.models import F
from django.http import Http404, HttpRequest

from engine.rules import PRESETS
from engine.strategy import Strategy, strategy_for
from trainer.models import Drill, PracticeSession
from trainer.owners import Owner


def strategy_for_preset(name: str) -> Strategy:
    """The exact analysis of a named preset (from the store); an unknown name is a 404."""
    rules = PRESETS.get(name)
    if rules is None:
        raise Http404(f"no rules preset called {name!r}")
    return strategy_for(rules)


GUEST_KEY = "guest_owner"


def owner_of(request: HttpRequest) -> Owner:
    """The account owning this request's drills, or for a guest a token kept in the session.

    The token lives in the session's data, not its key, because logging in gives the
    session a new key: that way the guest's drills can follow them into their account.
    """
    if request.user.is_authenticated:
        return Owner(user_id=request.user.pk, guest_token="")
    token = request.session.get(GUEST_KEY)
    if token is None:
        token = request.session[GUEST_KEY] = secrets.token_urlsafe(24)
    return Owner(user_id=None, guest_token=token)


def latest_drill(owner: Owner) -> Drill | None:
    """The owner's most recently issued drill, answered or not (practice decisions aside)."""
    return (
        Drill.objects.filter(**owner.filter(), source=Drill.Source.DRILL)
        .order_by("-issued_at", "-pk")
        .first()
    )


def practice_session(owner: Owner, session_id: int) -> PracticeSession:
    """One of the owner's practice sessions; anyone else's, or none, is a 404."""
    session = PracticeSession.objects.filter(**owner.filter(), pk=session_id).first()
    if session is None:
        raise Http404("no such practice table")
    return session


def practice_sessions(owner: Owner, limit: int = 10) -> list[PracticeSession]:
    """The owner's latest practice sessions, the open one (if any) first."""
    sessions = PracticeSession.objects.filter(**owner.filter()).order_by(
        F("ended_at").desc(nulls_first=True), "-started_at"
    )
    return list(sessions[:limit])
