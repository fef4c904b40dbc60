"""A timed drill hand shows its seconds left as text and says, aloud, only the limit, the
five seconds left and the end (WCAG 2.2.1 and 4.1.3): the page's live region is watched
for every change while the countdown runs."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import drill_settings, save_and_deal

#: Every text the page's live region (#announcement) takes, in order.
WATCH = """() => {
  window.said = [];
  const region = document.getElementById("announcement");
  new MutationObserver(() => window.said.push(region.textContent.trim()))
    .observe(region, {childList: true, characterData: true, subtree: true});
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_timed_hand_counts_down_in_words_and_speaks_three_times(
    page: Page, live_server: LiveServer, screen
) -> None:
    drill_settings(page, live_server.url)
    page.get_by_label("Time to answer each hand").select_option("10")
    save_and_deal(page)
    left = page.get_by_role("timer")
    expect(left).to_contain_text("Seconds left: 10")
    page.evaluate(WATCH)
    # A new hand dealt by htmx: answer this one, then deal, as a player does.
    page.keyboard.press("s")
    page.get_by_role("button", name="Next hand").click()
    expect(page.get_by_role("timer")).to_contain_text("Seconds left: 10")
    expect(page.get_by_role("timer")).to_contain_text("Seconds left: 8", timeout=3_000)
    screen.shot("drill-timer")
    expect(page.get_by_role("timer")).to_contain_text("Seconds left: 0", timeout=10_000)
    screen.shot("drill-timer-up")
    said = page.evaluate("window.said")
    # The answer's verdict, the new hand with its limit, 5 s left, time up — no ticking.
    hand = next(i for i, text in enumerate(said) if "Answer within 10 seconds." in text)
    assert said[hand + 1 :] == ["5 seconds left.", "Time is up: this hand counts as a miss."]
    assert not any(text.startswith(("Seconds left", "9", "8")) for text in said)
