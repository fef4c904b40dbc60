from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_visitor_reads_the_chart_and_switches_rules(
    page: Page, live_server: LiveServer, screen
) -> None:
    page.goto(f"{live_server.url}/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Strategy chart").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Basic strategy chart")
    tabs = page.get_by_role("navigation", name="Rules")
    expect(tabs.get_by_role("link", name="European")).to_have_attribute("aria-current", "page")
    header = page.get_by_role("rowheader", name="16", exact=True)
    hard_sixteen = page.locator("tr", has=header).first
    expect(hard_sixteen.locator("td").nth(8).locator("abbr")).to_have_text("H")  # against a 10
    expect(page.locator(".action--differs")).to_have_count(4)
    expect(
        page.get_by_text("the dealer does not look at the hole card for blackjack").first
    ).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screen.shot("chart-european")

    tabs.get_by_role("link", name="Deluxe").click()
    expect(page).to_have_title("Basic strategy chart — Deluxe")
    expect(hard_sixteen.locator("td").nth(7).locator("abbr")).to_have_text("R")  # against a 9
    screen.shot("chart-deluxe")
