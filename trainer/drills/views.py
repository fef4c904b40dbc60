"""The drill pages: a hand dealt and answered (a POST by htmx swaps only the answer's region,
or the whole drill for a new deal), the settings, and drilling one chart row or cell."""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import reswap, retarget

from engine.chart_vocabulary import UP_CARDS
from engine.rules import PRESETS, Rules
from engine.strategy import AnalysisPending
from trainer.drills import selectors, services
from trainer.drills.forms import AnswerForm, SettingsForm
from trainer.drills.pages import DrillView
from trainer.models import Drill
from trainer.shared import analyses
from trainer.shared.charts import row_title
from trainer.shared.htmx import HtmxHttpRequest
from trainer.shared.owners import Owner, owner_as_guest, owner_known, owner_of
from trainer.shared.preferences import (
    FOCUS_ROWS,
    AccountPreferences,
    DrillMode,
    DrillSettings,
    choices_of,
    choices_save,
)
from trainer.shared.rule_changes import RuleChanges, rule_fields
from trainer.shared.rules_words import RulesWords


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def drill(request: HtmxHttpRequest) -> HttpResponse:
    """A dealt decision to answer, then how the answer compares with the exact strategy.

    A visitor without a session is shown a hand drawn without saving, carried signed in
    the answer form: nothing is stored until they answer or ask for a hand."""
    owner = owner_known(request)
    chosen, preferences = choices_of(request)
    rules, notice = chosen.rules_in_force()

    error: str | None = None
    current = None
    answered_id: int | None = None
    ticket = ""
    try:
        if request.method == "POST" and "deal" in request.POST:
            owner = owner or owner_of(request)
            current = _drill_deal(owner, rules, chosen)
        elif request.method == "POST":
            form = AnswerForm(request.POST)
            if form.is_valid():
                answered_id = form.cleaned_data["drill"]
                try:
                    owner, current = _drill_answer(request, owner, form.cleaned_data)
                except services.DrillRefused as refused:
                    error = str(refused)
            else:
                error = str(next(iter(form.errors.values()))[0])
        if request.method == "POST" and not request.htmx and error is None:
            return redirect("trainer:drill")  # POST/redirect/GET
        if current:
            shown = _drill_view(current)
        elif owner is None:
            drawn, ticket = services.drill_draw(
                rules=rules, mode=chosen.mode, focus=chosen.focus(), time_limit=chosen.time_limit
            )
            shown = _drill_view(drawn)
        else:
            shown = _drill_on_show(owner, rules, chosen)
    except AnalysisPending as pending:
        # Rules not worked out yet: started in the background, never computed here.
        return _drill_analysing(request, chosen, preferences, pending.rules)
    partial = request.htmx and not request.htmx.history_restore_request
    # The settings form is outside the partials: build it only for the full page.
    settings_form = None if partial else SettingsForm.of(chosen, preferences)
    template = "trainer/drills/drill.html"
    # An answer swaps only its own region (the cards stay put); a new deal, the drill; and so
    # does an answer to a hand no longer shown (dealt under rules that no longer hold).
    answering = request.method == "POST" and "deal" not in request.POST
    same_hand = answered_id is None or answered_id == shown.id
    if partial:
        template += "#answer" if answering and same_hand else "#drill"
    status = 400 if error and not request.htmx else 200
    context = _drill_context(shown, chosen, preferences, settings_form, notice)
    context["ticket"] = ticket
    # The player's own answer or deal puts the focus on the next move (an autofocus, which
    # htmx follows). A deal asked for comes with "Next hand" (htmx sends a form's button when
    # it was pressed, or holds the focus); a timed deal without it leaves the focus alone.
    asked = bool(partial and request.method == "POST") and (
        answering or "next_hand" in request.POST
    )
    response = render(
        request,
        template,
        {**context, "error": error, "swapped": partial, "asked": asked},
        status=status,
    )
    if partial and answering and not same_hand:
        return reswap(retarget(response, "#drill"), "outerHTML")
    return response


def _drill_answer(
    request: HtmxHttpRequest, owner: Owner | None, answer: dict[str, Any]
) -> tuple[Owner, Drill]:
    """Record an answer to a stored drill, or to a drawn hand's ticket (which makes a
    visitor without a session the guest it was drawn for); who answered, and the drill."""
    if answer["ticket"]:
        drawn = services.drill_drawn(answer["ticket"])
        drill = services.drill_answer_drawn(owner=owner, drawn=drawn, action=answer["action"])
        # Stored: only now is the visitor the guest it was drawn for (a refused ticket,
        # a replayed one above all, makes no one that guest).
        return owner or owner_as_guest(request, drawn.guest_token), drill
    if owner is None:  # no session, so no drill stored for them: nothing is written
        raise services.DrillRefused(_("That hand was not dealt to you."))
    return owner, services.drill_answer(
        owner=owner, drill_id=answer["drill"], action=answer["action"]
    )


def _drill_analysing(
    request: HtmxHttpRequest, chosen: DrillSettings, preferences: AccountPreferences, rules: Rules
) -> HttpResponse:
    """The drill's place while the rules' analysis is worked out (the page asks again
    every second), or why it is not."""
    analysis = analyses.analysis_start(rules=rules, visitor=analyses.visitor_of(request))
    if request.method == "POST" and not request.htmx:
        return redirect("trainer:drill")  # the page shows where the analysis stands
    progress = analyses.analysis_progress(rules) if analysis is analyses.Analysis.RUNNING else None
    context: dict[str, Any] = {
        "analysis": analysis,
        "analysis_seconds": progress.seconds if progress else None,
        "analysis_rules": RulesWords.of(rules),
        "analysis_limit": settings.BLACKJACK_ANALYSES_PER_HOUR,
        "auto_advance": chosen.auto_advance,
    }
    if request.htmx and not request.htmx.history_restore_request:
        # Whatever asked, the whole drill region shows it.
        response = render(request, "trainer/drills/drill.html#drill", context)
        return reswap(retarget(response, "#drill"), "outerHTML")
    context["settings_form"] = SettingsForm.of(chosen, preferences)
    context["rule_fields"] = rule_fields()
    # Refused: the settings are open, for the player to choose rules that are at hand.
    context["settings_open"] = analysis in (analyses.Analysis.LIMITED, analyses.Analysis.FAILED)
    limited = analysis is analyses.Analysis.LIMITED
    return render(request, "trainer/drills/drill.html", context, status=429 if limited else 200)


@require_POST
def drill_settings(request: HtmxHttpRequest) -> HttpResponse:
    """Change the rules, the kind of hands and auto-advance; a hand under them is dealt."""
    owner = owner_of(request)
    form = SettingsForm(request.POST)
    if not form.is_valid():
        chosen, preferences = choices_of(request)  # unchanged: the page shows the errors
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
            context = _drill_context(shown, chosen, preferences, form, notice)
        return render(
            request, "trainer/drills/drill.html", {**context, "settings_open": True}, status=400
        )
    chosen, preferences = form.chosen()
    choices_save(request, chosen, preferences)
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
    drill: DrillView,
    chosen: DrillSettings,
    preferences: AccountPreferences,
    form: SettingsForm | None,
    notice: str | None,
) -> dict[str, Any]:
    return {
        "drill": drill,
        "auto_advance": chosen.auto_advance,
        "letter_keys": preferences.letter_keys,
        "settings_form": form,
        "rule_fields": rule_fields() if form is not None else (),
        "notice": notice,
    }


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
    chosen, preferences = choices_of(request)
    rules_name = request.GET.get("rules", "")
    if rules_name in PRESETS and rules_name != chosen.rules_name:
        chosen = replace(chosen, rules_name=rules_name, rule_changes=RuleChanges())
    focused = replace(chosen, mode=DrillMode.FOCUS, focus_row=row, focus_up=up)
    settings = {**focused.form_fields(), **asdict(preferences)}
    context = {"row": row_title(row), "up": up, "settings": settings}
    return render(request, "trainer/drills/drill_focus.html", context)
