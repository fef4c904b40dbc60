"""Forgetting guests: what a visitor without an account leaves behind expires.

A guest is known by the token their session keeps (a visitor who only looks stores
nothing: the drill page draws their first hand without saving it). Once a guest has not
been back for the retention period, their session, drills, tallies, practice tables and
live-table bets are deleted together, so an active guest never loses half their history,
and their token is taken out of the live tables they were at.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib import auth
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Q, QuerySet, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from trainer.models import Bet, Drill, PracticeSession, SharedTable
from trainer.shared import tallies
from trainer.shared.owners import GUEST_PREFIX
from trainer.shared.throttle import now as throttle_now
from trainer.shared.throttle import throttles_forget_ended

#: A guest's name at a live table (`Owner.name`), and a departed guest's.
_GUEST_NAME = re.compile(rf'"{GUEST_PREFIX}([A-Za-z0-9_-]+)"')
_GONE_NAME = re.compile(rf'"{GUEST_PREFIX}~(\d+)"')


@dataclass(frozen=True)
class Expired:
    sessions: int
    drills: int
    tables: int
    #: Bets settled at live tables (practice tables' go with their tables).
    bets: int = 0
    #: Live tables whose stored state named a guest who expired.
    live_tables: int = 0


def guests_expire(*, idle_since: datetime) -> Expired:
    """Delete the data of every guest not seen since ``idle_since``; accounts keep theirs."""
    guest_drills = Drill.objects.filter(user__isnull=True)
    guest_tables = PracticeSession.objects.filter(user__isnull=True)
    guest_bets = Bet.objects.filter(user__isnull=True)
    # A guest seen since: one with a drill issued or answered, a table played, or a bet
    # settled at a live table, since.
    seen = _guests_seen(idle_since)
    kept = Q(guest_token__in=seen[0]) | Q(guest_token__in=seen[1]) | Q(guest_token__in=seen[2])
    with transaction.atomic():
        # A table's rounds, and the decisions and bets of them, go with it.
        _, tables = guest_tables.exclude(kept).delete()
        _, drills = guest_drills.exclude(kept).delete()
        _, bets = guest_bets.exclude(kept).delete()  # what is left: live tables' bets
        tallies.forget_guests(kept)
        sessions = _sessions_expire(idle_since=idle_since)
    live_tables = _live_tables_forget_guests(idle_since=idle_since)
    throttles_forget_ended(before=throttle_now())
    return Expired(
        sessions=sessions,
        drills=drills.get(Drill._meta.label, 0) + tables.get(Drill._meta.label, 0),
        tables=tables.get(PracticeSession._meta.label, 0),
        bets=bets.get(Bet._meta.label, 0),
        live_tables=live_tables,
    )


def _guests_seen(
    idle_since: datetime, tokens: Collection[str] | None = None
) -> list[QuerySet[Any, Any]]:
    """The tokens of the guests (of ``tokens``, if given) seen since ``idle_since``: by
    their drills, their practice tables and their bets at live tables."""
    mine = {} if tokens is None else {"guest_token__in": tokens}
    return [
        Drill.objects.filter(user__isnull=True, **mine)
        .filter(Q(issued_at__gte=idle_since) | Q(answered_at__gte=idle_since))
        .values("guest_token"),
        PracticeSession.objects.filter(
            user__isnull=True, changed_at__gte=idle_since, **mine
        ).values("guest_token"),
        Bet.objects.filter(user__isnull=True, settled_at__gte=idle_since, **mine).values(
            "guest_token"
        ),
    ]


def _live_tables_forget_guests(*, idle_since: datetime) -> int:
    """Take the tokens of guests not seen since ``idle_since`` out of the stored states of
    the live tables they were at; how many tables were changed.

    A guest at a live table (watching, betting behind) is named there by their token
    (`Owner.name`). Once they are gone that name becomes ``guest ~1``, ``guest ~2``…: still
    a guest to the table and its page ("A guest"), and a token no session can hold.
    """
    changed = 0
    candidates = SharedTable.objects.annotate(text=Cast("state", TextField())).filter(
        text__contains=f'"{GUEST_PREFIX}'
    )
    for pk in candidates.values_list("pk", flat=True):
        with transaction.atomic():
            table = SharedTable.objects.select_for_update().get(pk=pk)
            text = json.dumps(table.state)
            tokens = set(_GUEST_NAME.findall(text))
            if not tokens:
                continue
            seen = {token for query in _guests_seen(idle_since, tokens) for token in
                    query.values_list("guest_token", flat=True)}  # fmt: skip
            gone = sorted(tokens - seen)
            if not gone:
                continue
            used = len(set(_GONE_NAME.findall(text)))
            for number, token in enumerate(gone, start=used + 1):
                text = text.replace(f'"{GUEST_PREFIX}{token}"', f'"{GUEST_PREFIX}~{number}"')
            table.state = json.loads(text)
            table.save(update_fields=["state"])
            changed += 1
    return changed


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
