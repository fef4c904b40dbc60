"""The practice table's page (trainer/table_view.py) is built from the engine's
`PublicTable` only, so that what it renders cannot depend on a card no player has seen."""

from __future__ import annotations

import random

from django.template.loader import render_to_string
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots import BOTS
from engine.rules import EUROPEAN
from engine.table import PLAYER, BotSeat, PublicTable, Table
from tests.engine.unseen_cards import with_unseen_cards_replaced
from trainer.models import PracticeSession
from trainer.selectors import TableOnShow
from trainer.table_view import TableView

PROPERTY = settings(
    max_examples=30,
    deadline=None,
    database=None,  # nothing written to the working tree
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def page(table: PublicTable) -> tuple[TableView, str]:
    """The table's view model and its rendered region, hints on (the normal bot's: the
    hard tier's would read an analysis), as the page shows them."""
    balance = next(seat.balance for seat in table.seats if seat.owner == PLAYER)
    session = PracticeSession(
        pk=1, version=1, bankroll=1000, balance=int(balance), next_bet=10, hints=True
    )
    hint = BOTS["normal"] if table.decision is not None else None
    shown = TableOnShow(session=session, table=table, rounds_dealt=1, held=None, hint_bot=hint)
    view = TableView.of(shown, seen=0)
    return view, render_to_string("trainer/table.html#table", {"table": view, "error": None})


def assert_page_shows_only_the_seen(table: Table, data: st.DataObject) -> None:
    view, html = page(table.public())
    other_view, other_html = page(with_unseen_cards_replaced(table, data).public())
    assert other_view == view
    assert other_html == html


@PROPERTY
@given(
    data=st.data(),
    seed=st.integers(0, 2**32 - 1),
    bots=st.lists(st.sampled_from(["easy", "normal"]), max_size=2),
    rounds=st.integers(1, 3),
)
def test_the_table_page_is_the_same_whatever_the_unseen_cards_are(
    data: st.DataObject, seed: int, bots: list[str], rounds: int
) -> None:
    """At every point of random rounds, the page (view model and HTML) of a table is the
    page of any table differing from it only in cards no player has seen: the hole card
    before it is turned, and the shoe's order, cannot show."""
    table = Table.new(
        EUROPEAN,
        player_seat=1,
        bots=[BotSeat(seat, tier) for seat, tier in enumerate(bots, start=2)],
        bankroll=1000,
        rng=random.Random(seed),
    )
    assert_page_shows_only_the_seen(table, data)
    for _ in range(rounds):
        table.deal(10 * data.draw(st.integers(1, 5), label="bet in tens"))
        assert_page_shows_only_the_seen(table, data)
        while table.players_turn:
            assert table.round is not None
            if data.draw(st.integers(0, 9), label="void now") == 0:
                table.round.void("the table closed")
            else:
                table.act(data.draw(st.sampled_from(table.round.legal_actions()), label="act"))
            assert_page_shows_only_the_seen(table, data)
