from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget
from django_htmx.middleware import HtmxDetails

from engine.bots import NORMAL_CHART
from engine.chart_vocabulary import UP_CARDS
from engine.rules import PRESETS, Rules
from engine.strategy import AnalysisPending, Strategy, strategy_for
from trainer import analyses, practice, selectors, services
from trainer.bet_history import bet_lines
from trainer.charts import ChartView, row_title
from trainer.drill_view import DrillView
from trainer.export import csv_lines
from trainer.forms import (
    DEFAULT_BANKROLL,
    DEFAULT_SEATS,
    AnswerForm,
    PracticeStartForm,
    TableForm,
    TableOptionsForm,
)
from trainer.lab_form import LabForm
from trainer.models import Drill
from trainer.owners import Owner
from trainer.practice_table import TableSnapshot
from trainer.preferences import (
    FOCUS,
    FOCUS_ROWS,
    DrillSettings,
    SettingsForm,
    rule_fields,
    settings_of,
    settings_save,
)
from trainer.progress import Progress
from trainer.rules_lab import lab_of
from trainer.rules_page import RulesPage
from trainer.rules_words import RulesWords
from trainer.summary import SessionSummary
from trainer.table_view import TableView


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


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
    return render(request, "trainer/home.html")


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def drill(request: HtmxHttpRequest) -> HttpResponse:
    """A dealt decision to answer, then how the answer compares with the exact strategy."""
    owner = selectors.owner_of(request)
    chosen = settings_of(request)
    rules, notice = chosen.rules_in_force()

    error: str | None = None
    current = None
    answered_id: int | None = None
    try:
        if request.method == "POST" and "deal" in request.POST:
            current = _drill_deal(owner, rules, chosen)
        elif request.method == "POST":
            form = AnswerForm(request.POST)
            if form.is_valid():
                answered_id = form.cleaned_data["drill"]
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
        if request.method == "POST" and not request.htmx and error is None:
            return redirect("trainer:drill")  # POST/redirect/GET
        shown = _drill_view(current) if current else _drill_on_show(owner, rules, chosen)
    except AnalysisPending as pending:
        # Rules not worked out yet: started in the background, never computed here.
        return _drill_analysing(request, chosen, pending.rules)
    partial = request.htmx and not request.htmx.history_restore_request
    # The settings form is outside the partials: build it only for the full page.
    settings_form = None if partial else SettingsForm(initial=asdict(chosen))
    template = "trainer/drill.html"
    # An answer swaps only its own region (the cards stay put); a new deal, the drill; and so
    # does an answer to a hand no longer shown (dealt under rules that no longer hold).
    answering = request.method == "POST" and "deal" not in request.POST
    same_hand = answered_id is None or answered_id == shown.id
    if partial:
        template += "#answer" if answering and same_hand else "#drill"
    status = 400 if error and not request.htmx else 200
    context = _drill_context(shown, chosen, settings_form, notice)
    response = render(
        request, template, {**context, "error": error, "swapped": partial}, status=status
    )
    if partial and answering and not same_hand:
        return reswap(retarget(response, "#drill"), "outerHTML")
    return response


def _drill_analysing(request: HtmxHttpRequest, chosen: DrillSettings, rules: Rules) -> HttpResponse:
    """The drill's place while the rules' analysis is worked out (the page asks again
    every second), or why it is not."""
    analysis = analyses.analysis_start(rules=rules, visitor=analyses.visitor_of(request))
    if request.method == "POST" and not request.htmx:
        return redirect("trainer:drill")  # the page shows where the analysis stands
    context = {
        "analysis": analysis,
        "analysis_rules": RulesWords.of(rules),
        "analysis_limit": settings.BLACKJACK_ANALYSES_PER_HOUR,
        "auto_advance": chosen.auto_advance,
    }
    if request.htmx and not request.htmx.history_restore_request:
        # Whatever asked, the whole drill region shows it.
        response = render(request, "trainer/drill.html#drill", context)
        return reswap(retarget(response, "#drill"), "outerHTML")
    context["settings_form"] = SettingsForm(initial=asdict(chosen))
    context["rule_fields"] = rule_fields()
    # Refused: the settings are open, for the player to choose rules that are at hand.
    context["settings_open"] = analysis in (analyses.Analysis.LIMITED, analyses.Analysis.FAILED)
    limited = analysis is analyses.Analysis.LIMITED
    return render(request, "trainer/drill.html", context, status=429 if limited else 200)


@require_POST
def drill_settings(request: HtmxHttpRequest) -> HttpResponse:
    """Change the rules, the kind of hands and auto-advance; a hand under them is dealt."""
    owner = selectors.owner_of(request)
    form = SettingsForm(request.POST)
    if not form.is_valid():
        chosen = settings_of(request)  # unchanged: the page shows the form's errors
        rules, notice = chosen.rules_in_force()
        try:
            shown = _drill_on_show(owner, rules, chosen)
        except AnalysisPending as pending:
            context = {
                "analysis": analyses.Analysis.RUNNING,
                "analysis_rules": RulesWords.of(pending.rules),
                "settings_form": form,
                "rule_fields": rule_fields(),
            }
        else:
            context = _drill_context(shown, chosen, form, notice)
        return render(request, "trainer/drill.html", {**context, "settings_open": True}, status=400)
    chosen = DrillSettings(**form.cleaned_data)
    settings_save(request, chosen)
    services.drills_discard_pending(owner=owner)
    try:
        # Dealt now, so that the page shows a hand under the new settings, not the last one;
        # new settings start a new session.
        _drill_deal(owner, chosen.rules(), chosen, new_session=True)
    except AnalysisPending:
        # Started now, so that it is under way when the drill page asks.
        analyses.analysis_start(rules=chosen.rules(), visitor=analyses.visitor_of(request))
    return redirect("trainer:drill")


def _drill_deal(
    owner: Owner, rules: Rules, chosen: DrillSettings, *, new_session: bool = False
) -> Drill:
    return services.drill_issue(
        owner=owner,
        rules=rules,
        mode=chosen.mode,
        focus=chosen.focus(),
        time_limit=chosen.time_limit,
        new_session=new_session,
    )


def _drill_on_show(owner: Owner, rules: Rules, chosen: DrillSettings) -> DrillView:
    """The latest drill if it was dealt under these rules (answered: its feedback shows),
    else one newly dealt under them.

    A drill dealt under rules the engine no longer accepts (after an engine change) cannot
    be shown or graded: a new hand is dealt instead, and an answered one stays in the
    player's history (its grade was recorded when it was answered). A timed hand whose
    time ran out before it was shown is dealt again too: the player never saw it.
    """
    latest = selectors.latest_drill(owner)
    if latest is not None and services.drill_expired(latest):
        services.drill_replace_expired(owner=owner, drill=latest)
        latest = None
    if latest is not None:
        situation = selectors.situation_or_none(latest)
        if situation is not None and situation.rules == rules:
            return _drill_view(latest)
    return _drill_view(_drill_deal(owner, rules, chosen))


def _drill_view(drill: Drill) -> DrillView:
    return DrillView.of(selectors.dealt_drill(drill))


def _drill_context(
    drill: DrillView, chosen: DrillSettings, form: SettingsForm | None, notice: str | None
) -> dict[str, Any]:
    return {
        "drill": drill,
        "auto_advance": chosen.auto_advance,
        "letter_keys": chosen.letter_keys,
        "settings_form": form,
        "rule_fields": rule_fields() if form is not None else (),
        "notice": notice,
    }


@require_GET
def progress(request: HtmxHttpRequest) -> HttpResponse:
    """How the player is doing under one rules set: accuracy over time, by kind of hand,
    and cell by cell."""
    owner = selectors.owner_of(request)
    period = request.GET.get("by", "day")
    if period not in selectors.PERIODS:
        period = "day"
    answers = selectors.progress_answers(owner, period, rules_name=request.GET.get("rules"))
    return render(request, "trainer/progress.html", {"progress": Progress.of(answers)})


@require_GET
def progress_export(request: HttpRequest) -> StreamingHttpResponse:
    """Every decision of the player's as CSV, streamed however long the history."""
    owner = selectors.owner_of(request)
    response = StreamingHttpResponse(
        csv_lines(selectors.decisions_for_export(owner)), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = 'attachment; filename="blackjack-decisions.csv"'
    return response


@require_GET
def drill_focus(request: HttpRequest) -> HttpResponse:
    """Drill one row or one cell of the chart, chosen from the chart or the heat map: the
    player confirms, and the settings are changed by the settings form's POST.

    ``rules`` names a preset to drill it under (the chart's); without it, or for the
    player's own rules, the rules now chosen stay.
    """
    row, up = request.GET.get("row", ""), request.GET.get("up", "")
    if row not in FOCUS_ROWS or up not in ("", *UP_CARDS):
        raise Http404("no such chart cell to drill")
    chosen = settings_of(request)
    rules_name = request.GET.get("rules", "")
    if rules_name in PRESETS and rules_name != chosen.rules_name:
        chosen = replace(chosen, rules_name=rules_name, custom_rules="")
    focused = replace(chosen, mode=FOCUS, focus_row=row, focus_up=up)
    context = {"row": row_title(row), "up": up, "settings": asdict(focused)}
    return render(request, "trainer/drill_focus.html", context)


@require_GET
def chart(request: HtmxHttpRequest, preset: str = "european") -> HttpResponse:
    """A preset's exact basic-strategy chart, marked where the common chart differs."""
    strategy = selectors.strategy_for_preset(preset)
    return _chart_page(request, strategy.rules, preset, strategy)


@require_GET
def chart_yours(request: HtmxHttpRequest) -> HttpResponse:
    """The chart of the rules the player drills on, their own changes included (worked
    out in the background, within the analysis allowance, if no one has asked before)."""
    rules, _notice = settings_of(request).rules_in_force()
    if rules == PRESETS.get(rules.name):
        return redirect("trainer:chart", preset=rules.name)
    try:
        strategy = strategy_for(rules)
    except AnalysisPending:
        analysis = analyses.analysis_start(rules=rules, visitor=analyses.visitor_of(request))
        context = {
            "rules_words": RulesWords.of(rules),
            "presets": list(PRESETS),
            "analysis": analysis,
            "analysis_limit": settings.BLACKJACK_ANALYSES_PER_HOUR,
        }
        limited = analysis is analyses.Analysis.LIMITED
        return render(request, "trainer/chart.html", context, status=429 if limited else 200)
    return _chart_page(request, rules, "yours", strategy)


def _chart_page(
    request: HtmxHttpRequest, rules: Rules, tab: str, strategy: Strategy
) -> HttpResponse:
    drill_rules, _notice = settings_of(request).rules_in_force()
    context = {
        "preset": tab,
        "rules": rules,
        "rules_words": RulesWords.of(rules),
        "presets": list(PRESETS),
        "chart": ChartView.of(strategy, NORMAL_CHART),
        # Which chart grades the player's drills: this one, or the one of their rules.
        "drills_graded_here": drill_rules == rules,
        "drill_rules_words": RulesWords.of(drill_rules),
        "drill_rules_preset": drill_rules == PRESETS.get(drill_rules.name),
        "practice_graded_here": rules == PRESETS.get(rules.name),
    }
    return render(request, "trainer/chart.html", context)


@require_GET
def rules(request: HtmxHttpRequest, preset: str = "european") -> HttpResponse:
    """A preset's rules: in short, in its rule document's own words, and the trainer's
    notes where the document is silent."""
    if preset not in PRESETS:
        raise Http404(f"no rules preset called {preset!r}")
    page = RulesPage.of(preset, viewer=get_language(), asked=request.GET.get("doc"))
    return render(request, "trainer/rules.html", {"page": page, "presets": list(PRESETS)})


@require_GET
def rules_lab(request: HtmxHttpRequest) -> HttpResponse:
    """A rule set of the player's own beside a preset: the house edge, each change's effect
    and the chart, from the exact analyses (worked out in the background where new)."""
    if "use_preset" in request.GET:
        # The controls at the chosen preset's values: the lab of the preset alone.
        name = request.GET.get("rules_name", "")
        query = f"?{urlencode({'rules_name': name})}" if name in PRESETS else ""
        return redirect(reverse("trainer:rules-lab") + query)
    form = LabForm(request.GET) if request.GET else LabForm.of_preset("european")
    context: dict[str, Any] = {
        "form": form,
        "analysis_limit": settings.BLACKJACK_ANALYSES_PER_HOUR,
    }
    if not form.is_valid():
        return render(request, "trainer/rules_lab.html", context, status=400)
    name, overrides = form.cleaned_data["rules_name"], form.cleaned_data["overrides"]
    base = PRESETS[name]
    lab = lab_of(base, overrides, visitor=analyses.visitor_of(request))
    context["lab"] = lab
    context["rules_words"] = RulesWords.of(base.with_overrides(overrides))
    if lab.strategy is not None:
        context["chart"] = ChartView.of(lab.strategy, lab.base_strategy.chart)
        changes = ", ".join(f"{field}={code}" for field, code in overrides.items())
        context["drill_fields"] = {
            **asdict(settings_of(request)),
            "rules_name": name,
            "custom_rules": changes,
        }
        context["practice_fields"] = {
            "rules": name,
            "custom_rules": changes,
            "bankroll": DEFAULT_BANKROLL,
            **{f"seat_{seat}": tier for seat, tier in DEFAULT_SEATS.items()},
        }
    return render(request, "trainer/rules_lab.html", context)


@require_http_methods(["GET", "POST"])
def practice_start(request: HtmxHttpRequest) -> HttpResponse:
    """Sit down at a practice table: rules, chips, and who sits in each seat."""
    owner = selectors.owner_of(request)
    form = PracticeStartForm(
        request.POST or None,
        presets=list(PRESETS),
        bankrolls=practice.BANKROLLS,
        stacked_shoes=settings.PRACTICE_STACKED_SHOES,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        rules = data["rules_in_play"]
        try:
            _practice_analysis_ready(request, rules)
            session = practice.practice_start(
                owner=owner,
                rules=rules,
                bankroll=data["bankroll"],
                seats=[practice.SeatChoice(seat, tier) for seat, tier in form.seats()],
                hints=data["hints"],
                coach=data["coach"],
                shoe=data.get("shoe"),
            )
        except practice.TableRefused as refused:
            form.add_error(None, str(refused))
        else:
            return redirect("trainer:table", session_id=session.pk)
    context: dict[str, Any] = {"form": form, "sessions": selectors.practice_sessions(owner)}
    if (
        form.is_bound
        and form.cleaned_data.get("custom_rules")
        and "rules_in_play" in form.cleaned_data
    ):
        # Changes of the player's own (from the rules lab), kept for the next try.
        context["custom_words"] = RulesWords.of(form.cleaned_data["rules_in_play"])
    return render(request, "trainer/practice.html", context, status=400 if form.errors else 200)


def _practice_analysis_ready(request: HtmxHttpRequest, rules: Rules) -> None:
    """Refuse a table on rules whose analysis is not at hand (its bots, hints and grading
    need it), starting that analysis; a preset's always is."""
    if analyses.is_preset(rules):
        return
    state = analyses.analysis_start(rules=rules, visitor=analyses.visitor_of(request))
    if state is analyses.Analysis.READY:
        return
    if state is analyses.Analysis.LIMITED:
        limit = settings.BLACKJACK_ANALYSES_PER_HOUR
        message = ngettext(
            "Not worked out: you have asked for %(limit)s new set of rules in the last "
            "hour, the most allowed.",
            "Not worked out: you have asked for %(limit)s new sets of rules in the last "
            "hour, the most allowed.",
            limit,
        ) % {"limit": limit}
    elif state is analyses.Analysis.FAILED:
        message = gettext("These rules could not be worked out within the trainer's limits.")
    else:
        message = gettext("These rules are still being worked out: try again in a moment.")
    raise practice.TableRefused(message)


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def table(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """The practice table: bets, the player's decisions, the bots and the dealer."""
    owner = selectors.owner_of(request)
    error: str | None = None
    seen: int | None = None
    # The table as a change left it, or as a refused one found it: shown without reading
    # it again.
    shown: TableSnapshot | None = None
    if request.method == "POST":
        form = TableForm(request.POST)
        if not form.is_valid():
            error = str(next(iter(form.errors.values()))[0])
        else:
            seen = form.cleaned_data["seen"]
            try:
                shown = _table_request(owner, session_id, form)
            except practice.TableNotYours:
                raise Http404("no such practice table") from None
            except practice.TableMoved as moved:
                error, seen, shown = str(moved), None, moved.shown
            except practice.TableRefused as refused:
                error, shown = str(refused), refused.shown
            else:
                if form.cleaned_data["op"] == "end":
                    summary = reverse("trainer:practice-summary", args=[session_id])
                    return (
                        HttpResponseClientRedirect(summary) if request.htmx else redirect(summary)
                    )
        if not request.htmx and error is None:
            return redirect("trainer:table", session_id=session_id)  # POST/redirect/GET
    if shown is None:
        shown = selectors.practice_table(owner, session_id)  # a 404 if not theirs
    template = "trainer/table.html"
    swapped = bool(request.htmx and not request.htmx.history_restore_request)
    if swapped:
        template += "#table"
    on_show = selectors.table_on_show(shown.session, shown.table)
    context = {
        "table": TableView.of(on_show, seen=seen),
        "error": error,
        "swapped": swapped,
        "letter_keys": settings_of(request).letter_keys,
    }
    return render(request, template, context, status=400 if error and not request.htmx else 200)


def _table_request(owner: Owner, session_id: int, form: TableForm) -> TableSnapshot:
    data = form.cleaned_data
    version = data["version"]
    op = data["op"]
    if op in ("chip", "clear"):
        chip = data["chip"] if op == "chip" else None
        return practice.practice_chip(
            owner=owner, session_id=session_id, version=version, chip=chip
        )
    if op == "deal":
        pair, behind = form.side_bets()
        return practice.practice_deal(
            owner=owner, session_id=session_id, version=version, pair=pair, behind=behind
        )
    if op == "act":
        return practice.practice_act(
            owner=owner, session_id=session_id, version=version, action=data["action"]
        )
    if op == "take_back":
        return practice.practice_take_back(owner=owner, session_id=session_id, version=version)
    return practice.practice_end(owner=owner, session_id=session_id, version=version)


@require_POST
@vary_on_headers("HX-Request")
def table_options(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """Hints and coach mode on or off (they change nothing in the game)."""
    owner = selectors.owner_of(request)
    form = TableOptionsForm(request.POST)
    form.is_valid()  # two optional booleans: always valid
    try:
        practice.practice_options(owner=owner, session_id=session_id, **form.cleaned_data)
    except practice.TableNotYours:
        raise Http404("no such practice table") from None
    if request.htmx:
        shown = selectors.practice_table(owner, session_id)
        on_show = selectors.table_on_show(shown.session, shown.table)
        context = {
            "table": TableView.of(on_show),
            "error": None,
            "swapped": True,
            "letter_keys": settings_of(request).letter_keys,
        }
        return render(request, "trainer/table.html#table", context)
    return redirect("trainer:table", session_id=session_id)


@require_GET
def bets(request: HtmxHttpRequest) -> HttpResponse:
    """Every bet the player has made at a table, settled, newest first, a page at a time."""
    owner = selectors.owner_of(request)
    page = selectors.bet_history(owner, request.GET.get("page"))
    lines = bet_lines(page, selectors.split_seats(owner, page))
    return render(request, "trainer/bets.html", {"page": page, "lines": lines})


@require_GET
def practice_summary(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """A session in numbers, its biggest mistakes, and every round as it was played."""
    owner = selectors.owner_of(request)
    session = selectors.practice_session(owner, session_id)
    summary = SessionSummary.of(selectors.session_record(session))
    return render(request, "trainer/practice_summary.html", {"summary": summary})
