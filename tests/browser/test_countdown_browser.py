"""A live table's countdown ticks in the words of its number's plural form: "1 second
left", never "1 seconds left"; in Polish "Zostały 2 sekundy", then "Została 1 sekunda".

The server's clock is held three seconds before the betting deadline, so every poll
answers the same; the page's script counts the seconds down from there.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import accounts, log_in
from tests.browser.live_helpers import Clock, live_table
from trainer.live.services import LiveOp, LiveOrder, live_request
from trainer.shared.owners import Owner


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("language", "counted"),
    [
        ("en", ["3 seconds left", "2 seconds left", "1 second left"]),
        ("pl", ["Zostały 3 sekundy", "Zostały 2 sekundy", "Została 1 sekunda"]),
    ],
)
def test_the_countdown_says_each_number_in_its_plural_form(
    page: Page, live_server: LiveServer, clock: Clock, language: str, counted: list[str]
) -> None:
    [ann] = accounts("ann")
    row = live_table(ann)
    first_bet = LiveOrder(LiveOp.BET, row.version, seat=3, amount=10)  # starts the countdown
    live_request(owner=Owner.account(ann.pk), table_id=row.pk, order=first_bet, now=clock())
    clock.to_deadline(row, -3)
    log_in(page, live_server.url, "ann")
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/tables/{row.pk}/")
    countdown = page.get_by_test_id("countdown")
    for words in counted:
        expect(countdown).to_have_text(words)
