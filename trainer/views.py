from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.middleware import HtmxDetails

from engine.bots import NORMAL_CHART
from engine.rules import PRESETS
from trainer import selectors, services
from trainer.charts import ChartView
from trainer.drills import DrillView
from trainer.forms import AnswerForm
from trainer.models import Drill
from trainer.owners import Owner
from trainer.preferences import DrillSettings, SettingsForm, settings_of, settings_save
from trainer.progress import progress_of


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


@require_GET
def health(request: HttpRequest) -> HttpResponse:
    """For load balancers (and the benchmarks' baseline): the app answers."""
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The welcome page: what the trainer is and what is coming."""
    return render(request, "trainer/home.html")


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def drill(request: HtmxHttpRequest) -> HttpResponse:
    """A dealt decision to answer, then how the answer compares with the exact strategy."""
    owner = selectors.owner_of(request)
    chosen = settings_of(request)

    error: str | None = None
    current = None
    if request.method == "POST":
        form = AnswerForm(request.POST)
        if "deal" in request.POST:
            current = services.drill_issue(owner=owner, rules=chosen.rules(), mode=chosen.mode)
        elif form.is_valid():
            try:
                current = services.drill_answer(
                    owner=owner,
                    drill_id=form.cleaned_data["drill"],
                    action=form.cleaned_data["action"],
                )
            except services.DrillRefused as refused:
                error = str(refused)
        else:
            error = str(next(iter(form.errors.values()))[0])
        if not request.htmx and error is None:
            return redirect("trainer:drill")  # POST/redirect/GET
    current = current or _drill_on_show(owner, chosen)
    template = "trainer/drill.html"
    if request.htmx and not request.htmx.history_restore_request:
        template += "#drill"
    status = 400 if error and not request.htmx else 200
    context = _drill_context(current, chosen, SettingsForm(initial=asdict(chosen)))
    return render(request, template, {**context, "error": error}, status=status)


@require_POST
def drill_settings(request: HtmxHttpRequest) -> HttpResponse:
    """Change the rules, the kind of hands and auto-advance; the next hand follows them."""
    owner = selectors.owner_of(request)
    form = SettingsForm(request.POST)
    if not form.is_valid():
        chosen = settings_of(request)  # unchanged: the page shows the form's errors
        context = _drill_context(_drill_on_show(owner, chosen), chosen, form)
        return render(request, "trainer/drill.html", {**context, "settings_open": True}, status=400)
    settings_save(request, DrillSettings(**form.cleaned_data))
    services.drills_discard_pending(owner=owner)
    return redirect("trainer:drill")


def _drill_on_show(owner: Owner, chosen: DrillSettings) -> Drill:
    """The latest drill (answered: its feedback shows), or a newly dealt one."""
    return selectors.latest_drill(owner) or services.drill_issue(
        owner=owner, rules=chosen.rules(), mode=chosen.mode
    )


def _drill_context(drill: Drill, chosen: DrillSettings, form: SettingsForm) -> dict[str, Any]:
    return {
        "drill": DrillView.of(drill),
        "auto_advance": chosen.auto_advance,
        "settings_form": form,
    }


@require_GET
def progress(request: HtmxHttpRequest) -> HttpResponse:
    """How the player is doing: accuracy over time, by kind of hand, and cell by cell."""
    owner = selectors.owner_of(request)
    return render(request, "trainer/progress.html", {"progress": progress_of(owner)})


@require_http_methods(["GET", "POST"])
def signup(request: HtmxHttpRequest) -> HttpResponse:
    """Create an account and log in to it; a guest's drill answers come along."""
    form: UserCreationForm[Any] = UserCreationForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            user = form.save()
            login(request, user)  # the log-in signal moves the guest's answers
            return redirect("trainer:drill")
        return render(request, "registration/signup.html", {"form": form}, status=400)
    return render(request, "registration/signup.html", {"form": form})


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
