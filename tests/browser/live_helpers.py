"""What the live tables' browser tests share: a clock the test moves, a table opened from a
stacked shoe, the people looking at it, and the clicks that buy in, bet and play there."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from django.contrib.auth.base_user import AbstractBaseUser
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from engine.live_table import LiveTable
from engine.shoe import Shoe
from engine.table import BotSeat
from tests.browser.conftest import accounts, log_in, logged_in
from trainer.live.services import open_table
from trainer.models import SharedTable


class Clock:
    """`timezone.now`, moved forward by hand (the `clock` fixture puts it in place)."""

    def __init__(self) -> None:
        self.at = datetime.now(tz=UTC)

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)

    def to_deadline(self, row: SharedTable, seconds: float) -> None:
        """Set the clock ``seconds`` past the table's current deadline, as stored (before
        it, where negative)."""
        row.refresh_from_db()
        self.at = datetime.fromtimestamp(LiveTable.from_json(row.state).deadline + seconds, tz=UTC)


def live_table(
    opener: AbstractBaseUser,
    shoe: str | None = None,
    *,
    seats: Sequence[int] = (3,),
    bots: Sequence[BotSeat] = (),
) -> SharedTable:
    """A table opened now (by `timezone.now`: the test's clock, where it set one) by
    ``opener``, bought in for 500 and sitting at ``seats``, with ``bots``, dealt from the
    stacked ``shoe`` (without one, a shuffled shoe)."""
    return open_table(
        user_id=opener.pk, bots=list(bots), seats=list(seats), buy_in=500, now=timezone.now(),
        shoe=None if shoe is None else Shoe.stacked(shoe),
    )  # fmt: skip


def ann_and_bob(
    browser: Browser,
    url: str,
    shoe: str,
    *,
    seats: Sequence[int] = (3,),
    size: str = "desktop",
    bobs: Page | None = None,
) -> tuple[SharedTable, Page, Page]:
    """Ann's table (`live_table`), and her page and Bob's at ``url`` (the site's root)
    showing it, Bob bought in. Each page is in a browser context of its own at ``size``
    (Bob's is ``bobs`` where given), both logged in before either opens the table."""
    ann, _bob = accounts("ann", "bob")
    row = live_table(ann, shoe, seats=seats)
    anns = logged_in(browser, url, "ann", size=size)
    if bobs is None:
        bobs = logged_in(browser, url, "bob", size=size)
    else:
        log_in(bobs, url, "bob")
    for page in (anns, bobs):
        page.goto(f"{url}/tables/{row.pk}/")
    buy_in(bobs)
    return row, anns, bobs


def alone_at_a_table(
    page: Page,
    url: str,
    shoe: str | None = None,
    *,
    seats: Sequence[int] = (3,),
    bots: Sequence[BotSeat] = (),
) -> SharedTable:
    """Ann's table (`live_table`), and ``page`` logged in as her at ``url`` (the site's
    root) and showing it."""
    [ann] = accounts("ann")
    row = live_table(ann, shoe, seats=seats, bots=bots)
    log_in(page, url, "ann")
    page.goto(f"{url}/tables/{row.pk}/")
    return row


def buy_in(page: Page) -> None:
    """Buy in for 500 chips at the table."""
    page.get_by_role("button", name="500 chips").click()


def bet(page: Page, seat: int, chips: int) -> None:
    """Click the chip of ``chips`` in the viewer's bet on ``seat``."""
    _chip(page, f"Your bet on seat {seat}", chips)


def bet_behind(page: Page, seat: int, chips: int) -> None:
    """Click the chip of ``chips`` in the viewer's bet behind ``seat``."""
    _chip(page, f"Bet behind seat {seat}", chips)


def _chip(page: Page, group: str, chips: int) -> None:
    page.get_by_role("group", name=group).get_by_role("button", name=str(chips), exact=True).click()


def play(page: Page, action: str) -> None:
    """Click ``action`` among the decision's buttons."""
    page.get_by_test_id("decision").get_by_role("button", name=action).click()


def on_version(page: Page, row: SharedTable) -> None:
    """Wait until the page shows the table's stored version: an action is taken only
    from the current one (a click on a table that moved on changes nothing)."""
    row.refresh_from_db()
    expect(page.get_by_test_id("live-table")).to_have_attribute("data-version", str(row.version))
