"""The running-count drill's changes: deal a deck, show it, take the player's count.

Each run belongs to its owner and every query names them: another's run is not found.
A run is answered once; a second answer (a replay, another tab) changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext as _

from engine.counting.drill import checkpoints, deck_to_count, grade_count
from engine.counting.systems import system_named
from trainer.models import CountingRun
from trainer.shared.owners import Owner
from trainer.shared.unit_of_work import NotFound, Refused

#: Deals are drawn with the system's CSPRNG: the next deck cannot be foreseen.
_RNG = random.SystemRandom()


@dataclass(frozen=True)
class RunSettings:
    """How a deck is shown: the system counted, cards at a time (0: laid out whole), the
    pace in tenths of a card a second, and a checkpoint every so many cards (0: none)."""

    system: str
    group: int
    pace_tenths: int
    checkpoint_every: int


def counting_start(*, owner: Owner, settings: RunSettings) -> CountingRun:
    """Deal a new deck to count, shown as ``settings`` say."""
    return CountingRun.objects.create(
        **owner.fields(),
        system=settings.system,
        cards=" ".join(deck_to_count(_RNG)),
        group=settings.group,
        pace_tenths=settings.pace_tenths,
        checkpoint_every=settings.checkpoint_every,
    )


def counting_run(*, owner: Owner, run_id: int, now: datetime) -> CountingRun:
    """The owner's run, noted as shown from ``now`` the first time its page shows it."""
    run = CountingRun.objects.filter(pk=run_id, **owner.filter()).first()
    if run is None:
        raise NotFound(_("There is no such deck of yours."))
    if run.shown_at is None:
        CountingRun.objects.filter(pk=run.pk, shown_at__isnull=True).update(shown_at=now)
        run.shown_at = now
    return run


def counting_answer(
    *,
    owner: Owner,
    run_id: int,
    answer: Fraction,
    at_checkpoints: Mapping[int, Fraction],
    now: datetime,
) -> CountingRun:
    """Grade the player's running count (and the counts they gave at checkpoints) and keep
    it; refused once the run is answered."""
    with transaction.atomic():
        run = CountingRun.objects.select_for_update().filter(pk=run_id, **owner.filter()).first()
        if run is None:
            raise NotFound(_("There is no such deck of yours."))
        if run.answered_at is not None:
            raise Refused(_("This deck is counted already: deal another to count again."))
        cards = run.cards.split()
        asked = set(checkpoints(len(cards), run.checkpoint_every))
        given = {card: count for card, count in at_checkpoints.items() if card in asked}
        grade = grade_count(system_named(run.system), cards, answer, given)
        run.answer = str(answer)
        run.checkpoint_answers = {str(card): str(count) for card, count in given.items()}
        run.exact = grade.exact
        run.answered_at = now
        run.shown_at = run.shown_at or now
        run.save(update_fields=["answer", "checkpoint_answers", "exact", "answered_at", "shown_at"])
    return run


def counting_adopt_guest(
    sender: object, *, guest_token: str, user_id: int, **kwargs: object
) -> None:
    """`guest_adopted`'s receiver: a guest's counted decks follow them into their account."""
    CountingRun.objects.filter(user__isnull=True, guest_token=guest_token).update(
        user_id=user_id, guest_token=""
    )
