"""One live table served by two app-server processes on one PostgreSQL database: Ann
plays through the first, Bob bets behind her through the second, each sees the other's
moves without reloading, and the round settles for both.

Neither server is the test's: each is ``manage.py runserver --noreload`` in a process of
its own, on the test's database, so whatever one knows the other can only have read
there. The table is opened from the test, dealt from a stacked shoe, on the real clock.

Seat 3 gets 10♠ 8♦ against the dealer's 9♥; the hole 7♣ makes 16 and the 10♥ busts it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from playwright.sync_api import Browser, expect

from engine.live_table import LiveTable
from engine.shoe import Shoe
from tests.browser.conftest import SCREENSHOTS, logged_in
from trainer.live.services import open_table
from trainer.models import Bet, SharedTable

ROOT = Path(__file__).resolve().parents[2]
SHOE = "10s 9h 8d 7c 10h " + "2c 3d 4h 5s " * 20
PASSWORD = "a long enough password 1"
#: A move at the table shows on the other server's page by its next poll (every second);
#: a busy shared machine gets a second more.
SEEN_WITHIN_MS = 2_000
#: How long a server may take to start answering.
START_SECONDS = 60


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _database_url() -> str:
    """The test's database (pytest-django's, migrated) as a URL for another process."""
    db = {key: quote(str(value), safe="") for key, value in connection.settings_dict.items()}
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def _answering(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    """Wait until the server answers its health check (or has died: its log says why)."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server for {url} exited: {log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server for {url} did not answer in {START_SECONDS} s: see {log}")


@pytest.fixture
def two_servers(transactional_db: None, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two app servers, each a process of its own, on the test's database; stopped, and
    waited for, when the test ends."""
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
    }
    servers: list[subprocess.Popen[bytes]] = []
    urls = [f"http://127.0.0.1:{_free_port()}" for _number in (1, 2)]
    logs = [tmp_path / f"server-{number}.log" for number in (1, 2)]
    with ExitStack() as cleanup:
        cleanup.callback(_stop, servers)
        for url, log in zip(urls, logs, strict=True):
            address = url.removeprefix("http://")
            output = cleanup.enter_context(log.open("wb"))
            servers.append(
                subprocess.Popen(
                    [sys.executable, "manage.py", "runserver", "--noreload", address],
                    cwd=ROOT,
                    env=env,
                    stdout=output,
                    stderr=subprocess.STDOUT,
                )  # fmt: skip
            )
        for url, server, log in zip(urls, servers, logs, strict=True):
            _answering(url, server, log)
        yield urls[0], urls[1]


def _stop(servers: list[subprocess.Popen[bytes]]) -> None:
    """Stop each server and wait for it (killed if it does not stop within 10 s)."""
    for server in servers:
        server.terminate()
    for server in servers:
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.mark.browser
@pytest.mark.postgresql
def test_two_app_servers_serve_one_table_to_two_accounts(
    browser: Browser, two_servers: tuple[str, str]
) -> None:
    first, second = two_servers
    users = get_user_model().objects
    ann = users.create_user("ann", password=PASSWORD)
    bob = users.create_user("bob", password=PASSWORD)
    anns = logged_in(browser, first, "ann", PASSWORD)
    bobs = logged_in(browser, second, "bob", PASSWORD)
    row = open_table(
        user_id=ann.pk, bots=[], seats=[3], buy_in=500, now=timezone.now(),
        shoe=Shoe.stacked(SHOE),
    )  # fmt: skip
    anns.goto(f"{first}/tables/{row.pk}/")
    bobs.goto(f"{second}/tables/{row.pk}/")

    # Bob joins and bets behind Ann's seat on the second server; Ann's page, served by
    # the first, shows it by its next poll.
    bobs.get_by_role("button", name="500 chips").click()
    expect(bobs.get_by_test_id("balance")).to_contain_text("500")
    bobs.get_by_role("group", name="Bet behind seat 3").get_by_role(
        "button", name="20", exact=True
    ).click()
    expect(bobs.get_by_test_id("seat-3")).to_contain_text("Behind: You, 20")
    expect(anns.get_by_test_id("seat-3")).to_contain_text("Behind: bob, 20", timeout=SEEN_WITHIN_MS)

    # Ann bets through the first server (hers is the only seat: dealt at once); Bob's
    # page, served by the second, shows her cards and her turn.
    anns.get_by_role("group", name="Your bet on seat 3").get_by_role(
        "button", name="10", exact=True
    ).click()
    expect(anns.get_by_test_id("decision")).to_be_visible()
    expect(bobs.get_by_test_id("seat-3")).to_contain_text("10♠", timeout=SEEN_WITHIN_MS)
    expect(bobs.get_by_test_id("turn")).to_contain_text("Seat 3 to play: ann")

    # Ann stands: both pages show the round settled, each with its own balance.
    anns.get_by_test_id("decision").get_by_role("button", name="Stand").click()
    expect(anns.get_by_test_id("stage")).to_have_attribute("data-stage", "result")
    expect(bobs.get_by_test_id("stage")).to_have_attribute(
        "data-stage", "result", timeout=SEEN_WITHIN_MS
    )
    for page, balance in ((anns, "510"), (bobs, "520")):
        expect(page.get_by_test_id("seat-3")).to_contain_text("Win")
        expect(page.get_by_test_id("balance")).to_contain_text(balance)
    SCREENSHOTS.mkdir(exist_ok=True)
    anns.screenshot(path=SCREENSHOTS / "live-two-servers-ann-desktop.png", full_page=True)
    bobs.screenshot(path=SCREENSHOTS / "live-two-servers-bob-desktop.png", full_page=True)

    # What the servers wrote is the one table, settled once.
    row = SharedTable.objects.get(pk=row.pk)
    table = LiveTable.from_json(row.state)
    assert table.balances == {f"account {ann.pk}": 510, f"account {bob.pk}": 520}
    recorded = Bet.objects.filter(live_table=row).order_by("kind")
    assert [(b.user_id, b.kind, b.staked, b.returned) for b in recorded] == [
        (bob.pk, "behind", 20, 40),
        (ann.pk, "hand", 10, 20),
    ]
