"""Writes: the trainer's use cases, each one transaction, named <entity>_<action>."""

from __future__ import annotations

import random
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.drills import Situation, deal_situation
from engine.errors import IllegalActionError
from engine.rules import EUROPEAN, Rules
from trainer import answer_queries
from trainer.models import Drill
from trainer.owners import Owner
from trainer.selectors import situation_or_none
from trainer.weak_spots import WEAK_SPOTS, next_cell


class DrillRefused(Exception):
    """An answer that cannot be recorded; its message is fit to show the player."""


def drills_discard_pending(*, owner: Owner) -> None:
    """Drop the unanswered drill (after a change of settings): nothing answered is lost."""
    Drill.objects.filter(**owner.filter(), answered_at__isnull=True).delete()


def drills_adopt(*, guest_token: str, user_id: int) -> int:
    """Give a guest's drills to the account they signed up or logged in as.

    One drill waits at a time: the guest's, on their screen, takes the place of one the
    account left unanswered elsewhere (nothing answered is lost).
    """
    guests = Drill.objects.filter(user__isnull=True, guest_token=guest_token)
    with transaction.atomic():
        if guests.filter(source=Drill.Source.DRILL, answered_at__isnull=True).exists():
            Drill.objects.filter(
                user_id=user_id, source=Drill.Source.DRILL, answered_at__isnull=True
            ).delete()
        return guests.update(user_id=user_id, guest_token="")


def drill_issue(*, owner: Owner, rules: Rules = EUROPEAN, mode: str = "all") -> Drill:
    """The player's pending drill, or a new one dealt by the server.

    One drill waits at a time (a constraint in the database): of racing requests for the
    next hand, one deals it and the others are given that one.
    """
    pending = _pending_drill(owner)
    if pending is not None and situation_or_none(pending) is not None:
        return pending
    if pending is not None:
        pending.delete()  # dealt under rules no longer valid: never answerable, so replaced
    cell = next_cell(owner, rules.name) if mode == WEAK_SPOTS else None
    if cell is not None:
        situation = Situation.for_cell(rules, *cell, random.SystemRandom())
    else:
        situation = deal_situation(rules, mode="all" if mode == WEAK_SPOTS else mode)
    try:
        with transaction.atomic():
            return Drill.objects.create(
                user_id=owner.user_id,
                guest_token="" if owner.user_id is not None else owner.guest_token,
                rules_name=rules.name,
                rules_version=rules.version,
                rules=rules.to_json(),
                cards=" ".join(str(card) for card in situation.cards),
                up=str(situation.up),
            )
    except IntegrityError:
        pending = _pending_drill(owner)
        if pending is None:  # dealt by the racing request and answered already: deal again
            return drill_issue(owner=owner, rules=rules, mode=mode)
        return pending


def _pending_drill(owner: Owner) -> Drill | None:
    return Drill.objects.filter(
        **owner.filter(), source=Drill.Source.DRILL, answered_at__isnull=True
    ).first()


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
    try:
        grade = situation.grade(action)
    except IllegalActionError:
        raise DrillRefused(_("That play is not allowed with this hand.")) from None
    now = timezone.now()
    recorded = {
        "answered_at": now,
        "action": grade.chosen.value,
        "correct_action": grade.correct.value,
        "correct_code": grade.code,
        "row": grade.row,
        "up_column": grade.up,
        "ev_lost": Decimal(f"{grade.ev_lost:.6f}"),
        "response_ms": int((now - drill.issued_at).total_seconds() * 1000),
    }
    # Checked again as the answer is stored: a racing twin may have got there first.
    if not answer_queries.record_answer(drill_id=drill.pk, recorded=recorded):
        raise DrillRefused(_("You have already answered that hand."))
    for field, value in recorded.items():
        setattr(drill, field, value)
    return drill
