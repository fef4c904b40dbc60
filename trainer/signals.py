"""Signal receivers, connected in `TrainerConfig.ready`."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.http import HttpRequest

from trainer import practice, services
from trainer.models import Preferences
from trainer.preferences import SESSION_KEY, settings_from_stored
from trainer.selectors import GUEST_KEY


def adopt_guest_drills(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    """On log-in (sign-up logs in too), the guest's answers and tables become the account's."""
    token = request.session.pop(GUEST_KEY, None)
    if token:
        services.drills_adopt(guest_token=token, user_id=user.pk)
        practice.practice_adopt(guest_token=token, user_id=user.pk)
    chosen = request.session.pop(SESSION_KEY, None)
    if chosen and not Preferences.objects.filter(user_id=user.pk).exists():
        # Read as the drill reads it: a session of an older shape must not stop a log-in.
        Preferences.objects.create(user_id=user.pk, **asdict(settings_from_stored(chosen)))
