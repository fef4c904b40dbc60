from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from engine.rules import EUROPEAN
from engine.strategy import store, strategy_for


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_visitor_weighs_a_change_in_the_rules_lab(
    page: Page, live_server: LiveServer, screen, language: str
) -> None:
    with store.store_used(store.DirectoryStore()):  # worked out before the page asks
        strategy_for(EUROPEAN.with_overrides({"decks": "2"}))
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/chart/european/")
    page.locator('a[href="/rules/lab/"]').click()
    page.locator('form.lab-form input[name="custom_rules"]').fill("decks=2")
    page.locator("form.lab-form button[type=submit]").click()
    figures = page.get_by_test_id("lab-figures")
    expect(figures.locator('tr[data-state="ready"]')).to_have_count(2)
    expect(figures).to_contain_text("decks=2")
    expect(page.get_by_test_id("lab-drill")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screen.shot(f"rules-lab-{language}")
    page.get_by_test_id("lab-drill").click()
    expect(page).to_have_url(f"{live_server.url}/drill/")
