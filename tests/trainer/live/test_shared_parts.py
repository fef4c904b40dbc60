"""What every viewer of a live table shares is drawn once (issue 25, point 21): the dealer,
each seat as the other players see it and the buttons under the table are kept by a
fingerprint of what they are drawn from (trainer/templatetags/shared_parts.py) and placed
into each player's own page. Each page is the page drawn for that viewer alone, and no
viewer's page shows another's private state or a card no player has seen."""

from __future__ import annotations

import contextlib
import random
import re
from collections import Counter
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.cache import caches
from django.template import Context, Template, TemplateSyntaxError
from django.template.loader import render_to_string
from django.test.signals import template_rendered
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalActionError
from engine.live_table import LiveTable
from engine.rules import DELUXE
from engine.table import BotSeat
from tests.engine.test_live_table_properties import PEOPLE, PROPERTY, move, random_table
from tests.engine.unseen_cards import with_unseen_cards_replaced
from tests.trainer.live.test_live_preselect import clock, dealt, page_of
from tests.trainer.live.test_live_tables import post
from trainer.live.pages import LiveTableView
from trainer.templatetags.shared_parts import FRAGMENTS, fingerprint

__all__ = ["clock", "dealt"]  # the fixtures, used by name

PLAYERS = tuple(f"account {n}" for n in range(1, 8))
#: What the views give every drawing of table 1 (trainer/live/views.py `_links`).
LINKS = {"post_url": "/tables/1/", "state_url": "/tables/1/state/", "lobby_url": "/tables/",
         "poll_seconds": 1, "push_url": None}  # fmt: skip
NAMES = {player: f"player{n}" for n, player in enumerate(PLAYERS, start=1)}


@pytest.fixture(autouse=True)
def _nothing_kept() -> None:
    FRAGMENTS.clear()
    caches["live_parts"].clear()


def drawn(table: LiveTable, viewer: str | None, version: int = 7) -> str:
    """The viewer's part of the table at ``version`` as a poll answers it, with a CSRF
    token of their own (their name's), in English."""
    with translation.override("en"):
        view = LiveTableView.of(
            table_id=1, version=version, closed=False, public=table.public(viewer), names=NAMES,
            guest=viewer is None, now=0.0, pace=10,
        )  # fmt: skip
        context = {"live": view, "error": None, "csrf_token": token(viewer), **LINKS}
        return render_to_string("trainer/live/live_table.html#live", context)


def alone(table: LiveTable, viewer: str | None, version: int = 7) -> str:
    """The viewer's part drawn with nothing kept from anyone else's."""
    FRAGMENTS.clear()
    return drawn(table, viewer, version)


def unmasked(html: str) -> str:
    """The page with its CSRF tokens left out: each request masks the token anew."""
    return re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]+"', r'\1"', html)


def token(viewer: str | None) -> str:
    return f"token{(viewer or 'guest').replace(' ', '')}"


@contextlib.contextmanager
def counted() -> Iterator[Counter[str]]:
    """How many times each template is drawn meanwhile."""
    counts: Counter[str] = Counter()

    def count(sender: object, template: Any, **_kwargs: object) -> None:
        counts[template.name] += 1

    template_rendered.connect(count)
    try:
        yield counts
    finally:
        template_rendered.disconnect(count)


def full_table() -> LiveTable:
    """Seven players seated, each with a bet: the round dealt, one of them to play."""
    table = LiveTable.new(DELUXE, now=0.0, rng=random.Random(25))
    for seat, player in enumerate(PLAYERS, start=1):
        table.buy_in(player, 500, now=0.0)
        table.sit(player, seat, now=0.0)
    for seat, player in enumerate(PLAYERS, start=1):
        table.bet(player, seat, 10, now=1.0)
    table.advance(table.deadline)  # betting closes: the deal
    return table


def test_the_dealer_and_each_seat_are_drawn_once_for_seven_players() -> None:
    table = LiveTable.new(DELUXE, now=0.0, rng=random.Random(25))
    for seat, player in enumerate(PLAYERS, start=1):
        table.buy_in(player, 500, now=0.0)
        table.sit(player, seat, now=0.0)
    table.bet(PLAYERS[0], 1, 10, now=1.0)  # betting open: every seat offers bets
    with counted() as counts:
        pages = {player: drawn(table, player) for player in PLAYERS}
    assert counts["trainer/table/_dealer.html"] == 1
    # Each seat twice at most: as its holder sees it, and as every other player does.
    assert counts["trainer/table/_hands.html"] <= 2 * len(PLAYERS)
    with counted() as alone_counts:
        assert all(alone(table, player) == pages[player] for player in PLAYERS)
    assert alone_counts["trainer/table/_dealer.html"] == len(PLAYERS)
    assert counts["trainer/table/_hands.html"] * 3 < alone_counts["trainer/table/_hands.html"]


def test_a_bet_draws_again_only_the_seat_it_changed() -> None:
    """The table's next version, one seat's bet changed, draws that seat alone again
    (as its holder, the other players and the onlookers see it): the six others are
    taken as they were drawn, and every page is still the viewer's own."""
    table = LiveTable.new(DELUXE, now=0.0, rng=random.Random(25))
    for seat, player in enumerate(PLAYERS, start=1):
        table.buy_in(player, 500, now=0.0)
        table.sit(player, seat, now=0.0)
    table.bet(PLAYERS[0], 1, 10, now=1.0)
    for viewer in (*PLAYERS, None):
        drawn(table, viewer, version=8)
    table.bet(PLAYERS[1], 2, 20, now=2.0)
    with counted() as counts:
        pages = {viewer: drawn(table, viewer, version=9) for viewer in (*PLAYERS, None)}
    assert counts["trainer/table/_hands.html"] == 3
    for viewer, html in pages.items():
        assert html == alone(table, viewer, version=9)


def test_a_round_in_play_is_drawn_once_and_each_keeps_their_own_decision() -> None:
    table = full_table()
    turn = table.public(None).turn
    assert turn is not None
    with counted() as counts:
        pages = {viewer: drawn(table, viewer) for viewer in (*PLAYERS, None)}
    assert counts["trainer/table/_dealer.html"] == 1
    assert 'data-testid="decision"' in pages[turn.owner]
    for viewer, html in pages.items():
        assert html == alone(table, viewer)
        if viewer != turn.owner:
            assert 'data-testid="decision"' not in html and 'id="act-' not in html


def test_each_viewer_gets_their_own_csrf_token_in_the_shared_parts() -> None:
    table = full_table()
    for viewer in PLAYERS:
        html = drawn(table, viewer)
        tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html))
        assert tokens == {token(viewer)}


@pytest.mark.django_db
def test_a_choice_made_before_the_turn_stays_on_its_players_page(dealt: Any) -> None:
    """Bob chooses his play on seat 2; Ann's page, drawn after his from what his left
    kept, shows nothing of it, and is her page drawn alone."""
    row, _ann, anns, _bob, bobs = dealt
    post(bobs, row, op="preselect", seat=2, action="stand")
    url = reverse("trainer:live-table-state", args=[row.pk])
    bobs_part = bobs.get(url, headers={"HX-Request": "true"}).content.decode()
    assert 'data-testid="preselected-2"' in bobs_part
    anns_part = anns.get(url, headers={"HX-Request": "true"}).content.decode()
    assert "preselect" not in anns_part and "Chosen:" not in anns_part
    FRAGMENTS.clear()
    anns_alone = anns.get(url, headers={"HX-Request": "true"}).content.decode()
    assert unmasked(anns_alone) == unmasked(anns_part)
    assert "preselect" not in page_of(anns, row)


@settings(PROPERTY, max_examples=15, database=None)
@given(st.data())
def test_every_page_drawn_from_shared_parts_is_the_viewers_own(data: st.DataObject) -> None:
    """At every point of random play, each viewer's page, drawn in any order after the
    others' (the shared parts kept between moves too), is their page drawn alone, is the
    same whatever the cards no player has seen, and carries no one else's token."""
    table = random_table(data)
    now = 0.0
    for _ in range(data.draw(st.integers(5, 15), label="moves")):
        now += data.draw(st.sampled_from([0.0, 0.5, 2.0, 9.0]), label="time passes")
        with contextlib.suppress(IllegalActionError):
            move(data, table, now)
        order = data.draw(st.permutations((None, *PEOPLE)), label="order drawn")
        pages = {viewer: drawn(table, viewer) for viewer in order}
        other = with_unseen_cards_replaced(table, data)
        for viewer, html in pages.items():
            assert html == drawn(other, viewer)  # from the parts kept, on another table
            assert html == alone(table, viewer)
            assert all(token(o) not in html for o in (None, *PEOPLE) if o != viewer)


def test_a_bot_table_is_drawn_the_same_through_shared_parts() -> None:
    table = LiveTable.new(DELUXE, now=0.0, bots=[BotSeat(2, "easy")], rng=random.Random(3))
    table.buy_in(PLAYERS[0], 500, now=0.0)
    assert drawn(table, PLAYERS[0]) == alone(table, PLAYERS[0])


def test_only_plain_values_key_a_shared_part() -> None:
    """An object known only by its identity would let different drawings share a key."""
    assert fingerprint(("a", 1, (None, True))) == fingerprint(("a", 1, (None, True)))
    assert fingerprint((1,)) != fingerprint(("1",)) != fingerprint([1.0])
    assert fingerprint(True) != fingerprint(1)
    assert fingerprint(mark_safe("<b>")) != fingerprint("<b>")  # drawn differently
    with pytest.raises(TypeError):
        fingerprint(object())
    with pytest.raises(TypeError):
        fingerprint((1, SimpleNamespace(a=1)))
    with pytest.raises(TemplateSyntaxError):
        Template("{% load shared_parts %}{% shared_part name %}{% endshared_part %}")


def test_without_a_token_the_part_is_drawn_as_it_is() -> None:
    text = Template('{% load shared_parts %}{% shared_part "x" n %}{{ n }}{% endshared_part %}')
    assert text.render(Context({"n": 1})) == "1"
    assert text.render(Context({"n": 2})) == "2"
