from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from engine.rules import EUROPEAN
from engine.strategy import store, strategy_for

#: The lab built below: two changes to the European rules.
CHANGES = {"decks": "2", "dealer_hits_soft_17": "true"}


def worked_out_before_the_page_asks() -> None:
    """The whole set's analysis and each change's alone, kept in this process (where the
    live server runs) as the background would have stored them."""
    with store.store_used(store.DirectoryStore()):
        strategy_for(EUROPEAN.with_overrides(CHANGES))
        for field, value in CHANGES.items():
            strategy_for(EUROPEAN.with_overrides({field: value}))


def no_sideways_scroll(page: Page) -> None:
    """The page does not scroll sideways, and nothing of the form, the figures or the
    chart's region lies outside the window (in Arabic the overflow would be to the left,
    where the page cannot scroll: cut, not scrolled)."""
    width = page.evaluate("innerWidth")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    for box in page.locator(".lab-form, .lab .chart-scroll, .lab-actions").all():
        bounds = box.bounding_box()
        assert bounds is not None and bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= width
    # The chart fits whole, marks and all: no column hides in its scroll region.
    for region in page.locator(".lab .strategy-chart").locator("..").all():
        assert region.evaluate("region => region.scrollWidth <= region.clientWidth")


def option_words(page: Page, field: str, value: str) -> str:
    return page.locator(f'select[name="{field}"] option[value="{value}"]').inner_text()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_visitor_builds_rules_in_the_lab_and_plays_them(
    page: Page, live_server: LiveServer, screen, language: str
) -> None:
    worked_out_before_the_page_asks()
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/chart/european/")
    page.locator('a[href="/rules/lab/"]').click()
    expect(page.locator('select[name="decks"]')).to_have_value("6")  # the European shoe

    # A preset chosen: its values in every control.
    page.locator('select[name="rules_name"]').select_option("deluxe")
    page.get_by_test_id("lab-use-preset").click()
    expect(page.locator('select[name="decks"]')).to_have_value("8")
    # A set that is no game: refused at its control, nothing weighed.
    page.locator('select[name="resplit_aces"]').select_option("true")
    page.get_by_test_id("lab-compare").click()
    refusal = page.locator("#id_resplit_aces_error")
    expect(refusal).to_be_visible()
    expect(page.locator('select[name="resplit_aces"]')).to_have_attribute(
        "aria-describedby", "id_resplit_aces_error"
    )
    expect(page.get_by_test_id("lab-figures")).to_have_count(0)
    no_sideways_scroll(page)
    screen.shot(f"rules-lab-refused-{language}")

    page.locator('select[name="rules_name"]').select_option("european")
    page.get_by_test_id("lab-use-preset").click()
    for field, value in CHANGES.items():
        page.locator(f'select[name="{field}"]').select_option(value)
    page.get_by_test_id("lab-compare").click()
    figures = page.get_by_test_id("lab-figures")
    expect(figures.locator('tr[data-state="ready"]')).to_have_count(4)
    for field, value in CHANGES.items():
        expect(figures).to_contain_text(option_words(page, field, value))
    expect(figures).not_to_contain_text("decks=2")
    effects = figures.locator("tbody tr td:last-child").all_inner_texts()
    assert all(re.fullmatch(r"[+\u2212]?\d+[.,٫]\d\d%", effect) for effect in effects), effects
    expect(page.locator(".lab .differs-mark").first).to_be_attached()
    no_sideways_scroll(page)
    screen.shot(f"rules-lab-{language}")

    page.get_by_test_id("lab-drill").click()
    expect(page).to_have_url(f"{live_server.url}/drill/")
    page.go_back()
    words = option_words(page, "decks", "2")
    page.get_by_test_id("lab-practise").click()
    expect(page).to_have_url(re.compile(r"/practice/\d+/$"))
    expect(page.get_by_test_id("rules-line").first).to_be_visible()
    expect(page.locator("main")).to_contain_text(words)
    screen.shot(f"rules-lab-practice-{language}")
