from __future__ import annotations

import random
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils import timezone

from engine.drills import Situation
from engine.rules import EUROPEAN
from trainer.drills.services import drill_issue
from trainer.drills.weak_spots import next_cell
from trainer.models import Drill
from trainer.shared.owners import Owner
from trainer.shared.preferences import DrillMode

pytestmark = pytest.mark.django_db
NOW = timezone.now()


@pytest.fixture
def ann() -> User:
    return get_user_model().objects.create_user("ann", password="pw-long-enough-1")


def answer(
    user: User, row: str, up: str, *, right: bool, ago: timedelta, lost: str = "0.05"
) -> None:
    Drill.objects.create(
        user=user, rules_name="european", rules_version="1.0.0", cards="10s 6h", up="10d",
        row=row, up_column=up, answered_at=NOW - ago, action="hit" if right else "stand",
        correct_action="hit", correct_code="H", ev_lost=Decimal(0 if right else lost),
    )  # fmt: skip


def test_nothing_is_due_for_a_new_player(ann: User) -> None:
    assert next_cell(Owner(ann.pk, ""), "european", NOW) is None


def test_a_missed_cell_comes_straight_back(ann: User) -> None:
    answer(ann, "hard 16", "10", right=True, ago=timedelta(minutes=5))
    answer(ann, "hard 16", "10", right=False, ago=timedelta(seconds=5))
    assert next_cell(Owner(ann.pk, ""), "european", NOW) == ("hard 16", "10")


def test_a_cell_answered_right_comes_back_later_and_later(ann: User) -> None:
    answer(ann, "soft 18", "9", right=True, ago=timedelta(minutes=5))
    owner = Owner(ann.pk, "")
    assert next_cell(owner, "european", NOW) is None  # due after 10 minutes
    assert next_cell(owner, "european", NOW + timedelta(minutes=6)) == ("soft 18", "9")
    answer(ann, "soft 18", "9", right=True, ago=timedelta(minutes=1))
    assert next_cell(owner, "european", NOW + timedelta(minutes=30)) is None  # now an hour


def test_the_costliest_mistake_comes_first(ann: User) -> None:
    answer(ann, "hard 12", "3", right=False, ago=timedelta(minutes=2), lost="0.01")
    answer(ann, "pair 8", "10", right=False, ago=timedelta(minutes=1), lost="0.20")
    assert next_cell(Owner(ann.pk, ""), "european", NOW) == ("pair 8", "10")


def test_only_the_owners_answers_and_rules_count(ann: User) -> None:
    other = get_user_model().objects.create_user("bob", password="pw-long-enough-1")
    answer(other, "hard 16", "10", right=False, ago=timedelta(seconds=5))
    assert next_cell(Owner(ann.pk, ""), "european", NOW) is None
    assert next_cell(Owner(other.pk, ""), "deluxe", NOW) is None


def test_the_weak_spots_mode_deals_the_due_cell(ann: User) -> None:
    answer(ann, "soft 17", "4", right=False, ago=timedelta(seconds=5))
    drill = drill_issue(owner=Owner(ann.pk, ""), mode=DrillMode.WEAK)
    situation = Situation.parse(EUROPEAN, drill.cards, drill.up)
    assert (situation.row, situation.up_column) == ("soft 17", "4")


@pytest.mark.parametrize(
    ("row", "up"),
    [("hard 5", "2"), ("hard 19", "A"), ("soft 13", "10"), ("pair A", "A"), ("pair 10", "5")],
)
def test_a_situation_can_be_dealt_for_any_two_card_cell(row: str, up: str) -> None:
    situation = Situation.for_cell(EUROPEAN, row, up, random.Random(3))
    assert (situation.row, situation.up_column) == (row, up)
