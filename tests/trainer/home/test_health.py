"""/healthz, for load balancers: over plain HTTP, and honest about the database."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper
from django.test import Client, override_settings
from pytest_django import DjangoAssertNumQueries

pytestmark = pytest.mark.database
# As in production: every page redirects to HTTPS. A load balancer probes over plain HTTP.
production_like = override_settings(SECURE_SSL_REDIRECT=True)


@pytest.mark.django_db
@production_like
def test_the_health_check_answers_over_plain_http_while_pages_redirect(client: Client) -> None:
    assert client.get("/").status_code == 301

    response = client.get("/healthz")

    assert (response.status_code, response.content) == (200, b"ok")


@pytest.mark.django_db
@production_like
def test_the_health_check_fails_when_the_database_does_not_answer(client: Client) -> None:
    refused = OperationalError("connection to server failed: Connection refused")
    with mock.patch.object(CursorWrapper, "execute", side_effect=refused) as execute:
        response = client.get("/healthz")

    assert execute.called
    assert response.status_code == 503
    assert response.content == b"database unavailable"


@pytest.mark.django_db
def test_the_health_check_asks_the_database(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_num_queries(1):
        response = client.get("/healthz")

    assert response.status_code == 200
