"""Two people at one live table, each in a browser of their own: each sees the other's
moves without reloading, and the round settles for both."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from engine.shoe import Shoe
from tests.browser.conftest import SCREENSHOTS, SIZES, logged_in
from tests.browser.test_live_autoplay_browser import Clock
from trainer.live.services import open_table
from trainer.models import SharedTable

# Seat 3 gets 10♠ 8♦ against the dealer's 9♥; the hole 7♣ makes 16 and the 10♥ busts it.
SHOE = "10s 9h 8d 7c 10h " + "2c 3d 4h 5s " * 20
PASSWORD = "a long enough password 1"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", list(SIZES))
def test_two_accounts_at_one_table_see_each_other_play(
    browser: Browser, live_server: LiveServer, size: str
) -> None:
    users = get_user_model().objects
    ann = users.create_user("ann", password=PASSWORD)
    users.create_user("bob", password=PASSWORD)
    row = open_table(
        user_id=ann.pk, bots=[], seats=[3], buy_in=500, now=timezone.now(),
        shoe=Shoe.stacked(SHOE),
    )  # fmt: skip
    anns = logged_in(browser, live_server.url, "ann", PASSWORD, size)
    bobs = logged_in(browser, live_server.url, "bob", PASSWORD, size)
    url = f"{live_server.url}/tables/{row.pk}/"
    anns.goto(url)
    bobs.goto(url)

    bobs.get_by_role("button", name="500 chips").click()
    expect(bobs.get_by_test_id("balance")).to_contain_text("500")
    bobs.get_by_role("group", name="Bet behind seat 3").get_by_role(
        "button", name="20", exact=True
    ).click()
    # Ann sees Bob's bet behind her seat without reloading (the poll brings it).
    expect(anns.get_by_test_id("seat-3")).to_contain_text("Behind: bob, 20")

    anns.get_by_role("group", name="Your bet on seat 3").get_by_role(
        "button", name="10", exact=True
    ).click()
    expect(anns.get_by_test_id("decision")).to_be_visible()
    expect(bobs.get_by_test_id("seat-3")).to_contain_text("10♠")
    expect(bobs.get_by_test_id("turn")).to_contain_text("Seat 3 to play: ann")
    anns.get_by_role("button", name="Stand").click()

    for page, balance in ((anns, "510"), (bobs, "520")):
        expect(page.get_by_test_id("stage")).to_have_attribute("data-stage", "result")
        expect(page.get_by_test_id("seat-3")).to_contain_text("Win")
        expect(page.get_by_test_id("balance")).to_contain_text(balance)
    SCREENSHOTS.mkdir(exist_ok=True)
    anns.screenshot(path=SCREENSHOTS / f"live-table-ann-{size}.png", full_page=True)
    bobs.screenshot(path=SCREENSHOTS / f"live-table-bob-{size}.png", full_page=True)

    bobs.goto(f"{live_server.url}/bets/")
    expect(bobs.get_by_test_id("bet")).to_have_count(1)
    expect(bobs.get_by_test_id("bet")).to_contain_text(f"Live table {row.pk}")
    expect(bobs.get_by_test_id("bet")).to_contain_text("Bet behind")


# Ann holds seats 1 and 2; Bob bets 10 behind seat 1. Deal order: seat 1, seat 2, the up
# card, seat 1, seat 2, the hole card. Seat 1: 8♠ 8♦ against the 7♣, split; seat 2: 10♥ 9♥
# (19); hole 10♦ (the dealer's 17, no peek against a 7). Bob follows the split, so his 10
# rides on each hand. The first hand draws 10♣ (18), the second J♣ (18): Ann stands on
# everything and the dealer stands on 17. Ann's three hands of 20 win: 500 - 60 + 120 =
# 560. Bob's two stakes of 10 win: 500 - 20 + 40 = 520.
SPLIT_SHOE = "8s 10h 7c 8d 9h 10d 10c Jc " + "2c 3d 4h 5s " * 20
#: A hand's result, its signed net isolated as left-to-right text.
WON_20 = re.compile(r"^Win \W?\+20\W?$")


def on_version(page: Page, row: SharedTable) -> None:
    """Wait until the page shows the table's stored version: an action is taken only
    from the current one (a click on a table that moved on changes nothing)."""
    row.refresh_from_db()
    expect(page.get_by_test_id("live-table")).to_have_attribute("data-version", str(row.version))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", list(SIZES))
def test_a_bettor_behind_follows_a_split_of_an_account_on_two_seats(
    browser: Browser, live_server: LiveServer, size: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timezone, "now", Clock())  # standing still: no deadline passes
    users = get_user_model().objects
    ann = users.create_user("ann", password=PASSWORD)
    users.create_user("bob", password=PASSWORD)
    row = open_table(
        user_id=ann.pk, bots=[], seats=[1, 2], buy_in=500, now=timezone.now(),
        shoe=Shoe.stacked(SPLIT_SHOE),
    )  # fmt: skip
    anns = logged_in(browser, live_server.url, "ann", PASSWORD, size)
    bobs = logged_in(browser, live_server.url, "bob", PASSWORD, size)
    url = f"{live_server.url}/tables/{row.pk}/"
    anns.goto(url)
    bobs.goto(url)

    bobs.get_by_role("button", name="500 chips").click()
    bobs.get_by_role("group", name="Bet behind seat 1").get_by_role(
        "button", name="10", exact=True
    ).click()
    expect(anns.get_by_test_id("seat-1")).to_contain_text("Behind: bob, 10")
    anns.get_by_role("group", name="Your bet on seat 1").get_by_role(
        "button", name="20", exact=True
    ).click()
    # The second seat is taken with the first one's bet: that amount alone is offered.
    second = anns.get_by_role("group", name="Your bet on seat 2")
    expect(second.get_by_role("button")).to_have_count(1)
    second.get_by_role("button", name="20", exact=True).click()

    anns.get_by_test_id("decision").get_by_role("button", name="Split").click()
    # Bob is asked, in his page without reloading; Ann sees whose turn it is.
    question = bobs.get_by_test_id("decision")
    expect(question).to_contain_text("Seat 1 splits: follow with your bet behind?")
    expect(anns.get_by_test_id("turn")).to_contain_text("Seat 1 to play: bob")
    question.get_by_role("button", name="Follow", exact=True).click()

    # Ann sees Bob's answer: the split's first hand gets its card, and her turn is back.
    expect(anns.get_by_test_id("seat-1").locator(".seat__hand")).to_have_count(2)
    expect(anns.get_by_test_id("seat-1")).to_contain_text("10♣")
    for _hand in range(3):  # each split hand, then seat 2
        on_version(anns, row)
        anns.get_by_test_id("decision").get_by_role("button", name="Stand").click()
        expect(anns.get_by_test_id("live-table")).not_to_have_attribute(
            "data-version", str(row.version)
        )

    for page in (anns, bobs):
        expect(page.get_by_test_id("stage")).to_have_attribute("data-stage", "result")
        expect(page.get_by_test_id("seat-1").locator(".result")).to_have_text([WON_20, WON_20])
        expect(page.get_by_test_id("seat-2").locator(".result")).to_have_text([WON_20])
        expect(page.get_by_test_id("dealer-total")).to_have_text("· 17")
    expect(anns.get_by_test_id("balance")).to_contain_text("560 (0 in bets placed)")
    expect(bobs.get_by_test_id("balance")).to_contain_text("520 (0 in bets placed)")
    SCREENSHOTS.mkdir(exist_ok=True)
    anns.screenshot(path=SCREENSHOTS / f"live-split-ann-{size}.png", full_page=True)
    bobs.screenshot(path=SCREENSHOTS / f"live-split-bob-{size}.png", full_page=True)

    for page, bets in (
        (anns, ["Seat bet, seat 2", "Seat bet, seat 1, hand 2", "Seat bet, seat 1, hand 1"]),
        (bobs, ["Bet behind, seat 1, hand 2", "Bet behind, seat 1, hand 1"]),
    ):
        page.goto(f"{live_server.url}/bets/")
        lines = page.get_by_test_id("bet")
        expect(lines).to_have_count(len(bets))
        for line, bet in zip(lines.all(), bets, strict=True):
            expect(line).to_contain_text(bet)
            expect(line).to_contain_text(f"Live table {row.pk}")
            expect(line).to_contain_text("Win")
        staked = 20 if page is anns else 10
        expect(lines.locator("td.num:nth-child(5)")).to_have_text([str(staked)] * len(bets))
        net = re.compile(rf"^\W?\+{staked}\W?$")
        expect(lines.locator("td.num:nth-child(7)")).to_have_text([net] * len(bets))
