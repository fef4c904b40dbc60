"""The error pages as a visitor meets them: a missing page and a form refused for its CSRF
token, in the site's layout (its stylesheet applied) and the visitor's language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import Screen


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_missing_page_and_an_expired_form_in_the_sites_layout(
    screen: Screen, live_server: LiveServer
) -> None:
    page = screen.page
    page.context.add_cookies([{"name": "django_language", "value": "pl", "url": live_server.url}])
    response = page.goto(f"{live_server.url}/no-such-page/")
    assert response is not None and response.status == 404
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.locator(".site-header")).to_be_visible()
    header = page.locator(".site-header").evaluate("el => getComputedStyle(el).backgroundImage")
    assert "gradient" in header  # the stylesheet applies
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screen.shot("error-404")

    # A form posted after its cookie is gone: the site's page, not Django's bare one.
    page.goto(f"{live_server.url}/drill/")
    page.context.clear_cookies(name="csrftoken")
    page.locator(".drill-settings > summary").click()
    page.locator(".drill-settings button[type=submit]").first.click()
    expect(page.locator(".error-page h1")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    margin = page.locator(".error-page").evaluate("el => getComputedStyle(el).maxWidth")
    assert margin != "none"  # styled by the site's stylesheet
    screen.shot("error-csrf")
