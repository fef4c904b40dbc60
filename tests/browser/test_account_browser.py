from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from trainer.models import Drill

PASSWORD = "a-long-pass-phrase-7"


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
    expect(page.get_by_label("Email address")).to_be_visible()
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Email address").fill("ann@example.com")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
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


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_forgotten_password_is_reset_through_the_link_mailed_at_sign_up(
    page: Page, live_server: LiveServer, screen
) -> None:
    mail.outbox.clear()
    page.goto(f"{live_server.url}/accounts/signup/")
    page.get_by_label("Username").fill("eve")
    page.get_by_label("Email address").fill("eve@example.com")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.locator(".account-menu__name")).to_have_text("eve")

    page.locator(".account-menu").get_by_role("button", name="Log out").click()
    page.locator(".account-menu").get_by_role("link", name="Log in").click()
    page.get_by_role("link", name="Forgotten your password?").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Reset your password")
    page.get_by_label("Email").fill("eve@example.com")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Check your email")

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["eve@example.com"]
    link = next(word for word in message.body.split() if "/accounts/reset/" in word)
    assert link.startswith(live_server.url)
    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_have_text("Choose a new password")
    new = "another-long-phrase-9"
    page.get_by_label("New password:", exact=True).fill(new)
    page.get_by_label("New password confirmation").fill(new)
    page.get_by_role("button", name="Set password").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Password set")

    page.get_by_role("main").get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("eve")
    page.get_by_label("Password").fill(new)
    page.get_by_role("main").get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Strategy drill")
    expect(page.locator(".account-menu__name")).to_have_text("eve")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_after_ten_failed_log_ins_even_the_right_password_is_refused(
    page: Page, live_server: LiveServer, screen
) -> None:
    get_user_model().objects.create_user("ann", password=PASSWORD)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("ann")
    for attempt in range(10):
        page.get_by_label("Password").fill(f"wrong-{attempt}")
        page.get_by_role("main").get_by_role("button", name="Log in").click()
        # The answer is a new page, whose password field is empty again.
        expect(page.get_by_label("Password")).to_have_value("")
        expect(page.get_by_text("Please enter a correct username and password")).to_be_visible()

    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Log in").click()
    expect(page.get_by_text("Too many failed log-ins")).to_be_visible()
    expect(page.get_by_text("Try again in 15 minutes.")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text("Log in")
    expect(page.locator(".account-menu__name")).to_have_count(0)
    screen.shot("login-lockout")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_someone_elses_failures_do_not_lock_out_a_browser_that_logged_in_before(
    page: Page, live_server: LiveServer, screen
) -> None:
    get_user_model().objects.create_user("ann", password=PASSWORD)

    def log_in(password: str) -> None:
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill("ann")
        page.get_by_label("Password").fill(password)
        page.get_by_role("main").get_by_role("button", name="Log in").click()

    log_in(PASSWORD)
    expect(page.locator(".account-menu__name")).to_have_text("ann")
    page.goto(f"{live_server.url}/accounts/logout/")
    page.get_by_role("main").get_by_role("button", name="Log out").click()
    # Someone at the same address (the live server sees every request come from there)
    # guesses ann's password, and the name and the address are locked.
    guesser = Client()
    for attempt in range(30):
        guesser.post(
            "/accounts/login/",
            {"username": "ann" if attempt % 2 else f"guess{attempt}", "password": "wrong"},
            REMOTE_ADDR="127.0.0.1",
        )
    assert (
        guesser.post(
            "/accounts/login/", {"username": "ann", "password": PASSWORD}, REMOTE_ADDR="127.0.0.1"
        ).status_code
        == 429
    )

    log_in(PASSWORD)  # ann's own browser is let through
    expect(page.locator(".account-menu__name")).to_have_text("ann")
    screen.shot("login-trusted-browser")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_log_out_address_opened_directly_offers_a_log_out_button(
    page: Page, live_server: LiveServer, screen
) -> None:
    get_user_model().objects.create_user("cy", password=PASSWORD)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("cy")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Log in").click()
    expect(page.locator(".account-menu__name")).to_have_text("cy")

    page.goto(f"{live_server.url}/accounts/logout/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Log out")
    expect(page.get_by_text("You are logged in as cy.")).to_be_visible()
    screen.shot("logout")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.get_by_role("main").get_by_role("button", name="Log out").click()
    expect(page.locator(".account-menu").get_by_role("link", name="Log in")).to_be_visible()
    expect(page.locator(".account-menu__name")).to_have_count(0)
