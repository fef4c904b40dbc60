from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django_htmx.middleware import HtmxDetails

from engine.bots import NORMAL_CHART
from engine.rules import PRESETS
from trainer import selectors
from trainer.charts import ChartView


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The welcome page: what the trainer is and what is coming."""
    return render(request, "trainer/home.html")


@require_GET
def chart(request: HtmxHttpRequest, preset: str = "european") -> HttpResponse:
    """A preset's exact basic-strategy chart, marked where the common chart differs."""
    strategy = selectors.strategy_for_preset(preset)
    context = {
        "preset": preset,
        "rules": strategy.rules,
        "presets": list(PRESETS),
        "chart": ChartView.of(strategy, NORMAL_CHART),
    }
    return render(request, "trainer/chart.html", context)
