"""The casino-ready check in a browser (issue 27): its standard, an attempt started at a
full counting table, left early, and graded as not passed, with the attempt on record; in
English and Arabic at both widths, each state scanned by axe."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import Screen, fits_the_width, settled
from tests.browser.test_accessibility_browser import violations
from tests.counting_tables import store_index_table
from trainer.models import CasinoCheck


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ar"])
def test_an_attempt_left_early_is_graded_not_passed_and_kept(
    screen: Screen, live_server: LiveServer, language: str
) -> None:
    store_index_table()
    page = screen.page
    page.emulate_media(reduced_motion="reduce")
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/counting/casino-ready/")
    expect(page.get_by_test_id("casino-standard").locator("li")).to_have_count(5)
    found = {"start": violations(page)}
    assert fits_the_width(page)
    screen.shot(f"casino-start-{language}")

    page.locator("main form button[type=submit]").click()
    expect(page.get_by_test_id("casino-banner")).to_be_visible()
    expect(page.locator(".seat")).to_have_count(7)
    found["table"] = violations(page)
    screen.shot(f"casino-table-{language}")

    page.locator("button[name=op][value=deal]").click()
    settled(page)
    # Stand (or decline insurance) until the round is over: the table asks nothing then
    # only when the random moment does not fall (and the end of the session needs none).
    for _ in range(8):
        if page.locator("form.practice__end button").is_visible():
            break
        page.locator(
            "button[name=action][value=stand], button[name=action][value=no_insurance]"
        ).first.click()
        settled(page)
    page.locator("form.practice__end button").click()
    expect(page.get_by_test_id("casino-result")).to_be_visible()
    check = CasinoCheck.objects.get()
    assert check.passed is False and check.figures["shoe_ended"] is False
    found["result"] = violations(page)
    assert fits_the_width(page)
    screen.shot(f"casino-result-{language}")

    page.goto(f"{live_server.url}/counting/casino-ready/")
    expect(page.get_by_test_id("casino-attempts").locator("tbody tr")).to_have_count(1)
    assert all(not broken for broken in found.values()), json.dumps(found, ensure_ascii=False)
