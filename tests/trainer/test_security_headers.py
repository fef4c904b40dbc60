"""Response headers that protect every page: the Content-Security-Policy."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

STRICT = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
}


def _policy(header: str) -> dict[str, list[str]]:
    directives = {}
    for directive in header.split(";"):
        name, *values = directive.split()
        directives[name] = values
    return directives


@pytest.mark.django_db
def test_a_page_allows_scripts_styles_and_images_only_from_the_site(client: Client) -> None:
    response = client.get(reverse("trainer:drill"))

    assert response.status_code == 200
    assert _policy(response.headers["Content-Security-Policy"]) == STRICT


@pytest.mark.django_db
def test_an_htmx_fragment_carries_the_same_policy(client: Client) -> None:
    client.get(reverse("trainer:drill"))
    response = client.post(reverse("trainer:drill"), {"deal": "1"}, headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert "<html" not in response.content.decode()
    assert _policy(response.headers["Content-Security-Policy"]) == STRICT


@pytest.mark.django_db
def test_the_health_check_carries_the_policy_too(client: Client) -> None:
    response = client.get(reverse("trainer:health"))

    assert "Content-Security-Policy" in response.headers


def test_htmx_is_told_to_need_no_inline_style_and_no_eval(client: Client) -> None:
    response = client.get(reverse("trainer:home"))

    page = response.content.decode()
    meta = page.split('<meta name="htmx-config" content=\'')[1].split("'>")[0]
    config = json.loads(meta)
    assert (config["includeIndicatorStyles"], config["allowEval"]) == (False, False)
    # htmx reads its configuration when it loads, so the meta element must come first.
    assert page.index('name="htmx-config"') < page.index("htmx-2.min.js")
