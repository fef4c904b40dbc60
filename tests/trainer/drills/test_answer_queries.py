from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from trainer.drills.answer_statements import issued_drill, record_answer
from trainer.models import Drill
from trainer.shared.owners import Owner

pytestmark = [pytest.mark.django_db, pytest.mark.database]
GUEST = Owner(user_id=None, guest_token="guest-a")


def drill_for(owner: Owner, **fields: object) -> Drill:
    return Drill.objects.create(
        user_id=owner.user_id,
        guest_token=owner.guest_token,
        rules_name="european",
        rules_version="1",
        rules={"decks": 6},
        cards="10s 6h",
        up="10d",
        **fields,
    )


def test_an_issued_drill_reads_back_as_its_model_would() -> None:
    drill = drill_for(GUEST)
    found = issued_drill(owner=GUEST, drill_id=drill.pk)
    assert found is not None
    assert (found.pk, found.cards, found.up, found.rules, found.rules_name) == (
        drill.pk, "10s 6h", "10d", {"decks": 6}, "european"
    )  # fmt: skip
    assert found.issued_at == drill.issued_at and found.answered_at is None


def test_every_field_read_is_the_value_and_type_the_orm_reads() -> None:
    answered = timezone.now() - timedelta(minutes=3)
    drill = drill_for(
        GUEST, answered_at=answered, time_limit=5, session_hands=4, session_right=3,
        session_streak=2, session_lost=Decimal("1.250000"),
    )  # fmt: skip
    orm = Drill.objects.get(pk=drill.pk)
    for _ in range(2):  # the second read uses the conversions kept from the first
        found = issued_drill(owner=GUEST, drill_id=drill.pk)
        assert found is not None
        for name in ("id", "rules_name", "rules", "cards", "up", "issued_at", "answered_at",
                     "time_limit", "session_hands", "session_right", "session_streak",
                     "session_lost"):  # fmt: skip
            value = getattr(found, name)
            assert (value, type(value)) == (getattr(orm, name), type(getattr(orm, name))), name
        assert found.answered_at == answered and found.session_lost == Decimal("1.25")


def test_no_one_else_reads_an_issued_drill() -> None:
    user = get_user_model().objects.create_user("ann", password="pw-123456!")
    account = Owner(user_id=user.pk, guest_token="")
    guests = drill_for(GUEST)
    accounts = drill_for(account)
    assert issued_drill(owner=Owner(None, "guest-b"), drill_id=guests.pk) is None
    assert issued_drill(owner=account, drill_id=guests.pk) is None
    assert issued_drill(owner=GUEST, drill_id=accounts.pk) is None
    assert issued_drill(owner=account, drill_id=accounts.pk) is not None
    # A guest token that happens to match an account's empty one reads nothing either.
    assert issued_drill(owner=Owner(None, ""), drill_id=accounts.pk) is None


def test_a_practice_decision_is_not_a_drill_to_answer() -> None:
    decision = drill_for(GUEST, source=Drill.Source.PLAY)
    assert issued_drill(owner=GUEST, drill_id=decision.pk) is None


def test_an_answer_is_stored_once_with_its_values_as_the_orm_would_store_them() -> None:
    drill = drill_for(GUEST)
    answered_at = drill.issued_at + timedelta(seconds=2)
    first = {"answered_at": answered_at, "action": "stand", "ev_lost": Decimal("0.012345")}
    assert record_answer(owner=GUEST, drill_id=drill.pk, recorded=first)
    second = {"answered_at": timezone.now(), "action": "hit", "ev_lost": Decimal("0")}
    assert not record_answer(owner=GUEST, drill_id=drill.pk, recorded=second)
    drill.refresh_from_db()
    assert (drill.answered_at, drill.action, drill.ev_lost) == (
        answered_at, "stand", Decimal("0.012345")
    )  # fmt: skip


def test_an_answer_is_not_stored_for_anyone_else() -> None:
    user = get_user_model().objects.create_user("ann", password="pw-123456!")
    answer = {"answered_at": timezone.now(), "action": "stand"}
    guests = drill_for(GUEST)
    for stranger in (Owner(None, "guest-b"), Owner(user.pk, ""), Owner(None, "")):
        assert not record_answer(owner=stranger, drill_id=guests.pk, recorded=answer)
    guests.refresh_from_db()
    assert guests.answered_at is None
