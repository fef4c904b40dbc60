"""The live lobby, in a browser: an account opens a table at the pace it chooses, reading
the two-seat rule where it chooses its seats; its table waits for the first bet; the lobby
lists the table with its pace and people, says when idle tables close, and pages on."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import SCREENSHOTS, SIZES, Screen, accounts, fits_the_width, logged_in
from tests.browser.live_helpers import live_table


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", list(SIZES))
def test_an_account_opens_a_table_at_its_pace_and_finds_it_in_the_lobby(
    browser: Browser, live_server: LiveServer, size: str
) -> None:
    accounts("ann")
    for n in range(50):  # a full first page of others' tables, each with its opener
        live_table(get_user_model().objects.create_user(f"player{n}"), seats=[n % 7 + 1])
    page = logged_in(browser, live_server.url, "ann", size=size)
    screen = Screen(size, page)
    page.goto(f"{live_server.url}/tables/")
    expect(page.get_by_test_id("idle-rule")).to_contain_text("closes by itself")
    expect(page.get_by_test_id("lobby-table")).to_have_count(50)
    expect(page.get_by_test_id("pages")).to_have_count(0)  # one page: no links
    pace = page.get_by_label("Seconds for each decision")
    expect(pace).to_have_value("20")
    expect(pace).to_have_attribute("aria-describedby", "pace-hint")
    expect(page.get_by_test_id("same-bet")).to_be_visible()
    pace.select_option("30")
    page.get_by_label("Seat 2").select_option("you")
    page.get_by_label("Seat 4").select_option("")  # offered to her first: one seat alone
    page.get_by_role("button", name="Open the table").scroll_into_view_if_needed()
    screen.shot("live-lobby-open")
    page.locator("form.live-open").screenshot(path=SCREENSHOTS / f"live-lobby-form-{size}.png")
    page.get_by_role("button", name="Open the table").click()

    # Her table waits for a first bet: no countdown runs while she reads it.
    expect(page.get_by_test_id("countdown")).to_have_text("The countdown starts at the first bet.")
    expect(page.get_by_test_id("pace")).to_contain_text("Each decision: 30 seconds")
    expect(page.get_by_test_id("same-bet")).to_have_count(1)  # beside her second seat
    page.wait_for_timeout(1_500)  # a poll or more: still waiting
    expect(page.get_by_test_id("countdown")).to_have_text("The countdown starts at the first bet.")
    screen.shot("live-table-waiting")

    page.goto(f"{live_server.url}/tables/")
    expect(page.get_by_test_id("pages")).to_contain_text("Page 1 of 2")
    page.get_by_role("link", name="More tables").click()
    expect(page.get_by_test_id("lobby-table")).to_have_count(1)
    page.get_by_role("link", name="Previous tables").click()
    expect(page.get_by_test_id("lobby-table")).to_have_count(50)
    screen.shot("live-lobby")
    assert fits_the_width(page)
