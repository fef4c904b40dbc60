"""A hand left pending for weeks, then answered: recorded, with no response time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from trainer.drills import services
from trainer.models import Drill
from trainer.shared.owners import Owner

pytestmark = [pytest.mark.django_db, pytest.mark.database]


@pytest.mark.parametrize(("days", "timed"), [(24, True), (30, False)])
def test_a_hand_answered_weeks_later_is_recorded_with_a_response_time_only_if_it_fits(
    days: int, timed: bool
) -> None:
    # 2**31 ms is about 24.9 days: past it, PostgreSQL's integer column refused the answer.
    owner = Owner(get_user_model().objects.create_user("ann").pk, "")
    drill = services.drill_issue(owner=owner)
    Drill.objects.filter(pk=drill.pk).update(issued_at=timezone.now() - timedelta(days=days))
    services.drill_answer(owner=owner, drill_id=drill.pk, action="stand")
    drill.refresh_from_db()
    assert drill.answered_at is not None
    assert (drill.response_ms is not None) == timed
    if timed:
        assert drill.response_ms == pytest.approx(days * 86_400_000, rel=1e-3)
