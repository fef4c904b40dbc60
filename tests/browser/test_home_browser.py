from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_home_shows_the_heading_without_sideways_scrolling(
    page: Page, live_server: LiveServer, screen
) -> None:
    page.goto(f"{live_server.url}/")

    expect(page).to_have_title("Blackjack Strategy Trainer")
    expect(page.get_by_role("heading", level=1)).to_have_text("Blackjack Strategy Trainer")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    screen.shot("home")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_home_page_leads_to_a_drill(page: Page, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Start a drill").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Strategy drill")
    expect(page.get_by_text("What is your play?")).to_be_visible()
