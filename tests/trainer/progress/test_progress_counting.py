"""Counting on the progress page (issue 27): each counting drill's answers counted in
their week, worked out from rows made by hand."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from engine.chart_vocabulary import UP_CARDS
from trainer.models import BetQuestion, CountingRun, IndexPlayQuestion, TrueCountQuestion
from trainer.progress.counting import counting_weeks, index_heat_rows
from trainer.shared.owners import GUEST_KEY, Owner

pytestmark = pytest.mark.django_db


def test_each_drill_counts_in_the_week_it_was_answered(client: Client) -> None:
    client.get("/counting/")
    client.post(
        "/counting/", {"system": "hi-lo", "group": "0", "pace": "20", "checkpoint_every": "0"}
    )
    owner = Owner.guest(client.session[GUEST_KEY])
    now = timezone.now()
    long_ago = now - timedelta(weeks=3)
    mine = owner.fields()
    # Two decks this week, one exact in 20 s; one exact deck three weeks ago in 40 s.
    CountingRun.objects.all().delete()
    for when, exact, seconds in ((now, True, 20), (now, False, 15), (long_ago, True, 40)):
        CountingRun.objects.create(**mine, system="hi-lo", cards="2c", group=0, exact=exact,
                                   answer="1", shown_at=when - timedelta(seconds=seconds),
                                   answered_at=when)  # fmt: skip
    # A true count of a shoe of 6 decks, 195 dealt, running +9: +3 floored (2½ decks left);
    # said +5, off by 2. A decks-left answer right.
    shoe = {"decks": 6, "dealt": 195, "running": 9, "estimate": "half", "conversion": "floor"}
    TrueCountQuestion.objects.create(**mine, **shoe, kind="convert", answer="5", right=False,
                                     shown_at=now, answered_at=now)  # fmt: skip
    TrueCountQuestion.objects.create(**mine, **shoe, kind="decks", answer="5/2", right=True,
                                     shown_at=now, answered_at=now)  # fmt: skip
    play = {"rules_name": "american", "system": "hi-lo", "estimate": "half", "conversion": "floor",
            "row": "hard 16", "up": "10", "play": "stand", "otherwise": "hit", "index": 0,
            "ev_difference": {}, "true_count": 1, "cards": "10h 6c"}  # fmt: skip
    IndexPlayQuestion.objects.create(**mine, **play, answer="hit", right=False, given_up=0.004,
                                     shown_at=now, answered_at=now)  # fmt: skip
    BetQuestion.objects.create(**mine, ramp="1:2", below=1, true_count=1, answer=2, right=True,
                               shown_at=now, answered_at=now)  # fmt: skip
    # Another player's deck counts for them only.
    CountingRun.objects.create(guest_token="someone else", system="hi-lo", cards="2c", group=0,
                               exact=True, answer="1", shown_at=now, answered_at=now)  # fmt: skip

    this_week, earlier = counting_weeks(owner, now)
    assert (this_week.decks, this_week.exact, this_week.median_deck_seconds) == (2, 1, 20.0)
    assert (earlier.decks, earlier.median_deck_seconds) == (1, 40.0)
    assert (this_week.true_counts, this_week.true_counts_right, this_week.true_count_error) == (
        1, 0, 2.0
    )  # fmt: skip
    assert (this_week.decks_left, this_week.decks_left_right) == (1, 1)
    assert (this_week.index_plays, this_week.index_right) == (1, 0)
    assert this_week.given_up == pytest.approx(0.004)
    assert (this_week.bets, this_week.bets_right) == (1, 1)
    [sixteen] = index_heat_rows(owner)
    assert sixteen.title == "Hard 16"
    cells = dict(zip(UP_CARDS, sixteen.cells, strict=True))
    assert cells["10"] is not None and (cells["10"].answered, cells["10"].right) == (1, 0)
    assert cells["10"].level == "poor" and all(cells[up] is None for up in UP_CARDS[:-2])
    page = client.get("/progress/").content.decode()
    assert 'data-testid="counting-weeks"' in page and 'data-testid="index-heat-map"' in page


def test_a_player_who_has_not_counted_is_pointed_to_the_drill(client: Client) -> None:
    page = client.get("/progress/").content.decode()
    assert 'data-testid="no-counting"' in page and 'href="/counting/"' in page
