"""A live table's round is told in order in every page that follows it: a poll that brings
new lines reveals them one after another, the results and the new balance last."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.live_helpers import ann_and_bob, bet, bet_behind, on_version, play
from tests.browser.test_live_table_browser import SHOE


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("clock")  # standing still: no deadline passes
def test_a_watcher_sees_the_dealers_play_and_the_results_in_order(
    browser: Browser, live_server: LiveServer
) -> None:
    # Ann's 18 stands against the 9♥; the hole 7♣ makes 16 and the 10♥ busts it. Bob's 20
    # behind her seat wins 20: 480 while the story runs, 520 once it reaches the results.
    row, anns, bobs = ann_and_bob(browser, live_server.url, SHOE)
    bet_behind(bobs, 3, 20)
    bet(anns, 3, 10)
    expect(bobs.get_by_test_id("balance")).to_contain_text("480")
    on_version(bobs, row)
    play(anns, "Stand")

    on_version(bobs, row)  # the poll has brought the round's end
    drawn = bobs.get_by_test_id("dealer-cards").get_by_role("img", name="Ten of hearts")
    bust = bobs.locator(".log li", has_text="The dealer busts with 26.")
    result = bobs.get_by_test_id("seat-3").locator(".result")
    assert not drawn.is_visible()
    assert not bust.is_visible()
    assert not result.is_visible()
    assert "480" in (bobs.get_by_test_id("balance").text_content() or "")
    expect(bobs.get_by_test_id("stage")).to_contain_text("Round in play")
    expect(drawn).to_be_visible()
    expect(bust).to_be_visible()
    expect(result).to_be_visible()
    expect(bobs.get_by_test_id("balance")).to_contain_text("520")
    expect(bobs.get_by_test_id("stage")).to_contain_text("Round over")
