"""Two people at one live table, each in a browser of their own: each sees the other's
moves without reloading, and the round settles for both."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import SCREENSHOTS, SIZES
from tests.browser.live_helpers import ann_and_bob, bet, bet_behind, on_version, play

# Seat 3 gets 10♠ 8♦ against the dealer's 9♥; the hole 7♣ makes 16 and the 10♥ busts it.
SHOE = "10s 9h 8d 7c 10h " + "2c 3d 4h 5s " * 20


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", list(SIZES))
def test_two_accounts_at_one_table_see_each_other_play(
    browser: Browser, live_server: LiveServer, size: str
) -> None:
    row, anns, bobs = ann_and_bob(browser, live_server.url, SHOE, size=size)
    expect(bobs.get_by_test_id("balance")).to_contain_text("500")
    bet_behind(bobs, 3, 20)
    # Ann sees Bob's bet behind her seat without reloading (the poll brings it).
    expect(anns.get_by_test_id("seat-3")).to_contain_text("Behind: bob, 20")

    bet(anns, 3, 10)
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


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.usefixtures("clock")  # standing still: no deadline passes
def test_a_bettor_behind_follows_a_split_of_an_account_on_two_seats(
    browser: Browser, live_server: LiveServer, size: str
) -> None:
    row, anns, bobs = ann_and_bob(browser, live_server.url, SPLIT_SHOE, seats=[1, 2], size=size)
    bet_behind(bobs, 1, 10)
    expect(anns.get_by_test_id("seat-1")).to_contain_text("Behind: bob, 10")
    bet(anns, 1, 20)
    expect(anns.get_by_test_id("balance")).to_contain_text("500 (20 in bets placed)")
    # The second seat is taken with the first one's bet: that amount alone is offered.
    second = anns.get_by_role("group", name="Your bet on seat 2")
    expect(second.get_by_role("button")).to_have_count(1)
    second.get_by_role("button", name="20", exact=True).click()

    play(anns, "Split")
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
        play(anns, "Stand")
        expect(anns.get_by_test_id("live-table")).not_to_have_attribute(
            "data-version", str(row.version)
        )

    for page in (anns, bobs):
        expect(page.get_by_test_id("stage")).to_have_attribute("data-stage", "result")
        expect(page.get_by_test_id("seat-1").locator(".result")).to_have_text([WON_20, WON_20])
        expect(page.get_by_test_id("seat-2").locator(".result")).to_have_text([WON_20])
        expect(page.get_by_test_id("dealer-total")).to_have_text("· 17")
    # Once dealt, the bets are on the hands: no "0 in bets placed" that says none were.
    expect(anns.get_by_test_id("balance")).to_have_text("Your chips at this table: 560")
    expect(bobs.get_by_test_id("balance")).to_have_text("Your chips at this table: 520")
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
        for line, kind in zip(lines.all(), bets, strict=True):
            expect(line).to_contain_text(kind)
            expect(line).to_contain_text(f"Live table {row.pk}")
            expect(line).to_contain_text("Win")
        staked = 20 if page is anns else 10
        expect(lines.locator("td.num:nth-child(5)")).to_have_text([str(staked)] * len(bets))
        net = re.compile(rf"^\W?\+{staked}\W?$")
        expect(lines.locator("td.num:nth-child(7)")).to_have_text([net] * len(bets))
