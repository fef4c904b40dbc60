"""A live table changes under a player's hands: another player's bet, seen by the poll,
must not undo what the player is typing or move their focus (issue 25, point 6). The
table's part is morphed in place (idiomorph), so the field being typed in is the same
element before and after the change."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from engine.shoe import Shoe
from tests.browser.conftest import SCREENSHOTS, SIZES, logged_in
from trainer.live.services import open_table

SHOE = "10s 9h 8d 7c 10h " + "2c 3d 4h 5s " * 20
PASSWORD = "a long enough password 1"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", list(SIZES))
def test_another_players_bet_leaves_the_typed_amount_and_the_focus_alone(
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

    amount = anns.get_by_test_id("seat-3").get_by_label("Other amount")
    amount.fill("35")
    amount.press("End")
    # Bob's bet behind Ann's seat reaches Ann's page by the poll while she types.
    bobs.get_by_role("group", name="Bet behind seat 3").get_by_role(
        "button", name="20", exact=True
    ).click()
    expect(anns.get_by_test_id("seat-3")).to_contain_text("Behind: bob, 20")
    expect(amount).to_have_value("35")
    expect(amount).to_be_focused()
    amount.press_sequentially("0")  # still typing in the same field, at its end
    expect(amount).to_have_value("350")
    SCREENSHOTS.mkdir(exist_ok=True)
    anns.screenshot(path=SCREENSHOTS / f"live-typing-ann-{size}.png", full_page=True)

    amount.press("Enter")
    expect(anns.get_by_test_id("seat-3")).to_contain_text("Bet: 350")
