"""The welcome page, the health probe for load balancers, and the page of a form refused
for its CSRF token."""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import REASON_NO_CSRF_COOKIE
from django.shortcuts import render
from django.views.decorators.http import require_GET

from trainer.shared.htmx import HtmxHttpRequest


@require_GET
def health(request: HttpRequest) -> HttpResponse:
    """For load balancers (and the benchmarks' baseline): the app and its database answer.

    Served over plain HTTP too (``SECURE_REDIRECT_EXEMPT``): probes rarely speak TLS.
    """
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return HttpResponse("database unavailable", content_type="text/plain", status=503)
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The welcome page: what the trainer is and what is coming."""
    return render(request, "trainer/home/home.html")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form refused for its CSRF token (``CSRF_FAILURE_VIEW``), in the site's layout and
    the visitor's language: Django's own page is unstyled, its inline style refused by the
    Content-Security-Policy. Nothing was changed."""
    context = {"no_cookie": reason == REASON_NO_CSRF_COOKIE}
    return render(request, "403_csrf.html", context, status=403)
