"""A live table changes under a player's hands: another player's bet, seen by the poll,
must not undo what the player is typing or move their focus (issue 25, point 6). The
table's part is morphed in place (idiomorph), so the field being typed in is the same
element before and after the change."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import SCREENSHOTS, SIZES
from tests.browser.live_helpers import ann_and_bob, bet_behind
from tests.browser.test_live_table_browser import SHOE


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", list(SIZES))
def test_another_players_bet_leaves_the_typed_amount_and_the_focus_alone(
    browser: Browser, live_server: LiveServer, size: str
) -> None:
    _row, anns, bobs = ann_and_bob(browser, live_server.url, SHOE, size=size)
    expect(bobs.get_by_test_id("balance")).to_contain_text("500")

    amount = anns.get_by_test_id("seat-3").get_by_label("Other amount")
    amount.fill("35")
    amount.press("End")
    # Bob's bet behind Ann's seat reaches Ann's page by the poll while she types.
    bet_behind(bobs, 3, 20)
    expect(anns.get_by_test_id("seat-3")).to_contain_text("Behind: bob, 20")
    expect(amount).to_have_value("35")
    expect(amount).to_be_focused()
    amount.press_sequentially("0")  # still typing in the same field, at its end
    expect(amount).to_have_value("350")
    SCREENSHOTS.mkdir(exist_ok=True)
    anns.screenshot(path=SCREENSHOTS / f"live-typing-ann-{size}.png", full_page=True)

    amount.press("Enter")
    expect(anns.get_by_test_id("seat-3")).to_contain_text("Bet: 350")
