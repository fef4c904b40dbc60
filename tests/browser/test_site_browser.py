"""What every page shares: its icon, and no request of a page load that fails."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

PAGES = ["/", "/drill/", "/practice/", "/progress/", "/chart/", "/accounts/login/"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_page_has_an_icon_and_loads_without_a_failed_request(
    page: Page, live_server: LiveServer
) -> None:
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("console", lambda m: failed.append(m.text) if m.type == "error" else None)
    for path in PAGES:
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("networkidle")
        icon = page.locator("link[rel=icon]")
        href = icon.get_attribute("href")
        assert href, path
        response = page.request.get(f"{live_server.url}{href}")
        assert response.status == 200, href
        assert "svg" in response.headers["content-type"]
    assert failed == []
