"""Drills that explain themselves (issue 14): why a cell differs from the common chart, the
drill session's figures, timed hands, and one row or cell chosen from the chart."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries
from pytest_django.asserts import assertContains, assertNotContains

from engine.chart_vocabulary import UP_CARDS
from engine.drills import DRILLABLE_ROWS, Situation
from engine.rules import DELUXE, EUROPEAN, preset
from engine.strategy import strategy_for
from trainer.models import Drill, Preferences

pytestmark = pytest.mark.django_db
DRILL = "/drill/"
SETTINGS = "/drill/settings/"
FOCUS = "/drill/focus/"


def deal(client: Client) -> Drill:
    client.post(DRILL, {"deal": "1"})
    return Drill.objects.filter(answered_at=None).latest("pk")


def rig(drill: Drill, cards: str, up: str) -> Drill:
    """Give an issued drill known cards (the server deals at random)."""
    Drill.objects.filter(pk=drill.pk).update(cards=cards, up=up)
    drill.refresh_from_db()
    return drill


def answer(client: Client, drill: Drill, action: str) -> str:
    response = client.post(
        DRILL, {"drill": drill.pk, "action": action}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    return readable(response.content.decode())


def readable(page: str) -> str:
    """The page's text as read: entities decoded, the invisible bidi isolates and runs of
    white space dropped."""
    text = unescape(page).replace("\u2066", "").replace("\u2069", "")
    return " ".join(text.split())


def choose(client: Client, **settings: str) -> None:
    response = client.post(SETTINGS, {"rules_name": "european", "mode": "all", **settings})
    assert response.status_code == 302, response.content.decode()


# Why a cell differs -----------------------------------------------------------------------


@pytest.mark.parametrize("action", ["hit", "double"])
def test_eleven_against_a_ten_says_why_european_hits(client: Client, action: str) -> None:
    page = answer(client, rig(deal(client), "6s 5h", "Kd"), action)
    evs = strategy_for(EUROPEAN).ev("6,5", "K")
    assert (
        f"The common chart plays double here, but under these rules hit is better "
        f"({evs.hit:.4f} against {evs.double:.4f}): the dealer does not look at the hole "
        f"card for blackjack before you act, so a dealer ten may hide a blackjack that "
        f"takes the doubled bet too."
    ) in page


def test_a_pair_of_aces_against_an_ace_names_the_split(client: Client) -> None:
    page = answer(client, rig(deal(client), "As Ad", "Ah"), "hit")
    evs = strategy_for(EUROPEAN).ev("A,A", "A")
    assert f"plays split here, but under these rules hit is better ({evs.hit:.4f} against" in page
    assert "a dealer ace may hide a blackjack that takes both bets of the split" in page


def test_deluxe_explains_its_surrender(client: Client) -> None:
    choose(client, rules_name="deluxe")
    page = answer(client, rig(deal(client), "10s 6h", "9d"), "hit")
    evs = strategy_for(DELUXE).ev("10,6", "9")
    assert (
        f"plays hit here, but under these rules surrender is better ({evs.surrender:.4f} "
        f"against {evs.hit:.4f}): these rules let you give up half the bet"
    ) in page


@pytest.mark.parametrize(("cards", "up"), [("10s 6h", "10d"), ("6s 5h", "9d")])
def test_a_cell_like_the_common_charts_has_no_explanation(
    client: Client, cards: str, up: str
) -> None:
    page = answer(client, rig(deal(client), cards, up), "hit")
    assert "The common chart plays" not in page


def test_a_custom_rule_is_explained_by_that_rule(client: Client) -> None:
    choose(client, custom_rules="dealer_hits_soft_17=true")
    page = answer(client, rig(deal(client), "As 8h", "6d"), "stand")
    assert "The common chart plays stand here" in page
    assert "the dealer hits soft 17 here" in page


# The session ------------------------------------------------------------------------------


def session_line(page: str) -> str:
    found = re.search(r"This session: ([^<]*)</p>", readable(page))
    assert found is not None, page
    return " ".join(found.group(1).split())


@pytest.mark.database
def test_the_session_counts_hands_right_streak_and_ev_given_up(client: Client) -> None:
    lost = strategy_for(EUROPEAN).ev("10,6", "10")
    played = [("hit", True), ("stand", False), ("hit", True), ("hit", True)]
    page = ""
    for action, _right in played:
        page = answer(client, rig(deal(client), "10s 6h", "10d"), action)
    given_up = lost.hit - lost.stand
    assert session_line(page) == f"4 hands · 3 right · streak 2 · {given_up:.4f} of a bet given up"
    # The next hand shows the session as it stands before it is answered.
    client.post(DRILL, {"deal": "1"})
    assert session_line(client.get(DRILL).content.decode()).startswith("4 hands · 3 right")


def test_a_gap_of_half_an_hour_starts_a_new_session(client: Client) -> None:
    answer(client, rig(deal(client), "10s 6h", "10d"), "hit")
    Drill.objects.update(answered_at=timezone.now() - timedelta(minutes=31))
    page = answer(client, rig(deal(client), "10s 6h", "10d"), "hit")
    assert session_line(page).startswith("1 hand · 1 right · streak 1")


def test_within_half_an_hour_the_session_goes_on(client: Client) -> None:
    answer(client, rig(deal(client), "10s 6h", "10d"), "hit")
    Drill.objects.update(answered_at=timezone.now() - timedelta(minutes=29))
    page = answer(client, rig(deal(client), "10s 6h", "10d"), "stand")
    assert session_line(page).startswith("2 hands · 1 right · streak 0")


def test_new_settings_start_a_new_session(client: Client) -> None:
    answer(client, rig(deal(client), "10s 6h", "10d"), "hit")
    choose(client, mode="hard")
    assert session_line(client.get(DRILL).content.decode()).startswith("0 hands")


@pytest.mark.database
@pytest.mark.usefixtures("presets_analysed")
def test_the_session_needs_no_query_on_the_answer(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    drill = rig(deal(client), "10s 6h", "10d")
    with django_assert_num_queries(3):  # the session, the drill, the answer: as before
        page = answer(client, drill, "hit")
    assert session_line(page).startswith("1 hand · 1 right")


# Timed hands ------------------------------------------------------------------------------


def test_a_timed_hand_answered_in_time_counts(client: Client) -> None:
    choose(client, time_limit="5")
    drill = rig(Drill.objects.get(answered_at=None), "10s 6h", "10d")
    assert drill.time_limit == 5
    assertContains(client.get(DRILL), "Answer within 5 seconds.")
    page = answer(client, drill, "hit")
    drill.refresh_from_db()
    assert not drill.late and drill.is_correct and "Right: Hit." in page


def test_a_timed_hand_shows_its_seconds_left_and_says_only_the_limit_the_five_and_the_end(
    client: Client,
) -> None:
    choose(client, time_limit="10")
    page = client.get(DRILL).content.decode()
    timer = page.split('data-testid="timer"')[1].split("</div>")[0]
    # The seconds left as text, in a role="timer" (not read out at each change) …
    assert re.search(r'role="timer"[^>]*>Seconds left: <span[^>]*data-timer-count>10<', timer)
    # … and the two things said later, in the page's language, for the script to say.
    assert 'data-say-five="5 seconds left."' in timer
    assert 'data-say-up="Time is up: this hand counts as a miss."' in timer
    assert "aria-live" not in timer  # nothing in it speaks by itself
    # A hand dealt by htmx is said with its limit, once, by the page's live region.
    dealt = client.post(DRILL, {"deal": "1"}, headers={"HX-Request": "true"}).content.decode()
    said = dealt.split('id="announcement"')[1].split("</div>")[0]
    assert "Answer within 10 seconds." in readable(said)


def test_an_untimed_hand_has_no_countdown(client: Client) -> None:
    page = client.get(DRILL).content.decode()
    assert 'data-testid="timer"' not in page and 'role="timer"' not in page
    dealt = client.post(DRILL, {"deal": "1"}, headers={"HX-Request": "true"}).content.decode()
    assert "Answer within" not in dealt


def test_a_timed_hand_answered_late_is_a_miss_by_the_servers_clock(client: Client) -> None:
    choose(client, time_limit="3")
    drill = rig(Drill.objects.get(answered_at=None), "10s 6h", "10d")
    # Dealt four seconds ago by the server's record: whatever the browser thinks.
    Drill.objects.filter(pk=drill.pk).update(issued_at=timezone.now() - timedelta(seconds=4))
    page = answer(client, drill, "hit")
    drill.refresh_from_db()
    assert drill.late and drill.action == "hit" and not drill.is_correct
    assert "Too slow: not answered within 3 seconds, so it counts as a miss." in page
    assert session_line(page).startswith("1 hand · 0 right · streak 0")
    progress = client.get("/progress/").context["progress"]
    assert (progress.total.answered, progress.total.correct, progress.streak) == (1, 0, 0)


def test_a_timed_hand_whose_time_ran_out_unseen_is_dealt_again(client: Client) -> None:
    choose(client, time_limit="3")
    stale = Drill.objects.get(answered_at=None)
    Drill.objects.filter(pk=stale.pk).update(issued_at=timezone.now() - timedelta(minutes=5))
    client.get(DRILL)
    fresh = Drill.objects.get(answered_at=None)
    assert fresh.pk != stale.pk and not Drill.objects.filter(pk=stale.pk).exists()


def test_an_untimed_hand_is_never_late(client: Client) -> None:
    drill = rig(deal(client), "10s 6h", "10d")
    Drill.objects.filter(pk=drill.pk).update(issued_at=timezone.now() - timedelta(hours=1))
    answer(client, drill, "hit")
    drill.refresh_from_db()
    assert drill.time_limit is None and not drill.late and drill.is_correct


def test_a_time_limit_not_offered_is_refused(client: Client) -> None:
    response = client.post(SETTINGS, {"rules_name": "european", "mode": "all", "time_limit": "1"})
    assert response.status_code == 400


def test_an_account_keeps_its_time_limit_and_focus(client: Client) -> None:
    user = get_user_model().objects.create_user("ann", password="pw-long-enough-1")
    client.force_login(user)
    choose(client, time_limit="10", mode="focus", focus_row="soft 18", focus_up="9")
    stored = Preferences.objects.get(user=user)
    assert (stored.time_limit, stored.mode, stored.focus_row, stored.focus_up) == (
        10, "focus", "soft 18", "9",
    )  # fmt: skip


# One row or one cell ----------------------------------------------------------------------


def test_a_cell_mode_deals_only_that_cell(client: Client) -> None:
    choose(client, mode="focus", focus_row="pair 8", focus_up="A")
    for _ in range(5):
        drill = Drill.objects.get(answered_at=None)
        situation = Situation.parse(preset(drill.rules_name), drill.cards, drill.up)
        assert (situation.row, situation.up_column) == ("pair 8", "A")
        answer(client, drill, "hit")
        client.post(DRILL, {"deal": "1"})


def test_a_row_mode_deals_that_row_against_any_up_card(client: Client) -> None:
    choose(client, mode="focus", focus_row="soft 17")
    ups = set()
    for _ in range(12):
        drill = Drill.objects.get(answered_at=None)
        situation = Situation.parse(EUROPEAN, drill.cards, drill.up)
        assert situation.row == "soft 17"
        ups.add(situation.up_column)
        answer(client, drill, "hit")
        client.post(DRILL, {"deal": "1"})
    assert len(ups) > 1


def test_the_focus_mode_needs_a_row(client: Client) -> None:
    response = client.post(SETTINGS, {"rules_name": "european", "mode": "focus"})
    assertContains(response, "Choose the row to drill.", status_code=400)


def test_drill_this_cell_asks_then_sets_the_mode(client: Client) -> None:
    page = client.get(FOCUS, {"rules": "deluxe", "row": "hard 16", "up": "9"})
    assertContains(page, "Drill Hard 16 against 9")
    fields = dict(
        re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page.content.decode())
    )
    assert fields["mode"] == "focus" and fields["rules_name"] == "deluxe"
    assert (fields["focus_row"], fields["focus_up"]) == ("hard 16", "9")
    fields.pop("csrfmiddlewaretoken", None)
    assert client.post(SETTINGS, fields).status_code == 302
    drill = Drill.objects.get(answered_at=None)
    situation = Situation.parse(DELUXE, drill.cards, drill.up)
    assert (drill.rules_name, situation.row, situation.up_column) == ("deluxe", "hard 16", "9")


@pytest.mark.parametrize(
    "query", [{"row": "hard 21", "up": "9"}, {"row": "hard 16", "up": "11"}, {"row": "x"}, {}]
)
def test_a_cell_that_cannot_be_drilled_is_not_found(client: Client, query: dict[str, str]) -> None:
    assert client.get(FOCUS, query).status_code == 404


def test_the_chart_links_each_drillable_cell(client: Client) -> None:
    page = unescape(client.get("/chart/european/").content.decode())
    links = set(re.findall(r'href="/drill/focus/\?rules=european&row=([^&]+)&up=([^"]+)"', page))
    assert ("hard+16", "10") in links or ("hard%2016", "10") in links
    assert len(links) == len(DRILLABLE_ROWS) * len(UP_CARDS)  # all but hard 20 and the 21s
    assert not {row for row, _up in links} & {"hard%2020", "hard%2021", "soft%2021"}


def test_the_heat_map_links_each_cell_met(client: Client) -> None:
    answer(client, rig(deal(client), "10s 6h", "10d"), "hit")
    page = client.get("/progress/")
    assertContains(page, "/drill/focus/?rules=european&amp;row=hard%2016&amp;up=10")
    assertNotContains(page, "row=hard%2016&amp;up=9")  # not met: nothing to follow


def test_the_drill_and_the_rules_page_word_the_hole_card_alike(client: Client) -> None:
    """One wording for no peek: the dealer has a hole card at every table, and does not
    look at it for blackjack at a European one (never "takes no hole card")."""
    page = answer(client, rig(deal(client), "6s 5h", "Kd"), "hit")
    rules = readable(client.get("/rules/european/").content.decode())
    said = "the dealer does not look at the hole card for blackjack before you act"
    assert said in page
    assert said.removeprefix("the dealer ") in rules
    assert "takes no hole card" not in page + rules
