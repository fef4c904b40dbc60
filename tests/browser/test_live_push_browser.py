"""A move at a live table pushed to the other pages at it (issue 25, point 5): two ASGI
app servers (uvicorn, as deployed) on one PostgreSQL database, their pages' poll made a
minute long, so that only the push (LISTEN/NOTIFY, then server-sent events) can bring a
move in time. Ann plays through the first server, Bob bets behind her through the second.

Seat 3 gets 10♠ 8♦ against the dealer's 9♥; the hole 7♣ makes 16 and the 10♥ busts it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Browser, expect

from engine.shoe import Shoe
from tests.browser.conftest import SCREENSHOTS, logged_in
from tests.browser.test_live_two_servers_browser import (
    PASSWORD,
    ROOT,
    SHOE,
    _answering,
    _database_url,
    _free_port,
    _stop,
)
from trainer.live.services import open_table

#: A pushed move shows on the other server's page within this; the poll would take 60 s.
SEEN_WITHIN_MS = 3_000


@pytest.fixture
def two_asgi_servers(transactional_db: None, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two uvicorn servers, each a process of its own, on the test's database, their
    pages polling once a minute; stopped, and waited for, when the test ends."""
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "DJANGO_SETTINGS_MODULE": "trainer.test_settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "two servers, one database: a key for this test only",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SESSION_COOKIE_SECURE": "0",
        "DJANGO_CSRF_COOKIE_SECURE": "0",
        "DJANGO_LIVE_POLL_SECONDS": "60",
    }
    servers: list[subprocess.Popen[bytes]] = []
    ports = [_free_port() for _number in (1, 2)]
    logs = [tmp_path / f"server-{number}.log" for number in (1, 2)]
    with ExitStack() as cleanup:
        cleanup.callback(_stop, servers)
        for port, log in zip(ports, logs, strict=True):
            output = cleanup.enter_context(log.open("wb"))
            servers.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "uvicorn",
                        "trainer.asgi:application",
                        "--host",
                        "127.0.0.1",
                        "--port",
                        str(port),
                        "--log-level",
                        "warning",
                    ],
                    cwd=ROOT,
                    env=env,
                    stdout=output,
                    stderr=subprocess.STDOUT,
                )  # fmt: skip
            )
        urls = [f"http://127.0.0.1:{port}" for port in ports]
        for url, server, log in zip(urls, servers, logs, strict=True):
            _answering(url, server, log)
        yield urls[0], urls[1]


@pytest.mark.browser
@pytest.mark.postgresql
def test_a_move_is_pushed_to_a_page_on_another_server(
    browser: Browser, two_asgi_servers: tuple[str, str]
) -> None:
    first, second = two_asgi_servers
    users = get_user_model().objects
    ann = users.create_user("ann", password=PASSWORD)
    users.create_user("bob", password=PASSWORD)
    anns = logged_in(browser, first, "ann", PASSWORD)
    bobs = logged_in(browser, second, "bob", PASSWORD)
    row = open_table(
        user_id=ann.pk, bots=[], seats=[3], buy_in=500, now=timezone.now(),
        shoe=Shoe.stacked(SHOE),
    )  # fmt: skip
    anns.goto(f"{first}/tables/{row.pk}/")
    bobs.goto(f"{second}/tables/{row.pk}/")
    for page in (anns, bobs):
        expect(page.get_by_test_id("live-table")).to_have_attribute(
            "hx-trigger", "every 60s, pushed"
        )
        expect(page.get_by_test_id("live-table")).to_have_attribute(
            "data-push", f"/tables/{row.pk}/events/"
        )

    bobs.get_by_role("button", name="500 chips").click()
    expect(bobs.get_by_test_id("balance")).to_contain_text("500")
    bobs.get_by_role("group", name="Bet behind seat 3").get_by_role(
        "button", name="20", exact=True
    ).click()
    expect(anns.get_by_test_id("seat-3")).to_contain_text("Behind: bob, 20", timeout=SEEN_WITHIN_MS)

    anns.get_by_role("group", name="Your bet on seat 3").get_by_role(
        "button", name="10", exact=True
    ).click()
    expect(bobs.get_by_test_id("seat-3")).to_contain_text("10♠", timeout=SEEN_WITHIN_MS)
    anns.get_by_test_id("decision").get_by_role("button", name="Stand").click()
    expect(bobs.get_by_test_id("stage")).to_have_attribute(
        "data-stage", "result", timeout=SEEN_WITHIN_MS
    )
    expect(bobs.get_by_test_id("balance")).to_contain_text("520")
    SCREENSHOTS.mkdir(exist_ok=True)
    bobs.screenshot(path=SCREENSHOTS / "live-pushed-bob-desktop.png", full_page=True)
