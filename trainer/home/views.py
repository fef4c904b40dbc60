"""The welcome page, and the health probe for load balancers."""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
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
