"""Counting mode at the practice table (issue 27): the count carried from round to round is
exactly the count of the cards a player saw; the table asks for it at each shoe's end and
at random moments, and deals again only once it is given; each bet is graded against the
ramp at the true count it was made at."""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime
from fractions import Fraction

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import hard_bot
from engine.cards import CARDS
from engine.counting.index_store import IndexRequest
from engine.counting.risk import parse_ramp
from engine.counting.systems import HI_LO
from engine.counting.true_count import DEFAULT_METHOD, true_count
from engine.counting.your_game import advantage_key
from engine.rules import DELUXE, EUROPEAN, Rules
from engine.shoe import Shoe
from engine.table import Table
from tests.counting_tables import store_index_table
from tests.trainer.practice.test_practice_views import send, table_url
from trainer.models import CountCheck, Drill, PracticeRound, PracticeSession
from trainer.practice import counting
from trainer.practice.counting import CountingMode
from trainer.shared.analyses import DatabaseStore

pytestmark = pytest.mark.database  # run on PostgreSQL too: row locks, JSON state

RAMP = parse_ramp("1:2, 2:4, 3:8", below=1)
# You 10s 9h = 19 against the 6d (hole 10c: 16); standing, the dealer draws 8s and busts.
# The cards seen count Hi-Lo -1 +0 +1 -1 -1 +0 (10s 6d 9h 10c 8s): -2 ... then the next.
NINETEEN_V_SIX = "10s 6d 9h 10c 8s " + "9c 9d 2c 3c 4c 5c 6c 7c 8c " * 3


def seen_by_the_player(table: Table) -> Fraction:
    """The Hi-Lo count of every card dealt since the shuffle but the burned ones face down
    and a hole card not yet turned (read from the shoe: what the page never sees)."""
    shoe = table.shoe
    unseen = set(range(1, shoe.burned))
    codes = [code for i, code in enumerate(shoe.cards[: shoe.position]) if i not in unseen]
    return HI_LO.running_count([CARDS[code] for code in codes])


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), rules=st.sampled_from([EUROPEAN, DELUXE]))
def test_the_count_carried_is_the_count_of_every_card_the_player_saw(
    seed: int, rules: Rules
) -> None:
    table = Table.new(rules, shoe=Shoe.for_rules(rules, random.Random(seed)))
    mode = CountingMode.start(rules, system="hi-lo", method=DEFAULT_METHOD, ramp=RAMP)
    play = hard_bot(rules)
    shuffles = 0
    for number in range(1, 90):
        table.deal(table.limits.minimum)
        while table.players_turn:
            public = table.public()
            assert table.round is not None
            dealer = table.round.dealer.cards
            assert mode.now(public)[0] == seen_by_the_player(table) - (
                HI_LO.tag(CARDS[dealer[1]]) if None in public.dealer else 0
            )
            table.act(play(table.view()))
        public = table.public()
        mode = mode.after_round(public, number, datetime.now(UTC))
        assert mode.count.running == seen_by_the_player(table)
        if public.cut_card_out:
            shuffles += 1
            assert mode.question is not None and mode.question.reason == "shuffle"
            assert mode.question.true_count == true_count(
                mode.count.running, public.cards_left, DEFAULT_METHOD
            )
        mode = CountingMode.from_json(mode.to_json(), rules)  # as the session keeps it
        mode = CountingMode(mode.method, mode.ramp, mode.count)  # answered
    assert shuffles >= 1


@pytest.fixture
def always_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counting, "_RNG", random.Random(0))
    monkeypatch.setattr(counting, "ASK_ONE_IN", 1)


def sit_down_counting(client: Client, shoe: str, ramp: str = "1:2, 2:4, 3:8") -> PracticeSession:
    data = {
        "rules": "european", "bankroll": "1000", "shoe": shoe, "seat_1": "you",
        "counting": "on", "counting_system": "hi-lo", "counting_ramp": ramp,
    }  # fmt: skip
    for seat in range(2, 8):
        data[f"seat_{seat}"] = ""
    assert client.post("/practice/", data).status_code == 302
    session = PracticeSession.objects.get()
    assert session.counting is not None
    return session


@pytest.mark.django_db
def test_a_count_is_asked_before_the_next_deal_and_graded(
    client: Client, always_asks: None
) -> None:
    session = sit_down_counting(client, NINETEEN_V_SIX)
    send(client, session, "deal")
    played = send(client, session, "act", action="stand", seen=0).content.decode()
    said = played[played.index('id="announcement"') :]
    assert "The table asks: what is the count?" in said[: said.index("</div>")]
    page = client.get(table_url(session)).content.decode()
    assert 'data-testid="count-question"' in page and 'data-testid="the-count"' not in page
    assert 'data-testid="indices-pending"' in page  # no European Hi-Lo table stored here
    refused = send(client, session, "deal")
    assert "Give the count the table asked for first." in refused.content.decode()
    assert PracticeRound.objects.count() == 1
    # Seen: 10s 6d 9h 10c 8s: -1 +1 0 -1 0 = -1, with 52 - 5 = 47 cards left (1 deck).
    answer = send(client, session, "count", running="-1", true_count="-2")
    assert answer.status_code == 200
    check = CountCheck.objects.get()
    assert (check.running, check.true_count, check.reason) == ("-1", -2, "random")
    assert (check.running_answer, check.true_answer) == ("-1", -2)
    shown = answer.content.decode()
    assert 'data-testid="count-grade"' in shown
    said = shown[shown.index('id="announcement"') :]
    assert "Right: the running count is" in said[: said.index("</div>")]
    send(client, session, "deal")
    assert PracticeRound.objects.count() == 2


@pytest.mark.django_db
def test_a_wrong_count_is_told_with_the_right_one(client: Client, always_asks: None) -> None:
    session = sit_down_counting(client, NINETEEN_V_SIX)
    send(client, session, "deal")
    send(client, session, "act", action="stand")
    shown = send(client, session, "count", running="2", true_count="1").content.decode()
    assert "you said" in shown and "feedback--wrong" in shown


@pytest.mark.django_db
def test_a_count_not_asked_or_not_a_number_is_refused(client: Client) -> None:
    session = sit_down_counting(client, NINETEEN_V_SIX)
    refused = send(client, session, "count", running="1", true_count="1").content.decode()
    assert "The table has not asked for the count." in refused
    bad = send(client, session, "count", running="many", true_count="1").content.decode()
    assert "Type the running count and the true count as numbers." in bad
    assert not CountCheck.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("chips", "right"), [(20, True), (10, False)])
def test_each_bet_is_graded_against_the_ramp_at_its_true_count(
    client: Client, always_asks: None, chips: int, right: bool
) -> None:
    """A fresh shoe's true count is 0: below the ramp, one unit (the table minimum, 10)."""
    session = sit_down_counting(client, NINETEEN_V_SIX, ramp="0:2, 2:4")
    if chips == 20:  # the bet starts at the table minimum, 10
        send(client, session, "chip", chip=10)
    send(client, session, "deal")
    record = PracticeRound.objects.get()
    assert (record.true_count, record.ramp_bet, record.bet) == (0, 20, chips)
    send(client, session, "act", action="stand")
    grade = client.get(table_url(session)).content.decode()
    assert ("is your ramp's" in grade) is right and ("your ramp bets 20" in grade) is not right


@pytest.mark.django_db
def test_a_table_without_counting_mode_asks_nothing_and_shows_no_count(client: Client) -> None:
    data = {"rules": "european", "bankroll": "1000", "shoe": NINETEEN_V_SIX, "seat_1": "you"}
    client.post("/practice/", {**data, **{f"seat_{seat}": "" for seat in range(2, 8)}})
    session = PracticeSession.objects.get()
    assert session.counting is None
    send(client, session, "deal")
    send(client, session, "act", action="stand")
    page = client.get(table_url(session)).content.decode()
    assert 'data-testid="counting"' not in page
    assert PracticeRound.objects.get().ramp_bet is None


@pytest.mark.django_db
def test_a_ramp_that_is_not_one_is_refused_at_the_start(client: Client) -> None:
    data = {
        "rules": "european", "bankroll": "1000", "seat_1": "you", "counting": "on",
        "counting_system": "hi-lo", "counting_ramp": "2:4, 1:8",
    }  # fmt: skip
    answer = client.post("/practice/", data)
    assert answer.status_code == 400 and not PracticeSession.objects.exists()


@pytest.mark.django_db
def test_the_summary_counts_the_counts_and_the_bets(client: Client, always_asks: None) -> None:
    session = sit_down_counting(client, NINETEEN_V_SIX, ramp="0:3")
    send(client, session, "deal")  # 10 chips where the ramp bets 3 units, 30: 2 units off
    send(client, session, "act", action="stand")
    send(client, session, "count", running="-1", true_count="0")  # the true count is -2
    summary = client.get(f"{table_url(session)}summary/").content.decode()
    figures = summary[summary.index('data-testid="counting-summary"') :]
    figures = figures[: figures.index("</dl>")]
    cells = [cell.strip() for cell in re.findall(r"<dd>(.*?)</dd>", figures, re.S)]
    assert cells[0] == "1" and cells[1].startswith("100") and cells[2].startswith("0")
    assert cells[3] == "2.00" and cells[4].startswith("0") and cells[5] == "2"


# You 10s 6h = 16 against the 10d (hole 7c: 17): the chart hits; from a true count of
# about 0 the index table stands.
SIXTEEN_V_TEN = "10s 10d 6h 7c 2c 9s 9h 9d " + "4c 5c 6c 7c " * 4


def sit_down_american(client: Client) -> PracticeSession:
    data = {
        "rules": "american", "bankroll": "1000", "shoe": SIXTEEN_V_TEN, "seat_1": "you",
        "counting": "on", "counting_system": "hi-lo", "counting_ramp": "1:2",
        **{f"seat_{seat}": "" for seat in range(2, 8)},
    }  # fmt: skip
    assert client.post("/practice/", data).status_code == 302
    return PracticeSession.objects.get()


@pytest.mark.django_db
@pytest.mark.parametrize(("true", "right", "deviation"), [(3, "stand", True), (-3, "hit", False)])
def test_a_play_the_count_changes_is_graded_against_the_index_play(
    client: Client, monkeypatch: pytest.MonkeyPatch, true: int, right: str, deviation: bool
) -> None:
    table = store_index_table()
    (entry,) = [e for e in table["indices"] if (e["row"], e["up"]) == ("hard 16", "10")]
    assert entry["play"] == "stand" and -3 < entry["index"] <= 3
    monkeypatch.setattr(CountingMode, "now", lambda self, shown: (Fraction(true), true))
    session = sit_down_american(client)
    send(client, session, "deal")
    send(client, session, "act", action="stand")
    decision = Drill.objects.get()
    assert (decision.correct_action, decision.deviation) == (right, deviation)
    assert decision.is_correct is (right == "stand")
    if not decision.is_correct:
        assert decision.ev_lost is not None and decision.ev_lost > 0
    summary = client.get(f"{table_url(session)}summary/").content.decode()
    assert "Deviations the count called for" in summary
    assert 'data-testid="indices-pending"' not in client.get(table_url(session)).content.decode()


@pytest.mark.django_db
def test_without_its_index_table_every_play_is_graded_by_the_chart(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(CountingMode, "now", lambda self, shown: (Fraction(3), 3))
    session = sit_down_american(client)
    send(client, session, "deal")
    send(client, session, "act", action="stand")
    decision = Drill.objects.get()
    assert (decision.correct_action, decision.deviation) == ("hit", False)


@pytest.mark.django_db
@pytest.mark.parametrize(("line", "shown"), [(None, "—"), ({-1: 0.0, 0: 0.01, 1: 0.02}, "0.20")])
def test_the_summary_says_what_bets_under_the_ramp_gave_up_once_the_game_is_simulated(
    client: Client, always_asks: None, line: dict[int, float] | None, shown: str
) -> None:
    """The ramp bets 3 units (30 chips) at the fresh shoe's true count of 0, where the
    simulated advantage is 1% a unit: betting 10 gives up 20 × 0.01 = 0.20 chips."""
    if line is not None:
        key = advantage_key(IndexRequest(EUROPEAN, HI_LO, DEFAULT_METHOD))
        stored = {str(tc): {"rounds": 1000, "advantage": edge} for tc, edge in line.items()}
        DatabaseStore().put(key, json.dumps(stored).encode())
    session = sit_down_counting(client, NINETEEN_V_SIX, ramp="0:3")
    send(client, session, "deal")
    send(client, session, "act", action="stand")
    summary = client.get(f"{table_url(session)}summary/").content.decode()
    found = re.search(r'data-testid="bets-lost">([^<]*)<', summary)
    assert found is not None and found[1] == shown


@pytest.mark.django_db
@pytest.mark.parametrize(("true", "hint"), [(3, "Hint: Stand"), (-3, "Hint: Hit")])
def test_a_hint_at_a_counting_table_is_the_play_the_count_grades_right(
    client: Client, monkeypatch: pytest.MonkeyPatch, true: int, hint: str
) -> None:
    store_index_table()
    monkeypatch.setattr(CountingMode, "now", lambda self, shown: (Fraction(true), true))
    data = {
        "rules": "american", "bankroll": "1000", "shoe": SIXTEEN_V_TEN, "seat_1": "you",
        "hints": "on", "counting": "on", "counting_system": "hi-lo", "counting_ramp": "1:2",
        **{f"seat_{seat}": "" for seat in range(2, 8)},
    }  # fmt: skip
    client.post("/practice/", data)
    session = PracticeSession.objects.get()
    page = send(client, session, "deal").content.decode()
    found = re.search(r'data-testid="hint">([^<]*)<', page)
    assert found is not None and found[1] == hint
