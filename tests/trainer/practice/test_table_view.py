"""The practice table's page (trainer/practice/pages.py) is built from the engine's
`PublicTable` only, so that what it renders cannot depend on a card no player has seen."""

from __future__ import annotations

import random

import pytest
from django.template.loader import render_to_string
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots import BOTS, Tier
from engine.cards import card_code
from engine.rules import DELUXE, EUROPEAN
from engine.shoe import Shoe
from engine.table import PLAYER, BotSeat, PublicTable, Table
from tests.engine.unseen_cards import with_unseen_cards_replaced
from trainer.models import PracticeSession
from trainer.practice.pages import TableView
from trainer.practice.selectors import TableOnShow
from trainer.shared.cards import CardFace

PROPERTY = settings(
    # 30: with three seeds, branch coverage of the page and its view grew to 20-30 examples.
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
    hint = BOTS[Tier.NORMAL] if table.decision is not None else None
    shown = TableOnShow(session=session, table=table, rounds_dealt=1, held=None, hint_bot=hint)
    view = TableView.of(shown, seen=0)
    return view, render_to_string(
        "trainer/practice/table.html#table", {"table": view, "error": None}
    )


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


# What the table shows, as the rules document shows it (RULES.md §2) ------------------


def test_while_the_hole_card_is_down_the_dealer_shows_the_up_cards_score() -> None:
    # You 10s 6d = 16 against the As (soft 11 alone); the hole card 7c stays down.
    table = Table.new(EUROPEAN, shoe=Shoe.stacked("10s As 6d 7c 5s"))
    table.deal(10)
    view, html = page(table.public())
    assert (view.dealer_total, view.dealer_soft) == (11, True)
    assert "· soft 11</span></h2>" in html
    (you,) = view.seats
    assert (you.hands[0].total, you.hands[0].soft) == (16, False)


def test_a_soft_hand_shows_its_score_as_soft() -> None:
    # You As 6d: soft 17 against the 9h.
    table = Table.new(EUROPEAN, shoe=Shoe.stacked("As 9h 6d 7c 5s"))
    table.deal(10)
    view, html = page(table.public())
    assert (view.seats[0].hands[0].total, view.seats[0].hands[0].soft) == (17, True)
    assert "soft 17" in html


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_fresh_shoe_shows_the_card_turned_and_how_many_are_burned(seed: int) -> None:
    table = Table.new(DELUXE, rng=random.Random(seed))
    table.deal(10)
    public = table.public()
    assert public.shuffled is not None and public.shuffled.shown is not None
    shown = public.shuffled.shown
    # The dealer turns the first card and burns that many more: ace 1, ten-values 10.
    value = (
        1 if shown.rank == "A" else 10 if shown.rank in ("10", "J", "Q", "K") else int(shown.rank)
    )
    assert public.shuffled.burned == 1 + value
    face = f"{shown.rank}{CardFace.of(shown).symbol}"
    sentence = f"The dealer turns {face} and burns {1 + value} cards."
    view, html = page(public)
    assert sentence in view.notices
    assert any(line.text.endswith(sentence) for line in view.events)
    assert sentence in html
    # The next round of the same shoe burns nothing, and says nothing of it.
    while table.players_turn:
        table.act("stand")
    table.deal(10)
    assert table.public().shuffled is None
    assert page(table.public())[0].notices == ()


def test_the_cut_card_out_makes_the_round_the_shoes_last() -> None:
    # A shoe cut after its third card: the deal takes it past the cut. You 10s 9h = 19
    # against the 9c, hole 8d: you stand, the dealer stands on 17.
    cards = [card_code(code) for code in ["10s", "9c", "9h", "8d", "5s", "5h", "5d"]]
    table = Table.new(EUROPEAN, shoe=Shoe(cards, cut=3))
    before, _html = page(table.public())
    assert before.notices == ()
    table.deal(10)
    view, html = page(table.public())
    assert view.notices == ("The cut card is out: this is the shoe's last round.",)
    assert 'data-testid="notice">The cut card is out: this is the shoe&#x27;s last round.' in html
    table.act("stand")
    assert page(table.public())[0].notices == (
        "The cut card is out: a fresh shoe is shuffled before the next round.",
    )
