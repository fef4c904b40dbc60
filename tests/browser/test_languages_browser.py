from __future__ import annotations

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from trainer.models import Drill

OTHER_LANGUAGES = ["ar", "ka", "hi", "pl"]
#: The default table (easy bot, normal bot, you, hard bot): you hold 10 and 6 against a 9,
#: and the bots before you draw from the rest.
SHOE = "2c 3d 10s 4h 9d 8s 5c 6h 7c 10c 2d 3h 4c 5d 10h 10d 9c 9h 8c 8d 7h 7d 6c 6d"


def choose_language(page: Page, live_server: LiveServer, language: str) -> None:
    """As the header's language menu would: Django's language cookie."""
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )


def fits_the_width(page: Page) -> bool:
    """Nothing sticks out sideways (longer words in other languages must wrap)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def said(language: str, text: str) -> str:
    with translation.override(language):
        return translation.gettext(text)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_visitor_switches_to_arabic_and_drills_right_to_left(
    page: Page, live_server: LiveServer, screen
) -> None:
    page.goto(f"{live_server.url}/drill/")
    page.get_by_label("Language").select_option("ar")
    page.get_by_role("button", name="Change language").click()

    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    expect(page.get_by_role("heading", level=1)).to_have_text(said("ar", "Strategy drill"))
    expect(page.get_by_text(said("ar", "What is your play?"))).to_be_visible()
    page.wait_for_load_state()  # the keyboard script is deferred: wait until it runs
    # The felt reads from the right: the dealer's hand is right of the player's.
    dealer = page.locator(".felt__hand").first.bounding_box()
    player = page.locator(".felt__hand").nth(1).bounding_box()
    assert dealer is not None and player is not None
    if screen.name == "desktop":
        assert dealer["x"] > player["x"]
    assert fits_the_width(page)
    screen.shot("drill-question-ar")

    page.keyboard.press("h")  # the keys stay the letters printed on the buttons
    expect(page.locator(".feedback__verdict")).to_be_visible()
    expect(page.get_by_role("table")).to_contain_text(said("ar", "Hit"))
    expect(page.get_by_role("button", name=said("ar", "Next hand"))).to_be_focused()
    screen.shot("drill-feedback-ar")
    assert Drill.objects.exclude(answered_at=None).count() == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_the_practice_table_in_each_language(
    page: Page, live_server: LiveServer, screen, language: str
) -> None:
    choose_language(page, live_server, language)
    page.goto(f"{live_server.url}/practice/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("html")).to_have_attribute("dir", "rtl" if language == "ar" else "ltr")
    page.get_by_label(said(language, "Stacked shoe (test mode)")).fill(SHOE)
    page.get_by_role("button", name=said(language, "Sit down")).click()
    page.wait_for_load_state()  # the keyboard script is deferred
    page.keyboard.press("Enter")  # deal
    expect(page.get_by_role("button", name=said(language, "Stand"))).to_be_visible()
    expect(page.get_by_test_id("dealer-cards").locator(".card--back")).to_have_count(1)
    assert fits_the_width(page)
    screen.shot(f"practice-decision-{language}")
    page.keyboard.press("s")  # stand on 16: the dealer's 9 and 10 make 19
    expect(page.get_by_test_id("round-result")).to_contain_text("-10")
    expect(page.get_by_test_id("balance")).to_have_text("990")
    assert fits_the_width(page)
    screen.shot(f"practice-settled-{language}")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_page_fits_the_screen_in_each_language(
    page: Page, live_server: LiveServer, screen, language: str
) -> None:
    choose_language(page, live_server, language)
    pages = {
        "home": "/",
        "drill": "/drill/",
        "progress": "/progress/",
        "chart": "/chart/european/",
        "login": "/accounts/login/",
        "signup": "/accounts/signup/",
        "practice-start": "/practice/",
    }
    for name, path in pages.items():
        page.goto(f"{live_server.url}{path}")
        expect(page.locator("html")).to_have_attribute("lang", language)
        screen.shot(f"{name}-{language}")
        assert fits_the_width(page), name
