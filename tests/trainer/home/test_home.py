from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django.asserts import assertContains, assertNotContains, assertTemplateUsed

# `manage.py check --deploy` for the production settings runs in .ci/test.


def test_home_page_renders_the_welcome(client: Client) -> None:
    response = client.get(reverse("trainer:home"))

    assert response.status_code == 200
    assertTemplateUsed(response, "trainer/home/home.html")
    assertContains(response, "<title>Blackjack Strategy Trainer</title>", html=True)
    assertContains(response, '<h1 id="home-heading">Blackjack Strategy Trainer</h1>', html=True)
    assertContains(response, "no cash value")
    assertContains(response, '<html lang="en" dir="ltr">')


def test_home_leads_to_every_part_of_the_trainer(client: Client) -> None:
    response = client.get(reverse("trainer:home"))
    features = response.content.decode().split('class="features"')[1].split("</ul>")[0]
    for name in ("drill", "progress", "practice"):
        assert f'href="{reverse(f"trainer:{name}")}"' in features, name
    assertNotContains(response, "coming soon")


def test_home_is_at_the_site_root() -> None:
    assert reverse("trainer:home") == "/"


def test_home_only_answers_get(client: Client) -> None:
    response = client.post(reverse("trainer:home"))

    assert response.status_code == 405


def test_htmx_is_served_from_the_package_not_a_cdn(client: Client) -> None:
    response = client.get(reverse("trainer:home"))

    assertContains(response, '<script src="/static/django_htmx/htmx-2.min.js" defer>')
    assertNotContains(response, "https://")


def test_body_sends_the_csrf_token_with_every_htmx_request(client: Client) -> None:
    response = client.get(reverse("trainer:home"))

    token = response.context["csrf_token"]
    assertContains(response, f"""<body hx-headers='{{"x-csrftoken": "{token}"}}'>""")


def test_language_switcher_is_a_plain_form_that_works_without_javascript(
    client: Client,
) -> None:
    response = client.get(reverse("trainer:home"))

    assertContains(response, f'action="{reverse("set_language")}" method="post"')
    assertContains(response, 'name="csrfmiddlewaretoken"')
    for code in ("en", "ar", "ka", "hi", "pl"):
        assertContains(response, f'<option value="{code}" lang="{code}"')


def test_switching_to_arabic_renders_right_to_left(client: Client) -> None:
    response = client.post(reverse("set_language"), {"language": "ar", "next": "/"}, follow=True)

    assert response.redirect_chain == [("/", 302)]
    assertContains(response, '<html lang="ar" dir="rtl">')


@pytest.mark.parametrize("code", ["ka", "hi", "pl"])
def test_left_to_right_languages_stay_left_to_right(client: Client, code: str) -> None:
    response = client.get(reverse("trainer:home"), headers={"accept-language": code})

    assertContains(response, f'<html lang="{code}" dir="ltr">')


@pytest.mark.django_db
def test_the_health_check_answers_ok(client: Client) -> None:
    response = client.get("/healthz")
    assert (response.status_code, response.content) == (200, b"ok")
