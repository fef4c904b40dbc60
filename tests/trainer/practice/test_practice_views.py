"""The practice table through its pages (issue 5, "Practice rounds").

Every round is dealt from a stacked shoe (trainer.test_settings turns the start form's
``shoe`` field on). With the player alone in seat 1 the deal goes: your first card, the
dealer's up card, your second card, the hole card; then your hits, then the dealer's draws
(RULES.md "Dealing order"). European rules: no peek, the dealer stands on every 17. Every
expected figure below is worked out by hand from that order (a comment says how).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from pytest_django import DjangoAssertNumQueries
from pytest_django.asserts import assertRedirects

from engine.bots import hard_bot
from engine.strategy import strategy_for
from trainer.models import Drill, PracticeRound, PracticeSession
from trainer.practice import selectors
from trainer.practice.pages import TableView
from trainer.practice.summary import SessionSummary
from trainer.shared.bidi import LRI, PDI

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

pytestmark = pytest.mark.django_db

START = "/practice/"
HTMX = {"HX-Request": "true"}
PASSWORD = "a-long-pass-phrase-7"

# You 9c 7c = 16 against the 7s (hole Qd: the dealer has 17). Hard 16 v 7 is a hit; the
# hit draws 4c for 20, you stand, the dealer stands on 17: +10. Jc 3h 2s are never dealt.
HIT_THEN_STAND = "9c 7s 7c Qd 4c Jc 3h 2s"
# You 10s 6h = 16 against the 10d (hole 7c: 17). Hard 16 v 10 is a hit. Standing loses
# to 17 (-10); hitting draws 2c for 18, and standing on 18 beats 17 (+10).
SIXTEEN_V_TEN = "10s 10d 6h 7c 2c 9s 9h 9d"
# You 5s 3h = 8 against the 10d (hole 7c: 17); a hit draws 2d for 10.
EIGHT_V_TEN = "5s 10d 3h 7c 2d 9s 9c 9d"
# You 10s 9h = 19 against the 6d (hole 10c: 16); standing, the dealer draws 8s and busts.
NINETEEN_V_SIX = "10s 6d 9h 10c 8s 9c 9d 2c"
# You 6s 5h = 11 against the 10d (hole 7c). Without a peek a dealer natural would take a
# doubled bet too, so the hard tier hits 11 v 10 where the common chart doubles.
ELEVEN_V_TEN = "6s 10d 5h 7c 9s 9c 9d 2c"


# Helpers ---------------------------------------------------------------------------------


def start(
    client: Client,
    shoe: str,
    *,
    seats: dict[int, str] | None = None,
    bankroll: int = 1000,
    hints: bool = False,
    coach: bool = False,
) -> PracticeSession:
    """Sit down through the start form (European) with a stacked shoe."""
    data = {"rules": "european", "bankroll": str(bankroll), "shoe": shoe}
    for seat, tier in (seats or {1: "you"}).items():
        data[f"seat_{seat}"] = tier
    if hints:
        data["hints"] = "on"
    if coach:
        data["coach"] = "on"
    response = client.post(START, data)
    session = PracticeSession.objects.order_by("-pk").first()
    assert session is not None
    assertRedirects(response, table_url(session), fetch_redirect_response=False)
    return session


def table_url(session: PracticeSession) -> str:
    return f"/practice/{session.pk}/"


def current_version(session: PracticeSession) -> int:
    return PracticeSession.objects.get(pk=session.pk).version


def send(
    client: Client,
    session: PracticeSession,
    op: str,
    extra: Mapping[str, str | int] | None = None,
    /,
    *,
    htmx: bool = True,
    version: int | None = None,
    **fields: str | int,
) -> Response:
    """A request at the table, made from the current version unless one is given."""
    data: dict[str, str | int] = {
        "op": op,
        "version": current_version(session) if version is None else version,
        **(extra or {}),
        **fields,
    }
    return client.post(table_url(session), data, headers=HTMX if htmx else {})


def ok(response: Response) -> None:
    """A request the table took: the partial (HTMX) or a redirect to the table (no JS)."""
    assert response.status_code in (200, 302), response.status_code
    if response.status_code == 200:
        assert alert(response) is None, alert(response)


def alert(response: Response) -> str | None:
    """The table's error message, if the page shows one."""
    found = re.search(r'<p class="drill__error" role="alert">(.*?)</p>', text(response), re.S)
    return html.unescape(found.group(1)).strip() if found else None


def text(response: Response) -> str:
    return response.content.decode()


def words(response: Response) -> str:
    """The page's text as read: no tags, whitespace collapsed, no invisible bidi marks."""
    plain = html.unescape(re.sub(r"<[^>]+>", " ", text(response)))
    return re.sub(r"\s+", " ", plain.replace(LRI, "").replace(PDI, ""))


def is_partial(response: Response) -> bool:
    """The ``#table`` partial alone (an HTMX swap), not a whole page."""
    body = text(response).strip()
    return body.startswith('<section id="table"') and "<html" not in body


def card_labels(response: Response) -> list[str]:
    """The cards on the felt in page order, by their screen-reader names."""
    felt = re.search(r'<div class="felt felt--table">(.*?)</ol>\s*</div>', text(response), re.S)
    assert felt is not None
    return re.findall(r'role="img" aria-label="([^"]+)"', felt.group(1))


def snapshot(session: PracticeSession) -> dict[str, Any]:
    """Everything a request at the table could change, for "nothing changed" checks."""
    fresh = PracticeSession.objects.get(pk=session.pk)
    fields = (
        "state", "version", "balance", "bankroll", "next_bet", "held_action",
        "ended_at", "changed_at", "hints", "coach", "user_id", "guest_token",
    )  # fmt: skip
    return {
        "session": {name: getattr(fresh, name) for name in fields},
        "rounds": list(
            PracticeRound.objects.filter(session=fresh)
            .order_by("number")
            .values("number", "bet", "net", "balance_after", "history")
        ),
        "drills": list(Drill.objects.order_by("pk").values()),
        "sessions": list(PracticeSession.objects.order_by("pk").values("pk", "ended_at")),
    }


def refused(response: Response, *, htmx: bool, message: str) -> None:
    """Refused with ``message``, the current table shown (partial or whole page)."""
    if htmx:
        assert response.status_code == 200
        assert is_partial(response)
    else:
        assert response.status_code == 400
        assert "<!doctype html>" in text(response)
        assert 'id="table"' in text(response)
    shown = alert(response)
    assert shown is not None and message in shown, shown


# A round, recorded as play ---------------------------------------------------------------


@pytest.mark.database
def test_a_round_is_played_and_each_decision_recorded_as_play(client: Client) -> None:
    session = start(client, HIT_THEN_STAND)
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="hit"))
    ok(send(client, session, "act", action="stand"))

    session.refresh_from_db()
    assert session.balance == 1010  # 20 beats the dealer's 17: +10 on a bet of 10
    (record,) = PracticeRound.objects.filter(session=session)
    assert (record.number, record.bet, record.net, record.balance_after) == (1, 10, 10, 1010)
    decisions = Drill.objects.filter(practice_round=record).order_by("pk")
    assert [
        (d.source, d.cards, d.up, d.row, d.up_column, d.action, d.correct_action, d.correct_code)
        for d in decisions
    ] == [
        # Hard 16 v 7 is a hit, hard 20 a stand, in every chart.
        ("play", "9c 7c", "7s", "hard 16", "7", "hit", "hit", "H"),
        ("play", "9c 7c 4c", "7s", "hard 20", "7", "stand", "stand", "S"),
    ]
    owner_token = client.session["guest_owner"]
    assert all(d.guest_token == owner_token and d.user_id is None for d in decisions)
    assert all(d.answered_at is not None and d.ev_lost == 0 for d in decisions)

    # The progress page counts them, in the totals, the practice line and the heat map.
    progress = client.get("/progress/").context["progress"]
    assert (progress.total.answered, progress.total.correct) == (2, 2)
    assert [(str(title), tally.answered) for title, tally in progress.sources] == [
        ("Practice rounds", 2)
    ]
    heat = {heat_row.title: heat_row.cells for heat_row in progress.heat_rows}
    cell = next(cell for cell in heat["Hard 16"] if cell.up == "7")
    assert "Hard 20" in heat  # no drill deals it, but this round's stand was made there
    assert cell.tally is not None and cell.tally.answered == 1 and cell.tally.correct == 1


def test_no_round_number_is_shown_before_the_first_deal(client: Client) -> None:
    session = start(client, NINETEEN_V_SIX)
    page = words(client.get(table_url(session)))
    assert "Round" not in page.split("Practice table")[-1].split("Your chips")[0]
    assert "Round 1" in words(send(client, session, "deal"))


@pytest.mark.parametrize(
    ("shoe", "action", "units"),
    [
        (NINETEEN_V_SIX, "stand", "(+1 unit)"),  # 19 beats the dealer's bust
        (SIXTEEN_V_TEN, "stand", "(-1 unit)"),  # 16 loses to 17
        (ELEVEN_V_TEN, "double", "(+2 units)"),  # 11 + 9s = 20 beats 17, doubled
    ],
    ids=["win", "loss", "doubled-win"],
)
def test_a_hands_result_counts_its_units_in_words(
    client: Client, shoe: str, action: str, units: str
) -> None:
    session = start(client, shoe)
    ok(send(client, session, "deal"))
    page = words(send(client, session, "act", action=action))
    assert units in page


def test_a_natural_is_counted_in_units_and_a_half(client: Client) -> None:
    session = start(client, "As 9d Kh 7c 9s 9c")  # a natural against 9d 7c: 3:2
    page = words(send(client, session, "deal"))
    assert "(+1.5 units)" in page


def test_a_dealer_bust_is_told_in_the_round(client: Client) -> None:
    # You 10s 9h = 19 stand against the 6d; the dealer's 16 (hole 10c) draws 8s: 24.
    session = start(client, NINETEEN_V_SIX)
    ok(send(client, session, "deal"))
    page = words(send(client, session, "act", action="stand"))
    assert "Dealer draws 8♠. The dealer busts with 24." in page
    summary = words(client.get(f"{table_url(session)}summary/"))
    assert "The dealer busts with 24." in summary


def test_a_no_js_request_is_answered_with_a_redirect_to_the_table(client: Client) -> None:
    session = start(client, HIT_THEN_STAND)
    response = send(client, session, "deal", htmx=False)
    assertRedirects(response, table_url(session), fetch_redirect_response=False)
    page = client.get(table_url(session))
    # 9c and 7c for you, the 7s up and the hole card face down.
    assert card_labels(page) == ["Seven of spades", "Face-down card", "Nine of clubs",
                                 "Seven of clubs"]  # fmt: skip


# Versions: replays, other tabs, reloads ---------------------------------------------------


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_replayed_action_changes_nothing_and_shows_the_table_now(
    client: Client, htmx: bool
) -> None:
    session = start(client, SIXTEEN_V_TEN)
    ok(send(client, session, "deal"))
    version = current_version(session)
    ok(send(client, session, "act", htmx=htmx, version=version, action="hit"))
    before = snapshot(session)
    assert before["session"]["version"] == version + 1

    replay = send(client, session, "act", htmx=htmx, version=version, action="hit")

    refused(replay, htmx=htmx, message="moved on")
    assert snapshot(session) == before  # not a second hit, not a second record
    # The table as it is now: your 10s 6h and the 2c the first hit drew, at the new version.
    assert card_labels(replay) == ["Ten of diamonds", "Face-down card", "Ten of spades",
                                   "Six of hearts", "Two of clubs"]  # fmt: skip
    assert f'name="version" value="{version + 1}"' in text(replay)


def test_a_replayed_deal_deals_once(client: Client) -> None:
    session = start(client, HIT_THEN_STAND)
    ok(send(client, session, "deal", version=0))
    before = snapshot(session)
    refused(send(client, session, "deal", version=0), htmx=True, message="moved on")
    assert snapshot(session) == before
    assert PracticeRound.objects.filter(session=session).count() == 1
    assert before["session"]["balance"] == 990  # one bet of 10 taken, not two


@pytest.mark.database
@pytest.mark.django_db(transaction=True)
def test_a_double_click_on_deal_deals_once_and_shows_the_table_to_both(
    together: Callable[[Sequence[Callable[[], Any]]], list[Any]],
) -> None:
    """Two deals sent at once from one page (a double click, Enter pressed twice)."""
    for _ in range(5):  # the race is milliseconds wide: it must show in one run
        client = Client()  # a new visitor each time, with a new table
        session = start(client, HIT_THEN_STAND)
        twin = Client()
        twin.cookies = client.cookies  # the same visitor, on a connection of its own
        deal = {"op": "deal", "version": 0}
        responses = together(
            [partial(c.post, table_url(session), deal, headers=HTMX) for c in (client, twin)]
        )
        assert [getattr(r, "status_code", r) for r in responses] == [200, 200]
        alerts = sorted(str(alert(response)) for response in responses)
        assert alerts[0] == "None" and "moved on" in alerts[1], alerts
        assert PracticeRound.objects.filter(session=session).count() == 1
        assert PracticeSession.objects.get(pk=session.pk).balance == 990


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_shoe_run_out_is_a_message_and_the_table_as_it_was(
    client: Client, htmx: bool, caplog: pytest.LogCaptureFixture
) -> None:
    """A stacked shoe (tests and demos only) too short for the deal: the deal fails inside
    the engine, after the bet is taken. The player is told, nothing is kept, the error is
    logged for the operator."""
    session = start(client, "10s 10d 6h")  # the deal needs four cards
    before = snapshot(session)
    with caplog.at_level("ERROR", logger="trainer.practice.services"):
        response = send(client, session, "deal", htmx=htmx)
    refused(response, htmx=htmx, message="Nothing was changed")
    assert snapshot(session) == before
    assert any("run out of cards" in str(record.exc_info) for record in caplog.records)


@pytest.mark.database
def test_another_tab_sees_the_same_table_and_the_stale_tab_is_refused(client: Client) -> None:
    session = start(client, SIXTEEN_V_TEN)
    ok(send(client, session, "deal"))
    stale = current_version(session)
    other = Client()  # another tab: the same session cookie, so the same guest
    other.cookies[settings.SESSION_COOKIE_NAME] = client.cookies[settings.SESSION_COOKIE_NAME].value

    first, second = client.get(table_url(session)), other.get(table_url(session))
    assert second.status_code == 200
    assert card_labels(second) == card_labels(first) == [
        "Ten of diamonds", "Face-down card", "Ten of spades", "Six of hearts",
    ]  # fmt: skip

    ok(send(other, session, "act", version=stale, action="hit"))  # the other tab hits
    before = snapshot(session)
    late = send(client, session, "act", version=stale, action="stand")
    refused(late, htmx=True, message="moved on")
    assert snapshot(session) == before
    assert "Two of clubs" in card_labels(late)  # this tab now shows the other tab's hit


@pytest.mark.database
def test_a_reload_resumes_the_round_exactly_where_it_was(client: Client) -> None:
    session = start(client, SIXTEEN_V_TEN, hints=True)
    ok(send(client, session, "deal"))
    swapped = send(client, session, "act", action="hit")
    ok(swapped)

    reloaded = client.get(table_url(session))
    browser = Client()  # a browser restarted with its cookie: read back from the database
    browser.cookies[settings.SESSION_COOKIE_NAME] = client.cookies[
        settings.SESSION_COOKIE_NAME
    ].value
    restarted = browser.get(table_url(session))
    for page in (reloaded, restarted):
        assert page.status_code == 200
        assert card_labels(page) == card_labels(swapped)
        # 10s 6h 2c = 18 v 10: the hard tier stands; the next decision is awaited.
        assert "Hint: Stand" in words(page)
        assert f'name="version" value="{current_version(session)}"' in text(page)
        assert 'name="action" value="stand"' in text(page)


# The hole card and the shoe stay on the server ---------------------------------------------

#: Cards as the app writes them: (text code, rank, suit symbol, name for screen readers).
FACES = {
    "9c": ("9", "♣", "Nine of clubs"),
    "10h": ("10", "♥", "Ten of hearts"),
    "7s": ("7", "♠", "Seven of spades"),
    "7c": ("7", "♣", "Seven of clubs"),
    "8h": ("8", "♥", "Eight of hearts"),
    "Qd": ("Q", "♦", "Queen of diamonds"),
    "4c": ("4", "♣", "Four of clubs"),
    "Jc": ("J", "♣", "Jack of clubs"),
    "3h": ("3", "♥", "Three of hearts"),
    "2s": ("2", "♠", "Two of spades"),
    "Ah": ("A", "♥", "Ace of hearts"),
}
#: What the serialised table would show if it leaked: its words, and its JSON keys (raw or
#: HTML-escaped).
STATE_WORDS = ("shoe", "position", "stacked_order", "needs_shuffle", "hole_card")
STATE_KEYS = re.compile(r'(?:"|&quot;|&#x27;|\')(?:cards|log|dealer|seats|balances|turn)'
                        r'(?:"|&quot;|&#x27;|\')\s*:')  # fmt: skip


def leaks(body: str, hidden: list[str]) -> list[str]:
    """Every way ``body`` shows one of the ``hidden`` cards, or the table's state."""
    # Under the test settings the start page has a "Stacked shoe (test mode)" field: it is
    # left out of the scan, once it is seen to be empty.
    field = re.search(r'<p><label for="id_shoe">.*?</p>', body)
    if field is not None:
        assert "value=" not in field.group()
        body = body.replace(field.group(), "")
    found = []
    for code in hidden:
        rank, symbol, name = FACES[code]
        forms = [f"{rank}{symbol}", f"{rank}<br>{symbol}", name, name.lower()]
        found += [form for form in forms if form in body]
        if re.search(rf"(?<![\w-]){code}(?![\w-])", body):
            found.append(code)
    lowered = body.lower()
    found += [word for word in STATE_WORDS if word in lowered]
    found += STATE_KEYS.findall(body)
    return found


def test_no_response_shows_the_hole_card_or_the_shoe_before_its_time(client: Client) -> None:
    # You in seat 1 beside an easy bot in seat 2, hints on. Deal: you 9c, bot 10h, up 7s,
    # you 7c, bot 8h, hole Qd. You hit 16 (4c: 20) and stand; the bot stands on 18; the
    # dealer turns the Qd for 17 and stands. Jc 3h 2s Ah are never dealt.
    shoe = "9c 10h 7s 7c 8h Qd 4c Jc 3h 2s Ah"
    session = start(client, shoe, seats={1: "you", 2: "easy"}, hints=True)
    undealt = ["Jc", "3h", "2s", "Ah"]
    summary = f"{table_url(session)}summary/"
    scanned = 0

    def scan(response: Response, hidden: list[str]) -> None:
        nonlocal scanned
        assert response.status_code in (200, 302, 400)
        assert leaks(text(response), hidden) == [], response.request["PATH_INFO"]
        scanned += 1

    everything = shoe.split()
    for url in (table_url(session), summary, START, "/progress/"):
        scan(client.get(url), everything)

    hidden = ["Qd", "4c", *undealt]  # once dealt: the hole card, the hit card, the rest
    deal = send(client, session, "deal")
    scan(deal, hidden)
    assert card_labels(deal) == [
        "Seven of spades", "Face-down card",
        "Ten of hearts", "Eight of hearts",  # the bot, in the strip of the other seats
        "Nine of clubs", "Seven of clubs",  # you, beneath it
    ]  # fmt: skip
    # The up card's score alone, the hole card's unknown.
    assert re.search(r'<h2 class="felt__label">Dealer <span[^>]*>· 7</span></h2>', text(deal))
    for url in (table_url(session), summary, START, "/progress/"):
        scan(client.get(url), hidden)
    scan(client.post(f"{table_url(session)}options/", {"hints": "on"}, headers=HTMX), hidden)
    scan(send(client, session, "act", action="double", htmx=False, version=0), hidden)  # stale
    scan(send(client, session, "act", action="split"), hidden)  # not a pair: refused

    hidden = ["Qd", *undealt]
    hit = send(client, session, "act", action="hit")
    scan(hit, hidden)
    assert "Four of clubs" in card_labels(hit)
    for url in (table_url(session), summary):
        scan(client.get(url), hidden)

    stand = send(client, session, "act", action="stand")
    scan(stand, undealt)  # the hole card is turned now; the rest of the shoe stays hidden
    # The scan looks for the forms the page really uses: here they are, once turned.
    assert "Queen of diamonds" in text(stand) and "Q♦" in text(stand)
    assert re.search(r'<h2 class="felt__label">Dealer <span[^>]*>· 17</span></h2>', text(stand))
    for url in (table_url(session), summary, START, "/progress/"):
        scan(client.get(url), undealt)
    scan(send(client, session, "end"), undealt)
    scan(client.get(summary), undealt)
    assert scanned == 22


# Illegal and out-of-turn actions: a clear message, nothing changed ------------------------


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_double_after_a_hit_is_refused(client: Client, htmx: bool) -> None:
    session = start(client, EIGHT_V_TEN)
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="hit"))  # 5s 3h 2d: three cards, no double
    before = snapshot(session)
    response = send(client, session, "act", htmx=htmx, action="double")
    refused(response, htmx=htmx, message="Not allowed: You cannot double here.")
    assert snapshot(session) == before
    assert 'name="action" value="double"' not in text(response)


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_split_of_a_non_pair_is_refused(client: Client, htmx: bool) -> None:
    session = start(client, NINETEEN_V_SIX)
    ok(send(client, session, "deal"))
    before = snapshot(session)
    refused(
        send(client, session, "act", htmx=htmx, action="split"),
        htmx=htmx,
        message="Not allowed: You cannot split here.",
    )
    assert snapshot(session) == before  # not even recorded as a decision


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_acting_before_any_deal_is_refused(client: Client, htmx: bool) -> None:
    session = start(client, NINETEEN_V_SIX)
    before = snapshot(session)
    refused(
        send(client, session, "act", htmx=htmx, action="hit"),
        htmx=htmx,
        message="No round is in play: place a bet and deal.",
    )
    assert snapshot(session) == before


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_acting_on_a_hand_already_stood_on_is_refused(client: Client, htmx: bool) -> None:
    # Standing on 19 ends your part; the dealer (16) then draws 8s and busts, all in that
    # one request, so the dealer's turn is over before any request can reach it.
    session = start(client, NINETEEN_V_SIX)
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="stand"))
    before = snapshot(session)
    assert before["session"]["balance"] == 1010
    for action in ("hit", "stand", "double"):
        refused(
            send(client, session, "act", htmx=htmx, action=action),
            htmx=htmx,
            message="No round is in play: place a bet and deal.",
        )
    assert snapshot(session) == before


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"action": "fly"}, "Select a valid choice."),
        ({}, "Choose an action."),
        ({"action": "insure"}, "Not allowed"),  # European rules offer no insurance
        ({"action": "surrender"}, "Not allowed"),  # nor surrender
    ],
    ids=["unknown", "missing", "insure", "surrender"],
)
def test_an_action_the_table_does_not_offer_is_refused(
    client: Client, fields: dict[str, str], message: str
) -> None:
    session = start(client, NINETEEN_V_SIX)
    ok(send(client, session, "deal"))
    before = snapshot(session)
    refused(send(client, session, "act", fields), htmx=True, message=message)
    assert snapshot(session) == before


def test_taking_back_with_nothing_held_is_refused(client: Client) -> None:
    session = start(client, NINETEEN_V_SIX)
    ok(send(client, session, "deal"))
    before = snapshot(session)
    refused(send(client, session, "take_back"), htmx=True, message="no decision to take back")
    assert snapshot(session) == before


def test_a_pair_that_can_no_longer_be_split_is_graded_as_its_total() -> None:
    # You 2c 2d against the 9d (hole 8c). Splitting three times reaches the four-hand limit:
    # [2c 2d] → hand 1 gets 2h → split → it gets 2s → split → it gets 2c: 2c 2c, with four
    # hands. No fifth hand, so this "pair" is a hard 4 to hit, stand or double on; the hit
    # is the play (4 cannot bust, and nothing is lower). Plenty of chips: 1000.
    client = Client(raise_request_exception=False)
    session = start(client, "2c 9d 2d 8c 2h 2s 2c 10h 10s 10c 10d 10h 10s 10c")
    ok(send(client, session, "deal"))
    for _ in range(3):
        ok(send(client, session, "act", action="split"))
    page = client.get(table_url(session))
    assert 'name="action" value="split"' not in text(page)
    assert 'name="action" value="hit"' in text(page)

    response = send(client, session, "act", action="hit")

    assert response.status_code == 200, response.status_code
    ok(response)
    decision = Drill.objects.filter(practice_round__session=session).order_by("-pk")[0]
    assert (decision.cards, decision.up, decision.action) == ("2c 2c", "9d", "hit")
    assert decision.correct_action == "hit"


def test_a_pair_of_aces_without_the_chips_to_split_is_graded_as_soft_12() -> None:
    # Bankroll 500, all of it bet: you As Ah against the 10d (hole 7c) with nothing left to
    # split or double with, so hit and stand are the choices; soft 12 is a hit. The 9c
    # makes soft 21, which stands; the dealer's 17 loses: +500.
    client = Client(raise_request_exception=False)
    session = start(client, "As 10d Ah 7c 9c 9s 9h", bankroll=500)
    ok(send(client, session, "clear"))
    ok(send(client, session, "chip", chip=500))
    dealt = send(client, session, "deal")
    assert re.findall(r'name="action" value="(\w+)"', text(dealt)) == ["hit", "stand"]

    response = send(client, session, "act", action="hit")

    assert response.status_code == 200, response.status_code
    ok(response)
    decision = Drill.objects.get(practice_round__session=session)
    assert (decision.cards, decision.action, decision.correct_action) == ("As Ah", "hit", "hit")
    session.refresh_from_db()
    assert session.balance == 1000


def test_out_of_chips_there_is_no_deal_but_the_session_can_end(client: Client) -> None:
    # Bankroll 500, all of it on 10s 6h against the 10d (hole 7c); standing loses to 17.
    session = start(client, SIXTEEN_V_TEN, bankroll=500)
    ok(send(client, session, "clear"))
    ok(send(client, session, "chip", chip=500))
    ok(send(client, session, "deal"))
    response = send(client, session, "act", action="stand")
    assert "You are out of chips for this table." in words(response)
    session.refresh_from_db()
    assert (session.balance, session.next_bet) == (0, 0)
    before = snapshot(session)
    refused(send(client, session, "deal"), htmx=True, message="Not allowed:")
    refused(send(client, session, "chip", chip=10), htmx=True, message="more than your balance")
    assert snapshot(session) == before
    assert send(client, session, "end")["HX-Redirect"] == f"{table_url(session)}summary/"


# Bets ------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_deal_without_a_bet_is_refused(client: Client, htmx: bool) -> None:
    session = start(client, NINETEEN_V_SIX)
    ok(send(client, session, "clear"))
    before = snapshot(session)
    assert before["session"]["next_bet"] == 0
    response = send(client, session, "deal", htmx=htmx)
    refused(response, htmx=htmx, message="Not allowed:")
    assert snapshot(session) == before
    assert re.search(r'value="deal" data-next\s+disabled', text(response))  # no bet: no deal


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_chip_past_the_table_maximum_brings_the_bet_to_the_maximum(
    client: Client, htmx: bool
) -> None:
    session = start(client, NINETEEN_V_SIX)  # the next bet starts at the minimum, 10
    response = send(client, session, "chip", htmx=htmx, chip=500)  # 510 > 500
    ok(response)
    assert PracticeSession.objects.get(pk=session.pk).next_bet == 500
    page = words(response if htmx else client.get(table_url(session)))
    assert re.search(r"Your bet: 500 ?, the table maximum", page), page

    before = snapshot(session)  # at the maximum already: a chip more is refused
    response = send(client, session, "chip", htmx=htmx, chip=10)
    refused(response, htmx=htmx, message="The table maximum is 500 chips.")
    assert snapshot(session) == before


@pytest.mark.parametrize("chip", [5, 20, 1000])
def test_there_are_no_other_chips(client: Client, chip: int) -> None:
    session = start(client, NINETEEN_V_SIX)
    before = snapshot(session)
    refused(send(client, session, "chip", chip=chip), htmx=True, message="no such chip")
    assert snapshot(session) == before


def test_bets_are_closed_during_a_round(client: Client) -> None:
    session = start(client, NINETEEN_V_SIX)
    ok(send(client, session, "deal"))
    before = snapshot(session)
    for op, fields in (("chip", {"chip": 10}), ("clear", {})):
        refused(send(client, session, op, fields), htmx=True, message="Bets are closed")
    assert snapshot(session) == before


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_bet_above_the_balance_is_refused(client: Client, htmx: bool) -> None:
    # Bankroll 500, a bet of 300 on 10s 2h = 12 against the 10d (hole Kc: 20). Standing
    # loses: 200 left, and the next bet of 300 comes down to the 200 the balance allows.
    session = start(client, "10s 10d 2h Kc 9s 9c 9d 2c", bankroll=500)
    ok(send(client, session, "clear"))
    for _ in range(3):
        ok(send(client, session, "chip", chip=100))
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="stand"))
    session.refresh_from_db()
    assert (session.balance, session.next_bet) == (200, 200)

    before = snapshot(session)
    response = send(client, session, "chip", htmx=htmx, chip=10)  # 210 > 200
    refused(response, htmx=htmx, message="That bet is more than your balance.")
    assert snapshot(session) == before


def test_a_deal_above_the_balance_is_refused_even_if_the_bet_got_there(client: Client) -> None:
    # Not reachable through the chips (above); the engine's own check still holds.
    session = start(client, NINETEEN_V_SIX, bankroll=500)
    PracticeSession.objects.filter(pk=session.pk).update(next_bet=510)
    before = snapshot(session)
    refused(send(client, session, "deal"), htmx=True, message="Not allowed:")
    assert snapshot(session) == before


@pytest.mark.parametrize("op", ["transfer", "withdraw", "deposit", "balance"])
def test_chips_cannot_be_withdrawn_or_transferred(client: Client, op: str) -> None:
    session = start(client, NINETEEN_V_SIX)
    before = snapshot(session)
    response = send(client, session, op, balance=999999, chip=500, to="someone")
    refused(response, htmx=True, message="Select a valid choice.")
    assert snapshot(session) == before


def test_forged_fields_on_a_real_request_are_ignored(client: Client) -> None:
    session = start(client, NINETEEN_V_SIX)
    forged = {"balance": 999999, "bankroll": 999999, "next_bet": 5, "bet": 500, "net": 999}
    ok(send(client, session, "chip", forged, chip=10))  # the next bet: 10 + 10
    ok(send(client, session, "deal", forged))
    session.refresh_from_db()
    (record,) = PracticeRound.objects.filter(session=session)
    assert (record.bet, session.balance, session.bankroll) == (20, 980, 1000)
    ok(send(client, session, "act", forged, action="stand"))  # 19 v 16, the dealer busts
    session.refresh_from_db()
    record.refresh_from_db()
    assert (session.balance, record.net) == (1020, 20)


# Tables that are not yours ---------------------------------------------------------------


def test_a_table_that_does_not_exist_is_a_404(client: Client) -> None:
    session = start(client, NINETEEN_V_SIX)
    before = snapshot(session)
    missing = session.pk + 1000
    assert client.get(f"/practice/{missing}/").status_code == 404
    assert client.post(f"/practice/{missing}/", {"op": "deal", "version": 0}).status_code == 404
    assert client.post(f"/practice/{missing}/options/", {"hints": "on"}).status_code == 404
    assert client.get(f"/practice/{missing}/summary/").status_code == 404
    assert snapshot(session) == before


@pytest.mark.parametrize("intruder", ["guest", "account"])
def test_someone_elses_table_is_a_404_and_stays_as_it_was(client: Client, intruder: str) -> None:
    owner = get_user_model().objects.create_user("ann", password=PASSWORD)
    client.force_login(owner)
    session = start(client, NINETEEN_V_SIX)
    ok(send(client, session, "deal"))
    before = snapshot(session)

    other = Client()
    if intruder == "account":
        other.force_login(get_user_model().objects.create_user("bob", password=PASSWORD))
    url = table_url(session)
    assert other.get(url).status_code == 404
    for op, fields in (("act", {"action": "stand"}), ("end", {}), ("chip", {"chip": 10})):
        response = other.post(url, {"op": op, "version": before["session"]["version"], **fields})
        assert response.status_code == 404
    assert other.post(f"{url}options/", {"hints": "on", "coach": "on"}).status_code == 404
    assert other.get(f"{url}summary/").status_code == 404
    after = snapshot(session)
    assert after["session"] == before["session"] and after["rounds"] == before["rounds"]
    assert after["drills"] == before["drills"]


# Coach mode ------------------------------------------------------------------------------


def test_the_coach_holds_a_wrong_play_back_until_it_is_taken_back(client: Client) -> None:
    session = start(client, SIXTEEN_V_TEN, coach=True)
    ok(send(client, session, "deal"))
    dealt = PracticeSession.objects.get(pk=session.pk)

    held = send(client, session, "act", action="stand")  # hard 16 v 10 is a hit
    assert held.status_code == 200
    session.refresh_from_db()
    assert session.state == dealt.state  # not played: the round is as it was dealt
    assert (session.version, session.balance) == (dealt.version + 1, dealt.balance)
    assert session.held_action == "stand"
    mistake = Drill.objects.get(practice_round__session=session)
    assert (mistake.cards, mistake.up, mistake.action, mistake.correct_action) == (
        "10s 6h", "10d", "stand", "hit",
    )  # fmt: skip
    assert mistake.ev_lost is not None and mistake.ev_lost > 0
    page = words(held)
    assert "Stand gives up" in page and "the play is Hit." in page
    assert "Take it back" in page and "Stand anyway" in page
    assert 'name="action" value="hit"' not in text(held)  # no actions until it is decided

    back = send(client, session, "take_back")
    ok(back)
    assert 'name="action" value="hit"' in text(back)  # the same decision, awaited again
    assert card_labels(back) == ["Ten of diamonds", "Face-down card", "Ten of spades",
                                 "Six of hearts"]  # fmt: skip
    ok(send(client, session, "act", action="hit"))  # the right play: 2c, 18

    # The mistake stays on record, marked taken back; the play made instead is graded.
    decisions = Drill.objects.order_by("pk").values_list("action", "correct_action", "taken_back")
    assert list(decisions.all()) == [("stand", "hit", True), ("hit", "hit", False)]
    ok(send(client, session, "act", action="stand"))  # 18 v 10: right, a new decision
    assert list(decisions.all()) == [
        ("stand", "hit", True), ("hit", "hit", False), ("stand", "stand", False),
    ]  # fmt: skip
    session.refresh_from_db()
    assert session.balance == 1010  # 18 beats 17


def test_after_a_take_back_the_coach_checks_the_play_made_instead(client: Client) -> None:
    """Taking back a mistake and making it again is held back again (and recorded again);
    the summary shows the play finally made, graded, and the mistakes taken back as such."""
    session = start(client, SIXTEEN_V_TEN, coach=True)
    ok(send(client, session, "deal"))
    dealt = PracticeSession.objects.get(pk=session.pk).state
    ok(send(client, session, "act", action="stand"))
    ok(send(client, session, "take_back"))
    again = send(client, session, "act", action="stand")
    assert "Stand gives up" in words(again) and "Take it back" in words(again)
    assert PracticeSession.objects.get(pk=session.pk).state == dealt  # still not played
    ok(send(client, session, "take_back"))
    ok(send(client, session, "act", action="hit"))  # 2c: 18
    ok(send(client, session, "act", action="stand"))  # 18 beats 17: +10

    response = client.get(f"{table_url(session)}summary/")
    totals = response.context["summary"].totals
    # Two plays made, hit and stand, both right; the two stands taken back count as
    # mistakes ("it counts as a mistake either way").
    assert (totals["decisions"], totals["right"]) == (4, 2)
    assert totals["ev_lost"] > 0
    page = words(response)
    assert "10♠ 6♥ v 10♦ : Hit — right." in page
    assert "10♠ 6♥ 2♣ v 10♦ : Stand — right." in page
    assert page.count("10♠ 6♥ v 10♦ : Stand — taken back; the play was Hit.") == 2
    assert "Stand — the play was" not in page  # never shown as a play made
    assert "Biggest mistakes" in page and "Stand (taken back)" in page


def test_the_summary_and_progress_agree_on_a_session_with_a_play_taken_back(
    client: Client,
) -> None:
    """The coach says a play taken back "counts as a mistake either way": the session's
    summary counts it as Progress does, decisions, right plays and EV given up alike."""
    session = start(client, SIXTEEN_V_TEN, coach=True)
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="stand"))  # held back: gives up EV
    ok(send(client, session, "take_back"))
    ok(send(client, session, "act", action="hit"))  # 2c: 18
    ok(send(client, session, "act", action="stand"))  # 18 beats 17
    totals = client.get(f"{table_url(session)}summary/").context["summary"].totals
    progress = client.get("/progress/").context["progress"].total
    assert progress.answered == 3 and progress.correct == 2 and progress.ev_lost > 0
    assert (totals["decisions"], totals["right"]) == (progress.answered, progress.correct)
    assert totals["ev_lost"] == pytest.approx(progress.ev_lost)


def test_a_play_made_anyway_is_shown_as_the_mistake_made(client: Client) -> None:
    session = start(client, SIXTEEN_V_TEN, coach=True)
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="stand"))
    ok(send(client, session, "act", action="stand"))  # "Stand anyway": 16 loses to 17
    page = words(client.get(f"{table_url(session)}summary/"))
    assert "10♠ 6♥ v 10♦ : Stand — the play was Hit; gave up" in page
    assert "taken back" not in page and "Decisions 1" in page


def test_while_a_mistake_is_held_back_another_play_is_refused(client: Client) -> None:
    session = start(client, SIXTEEN_V_TEN, coach=True)
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="stand"))
    before = snapshot(session)
    response = send(client, session, "act", action="hit")
    refused(response, htmx=True, message="Take your play back or make it anyway first.")
    assert snapshot(session) == before


def test_the_coach_plays_a_wrong_play_anyway_when_asked(client: Client) -> None:
    session = start(client, SIXTEEN_V_TEN, coach=True)
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="stand"))
    ok(send(client, session, "act", action="stand"))  # "Stand anyway"
    session.refresh_from_db()
    assert session.balance == 990  # 16 against the dealer's 17: -10
    assert session.held_action == ""
    assert list(Drill.objects.values_list("action", "correct_action")) == [("stand", "hit")]


def test_the_coach_lets_a_right_play_through(client: Client) -> None:
    session = start(client, SIXTEEN_V_TEN, coach=True)
    ok(send(client, session, "deal"))
    response = send(client, session, "act", action="hit")
    ok(response)
    assert "Two of clubs" in card_labels(response)
    assert "Take it back" not in text(response)


def test_without_the_coach_a_wrong_play_is_played_at_once(client: Client) -> None:
    session = start(client, SIXTEEN_V_TEN)
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="stand"))
    session.refresh_from_db()
    assert (session.balance, session.held_action) == (990, "")
    assert Drill.objects.get().action == "stand"


# Where the keyboard goes -----------------------------------------------------------------


def autofocused(response: Response) -> list[str]:
    """The elements an htmx answer gives the focus (htmx focuses the first), by their id or
    their button's op."""
    tags = re.findall(r"<[^>]*\sautofocus[\s>]", text(response))
    names = (re.search(r'(?:id|value)="([\w-]+)"', tag) for tag in tags)
    return [name[1] if name else tag for name, tag in zip(names, tags, strict=True)]


def test_the_players_own_request_puts_the_keyboard_on_the_next_move(client: Client) -> None:
    session = start(client, SIXTEEN_V_TEN, coach=True)
    assert autofocused(client.get(table_url(session))) == []  # a page loaded: nowhere
    assert autofocused(send(client, session, "chip", chip=10)) == ["deal"]
    assert autofocused(send(client, session, "deal")) == ["table-status"]
    assert autofocused(send(client, session, "act", action="stand")) == ["take_back"]  # held
    assert autofocused(send(client, session, "take_back")) == ["table-status"]
    assert autofocused(send(client, session, "act", action="hit")) == ["table-status"]
    # Switching an option leaves the focus on its box (htmx finds it again by its id).
    options = client.post(f"{table_url(session)}options/", {"hints": "on"}, headers=HTMX)
    assert autofocused(options) == []


# Hints and options -------------------------------------------------------------------------


def test_the_hint_is_the_hard_tiers_play(client: Client) -> None:
    session = start(client, ELEVEN_V_TEN, hints=True)
    response = send(client, session, "deal")
    # Hard 11 v 10 without a peek: hit (the common chart's double would lose twice to a
    # dealer natural).
    assert "Hint: Hit" in words(response)
    assert 'name="action" value="double"' in text(response)  # doubling is legal, not advised


def test_hints_and_coach_are_switched_without_touching_the_round(client: Client) -> None:
    session = start(client, SIXTEEN_V_TEN)
    without = send(client, session, "deal")
    assert "Hint:" not in words(without)
    before = snapshot(session)

    switched = client.post(f"{table_url(session)}options/", {"hints": "on"}, headers=HTMX)
    assert switched.status_code == 200 and is_partial(switched)
    assert "Hint: Hit" in words(switched)  # hard 16 v 10
    after = snapshot(session)
    assert after["session"]["state"] == before["session"]["state"]
    assert after["session"]["version"] == before["session"]["version"]
    assert (after["session"]["hints"], after["session"]["coach"]) == (True, False)
    assert "Hint: Hit" in words(client.get(table_url(session)))

    plain = client.post(f"{table_url(session)}options/", {"coach": "on"})  # no JS
    assertRedirects(plain, table_url(session), fetch_redirect_response=False)
    session.refresh_from_db()
    assert (session.hints, session.coach) == (False, True)
    assert "Hint:" not in words(client.get(table_url(session)))
    ok(send(client, session, "act", action="stand", version=before["session"]["version"]))
    session.refresh_from_db()
    assert session.held_action == "stand"  # the coach switched on mid-round holds it back


def test_the_table_and_its_options_vary_on_hx_request(client: Client) -> None:
    """Each answers an htmx request with a fragment and any other with a page or a
    redirect: a cache must keep the two apart."""
    session = start(client, SIXTEEN_V_TEN)
    options = f"{table_url(session)}options/"
    for response in (
        client.get(table_url(session)),
        client.get(table_url(session), headers=HTMX),
        send(client, session, "deal"),
        send(client, session, "act", action="hit", htmx=False),
        client.post(options, {"hints": "on"}, headers=HTMX),
        client.post(options, {"hints": "on"}),
    ):
        assert "HX-Request" in response.get("Vary", ""), response.request


def test_every_htmx_request_at_the_table_inherits_its_target_from_the_table(
    client: Client,
) -> None:
    """One place says what a request at the table swaps: the table's own region."""
    session = start(client, SIXTEEN_V_TEN, hints=True)
    for response in (client.get(table_url(session)), send(client, session, "deal")):
        page = text(response)
        assert re.findall(r'hx-(?:target|swap)="[^"]*"', page) == [
            'hx-target="#table"', 'hx-swap="outerHTML"',
        ]  # fmt: skip
        assert re.search(r'<section id="table"[^>]* hx-target="#table"', page)
        assert page.count("hx-post=") >= 2


# What a page is built from ---------------------------------------------------------------


def test_the_table_view_is_built_without_a_query(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    session = start(client, SIXTEEN_V_TEN, hints=True, coach=True)
    ok(send(client, session, "deal"))
    send(client, session, "act", action="stand")  # held back: hard 16 v 10 is a hit
    session.refresh_from_db()
    shown = selectors.table_on_show(session)
    # Forgotten by the process, so that reading the hint's analysis again would be a query.
    strategy_for.cache_clear()
    hard_bot.cache_clear()
    with django_assert_num_queries(0):
        table = TableView.of(shown)
    assert table.round_number == 1 and table.stage == "playing"
    assert table.held is not None and table.held.value == "stand"
    assert table.hint is not None and table.hint.value == "hit"


def test_the_summary_is_built_without_a_query(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    session = start(client, "10s 10d 6h 7c 6s 6d 5h 10c 9d 8s 2c 3c")  # as in the summary test
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="stand"))
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="double"))
    session.refresh_from_db()
    record = selectors.session_record(session)
    with django_assert_num_queries(0):
        summary = SessionSummary.of(record)
    assert [played.number for played in summary.rounds] == [2, 1]
    assert [len(played.decisions) for played in summary.rounds] == [1, 1]
    assert len(summary.mistakes) == 1 and summary.totals["decisions"] == 2


# Starting and ending ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "seats",
    [{1: "easy", 2: "hard"}, {1: "you", 2: "you"}, {}],
    ids=["no-seat-for-you", "two-seats-for-you", "no-one"],
)
def test_the_start_form_needs_exactly_one_seat_for_you(
    client: Client, seats: dict[int, str]
) -> None:
    data = {"rules": "european", "bankroll": "1000", **{f"seat_{n}": t for n, t in seats.items()}}
    response = client.post(START, data)
    assert response.status_code == 400
    assert "Choose exactly one seat for yourself." in words(response)
    assert not PracticeSession.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [("bankroll", "999999"), ("rules", "vegas"), ("seat_2", "shark")],
)
def test_the_start_form_refuses_what_it_does_not_offer(
    client: Client, field: str, value: str
) -> None:
    data = {"rules": "european", "bankroll": "1000", "seat_1": "you", field: value}
    response = client.post(START, data)
    assert response.status_code == 400
    assert "Select a valid choice." in words(response)
    assert not PracticeSession.objects.exists()


def test_the_start_form_seats_you_with_the_bots_chosen(client: Client) -> None:
    session = start(client, NINETEEN_V_SIX, seats={2: "easy", 4: "you", 6: "hard"},
                    bankroll=5000)  # fmt: skip
    page = words(client.get(table_url(session)))
    assert "Seat 2 · Easy bot" in page and "Seat 4 · You" in page and "Seat 6 · Hard bot" in page
    assert (session.balance, session.bankroll, session.next_bet) == (5000, 5000, 10)


@pytest.mark.database
def test_starting_a_new_session_ends_the_open_one(client: Client) -> None:
    first = start(client, NINETEEN_V_SIX)
    second = start(client, NINETEEN_V_SIX)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.ended_at is not None and second.ended_at is None
    before = snapshot(first)
    refused(send(client, first, "deal"), htmx=True, message="This session is over")
    assert snapshot(first) == before
    assert "This session is over." in words(client.get(table_url(first)))


@pytest.mark.database
def test_a_guests_table_moves_to_the_account_they_sign_up_for(client: Client) -> None:
    session = start(client, HIT_THEN_STAND)
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="hit"))
    stranger = Client()
    theirs = start(stranger, NINETEEN_V_SIX)

    client.post("/accounts/signup/", {"username": "ann", "email": "ann@example.com",
                                      "password1": PASSWORD, "password2": PASSWORD})  # fmt: skip
    ann = get_user_model().objects.get(username="ann")
    session.refresh_from_db()
    assert (session.user_id, session.guest_token) == (ann.pk, "")
    decision = Drill.objects.get(practice_round__session=session)
    assert (decision.user_id, decision.guest_token) == (ann.pk, "")
    # Ann plays on where she was: the hit's 4c is on the table and the stand is hers.
    page = client.get(table_url(session))
    assert page.status_code == 200 and "Four of clubs" in card_labels(page)
    ok(send(client, session, "act", action="stand"))
    theirs.refresh_from_db()
    assert theirs.user_id is None and theirs.guest_token != ""
    assert Client().get(table_url(session)).status_code == 404


@pytest.mark.database
def test_logging_in_with_a_guest_table_open_keeps_one_table_open(client: Client) -> None:
    """One table at a time: a guest who logs in to an account that has a table open ends up
    with one open table, not two."""
    ann = get_user_model().objects.create_user("ann", password=PASSWORD)
    client.force_login(ann)
    hers = start(client, NINETEEN_V_SIX)
    client.post("/accounts/logout/")
    as_guest = start(client, HIT_THEN_STAND)
    client.post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    as_guest.refresh_from_db()
    assert as_guest.user_id == ann.pk  # the guest's table came along
    open_tables = PracticeSession.objects.filter(user=ann, ended_at__isnull=True)
    assert open_tables.count() == 1, [(t.pk, t.started_at) for t in open_tables]
    assert hers.pk != as_guest.pk


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_session_cannot_end_during_a_round(client: Client, htmx: bool) -> None:
    session = start(client, HIT_THEN_STAND)
    ok(send(client, session, "deal"))
    before = snapshot(session)
    refused(
        send(client, session, "end", htmx=htmx),
        htmx=htmx,
        message="Finish this round before you leave the table.",
    )
    assert snapshot(session) == before


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_ending_after_a_round_goes_to_the_summary_and_closes_the_table(
    client: Client, htmx: bool
) -> None:
    session = start(client, NINETEEN_V_SIX)
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="stand"))
    response = send(client, session, "end", htmx=htmx)
    summary = f"{table_url(session)}summary/"
    if htmx:
        assert response.status_code == 200 and response["HX-Redirect"] == summary
    else:
        assertRedirects(response, summary, fetch_redirect_response=False)
    session.refresh_from_db()
    assert session.ended_at is not None and session.balance == 1010

    before = snapshot(session)
    attempts: list[tuple[str, dict[str, str | int]]] = [
        ("deal", {}), ("chip", {"chip": 10}), ("end", {}), ("act", {"action": "hit"}),
    ]  # fmt: skip
    for op, fields in attempts:
        refused(
            send(client, session, op, fields, htmx=htmx),
            htmx=htmx,
            message="This session is over; start a new one.",
        )
    assert snapshot(session) == before
    page = client.get(table_url(session))
    assert "This session is over." in words(page) and 'value="deal"' not in text(page)


# The summary -----------------------------------------------------------------------------


@pytest.mark.database
def test_the_summary_tells_the_session_in_numbers_mistakes_and_rounds(client: Client) -> None:
    # Round 1: you 10s 6h v 10d (hole 7c): standing on 16 is a mistake (hard 16 v 10 is a
    # hit) and loses to 17: -10 → 990. Round 2: you 6s 5h = 11 v 6d (hole 10c): double,
    # right; the 9d makes 20; the dealer's 16 draws 8s and busts: +20 → 1010.
    session = start(client, "10s 10d 6h 7c 6s 6d 5h 10c 9d 8s 2c 3c")
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="stand"))
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="double"))

    response = client.get(f"{table_url(session)}summary/")
    assert response.status_code == 200
    totals = response.context["summary"].totals
    assert (totals["rounds"], totals["net"], totals["decisions"], totals["right"]) == (
        2, 10, 2, 1,
    )  # fmt: skip
    assert totals["accuracy"] == 0.5 and totals["ev_lost"] > 0
    page = words(response)
    for shown in ("Rounds 2", "Chips +10", "Balance 1000 → 1010", "Decisions 2", "Right 50%"):
        assert shown in page, shown
    mistakes = re.search(r'<table class="ev-table mistakes">(.*?)</table>', text(response), re.S)
    assert mistakes is not None
    row = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", mistakes.group(1))))
    row = row.replace(LRI, "").replace(PDI, "")
    assert "1 10♠ 6♥ v 10♦ Stand Hit" in row  # round, hand, your play, the play
    assert "Double" not in row  # the right double is no mistake
    assert "Round 2 · bet 10 · +20 → 1010" in page
    assert "Dealer: 6♦ 10♣ 8♠ (24) · You: 6♠ 5♥ 9♦ (Win +20)" in page
    assert "6♠ 5♥ v 6♦ : Double — right." in page
    assert "Round 1 · bet 10 · -10 → 990" in page
    assert "Dealer: 10♦ 7♣ (17) · You: 10♠ 6♥ (Lose -10)" in page
    assert "10♠ 6♥ v 10♦ : Stand — the play was Hit; gave up" in page
    assert page.index("Round 2 ·") < page.index("Round 1 ·")  # the latest first


def test_the_summary_of_a_round_in_play_keeps_its_cards_for_later(client: Client) -> None:
    session = start(client, HIT_THEN_STAND)
    ok(send(client, session, "deal"))
    ok(send(client, session, "act", action="hit"))
    page = words(client.get(f"{table_url(session)}summary/"))
    assert "Round 1 · bet 10 · in play" in page
    assert "Rounds 0" in page  # only finished rounds count
    assert "Decisions 1" in page and "9♣ 7♣ v 7♠ : Hit — right." in page


def test_insurance_at_the_deluxe_table_is_offered_graded_and_settled(client: Client) -> None:
    # Deluxe, you alone: 10s 9h = 19 against the As (hole 7c: soft 18). Insurance comes
    # first (the up card is an ace); the hard tier never insures. Insured for 5 (half of
    # 10), the dealer peeks (no natural); you stand on 19 and beat 18: +10 on the hand,
    # -5 on the insurance: 1005.
    data = {"rules": "deluxe", "bankroll": "1000", "seat_1": "you", "shoe": "10s As 9h 7c 2d"}
    client.post(START, data)
    session = PracticeSession.objects.get()
    dealt = send(client, session, "deal")
    assert re.findall(r'name="action" value="(\w+)"', text(dealt)) == ["insure", "no_insurance"]
    ok(send(client, session, "act", {"action": "insure"}))
    ok(send(client, session, "act", {"action": "stand"}))
    session.refresh_from_db()
    assert session.balance == 1005
    insured, stood = Drill.objects.filter(source="play").order_by("pk")
    assert (insured.row, insured.action, insured.correct_action) == (
        "insurance",
        "insure",
        "no_insurance",
    )
    # 8 decks: p = 127 ten-values (128 less the 10s) among the 413 cards unseen (416 less
    # 10s, 9h, As); insuring's EV is 1.5p - 0.5 of a bet, what it gives up the opposite.
    assert float(insured.ev_lost or 0) == pytest.approx(0.5 - 1.5 * 127 / 413, abs=1e-6)
    assert (stood.row, stood.action, stood.correct_action) == ("hard 19", "stand", "stand")
    summary = words(client.get(f"/practice/{session.pk}/summary/"))
    assert "Insure — the play was No insurance; gave up" in summary
    assert "No insurance ( )" not in summary and "No insurance ()" not in summary


def test_the_coach_names_the_insurance_play_without_an_empty_code(client: Client) -> None:
    # Insurance has no chart code: nothing is shown in its place.
    data = {"rules": "deluxe", "bankroll": "1000", "seat_1": "you", "shoe": "10s As 9h 7c 2d"}
    client.post(START, {**data, "coach": "on"})
    session = PracticeSession.objects.get()
    ok(send(client, session, "deal"))
    held = words(send(client, session, "act", {"action": "insure"}))
    assert "the play is No insurance. It counts as a mistake" in held
