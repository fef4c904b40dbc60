"""A live table's page (trainer/live/pages.py) shows what the practice table shows, from the
same parts: scores, the shoe's notices, the round told line by line."""

from __future__ import annotations

import contextlib
import random

from django.template.loader import render_to_string
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import card_code
from engine.errors import IllegalActionError
from engine.live_table import FAULT_GRACE_SECONDS, LiveTable
from engine.rules import DELUXE
from engine.shoe import Shoe
from tests.engine.test_live_table_properties import PEOPLE, move, random_table
from tests.engine.unseen_cards import with_unseen_cards_replaced
from tests.trainer.live.test_shared_parts import LINKS
from trainer.live.pages import LiveTableView
from trainer.shared.cards import CardFace

NAMES = {"account 1": "ann", "account 2": "bob"}
ANN, BOB = "account 1", "account 2"


def page(table: LiveTable, viewer: str | None) -> tuple[LiveTableView, str]:
    """The viewer's view model and rendered region, in English (whatever another test
    left active)."""
    with translation.override("en"):
        view = LiveTableView.of(
            table_id=1, version=1, closed=False, public=table.public(viewer), names=NAMES,
            guest=False, now=0.0, pace=20,
        )  # fmt: skip
        context = {"live": view, "error": None, **LINKS}
        html = render_to_string("trainer/live/live_table.html#live", context)
    return view, html


def seated(table: LiveTable, *seats: tuple[str, int]) -> LiveTable:
    for owner, seat in seats:
        if owner not in table.balances:
            table.buy_in(owner, 500, now=0.0)
        table.sit(owner, seat, now=0.0)
    return table


def test_the_up_cards_score_and_each_hands_show_while_the_hole_card_is_down() -> None:
    # Ann's A♠ 6♦ is soft 17 against the 9♥; the hole 7♣ stays down.
    table = seated(LiveTable.new(DELUXE, now=0.0, shoe=Shoe.stacked("As 9h 6d 7c 5s")), (ANN, 3))
    table.bet(ANN, 3, 10, now=1.0)
    view, html = page(table, BOB)
    assert (view.dealer_total, view.dealer_soft) == (9, False)
    assert 'data-testid="dealer-total">· 9</span>' in html
    hand = view.seats[2].hands[0]
    assert (hand.total, hand.soft, hand.stake) == (17, True, 10)
    assert "soft 17" in html and "Seven of clubs" not in html


def test_a_fresh_shoe_shows_the_card_turned_and_how_many_are_burned() -> None:
    table = seated(LiveTable.new(DELUXE, now=0.0, rng=random.Random(3)), (ANN, 3))
    table.bet(ANN, 3, 10, now=1.0)
    shuffled = table.public(ANN).shuffled
    assert shuffled is not None and shuffled.shown is not None
    face = CardFace.of(shuffled.shown)
    sentence = f"The dealer turns {face.rank}{face.symbol} and burns {shuffled.burned} cards."
    view, html = page(table, ANN)
    assert view.shoe_notices == (sentence,)
    assert f'data-testid="notice">{sentence}</p>' in html


def test_the_cut_card_out_makes_the_round_the_shoes_last() -> None:
    # A shoe cut after its third card: the deal takes it past the cut.
    cards = [card_code(code) for code in ["10s", "9c", "9h", "8d", "5s", "5h", "5d"]]
    table = seated(LiveTable.new(DELUXE, now=0.0, shoe=Shoe(cards, cut=3)), (ANN, 3))
    assert page(table, ANN)[0].shoe_notices == ()
    table.bet(ANN, 3, 10, now=1.0)
    assert page(table, ANN)[0].shoe_notices == (
        "The cut card is out: this is the shoe's last round.",
    )
    table.act(ANN, "stand", now=2.0)
    assert page(table, ANN)[0].shoe_notices == (
        "The cut card is out: a fresh shoe is shuffled before the next round.",
    )


# Ann on seat 1: 8♠ 8♦ against the 7♣, hole 10♦; Bob bets behind her. She splits, Bob
# follows; each hand draws a ten (18) and stands; the dealer stands on 17.
SPLIT = "8s 7c 8d 10d 10c Jc " + "2c 3d 4h 5s " * 5


def test_the_story_tells_each_line_at_its_number_and_names_the_bettor_behind() -> None:
    table = seated(LiveTable.new(DELUXE, now=0.0, shoe=Shoe.stacked(SPLIT)), (ANN, 1))
    table.buy_in(BOB, 500, now=0.0)
    table.bet_behind(BOB, 1, 10, now=0.5)
    table.bet(ANN, 1, 20, now=1.0)
    table.act(ANN, "split", now=2.0)
    table.act(BOB, "follow", now=3.0)
    table.act(ANN, "stand", now=4.0)
    table.act(ANN, "stand", now=5.0)
    view, html = page(table, BOB)
    lines = [line.text.replace("\u2066", "").replace("\u2069", "") for line in view.events]
    assert "Seat 1 (You): Follow." in lines
    assert lines.count("Seat 1 (You): Bet behind, Win, +10.") == 2
    assert lines.count("Seat 1 (ann): Win, +20.") == 2
    # Every line is its own step, the same for every viewer: the page works out which
    # are new to it. The results, the balance and the stage wait for the story's end.
    assert [line.step for line in view.events] == list(range(len(lines)))
    assert view.story_end == len(lines)
    assert f'data-story-lines="{len(lines)}"' in html
    assert (view.balance, view.balance_before) == (520, 480)
    assert view.stage_before == "Round in play"
    first, second = view.seats[0].hands
    assert first.result_step is not None and first.result_step < second.result_step  # type: ignore[operator]


def test_an_accounts_second_seat_is_offered_the_first_seats_bet_alone() -> None:
    table = seated(LiveTable.new(DELUXE, now=0.0), (ANN, 2), (ANN, 4))
    view, _html = page(table, ANN)
    assert view.seats[3].bet_amounts == view.amounts
    table.bet(ANN, 2, 50, now=1.0)
    view, _html = page(table, ANN)
    assert view.seats[3].bet_amounts == (50,)
    assert view.seats[1].bet_amounts == view.amounts  # a bet placed may be raised


def test_ones_seat_takes_any_amount_within_the_limits_but_a_second_seat_the_first_ones() -> None:
    table = seated(LiveTable.new(DELUXE, now=0.0), (ANN, 2), (ANN, 4))
    _view, html = page(table, ANN)
    field = 'name="amount" required min="10" max="500" step="10"'
    assert html.count(field) == 2  # on each of her seats, and only there
    table.bet(ANN, 2, 30, now=1.0)
    view, html = page(table, ANN)
    assert (view.seats[1].any_amount, view.seats[3].any_amount) == (True, False)
    assert html.count(field) == 1 and 'value="30" inputmode' in html


@settings(
    # 15: each example renders every viewer's page at each of 5-20 moves (0.5-1 s); the
    # public view the page is built from is checked over 60 in test_live_table_properties.
    max_examples=15,
    deadline=None,
    database=None,  # nothing written to the working tree
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
@given(st.data())
def test_the_live_page_is_the_same_whatever_the_unseen_cards_are(data: st.DataObject) -> None:
    """At every point of random play, each viewer's page (view model and HTML) of a table
    is the page of any table differing from it only in cards no player has seen."""
    table = random_table(data)
    now = 0.0
    for _ in range(data.draw(st.integers(5, 20), label="moves")):
        now += data.draw(st.sampled_from([0.0, 0.5, 2.0, 9.0]), label="time passes")
        with contextlib.suppress(IllegalActionError):
            move(data, table, now)
        other = with_unseen_cards_replaced(table, data)
        for viewer in (None, *PEOPLE):
            assert page(other, viewer) == page(table, viewer)


def test_the_story_names_a_holder_who_left_during_the_round() -> None:
    # Ann's 18 (10♠ 8♦) against the 9♥; she leaves: auto-play stands, the seat is freed
    # when the round ends. Bob, watching, still reads whose hand it was.
    table = seated(
        LiveTable.new(DELUXE, now=0.0, shoe=Shoe.stacked("10s 9h 8d 7c 10h 5s")), (ANN, 3)
    )
    table.buy_in(BOB, 500, now=0.0)
    table.bet(ANN, 3, 10, now=1.0)
    table.leave(ANN, 3, now=2.0)
    assert 3 not in table.holders
    view, _html = page(table, BOB)
    assert [line.text for line in view.events if line.text.startswith("Seat 3")] == [
        "Seat 3 (ann): Stand.",
        "Seat 3 (ann): Win, \u2066+10\u2069.",
    ]


SAME_BET = "Your two seats always carry the same bet"


def test_the_same_bet_rule_is_said_once_under_the_seats_offered_as_ones_second() -> None:
    table = seated(LiveTable.new(DELUXE, now=0.0), (ANN, 3))
    table.buy_in(BOB, 500, now=0.0)
    view, html = page(table, ANN)
    assert view.same_bet_seat == 1 and html.count(SAME_BET) == 1
    seats = html.split('data-testid="seat-1"')[1].split("</ol>")
    assert 'data-op="sit"' in seats[0] and SAME_BET in seats[1].split("</div>")[0]
    _view, html = page(table, BOB)  # a first seat: no rule to explain
    assert SAME_BET not in html and 'data-op="sit"' in html
    table.sit(ANN, 5, now=0.0)  # two seats held: none is offered, nor the rule
    view, html = page(table, ANN)
    assert view.same_bet_seat is None and SAME_BET not in html


def test_a_new_tables_page_says_its_countdown_starts_at_the_first_bet() -> None:
    table = seated(LiveTable.new(DELUXE, now=0.0), (ANN, 3))
    view, html = page(table, ANN)
    assert view.seconds_left is None and "The countdown starts at the first bet." in html
    table.buy_in(BOB, 500, now=0.0)
    table.bet_behind(BOB, 3, 20, now=0.0)
    view, html = page(table, ANN)
    assert view.seconds_left == 15 and 'data-seconds-left="15"' in html


def test_a_seat_kept_without_a_bet_is_told_on_the_page() -> None:
    # Ann and Bob play a round (both stand on 20 and 19 against 17); in the next window
    # only Bob bets, so at its close Ann's seat is kept for the round Bob plays alone.
    table = seated(
        LiveTable.new(DELUXE, now=0.0, shoe=Shoe.stacked("10s 10d 7c 10h 9c 10c 9s 7d 10h 10d")),
        (ANN, 3),
        (BOB, 5),
    )
    table.bet(ANN, 3, 10, now=1.0)
    table.bet(BOB, 5, 10, now=1.0)
    table.act(ANN, "stand", now=2.0)
    table.act(BOB, "stand", now=2.0)
    table.bet(BOB, 5, 10, now=8.0)
    table.advance(table.deadline)
    view, html = page(table, ANN)
    kept = [line for line in view.notices if "seat 3" in line.lower() and "kept" in line]
    assert len(kept) == 1 and kept[0] in html
    assert not any("freed" in line for line in view.notices)


def test_a_round_paused_by_a_fault_says_so_and_offers_no_decision() -> None:
    # The stacked shoe runs out when Ann hits her 11: the round pauses, her turn with it.
    table = seated(LiveTable.new(DELUXE, now=0.0, shoe=Shoe.stacked("5s 9h 6d 7c")), (ANN, 3))
    table.bet(ANN, 3, 10, now=1.0)
    assert page(table, ANN)[0].actions  # her decision, before the fault
    table.act(ANN, "hit", now=2.0)
    view, html = page(table, ANN)
    assert view.actions == () and view.decision is None and view.turn is None
    assert "paused" in view.stage_label.lower()
    grace = f"{FAULT_GRACE_SECONDS:g} seconds"
    paused = [line for line in view.notices if "paused" in line and grace in line]
    assert len(paused) == 1 and paused[0] in html
