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
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from playwright.sync_api import Browser, Page, expect

from engine.live_table import LiveTable
from tests.browser.conftest import SCREENSHOTS, accounts, logged_in
from tests.browser.live_helpers import bet, bet_behind, buy_in, live_table, play
from trainer.models import Bet, SharedTable

ROOT = Path(__file__).resolve().parents[2]
SHOE = "10s 9h 8d 7c 10h " + "2c 3d 4h 5s " * 20
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


@contextmanager
def app_servers(
    tmp_path: Path, command: Callable[[int], list[str]], **settings: str
) -> Iterator[tuple[str, str]]:
    """Two app servers, each a process of its own started by ``command`` (given its port),
    on the test's database, ``settings`` added to their environment, their output logged in
    ``tmp_path``; stopped, and waited for, on leaving."""
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
        **settings,
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
                    command(port), cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT
                )
            )
        urls = [f"http://127.0.0.1:{port}" for port in ports]
        for url, server, log in zip(urls, servers, logs, strict=True):
            _answering(url, server, log)
        yield urls[0], urls[1]


@pytest.fixture
def two_servers(transactional_db: None, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two app servers (``manage.py runserver``), each a process of its own, on the test's
    database; stopped, and waited for, when the test ends."""
    with app_servers(
        tmp_path,
        lambda port: [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
    ) as urls:
        yield urls


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


def ann_and_bob_apart(browser: Browser, first: str, second: str) -> tuple[SharedTable, Page, Page]:
    """Ann logged in at the ``first`` server and Bob at the ``second``, then Ann's table
    (`live_table`) opened, and shown in both pages."""
    ann, _bob = accounts("ann", "bob")
    anns = logged_in(browser, first, "ann")
    bobs = logged_in(browser, second, "bob")
    row = live_table(ann, SHOE)
    anns.goto(f"{first}/tables/{row.pk}/")
    bobs.goto(f"{second}/tables/{row.pk}/")
    return row, anns, bobs


@pytest.mark.browser
@pytest.mark.postgresql
def test_two_app_servers_serve_one_table_to_two_accounts(
    browser: Browser, two_servers: tuple[str, str]
) -> None:
    row, anns, bobs = ann_and_bob_apart(browser, *two_servers)

    # Bob joins and bets behind Ann's seat on the second server; Ann's page, served by
    # the first, shows it by its next poll.
    buy_in(bobs)
    expect(bobs.get_by_test_id("balance")).to_contain_text("500")
    bet_behind(bobs, 3, 20)
    expect(bobs.get_by_test_id("seat-3")).to_contain_text("Behind: You, 20")
    expect(anns.get_by_test_id("seat-3")).to_contain_text("Behind: bob, 20", timeout=SEEN_WITHIN_MS)

    # Ann bets through the first server (hers is the only seat: dealt at once); Bob's
    # page, served by the second, shows her cards and her turn.
    bet(anns, 3, 10)
    expect(anns.get_by_test_id("decision")).to_be_visible()
    expect(bobs.get_by_test_id("seat-3")).to_contain_text("10♠", timeout=SEEN_WITHIN_MS)
    expect(bobs.get_by_test_id("turn")).to_contain_text("Seat 3 to play: ann")

    # Ann stands: both pages show the round settled, each with its own balance.
    play(anns, "Stand")
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
    ann, bob = (get_user_model().objects.get(username=name) for name in ("ann", "bob"))
    row = SharedTable.objects.get(pk=row.pk)
    table = LiveTable.from_json(row.state)
    assert table.balances == {f"account {ann.pk}": 510, f"account {bob.pk}": 520}
    recorded = Bet.objects.filter(live_table=row).order_by("kind")
    assert [(b.user_id, b.kind, b.staked, b.returned) for b in recorded] == [
        (bob.pk, "behind", 20, 40),
        (ann.pk, "hand", 10, 20),
    ]
