"""Forgetting guests: what a visitor without an account leaves behind expires.

Every visit without a session cookie (a crawler's included) makes a session and a drill,
so guest rows would only ever grow. A guest is known by the token their session keeps;
once they have not been back for the retention period, their session, drills, tallies and
practice tables are deleted together, so an active guest never loses half their history.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from importlib import import_module

from django.conf import settings
from django.contrib import auth
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from trainer.models import Drill, PracticeSession
from trainer.shared import tallies


@dataclass(frozen=True)
class Expired:
    sessions: int
    drills: int
    tables: int


def guests_expire(*, idle_since: datetime) -> Expired:
    """Delete the data of every guest not seen since ``idle_since``; accounts keep theirs."""
    guest_drills = Drill.objects.filter(user__isnull=True)
    guest_tables = PracticeSession.objects.filter(user__isnull=True)
    # A guest seen since: one with a drill issued or answered, or a table played, since.
    seen_in_drills = guest_drills.filter(
        Q(issued_at__gte=idle_since) | Q(answered_at__gte=idle_since)
    ).values("guest_token")
    seen_at_tables = guest_tables.filter(changed_at__gte=idle_since).values("guest_token")
    with transaction.atomic():
        # A table's rounds, and the decisions taken in them, go with it.
        _, tables = (
            guest_tables.exclude(guest_token__in=seen_in_drills)
            .exclude(guest_token__in=seen_at_tables)
            .delete()
        )
        _, drills = (
            guest_drills.exclude(guest_token__in=seen_in_drills)
            .exclude(guest_token__in=seen_at_tables)
            .delete()
        )
        tallies.forget_guests(Q(guest_token__in=seen_in_drills) | Q(guest_token__in=seen_at_tables))
        sessions = _sessions_expire(idle_since=idle_since)
    return Expired(
        sessions=sessions,
        drills=drills.get(Drill._meta.label, 0) + tables.get(Drill._meta.label, 0),
        tables=tables.get(PracticeSession._meta.label, 0),
    )


def _sessions_expire(*, idle_since: datetime) -> int:
    """Delete the guest sessions last saved before ``idle_since``, and dead ones as old."""
    # Django sets a session's expiry date the cookie's age after each time it saves it.
    idle = Session.objects.filter(
        expire_date__lt=idle_since + timedelta(seconds=settings.SESSION_COOKIE_AGE)
    )
    now = timezone.now()
    # Past its expiry date a session is never read again, whoever's it was.
    deleted, _ = idle.filter(expire_date__lte=now).delete()
    # Only a retention shorter than the cookie's age leaves live sessions here, and
    # those of accounts stay: deleting them would log their players out.
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    guests = [
        session.pk
        for session in idle.filter(expire_date__gt=now).iterator()
        if auth.SESSION_KEY not in store.decode(session.session_data)
    ]
    deleted_guests, _ = Session.objects.filter(pk__in=guests).delete()
    return deleted + deleted_guests
