"""Pre-selected actions on a live table's page: a seated player whose turn has not come
chooses (changes, clears) a play for their seat; the table carries it out when the turn
comes (RULES.md §2, "Pre-selected actions").

The shoe deals in RULES.md's order: seat 1 (Ann) 10♠ 8♦ = 18, seat 2 (Bob) 10♥ 9♦ = 19,
the dealer 9♥ and the hole 7♣ = 16, who draws the 2♣ (18) and stands. Ann plays first.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.values import Action
from tests.trainer.live.test_live_tables import Clock, account, open_table, post, refused, stored
from trainer.models import Bet, SharedTable

pytestmark = [pytest.mark.django_db, pytest.mark.database]

CARDS = "10s 10h 9h 8d 9d 7c 2c " + "3d 4h 5s 6c " * 20


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The live views' clock (`timezone.now`), standing still unless moved."""
    moving = Clock()
    monkeypatch.setattr(timezone, "now", moving)
    return moving


@pytest.fixture
def dealt(clock: Clock) -> tuple[SharedTable, AbstractBaseUser, Client, AbstractBaseUser, Client]:
    """Ann on seat 1, Bob on seat 2, both bet 20: the round is dealt, Ann to play."""
    ann, anns = account("ann")
    bob, bobs = account("bob")
    row = open_table(ann, clock, seats=[1], cards=CARDS)
    post(bobs, row, op="join", amount=500)
    post(bobs, row, op="sit", seat=2)
    post(anns, row, op="bet", seat=1, amount=20)
    post(bobs, row, op="bet", seat=2, amount=20)
    table = stored(row)
    assert table.round is not None and table.round.turn is not None
    assert table.round.turn.owner == f"account {ann.pk}"
    return row, ann, anns, bob, bobs


def page_of(client: Client, row: SharedTable) -> str:
    return str(client.get(reverse("trainer:live-table", args=[row.pk])).content.decode())


def test_a_play_chosen_before_the_turn_is_carried_out_when_it_comes(dealt: Any) -> None:
    row, ann, anns, bob, bobs = dealt
    page = page_of(bobs, row)
    assert 'data-testid="preselect-2"' in page and 'data-testid="preselect-1"' not in page
    assert post(bobs, row, op="preselect", seat=2, action="stand").status_code == 302
    assert "Chosen: Stand" in page_of(bobs, row)
    assert stored(row).stage.value == "playing"  # still Ann's turn
    post(anns, row, op="act", action="stand")  # Bob's stand follows at once
    table = stored(row)
    assert table.stage.value == "result"
    assert table.round is not None
    assert [(s.number, len(s.hands[0].cards)) for s in table.round.seats] == [(1, 2), (2, 2)]
    # Ann's 18 pushes the dealer's 18; Bob's 19 wins 20.
    assert table.balances[f"account {ann.pk}"] == 500
    assert table.balances[f"account {bob.pk}"] == 520
    assert [(b.staked, b.returned) for b in Bet.objects.filter(user_id=bob.pk)] == [(20, 40)]


def test_a_play_is_refused_on_someone_elses_seat(dealt: Any) -> None:
    row, _ann, anns, _bob, _bobs = dealt
    refused(anns, row, "Seat 2 is not yours", op="preselect", seat=2, action="stand")


def test_a_play_refused_once_the_turn_has_come(dealt: Any) -> None:
    row, _ann, anns, _bob, _bobs = dealt
    refused(anns, row, "Seat 1&#x27;s turn has come: decide now", op="preselect", seat=1,
            action="stand")  # fmt: skip


def test_a_chosen_play_may_be_changed_and_cleared(dealt: Any) -> None:
    row, _ann, anns, _bob, bobs = dealt
    post(bobs, row, op="preselect", seat=2, action="hit")
    assert 'data-action="hit" aria-pressed="true"' in page_of(bobs, row)
    post(bobs, row, op="preselect", seat=2, action="stand")
    page = page_of(bobs, row)
    assert "Chosen: Stand" in page and 'data-action="hit" aria-pressed="false"' in page
    table = stored(row)
    assert table.round is not None and table.round.preselection(2) is Action.STAND
    post(bobs, row, op="preselect", seat=2)  # no action: cleared
    table = stored(row)
    assert table.round is not None and table.round.preselection(2) is None
    assert "Chosen:" not in page_of(bobs, row)
    post(anns, row, op="act", action="stand")  # nothing chosen: Bob decides himself
    table = stored(row)
    assert table.stage.value == "playing" and table.round is not None
    assert table.round.turn is not None and table.round.turn.seat == 2
