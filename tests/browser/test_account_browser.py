from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from trainer.models import Drill


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_guest_signs_up_and_finds_their_five_answers_on_their_progress_page(
    page: Page, live_server: LiveServer, screen
) -> None:
    page.goto(f"{live_server.url}/drill/")
    page.wait_for_load_state()
    for _ in range(5):
        page.keyboard.press("s")
        expect(page.locator(".feedback__verdict")).to_be_visible()
        expect(page.get_by_role("button", name="Next hand")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.get_by_text("What is your play?")).to_be_visible()

    page.get_by_role("link", name="Sign up").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Create an account")
    screen.shot("signup")
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password:", exact=True).fill("a-long-pass-phrase-7")
    page.get_by_label("Password confirmation").fill("a-long-pass-phrase-7")
    page.get_by_role("button", name="Create account").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Strategy drill")
    expect(page.locator(".account-menu__name")).to_have_text("ann")
    assert Drill.objects.filter(user__username="ann").exclude(answered_at=None).count() == 5

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Progress").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your progress")
    answers = page.locator(".stats div", has=page.get_by_text("Answers", exact=True))
    expect(answers.locator("dd")).to_have_text("5")
    expect(page.locator(".line-chart__dot")).to_have_count(1)
    expect(page.locator("td.heat:not(.heat--unseen)")).not_to_have_count(0)
    screen.shot("progress")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
