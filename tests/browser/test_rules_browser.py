from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer


def _fits(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_visitor_reads_the_rules_from_the_chart_in_english(
    page: Page, live_server: LiveServer, screen
) -> None:
    page.goto(f"{live_server.url}/chart/european/")
    page.get_by_test_id("chart-rules").get_by_role("link", name="European").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("European rules")
    expect(page.get_by_test_id("rules-facts")).to_contain_text("dealer stands on soft 17")
    document = page.get_by_test_id("rules-document")
    expect(document).to_have_attribute("lang", "en")
    expect(document.get_by_role("listitem").first).to_have_text(
        "6 standard 52-card decks, shuffled on the server."
    )
    notes = page.get_by_test_id("product-notes")
    expect(notes).to_contain_text("does not look at the hole card")
    assert _fits(page)
    screen.shot("rules-european-en")

    # The Arabic original, read from the English page, runs right to left.
    page.get_by_role("navigation", name="The rule document in other languages").locator(
        'a[lang="ar"]'
    ).click()
    expect(document).to_have_attribute("dir", "rtl")
    expect(document).to_contain_text("استخدم 6 رزم قياسية ممزوجة على الخادم.")
    assert page.evaluate("document.documentElement.dir") == "ltr"
    assert _fits(page)
    screen.shot("rules-european-ar-in-en")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_arabic_reader_reads_the_deluxe_document_with_its_tables(
    page: Page, live_server: LiveServer, screen
) -> None:
    page.goto(f"{live_server.url}/")
    page.get_by_label("Language").select_option("ar")
    page.locator(".language-switcher button").click()
    page.goto(f"{live_server.url}/rules/deluxe/")

    assert page.evaluate("document.documentElement.dir") == "rtl"
    document = page.get_by_test_id("rules-document")
    expect(document).to_have_attribute("lang", "ar")
    expect(document.locator("table.rules-table")).to_have_count(4)
    expect(document).to_contain_text("يمكن للعبة أن تستوعب ما يصل إلى سبعة مقاعد")
    # The document's text is right-aligned, the notes stay apart from it.
    align = document.locator("p").first.evaluate("p => getComputedStyle(p).direction")
    assert align == "rtl"
    expect(page.get_by_test_id("product-notes")).to_be_visible()
    assert _fits(page)
    screen.shot("rules-deluxe-ar")

    page.goto(f"{live_server.url}/rules/european/")
    expect(page.get_by_test_id("rules-document")).to_contain_text(
        "استخدم 6 رزم قياسية ممزوجة على الخادم."
    )
    assert _fits(page)
    screen.shot("rules-european-ar")
