"""Writes: the trainer's use cases, each one transaction, named <entity>_<action>."""

from __future__ import annotations

import random
import secrets
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.core import signing
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.drills import MODES, Situation, deal_in_cell, deal_situation
from engine.errors import IllegalActionError
from engine.rules import EUROPEAN, Rules
from trainer.drills import answer_statements as answer_queries
from trainer.drills.selectors import situation_or_none
from trainer.drills.weak_spots import next_cell
from trainer.models import Drill
from trainer.shared import tallies
from trainer.shared.owners import Owner
from trainer.shared.preferences import DrillMode

#: A drill session ends when this long passes without an answer (docs/decisions.md).
SESSION_GAP = timedelta(minutes=30)
#: Timed mode: time allowed beyond the limit for the answer's and the page's trip over
#: the network, so that a player answering in time is not counted late by the latency.
TIMED_GRACE = timedelta(milliseconds=500)
#: The drill session's figures, kept on each drill (see `Drill`).
SESSION_FIELDS = ("session_hands", "session_right", "session_streak", "session_lost")
#: How long a hand drawn for a visitor without a session may be answered: less than any
#: guest retention (a day at least), so that no ticket outlives the drill refusing its replay.
TICKET_AGE = timedelta(hours=6)
TICKET_SALT = "trainer.drills.drawn"


class DrillRefused(Exception):
    """An answer that cannot be recorded; its message is fit to show the player."""


def drills_discard_pending(*, owner: Owner) -> None:
    """Drop the unanswered drill (after a change of settings): nothing answered is lost.

    Its filter is the pending drill's constraint's, whose partial index finds the one row:
    without ``source`` the statement reads the player's whole history (471 ms at 100,000
    answers on PostgreSQL, docs/performance.md)."""
    Drill.objects.filter(
        **owner.filter(), source=Drill.Source.DRILL, answered_at__isnull=True
    ).delete()


def drills_adopt(*, guest_token: str, user_id: int) -> int:
    """Give a guest's drills to the account they signed up or logged in as.

    One drill waits at a time: the guest's, on their screen, takes the place of one the
    account left unanswered elsewhere (nothing answered is lost). The guest's tallies are
    added into the account's.
    """
    guests = Drill.objects.filter(user__isnull=True, guest_token=guest_token)
    with transaction.atomic():
        if guests.filter(source=Drill.Source.DRILL, answered_at__isnull=True).exists():
            Drill.objects.filter(
                user_id=user_id, source=Drill.Source.DRILL, answered_at__isnull=True
            ).delete()
        tallies.adopt(guest_token=guest_token, user_id=user_id)
        return guests.update_counted_apart(user_id=user_id, guest_token="")


def drill_issue(
    *,
    owner: Owner,
    rules: Rules = EUROPEAN,
    mode: DrillMode = DrillMode.ALL,
    focus: tuple[str, str | None] | None = None,
    time_limit: int = 0,
    new_session: bool = False,
) -> Drill:
    """The player's pending drill, or a new one dealt by the server.

    ``focus`` is a chart row and up card (None: any) to deal in; ``time_limit`` the
    seconds the hand may be answered in (0: untimed); ``new_session`` starts a new drill
    session (after a change of settings) rather than carrying on the current one.

    One drill waits at a time (a constraint in the database): of racing requests for the
    next hand, one deals it and the others are given that one.
    """
    pending = _pending_drill(owner)
    if pending is not None and situation_or_none(pending) is not None:
        return pending
    if pending is not None:
        pending.delete()  # dealt under rules no longer valid: never answerable, so replaced
    cell = next_cell(owner, rules.name) if mode is DrillMode.WEAK else None
    situation = _situation_dealt(rules, mode=mode, focus=focus, cell=cell)
    session = {} if new_session else _session_so_far(owner, timezone.now())
    try:
        with transaction.atomic():
            return Drill.objects.create(
                **owner.fields(), **_hand_fields(rules, situation, time_limit), **session
            )
    except IntegrityError:
        pending = _pending_drill(owner)
        if pending is None:  # dealt by the racing request and answered already: deal again
            return drill_issue(
                owner=owner, rules=rules, mode=mode, focus=focus, time_limit=time_limit
            )
        return pending


#: The longest response time a drill row holds (its column is a 32-bit integer).
LONGEST_RESPONSE_MS = 2**31 - 1


def _response_ms(taken: timedelta) -> int | None:
    """How long an answer took, in ms; None for a hand left pending longer than the column
    holds (about 25 days): that is no response time, and PostgreSQL would refuse it."""
    ms = int(taken.total_seconds() * 1000)
    return ms if ms <= LONGEST_RESPONSE_MS else None


def _hand_fields(rules: Rules, situation: Situation, time_limit: int) -> dict[str, Any]:
    """A drill's columns for a hand dealt under ``rules``, saved or drawn alike."""
    return {
        "rules_name": rules.name,
        "rules_version": rules.version,
        "rules": rules.to_json(),
        "cards": " ".join(str(card) for card in situation.cards),
        "up": str(situation.up),
        "time_limit": time_limit or None,
    }


def _situation_dealt(
    rules: Rules,
    *,
    mode: DrillMode,
    focus: tuple[str, str | None] | None,
    cell: tuple[str, str] | None,
) -> Situation:
    """A hand of the mode's kind, in the focused cell, or in the weak spot ``cell``."""
    if focus is not None:
        return deal_in_cell(rules, *focus)
    if cell is not None:
        return Situation.for_cell(rules, *cell, random.SystemRandom())
    return deal_situation(rules, mode=mode if mode in MODES else DrillMode.ALL)


def drill_draw(
    *,
    rules: Rules = EUROPEAN,
    mode: DrillMode = DrillMode.ALL,
    focus: tuple[str, str | None] | None = None,
    time_limit: int = 0,
) -> tuple[Drill, str]:
    """A hand for a visitor who has no session yet, not saved, and its signed ticket.

    A visitor who does nothing writes nothing (docs/decisions.md): the hand is carried in
    the answer form, signed, with a guest token drawn for it. Answering it
    (`drill_answer_drawn`) makes the visitor that guest; the drill stored then refuses the
    same ticket again.
    """
    situation = _situation_dealt(rules, mode=mode, focus=focus, cell=None)
    drill = Drill(
        guest_token=secrets.token_urlsafe(24),
        **_hand_fields(rules, situation, time_limit),
        issued_at=timezone.now(),
    )
    fields = {
        "g": drill.guest_token, "r": drill.rules, "c": drill.cards, "u": drill.up,
        "t": drill.time_limit, "i": drill.issued_at.timestamp(),
    }  # fmt: skip
    return drill, signing.dumps(fields, salt=TICKET_SALT, compress=True)


def drill_drawn(ticket: str) -> Drill:
    """The unsaved hand a ticket carries; refused if it was not signed here or is older
    than `TICKET_AGE`."""
    try:
        fields = signing.loads(ticket, salt=TICKET_SALT, max_age=TICKET_AGE)
    except signing.SignatureExpired:
        raise DrillRefused(_("That hand was dealt too long ago; here is a new one.")) from None
    except signing.BadSignature:
        raise DrillRefused(_("That hand was not dealt to you.")) from None
    return Drill(
        guest_token=fields["g"],
        rules_name=fields["r"].get("name", ""),
        rules=fields["r"],
        cards=fields["c"],
        up=fields["u"],
        time_limit=fields["t"],
        issued_at=datetime.fromtimestamp(fields["i"], UTC),
    )


def drill_answer_drawn(*, owner: Owner | None, drawn: Drill, action: str) -> Drill:
    """Store and grade the answer to a drawn hand (`drill_draw`) as the guest it was drawn
    for, from a visitor without a session (``owner`` None) or that guest; refused,
    recording nothing, for anyone else or once that guest has a drill (a replay)."""
    guest = Owner.guest(drawn.guest_token)
    if owner not in (None, guest):
        raise DrillRefused(_("That hand was not dealt to you."))
    owner = guest
    situation = situation_or_none(drawn)
    if situation is None:
        raise DrillRefused(
            _("That hand was dealt under rules that no longer hold; here is a new one.")
        )
    with transaction.atomic():
        # One answer per ticket: the guest's drills are looked for and the hand stored
        # in one transaction, serialised per guest (SQLite's transactions are IMMEDIATE).
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [drawn.guest_token])
        if Drill.objects.filter(**owner.filter()).exists():
            raise DrillRefused(_("You have already answered that hand."))
        drill = Drill.objects.create(
            **owner.fields(),
            rules_name=situation.rules.name,
            rules_version=situation.rules.version,
            rules=situation.rules.to_json(),
            cards=drawn.cards,
            up=drawn.up,
            time_limit=drawn.time_limit,
        )
        drill.issued_at = drawn.issued_at  # as shown, for the answer's time and the limit
        return _answer(owner, drill, situation, action, issued=True)


def drill_expired(drill: Drill, now: datetime | None = None) -> bool:
    """Whether a timed drill, unanswered, can no longer be answered in time."""
    if drill.time_limit is None or drill.answered_at is not None:
        return False
    limit = timedelta(seconds=drill.time_limit) + TIMED_GRACE
    return (now or timezone.now()) - drill.issued_at > limit


def drill_replace_expired(*, owner: Owner, drill: Drill) -> None:
    """Drop a timed hand whose time ran out before it was shown (the player was away): it
    was never seen, so it is neither a miss nor part of the session."""
    Drill.objects.filter(**owner.filter(), pk=drill.pk, answered_at__isnull=True).delete()


def _session_so_far(owner: Owner, now: datetime) -> dict[str, Any]:
    """The current drill session's figures, carried onto the next hand: those of the
    latest answer if it came within `SESSION_GAP`, else none (a new session)."""
    latest = (
        Drill.objects.filter(**owner.filter(), source=Drill.Source.DRILL)
        .exclude(answered_at__isnull=True)
        .order_by("-issued_at", "-pk")
        .values("answered_at", *SESSION_FIELDS)
        .first()
    )
    if latest is None or now - latest["answered_at"] > SESSION_GAP:
        return {}
    return {field: latest[field] for field in SESSION_FIELDS}


def _pending_drill(owner: Owner) -> Drill | None:
    """The one pending drill (a constraint keeps it to one), found by that constraint's
    index: unordered, as ``first()``'s order by id walks the whole table's key instead."""
    pending = Drill.objects.filter(
        **owner.filter(), source=Drill.Source.DRILL, answered_at__isnull=True
    )
    return next(iter(pending[:1]), None)


def drill_answer(*, owner: Owner, drill_id: int, action: str) -> Drill:
    """Grade and record an answer; a replayed or foreign one is refused and records nothing."""
    drill = answer_queries.issued_drill(owner=owner, drill_id=drill_id)
    if drill is None:
        raise DrillRefused(_("That hand was not dealt to you."))
    if drill.answered_at is not None:
        raise DrillRefused(_("You have already answered that hand."))
    situation = situation_or_none(drill)
    if situation is None:
        raise DrillRefused(
            _("That hand was dealt under rules that no longer hold; here is a new one.")
        )
    return _answer(owner, drill, situation, action)


def _answer(
    owner: Owner, drill: Drill, situation: Situation, action: str, *, issued: bool = False
) -> Drill:
    """Grade ``action`` and record it on the owner's unanswered ``drill`` (``issued``: its
    ``issued_at`` too, the moment it was shown)."""
    try:
        grade = situation.grade(action)
    except IllegalActionError:
        raise DrillRefused(_("That play is not allowed with this hand.")) from None
    now = timezone.now()
    late = drill_expired(drill, now)
    right = grade.is_correct and not late
    ev_lost = Decimal(f"{grade.ev_lost:.6f}")
    recorded = {
        "answered_at": now,
        "action": grade.chosen.value,
        "correct_action": grade.correct.value,
        "correct_code": grade.code,
        "row": grade.row,
        "up_column": grade.up,
        "ev_lost": ev_lost,
        "response_ms": _response_ms(now - drill.issued_at),
        "late": late,
        # The session's figures with this answer: kept by the answer's one UPDATE.
        "session_hands": drill.session_hands + 1,
        "session_right": drill.session_right + right,
        "session_streak": drill.session_streak + 1 if right else 0,
        "session_lost": drill.session_lost + ev_lost,
    }
    if issued:
        recorded["issued_at"] = drill.issued_at
    # Checked again as the answer is stored: a racing twin may have got there first.
    if not answer_queries.record_answer(owner=owner, drill_id=drill.pk, recorded=recorded):
        raise DrillRefused(_("You have already answered that hand."))
    for field, value in recorded.items():
        setattr(drill, field, value)
    return drill


def drills_adopt_guest(sender: object, *, guest_token: str, user_id: int, **kwargs: object) -> None:
    """`guest_adopted`'s receiver: `drills_adopt`."""
    drills_adopt(guest_token=guest_token, user_id=user_id)
