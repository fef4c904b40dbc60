"""The 403, 404 and 500 pages and the page of a form refused for its CSRF token: in the
site's layout and the visitor's language, with DEBUG off (Django's own pages otherwise:
bare, in English, and the CSRF one unstyled, its inline style refused by the CSP)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory, override_settings
from django.utils import translation
from django.utils.translation import gettext
from django.views import defaults

pytestmark = [pytest.mark.django_db]
LAYOUT = 'href="/static/css/site.css"'


def in_polish(client: Client) -> Client:
    client.cookies["django_language"] = "pl"
    return client


def polish(text: str) -> str:
    with translation.override("pl"):
        return gettext(text)


@override_settings(DEBUG=False)
def test_a_missing_page_is_a_404_in_the_sites_layout_and_the_visitors_language(
    client: Client,
) -> None:
    response = in_polish(client).get("/no-such-page/")
    page = response.content.decode()
    assert response.status_code == 404
    assert '<html lang="pl"' in page and LAYOUT in page
    assert polish("Strategy chart") != "Strategy chart" and polish("Strategy chart") in page
    assert 'class="error-page"' in page and "<style" not in page


@override_settings(DEBUG=False)
def test_a_forbidden_page_is_a_403_in_the_sites_layout(rf: RequestFactory) -> None:
    request = rf.get("/somewhere/")
    request.user = AnonymousUser()
    with translation.override("pl"):
        response = defaults.permission_denied(request, PermissionDenied())
    page = response.content.decode()
    assert response.status_code == 403
    assert '<html lang="pl"' in page and LAYOUT in page and 'class="error-page"' in page


@override_settings(DEBUG=False)
def test_a_server_error_page_renders_without_a_request(rf: RequestFactory) -> None:
    """Django renders 500.html with no context at all: it must need none."""
    with translation.override("pl"):
        response = defaults.server_error(rf.get("/"))
    page = response.content.decode()
    assert response.status_code == 500
    assert '<html lang="pl"' in page and LAYOUT in page and 'class="error-page"' in page


@override_settings(DEBUG=False)
def test_a_form_without_its_csrf_token_gets_the_sites_403_page_and_changes_nothing() -> None:
    client = in_polish(Client(enforce_csrf_checks=True))
    client.get("/drill/")
    response = client.post("/drill/settings/", {"rules_name": "deluxe", "mode": "all"})
    page = response.content.decode()
    assert response.status_code == 403
    assert '<html lang="pl"' in page and LAYOUT in page and 'class="error-page"' in page
    assert "<style" not in page  # Django's own page carries an inline style the CSP refuses
    assert "drill_preferences" not in client.session  # the settings were not saved
