"""A player who stops acting at a live table: when the decision's deadline passes,
auto-play finishes the hand and the round settles, seen in the player's page without
reloading (it polls every second). And a play chosen before the turn comes, carried out
when it does.

The live server runs in the test process, so the test moves its clock: `timezone.now`,
as the live views read it, is a clock the test advances past the deadline.

Ann (seat 3) gets 6♠ 4♦ (10) against the dealer's 9♥. At the deadline auto-play finishes
her hand (`LiveTable.advance`, tests/engine/test_live_table.py): a hit at 11 or less (the
10♠: 20), then a stand. The hole 7♣ makes 16, and the dealer's 10♥ busts it: Ann wins 10.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from engine.live_table import LiveTable
from engine.shoe import Shoe
from tests.browser.conftest import Screen
from trainer.live.services import open_table

SHOE = "6s 9h 4d 7c 10s 10h " + "2c 3d 4h 5s " * 20
PASSWORD = "a long enough password 1"


def log_in(page: Page, live_server: LiveServer, name: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.locator(".account-menu__name")).to_have_text(name)


class Clock:
    """`timezone.now`, moved forward by hand."""

    def __init__(self) -> None:
        self.at = datetime.now(tz=UTC)

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_auto_play_finishes_a_silent_players_hand_after_the_deadline(
    screen: Screen, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr(timezone, "now", clock)
    ann = get_user_model().objects.create_user("ann", password=PASSWORD)
    row = open_table(
        user_id=ann.pk, bots=[], seats=[3], buy_in=500, now=clock(), shoe=Shoe.stacked(SHOE)
    )
    page = screen.page
    log_in(page, live_server, "ann")
    page.goto(f"{live_server.url}/tables/{row.pk}/")

    page.get_by_role("group", name="Your bet on seat 3").get_by_role(
        "button", name="10", exact=True
    ).click()
    expect(page.get_by_test_id("decision")).to_be_visible()
    expect(page.get_by_test_id("seat-3")).to_contain_text("10 · bet 10")
    expect(page.get_by_test_id("balance")).to_contain_text("490")
    screen.shot("live-autoplay-waiting")

    # Ann does nothing. Just before the deadline the hand still waits for her...
    row.refresh_from_db()
    decision_deadline = LiveTable.from_json(row.state).deadline
    clock.at = datetime.fromtimestamp(decision_deadline - 1, tz=UTC)
    page.wait_for_timeout(2_500)  # two polls or more
    expect(page.get_by_test_id("stage")).to_have_attribute("data-stage", "playing")
    expect(page.get_by_test_id("decision")).to_be_visible()

    # ... once it has passed, the next poll brings her hand finished by auto-play (a hit,
    # since 10 is 11 or less, then a stand on 20) and the round settled.
    clock.advance(2)
    seat = page.get_by_test_id("seat-3")
    expect(page.get_by_test_id("stage")).to_have_attribute("data-stage", "result")
    expect(page.get_by_test_id("decision")).to_have_count(0)
    expect(seat).to_contain_text("10♠")
    expect(seat).to_contain_text("20 · bet 10")
    expect(seat).to_contain_text("Win")
    expect(page.get_by_test_id("dealer-total")).to_have_text("· 26")
    expect(page.get_by_test_id("balance")).to_contain_text("510")
    expect(page.get_by_test_id("notices").get_by_text("Time ran out for You")).to_have_count(1)
    screen.shot("live-autoplay-settled")


# Seat 1 (Ann) 10♠ 8♦ = 18, seat 2 (Bob) 10♥ 9♦ = 19; the dealer's 9♥ 7♣ draws the 2♣: 18.
TWO_SEATS = "10s 10h 9h 8d 9d 7c 2c " + "3d 4h 5s 6c " * 20


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_play_chosen_before_the_turn_is_carried_out_when_it_comes(
    screen: Screen, browser: Browser, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timezone, "now", Clock())  # standing still: no deadline passes
    users = get_user_model().objects
    ann = users.create_user("ann", password=PASSWORD)
    users.create_user("bob", password=PASSWORD)
    row = open_table(
        user_id=ann.pk, bots=[], seats=[1], buy_in=500, now=timezone.now(),
        shoe=Shoe.stacked(TWO_SEATS),
    )  # fmt: skip
    url = f"{live_server.url}/tables/{row.pk}/"
    bobs = screen.page
    log_in(bobs, live_server, "bob")
    viewport = bobs.viewport_size
    anns = browser.new_context(viewport=viewport).new_page()
    log_in(anns, live_server, "ann")
    anns.goto(url)
    bobs.goto(url)
    bobs.get_by_role("button", name="500 chips").click()
    bobs.get_by_test_id("seat-2").get_by_role("button", name="Sit here").click()
    bobs.get_by_role("group", name="Your bet on seat 2").get_by_role(
        "button", name="20", exact=True
    ).click()
    anns.get_by_role("group", name="Your bet on seat 1").get_by_role(
        "button", name="20", exact=True
    ).click()

    choice = bobs.get_by_role("group", name="Your play on seat 2 when its turn comes")
    choice.get_by_role("button", name="Hit").click()
    expect(bobs.get_by_test_id("preselected-2")).to_have_text("Chosen: Hit")
    choice.get_by_role("button", name="Stand").click()
    expect(bobs.get_by_test_id("preselected-2")).to_have_text("Chosen: Stand")
    expect(choice.get_by_role("button", name="Stand")).to_have_attribute("aria-pressed", "true")
    screen.shot("live-preselect-chosen")

    # Bob's choice moved the table on: Ann acts once her page has polled it (an action
    # from an older version is refused as a double click would be).
    row.refresh_from_db()
    expect(anns.get_by_test_id("live-table")).to_have_attribute("data-version", str(row.version))
    expect(anns.get_by_test_id("seat-2")).not_to_contain_text("Chosen")  # Bob's alone
    anns.get_by_test_id("decision").get_by_role("button", name="Stand").click()
    expect(bobs.get_by_test_id("stage")).to_have_attribute("data-stage", "result")
    expect(bobs.get_by_test_id("seat-2")).to_contain_text("Win")
    expect(bobs.get_by_test_id("balance")).to_contain_text("520")
    expect(bobs.get_by_test_id("notices")).not_to_contain_text("Time ran out")
    screen.shot("live-preselect-settled")
