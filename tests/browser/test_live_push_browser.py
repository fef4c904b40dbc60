"""A move at a live table pushed to the other pages at it (issue 25, point 5): two ASGI
app servers (uvicorn, as deployed) on one PostgreSQL database, their pages' poll made a
minute long, so that only the push (LISTEN/NOTIFY, then server-sent events) can bring a
move in time. Ann plays through the first server, Bob bets behind her through the second.

Seat 3 gets 10♠ 8♦ against the dealer's 9♥; the hole 7♣ makes 16 and the 10♥ busts it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import SCREENSHOTS
from tests.browser.live_helpers import bet, bet_behind, buy_in, play
from tests.browser.test_live_two_servers_browser import ann_and_bob_apart, app_servers

#: A pushed move shows on the other server's page within this; the poll would take 60 s.
SEEN_WITHIN_MS = 3_000


@pytest.fixture
def two_asgi_servers(transactional_db: None, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two uvicorn servers, each a process of its own, on the test's database, their
    pages polling once a minute; stopped, and waited for, when the test ends."""
    with app_servers(tmp_path, _uvicorn, DJANGO_LIVE_POLL_SECONDS="60") as urls:
        yield urls


def _uvicorn(port: int) -> list[str]:
    """The command serving the app on ``port`` with uvicorn, as deployed."""
    return [
        sys.executable, "-m", "uvicorn", "trainer.asgi:application",
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
    ]  # fmt: skip


@pytest.mark.browser
@pytest.mark.postgresql
def test_a_move_is_pushed_to_a_page_on_another_server(
    browser: Browser, two_asgi_servers: tuple[str, str]
) -> None:
    row, anns, bobs = ann_and_bob_apart(browser, *two_asgi_servers)
    for page in (anns, bobs):
        expect(page.get_by_test_id("live-table")).to_have_attribute(
            "hx-trigger", "every 60s, pushed"
        )
        expect(page.get_by_test_id("live-table")).to_have_attribute(
            "data-push", f"/tables/{row.pk}/events/"
        )

    # Each page is pushed its own part of every move: it asks for nothing.
    asked: list[str] = []
    for page in (anns, bobs):
        page.on(
            "request",
            lambda request: asked.append(request.url) if "/state/" in request.url else None,
        )

    buy_in(bobs)
    expect(bobs.get_by_test_id("balance")).to_contain_text("500")
    bet_behind(bobs, 3, 20)
    expect(anns.get_by_test_id("seat-3")).to_contain_text("Behind: bob, 20", timeout=SEEN_WITHIN_MS)

    bet(anns, 3, 10)
    expect(bobs.get_by_test_id("seat-3")).to_contain_text("10♠", timeout=SEEN_WITHIN_MS)
    play(anns, "Stand")
    expect(bobs.get_by_test_id("stage")).to_have_attribute(
        "data-stage", "result", timeout=SEEN_WITHIN_MS
    )
    expect(bobs.get_by_test_id("balance")).to_contain_text("520")

    # The result's countdown is ended by the server, and the next betting window pushed;
    # its buttons work as any htmx answer's do (the page is not loaded again).
    bobs.evaluate("window.stillThisPage = true")
    for page in (anns, bobs):
        expect(page.get_by_test_id("stage")).to_have_attribute(
            "data-stage", "betting", timeout=10_000
        )
    expect(anns.get_by_test_id("seat-3")).not_to_contain_text("Behind")
    bet_behind(bobs, 3, 20)
    expect(anns.get_by_test_id("seat-3")).to_contain_text("Behind: bob, 20", timeout=SEEN_WITHIN_MS)
    assert bobs.evaluate("window.stillThisPage") is True
    assert asked == []
    SCREENSHOTS.mkdir(exist_ok=True)
    bobs.screenshot(path=SCREENSHOTS / "live-pushed-bob-desktop.png", full_page=True)
    bobs.set_viewport_size({"width": 390, "height": 844})
    bobs.screenshot(path=SCREENSHOTS / "live-pushed-bob-phone.png", full_page=True)
