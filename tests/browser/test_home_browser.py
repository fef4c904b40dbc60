from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("screen", "width", "height"),
    [("desktop", 1280, 800), ("phone", 390, 844)],
)
def test_home_shows_the_heading_without_sideways_scrolling(
    page: Page, live_server: LiveServer, screen: str, width: int, height: int
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/")

    expect(page).to_have_title("Blackjack Strategy Trainer")
    expect(page.get_by_role("heading", level=1)).to_have_text("Blackjack Strategy Trainer")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"home-{screen}.png", full_page=True)
