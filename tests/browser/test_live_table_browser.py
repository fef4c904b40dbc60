"""Two people at one live table, each in a browser of their own: each sees the other's
moves without reloading, and the round settles for both."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from engine.shoe import Shoe
from tests.browser.conftest import SCREENSHOTS, SIZES
from trainer import live_tables

# Seat 3 gets 10♠ 8♦ against the dealer's 9♥; the hole 7♣ makes 16 and the 10♥ busts it.
SHOE = "10s 9h 8d 7c 10h " + "2c 3d 4h 5s " * 20
PASSWORD = "a long enough password 1"


def logged_in(browser: Browser, live_server: LiveServer, name: str, size: str) -> Page:
    width, height = SIZES[size]
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.locator(".account-menu__name")).to_have_text(name)
    return page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", list(SIZES))
def test_two_accounts_at_one_table_see_each_other_play(
    browser: Browser, live_server: LiveServer, size: str
) -> None:
    users = get_user_model().objects
    ann = users.create_user("ann", password=PASSWORD)
    users.create_user("bob", password=PASSWORD)
    row = live_tables.open_table(
        user_id=ann.pk, bots=[], seats=[3], buy_in=500, now=timezone.now(),
        shoe=Shoe.stacked(SHOE),
    )  # fmt: skip
    anns = logged_in(browser, live_server, "ann", size)
    bobs = logged_in(browser, live_server, "bob", size)
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
