"""A live table's round is told in order in every page that follows it: a poll that brings
new lines reveals them one after another, the results and the new balance last."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from engine.shoe import Shoe
from tests.browser.conftest import logged_in
from tests.browser.test_live_autoplay_browser import Clock
from tests.browser.test_live_table_browser import PASSWORD, SHOE, on_version
from trainer.live.services import open_table


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_watcher_sees_the_dealers_play_and_the_results_in_order(
    browser: Browser, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ann's 18 stands against the 9♥; the hole 7♣ makes 16 and the 10♥ busts it. Bob's 20
    # behind her seat wins 20: 480 while the story runs, 520 once it reaches the results.
    monkeypatch.setattr(timezone, "now", Clock())  # standing still: no deadline passes
    users = get_user_model().objects
    ann = users.create_user("ann", password="a long enough password 1")
    users.create_user("bob", password="a long enough password 1")
    row = open_table(
        user_id=ann.pk, bots=[], seats=[3], buy_in=500, now=timezone.now(),
        shoe=Shoe.stacked(SHOE),
    )  # fmt: skip
    anns = logged_in(browser, live_server.url, "ann", PASSWORD, "desktop")
    bobs = logged_in(browser, live_server.url, "bob", PASSWORD, "desktop")
    url = f"{live_server.url}/tables/{row.pk}/"
    anns.goto(url)
    bobs.goto(url)
    bobs.get_by_role("button", name="500 chips").click()
    bobs.get_by_role("group", name="Bet behind seat 3").get_by_role(
        "button", name="20", exact=True
    ).click()
    anns.get_by_role("group", name="Your bet on seat 3").get_by_role(
        "button", name="10", exact=True
    ).click()
    expect(bobs.get_by_test_id("balance")).to_contain_text("480")
    on_version(bobs, row)
    anns.get_by_test_id("decision").get_by_role("button", name="Stand").click()

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
