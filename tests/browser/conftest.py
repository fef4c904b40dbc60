"""Browser tests run each journey at a desktop and a phone size, and keep screenshots."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

if TYPE_CHECKING:
    from tests.browser.live_helpers import Clock

SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
#: The password of every account the browser tests make with `accounts`.
PASSWORD = "a long enough password 1"
# These machines are shared: give a busy server more than the default 5 s to answer.
expect.set_options(timeout=10_000)


@pytest.fixture(scope="session", autouse=True)
def presets_worked_out() -> Callable[[], None]:
    """Work out the presets' analyses before the first page asks for one; the fixture's
    value does it again, for a test that empties `strategy_for`'s cache.

    The live server runs in the test process, so it finds them in `strategy_for`'s own
    cache: without this the first chart or drill page waits for a cold analysis, which on
    a loaded machine outlasts a navigation's timeout. The engine's folder store keeps them
    between runs, as the command line does.
    """
    from engine.rules import PRESETS
    from engine.strategy import store, strategy_for

    def work_out() -> None:
        with store.store_used(store.DirectoryStore()):
            for rules in PRESETS.values():
                strategy_for(rules)

    work_out()
    return work_out


@pytest.fixture(autouse=True)
def _contexts_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close the browser contexts a test opened itself (`logged_in`'s and the like): left
    open, a live table's pages go on polling the live server once a second through every
    later test of the session, against other tests' data."""
    browser = request.getfixturevalue("browser") if "browser" in request.fixturenames else None
    yield
    if browser is not None:
        for context in browser.contexts:
            context.close()


@dataclass
class Screen:
    name: str
    page: Page

    def shot(self, label: str) -> None:
        """Save a full-page screenshot as tests/screenshots/<label>-<screen>.png."""
        SCREENSHOTS.mkdir(exist_ok=True)
        self.page.screenshot(path=SCREENSHOTS / f"{label}-{self.name}.png", full_page=True)


@pytest.fixture(params=list(SIZES))
def screen(request: pytest.FixtureRequest, page: Page) -> Screen:
    """The page, sized as a desktop or a phone (each test runs at both)."""
    width, height = SIZES[request.param]
    page.set_viewport_size({"width": width, "height": height})
    return Screen(request.param, page)


def sit_down(
    page: Page,
    url: str,
    shoe: str,
    *,
    seats: dict[int, str] | None = None,
    rules: str | None = None,
    ticked: tuple[str, ...] = (),
) -> None:
    """Sit down at a practice table through its form, dealt from a stacked shoe: ``seats``
    says who sits where (by default you alone, in seat 1), ``ticked`` the options checked."""
    page.goto(f"{url}/practice/")
    if rules is not None:
        page.get_by_label("Rules").select_option(rules)
    for seat in range(1, 8):
        page.get_by_label(f"Seat {seat}").select_option((seats or {1: "you"}).get(seat, ""))
    for label in ticked:
        page.get_by_label(label).check()
    page.get_by_label("Stacked shoe (test mode)").fill(shoe)
    page.get_by_role("button", name="Sit down").click()
    page.wait_for_load_state()  # the keyboard script is deferred


def settled(page: Page) -> None:
    """Wait for htmx to finish settling the last swap (20 ms), as any person's next key
    press does. Until then focus may still move: the browser focuses a swapped-in
    [autofocus] at its next frame and htmx again when it settles, so a key pressed between
    the two may land on the autofocused button."""
    # A locator, not wait_for_function: polling a script would need eval, which the
    # Content-Security-Policy forbids.
    expect(page.locator(".htmx-settling, .htmx-request")).to_have_count(0)


def fits_the_width(page: Page) -> bool:
    """Whether the page fits the window's width, with nothing to scroll sideways to."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def accounts(*names: str) -> list[AbstractBaseUser]:
    """An account for each of ``names``, each with the password `PASSWORD`."""
    users = get_user_model().objects
    return [users.create_user(name, password=PASSWORD) for name in names]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """`timezone.now`, as the live views read it (the live server runs in the test's
    process): standing still, so that no deadline passes, until the test moves it."""
    from tests.browser.live_helpers import Clock  # which imports this module

    now = Clock()
    monkeypatch.setattr(timezone, "now", now)
    return now


def log_in(page: Page, url: str, name: str, password: str = PASSWORD) -> None:
    """Log ``page`` in through the log-in form at ``url`` (the site's root) as ``name``."""
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(password)
    page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.locator(".account-menu__name")).to_have_text(name)


def logged_in(
    browser: Browser, url: str, name: str, password: str = PASSWORD, size: str = "desktop"
) -> Page:
    """A page of a browser context of its own, logged in through the log-in form at ``url``
    (the site's root) as the account ``name``, at a size of `SIZES`."""
    width, height = SIZES[size]
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    log_in(page, url, name, password)
    return page


def drill_settings(page: Page, url: str) -> None:
    """The drill page at ``url`` (the site's root), its settings opened."""
    page.goto(f"{url}/drill/")
    page.get_by_text("Settings").click()


def save_and_deal(page: Page) -> None:
    """Save the drill's settings and deal, and wait for the new page's load (its keyboard
    script is deferred)."""
    page.get_by_role("button", name="Save and deal").click()
    page.wait_for_load_state()
