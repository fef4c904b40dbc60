"""The progress pages: accuracy over time and by cell, every decision as CSV, and the bet
history."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from engine.chart_vocabulary import UP_CARDS
from trainer.progress import selectors
from trainer.progress.bet_lines import bet_lines
from trainer.progress.counting import counting_weeks, index_heat_rows
from trainer.progress.export import csv_lines
from trainer.progress.pages import Progress
from trainer.shared.htmx import HtmxHttpRequest
from trainer.shared.owners import owner_of


@require_GET
def progress(request: HtmxHttpRequest) -> HttpResponse:
    """How the player is doing under one rules set: accuracy over time, by kind of hand,
    and cell by cell; and their counting, week by week."""
    owner = owner_of(request)
    period = request.GET.get("by", "day")
    if period not in selectors.PERIODS:
        period = "day"
    answers = selectors.progress_answers(owner, period, rules_name=request.GET.get("rules"))
    context = {
        "progress": Progress.of(answers),
        "counting": counting_weeks(owner),
        "index_rows": index_heat_rows(owner),
        "index_ups": UP_CARDS,
    }
    return render(request, "trainer/progress/progress.html", context)


@require_GET
def progress_export(request: HttpRequest) -> StreamingHttpResponse:
    """Every decision of the player's as CSV, streamed however long the history."""
    owner = owner_of(request)
    response = StreamingHttpResponse(
        csv_lines(selectors.decisions_for_export(owner)), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = 'attachment; filename="blackjack-decisions.csv"'
    return response


@require_GET
def bets(request: HtmxHttpRequest) -> HttpResponse:
    """Every bet the player has made at a table, settled, newest first, a page at a time."""
    owner = owner_of(request)
    page = selectors.bet_history(owner, request.GET.get("page"))
    lines = bet_lines(page, selectors.split_seats(owner, page))
    return render(request, "trainer/progress/bets.html", {"page": page, "lines": lines})
