"""What logging in does beyond Django's own, connected in `TrainerConfig.ready`."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from trainer.shared.owners import GUEST_KEY, Owner, guest_adopted
from trainer.shared.preferences import adopt_guest_choices


def adopt_guest(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    """On log-in (sign-up logs in too), what the guest did becomes the account's: each
    feature takes its own records (`guest_adopted`), and the guest's choices come along."""
    token = request.session.pop(GUEST_KEY, None)
    if token:
        guest_adopted.send(sender=Owner, guest_token=token, user_id=user.pk)
    adopt_guest_choices(request.session, user.pk)
