from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from pytest_django.asserts import assertContains, assertNotContains, assertRedirects

from tests.trainer.conftest import Clock
from trainer.accounts.limits import DEVICE_COOKIE
from trainer.models import Drill

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase-7"
MINUTE = 60


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def log_in(client: Client, username: str, password: str, address: str) -> Response:
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def sign_up(client: Client, username: str, email: str, address: str = "10.0.0.1") -> Response:
    return client.post(
        reverse("signup"),
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR=address,
    )


def ask_reset(client: Client, email: str, address: str) -> Response:
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)


def answer_drills(client: Client, count: int) -> list[int]:
    """Answer ``count`` drills as whoever the client is; returns their ids."""
    ids = []
    for _ in range(count):
        client.post(reverse("trainer:drill"), {"deal": "1"})  # the pending drill, or a new one
        drill = Drill.objects.filter(answered_at=None).order_by("-pk").first()
        assert drill is not None
        client.post(reverse("trainer:drill"), {"drill": drill.pk, "action": "stand"})
        ids.append(drill.pk)
    return ids


@pytest.mark.database
def test_signing_up_logs_in_and_brings_the_guests_answers(client: Client) -> None:
    mine = answer_drills(client, 3)
    stranger = answer_drills(Client(), 2)
    response = client.post(
        reverse("signup"),
        {
            "username": "ann",
            "email": "ann@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assertRedirects(response, reverse("trainer:drill"), fetch_redirect_response=False)
    ann = get_user_model().objects.get(username="ann")
    assert ann.email == "ann@example.com"
    assert set(Drill.objects.filter(user=ann).values_list("pk", flat=True)) == set(mine)
    assert Drill.objects.filter(pk__in=stranger, user=None).count() == 2
    assertContains(client.get(reverse("trainer:drill")), "ann")  # logged in


@pytest.mark.database
def test_logging_in_brings_the_guests_answers_too(client: Client) -> None:
    get_user_model().objects.create_user("bob", password=PASSWORD)
    mine = answer_drills(client, 2)
    response = client.post(reverse("login"), {"username": "bob", "password": PASSWORD})
    assert response.status_code == 302
    assert Drill.objects.filter(user__username="bob").count() == len(mine)


def test_an_invalid_sign_up_is_refused_with_reasons(client: Client) -> None:
    response = client.post(
        reverse("signup"), {"username": "ann", "password1": PASSWORD, "password2": "other"}
    )
    assert response.status_code == 400
    assertContains(response, "didn’t match", status_code=400)
    assert not get_user_model().objects.exists()


def test_logging_out_is_a_post(client: Client) -> None:
    user = get_user_model().objects.create_user("cy", password=PASSWORD)
    client.force_login(user)
    client.get(reverse("logout"))
    assert logged_in(client)  # a link someone else planted must not log anyone out
    response = client.post(reverse("logout"))
    assertRedirects(response, reverse("trainer:home"), fetch_redirect_response=False)
    assert not logged_in(client)


def test_opening_the_log_out_address_shows_a_log_out_button(client: Client) -> None:
    user = get_user_model().objects.create_user("cy", password=PASSWORD)
    client.force_login(user)
    response = client.get(reverse("logout"))
    assertContains(response, "You are logged in as cy.")
    page = response.content.decode()
    form = page[page.index('<form class="account__form"') :]
    form = form[: form.index("</form>")]
    # The form posts back to the log-out address itself.
    assert 'method="post"' in form and "action=" not in form
    assert 'name="csrfmiddlewaretoken"' in form
    assert '<button class="button-link" type="submit">Log out</button>' in form
    assert logged_in(client)


def test_a_guest_opening_the_log_out_address_is_told_they_are_not_logged_in(
    client: Client,
) -> None:
    response = client.get(reverse("logout"))
    assertContains(response, "You are not logged in.")
    assertContains(
        response, f'<p class="account__links"><a href="{reverse("login")}">Log in</a></p>'
    )
    assertNotContains(response, 'class="account__form"')


# Sign-up asks for an email address, so that a forgotten password can be reset.


def test_signing_up_needs_an_email_address(client: Client) -> None:
    response = sign_up(client, "ann", "")
    assertContains(response, "This field is required.", status_code=400)
    assert not get_user_model().objects.exists()
    assert not logged_in(client)


def test_signing_up_refuses_an_address_that_is_not_an_email(client: Client) -> None:
    response = sign_up(client, "ann", "ann-at-example")
    assertContains(response, "Enter a valid email address.", status_code=400)
    assert not get_user_model().objects.exists()


@pytest.mark.database
def test_an_email_address_another_account_has_is_refused_whatever_its_case(
    client: Client,
) -> None:
    get_user_model().objects.create_user("bob", email="Bob@Example.com", password=PASSWORD)
    response = sign_up(client, "bobby", "bob@example.COM")
    assertContains(response, "An account already uses this email address.", status_code=400)
    assert not get_user_model().objects.filter(username="bobby").exists()


def test_the_sign_up_page_asks_for_an_email_address(client: Client) -> None:
    response = client.get(reverse("signup"))
    assertContains(response, 'type="email" name="email"')
    assertContains(response, "Email address")


# Log-in is throttled: 10 failures for one name from one address, or 30 from one address,
# in 15 minutes lock it for 15 minutes from the last; a browser that has logged in to the
# account before is counted by itself.


def test_failures_from_other_addresses_never_lock_out_the_owner(client: Client) -> None:
    get_user_model().objects.create_user("ann", password=PASSWORD)
    for attempt in range(30):  # someone guessing from addresses of their own
        response = log_in(Client(), "ann", "wrong", f"10.0.0.{attempt}")
        assert response.status_code == 200
    assert log_in(client, "ann", PASSWORD, "10.0.1.1").status_code == 302
    assert logged_in(client)


def test_ten_failures_lock_the_name_at_that_address_even_against_the_right_password(
    client: Client,
) -> None:
    get_user_model().objects.create_user("ann", password=PASSWORD)
    get_user_model().objects.create_user("bob", password=PASSWORD)
    for _ in range(10):
        log_in(client, "ann", "wrong", "10.0.0.1")
    response = log_in(client, "ann", PASSWORD, "10.0.0.1")
    assertContains(response, "Too many failed log-ins", status_code=429)
    assertContains(response, "Try again in 15 minutes.", status_code=429)
    assert not logged_in(client)
    assert log_in(client, "bob", PASSWORD, "10.0.0.1").status_code == 302  # bob is not
    assert log_in(Client(), "ann", PASSWORD, "10.0.0.2").status_code == 302  # nor elsewhere


def test_the_name_is_counted_whatever_its_case(client: Client) -> None:
    get_user_model().objects.create_user("ann", password=PASSWORD)
    for attempt in range(10):
        log_in(client, "ANN" if attempt % 2 else "ann", "wrong", "10.0.0.1")
    assert log_in(client, "ann", PASSWORD, "10.0.0.1").status_code == 429
    assert not logged_in(client)


def test_thirty_failed_log_ins_from_one_address_lock_that_address(client: Client) -> None:
    get_user_model().objects.create_user("ann", password=PASSWORD)
    for attempt in range(30):  # a different name each time: the address is locked
        log_in(client, f"guess{attempt}", "wrong", "10.0.0.1")
    response = log_in(client, "ann", PASSWORD, "10.0.0.1")
    assertContains(response, "Too many failed log-ins", status_code=429)
    assert not logged_in(client)
    assert log_in(client, "ann", PASSWORD, "10.0.0.2").status_code == 302


def test_a_browser_that_logged_in_before_is_let_through_a_lockout() -> None:
    get_user_model().objects.create_user("ann", password=PASSWORD)
    owners = Client()
    assert log_in(owners, "ann", PASSWORD, "10.0.0.1").status_code == 302
    assert DEVICE_COOKIE in owners.cookies
    owners.post(reverse("logout"))
    for attempt in range(30):  # someone at the owner's own address locks it, and the name
        log_in(Client(), "ann" if attempt % 2 else f"guess{attempt}", "wrong", "10.0.0.1")
    assert log_in(Client(), "ann", PASSWORD, "10.0.0.1").status_code == 429
    assert log_in(owners, "ann", PASSWORD, "10.0.0.1").status_code == 302
    assert logged_in(owners)


def test_signing_up_remembers_the_browser_too() -> None:
    browser = Client()
    assert sign_up(browser, "ann", "ann@example.com").status_code == 302
    browser.post(reverse("logout"))
    for _ in range(10):
        log_in(Client(), "ann", "wrong", "10.0.0.1")
    assert log_in(browser, "ann", PASSWORD, "10.0.0.1").status_code == 302


def test_a_trusted_browser_is_locked_by_its_own_ten_failures_only() -> None:
    get_user_model().objects.create_user("ann", password=PASSWORD)
    owners = Client()
    log_in(owners, "ann", PASSWORD, "10.0.0.1")
    owners.post(reverse("logout"))
    for _ in range(10):
        assert log_in(owners, "ann", "wrong", "10.0.0.1").status_code == 200
    assert log_in(owners, "ann", PASSWORD, "10.0.0.1").status_code == 429
    assert log_in(Client(), "ann", PASSWORD, "10.0.0.1").status_code == 302  # not counted here


@pytest.mark.parametrize("cookie", ["forged", "bob"])
def test_only_a_cookie_signed_here_for_that_account_is_trusted(cookie: str) -> None:
    get_user_model().objects.create_user("ann", password=PASSWORD)
    get_user_model().objects.create_user("bob", password=PASSWORD)
    browser = Client()
    if cookie == "bob":
        log_in(browser, "bob", PASSWORD, "10.0.0.9")
        browser.post(reverse("logout"))
    else:
        browser.cookies[DEVICE_COOKIE] = "ann:forged-signature"
    for _ in range(10):
        log_in(Client(), "ann", "wrong", "10.0.0.1")
    assert log_in(browser, "ann", PASSWORD, "10.0.0.1").status_code == 429


def test_nine_failed_log_ins_do_not_lock(client: Client) -> None:
    get_user_model().objects.create_user("ann", password=PASSWORD)
    for _ in range(9):
        log_in(client, "ann", "wrong", "10.0.0.1")
    assert log_in(client, "ann", PASSWORD, "10.0.0.1").status_code == 302
    assert logged_in(client)


def test_logging_in_forgets_the_accounts_earlier_failures(client: Client) -> None:
    get_user_model().objects.create_user("ann", password=PASSWORD)
    for attempt in range(9):
        log_in(client, "ann", "wrong", f"10.0.0.{attempt}")
    assert log_in(client, "ann", PASSWORD, "10.0.1.1").status_code == 302
    for attempt in range(9):
        log_in(Client(), "ann", "wrong", f"10.0.2.{attempt}")
    assert log_in(Client(), "ann", PASSWORD, "10.0.1.1").status_code == 302


def test_the_lockout_lasts_fifteen_minutes_from_the_tenth_failure(
    client: Client, clock: Clock
) -> None:
    get_user_model().objects.create_user("ann", password=PASSWORD)
    for _ in range(9):
        log_in(client, "ann", "wrong", "10.0.0.1")
    clock.advance(14)  # the tenth failure, a minute before the first one's window ends
    log_in(client, "ann", "wrong", "10.0.0.1")
    clock.advance(14)
    response = log_in(client, "ann", PASSWORD, "10.0.0.1")
    assertContains(response, "Try again in 1 minute.", status_code=429)
    assert not logged_in(client)
    clock.advance(1.5)
    assert log_in(client, "ann", PASSWORD, "10.0.0.1").status_code == 302
    assert logged_in(client)


def test_failures_more_than_fifteen_minutes_apart_do_not_add_up(
    client: Client, clock: Clock
) -> None:
    get_user_model().objects.create_user("ann", password=PASSWORD)
    for _ in range(9):
        log_in(client, "ann", "wrong", "10.0.0.1")
    clock.advance(16)
    for _ in range(9):
        log_in(client, "ann", "wrong", "10.0.0.1")
    assert log_in(client, "ann", PASSWORD, "10.0.0.1").status_code == 302


def test_the_login_page_links_to_the_password_reset_page(client: Client) -> None:
    assertContains(client.get(reverse("login")), f'href="{reverse("password_reset")}"')


# Sign-up is throttled: at most 5 accounts from one address in an hour.


def test_an_address_may_make_five_accounts_an_hour(client: Client, clock: Clock) -> None:
    for number in range(5):
        response = sign_up(Client(), f"user{number}", f"user{number}@example.com")
        assert response.status_code == 302
    response = sign_up(client, "user5", "user5@example.com")
    assertContains(response, "Too many accounts made from your network", status_code=429)
    assert not get_user_model().objects.filter(username="user5").exists()
    assert sign_up(client, "user5", "user5@example.com", "10.0.0.2").status_code == 302
    clock.advance(61)
    assert sign_up(Client(), "user6", "user6@example.com").status_code == 302


def test_refused_sign_ups_are_bounded_too(client: Client) -> None:
    """Each refusal says whether a name or email address is taken: probing is bounded."""
    get_user_model().objects.create_user("bob", email="bob@example.com", password=PASSWORD)
    for number in range(20):
        assert sign_up(client, f"bob{number}", "bob@example.com").status_code == 400
    response = sign_up(client, "ann", "ann@example.com")
    assertContains(response, "Too many sign-ups from your network", status_code=429)
    assert not get_user_model().objects.filter(username="ann").exists()


# Password reset mails at most 3 times an hour per email address, 5 per client address,
# and never tells whether an account has the address.


def test_a_reset_answers_alike_whether_or_not_an_account_has_the_address() -> None:
    get_user_model().objects.create_user("ed", email="ed@example.com", password=PASSWORD)
    known = ask_reset(Client(), "ed@example.com", "10.0.0.1")
    unknown = ask_reset(Client(), "nobody@example.com", "10.0.0.2")
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    assert len(mail.outbox) == 1


def test_a_reset_mails_one_email_address_at_most_three_times_an_hour(clock: Clock) -> None:
    get_user_model().objects.create_user("ed", email="ed@example.com", password=PASSWORD)
    for attempt in range(3):  # from different addresses: the email address is counted
        assert ask_reset(Client(), "ed@example.com", f"10.0.0.{attempt}").status_code == 302
    refused = ask_reset(Client(), "ED@example.com", "10.0.1.1")
    assertContains(refused, "Too many password reset requests", status_code=429)
    assert len(mail.outbox) == 3
    clock.advance(61)
    assert ask_reset(Client(), "ed@example.com", "10.0.1.1").status_code == 302
    assert len(mail.outbox) == 4


def test_a_refused_reset_says_the_same_whether_or_not_an_account_has_the_address() -> None:
    get_user_model().objects.create_user("ed", email="ed@example.com", password=PASSWORD)
    for email in ("ed@example.com", "nobody@example.com"):
        for attempt in range(3):
            ask_reset(Client(), email, f"10.0.0.{attempt}")
    known = ask_reset(Client(), "ed@example.com", "10.0.1.1")
    unknown = ask_reset(Client(), "nobody@example.com", "10.0.1.2")
    assert known.status_code == unknown.status_code == 429

    def page(response: Response, email: str) -> str:
        # Every page carries a fresh CSRF token; the form echoes the address typed.
        text = re.sub(r"[A-Za-z0-9]{64}", "TOKEN", response.content.decode())
        return text.replace(email, "EMAIL")

    assert page(known, "ed@example.com") == page(unknown, "nobody@example.com")


def test_a_client_address_may_ask_five_resets_an_hour() -> None:
    for user in ("ann", "bob", "cy", "di", "ed", "fay"):
        get_user_model().objects.create_user(user, email=f"{user}@example.com", password=PASSWORD)
    for user in ("ann", "bob", "cy", "di", "ed"):
        assert ask_reset(Client(), f"{user}@example.com", "10.0.0.1").status_code == 302
    refused = ask_reset(Client(), "fay@example.com", "10.0.0.1")
    assertContains(refused, "Too many password reset requests", status_code=429)
    assert len(mail.outbox) == 5
    assert ask_reset(Client(), "fay@example.com", "10.0.0.2").status_code == 302
