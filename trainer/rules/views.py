"""The rules pages: each preset's rules and chart, the chart of the player's drill rules, and
the rules lab."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from engine.bots import NORMAL_CHART
from engine.rules import PRESETS, Rules
from engine.strategy import AnalysisPending, Strategy, strategy_for
from trainer.rules import selectors
from trainer.rules.forms import LabForm
from trainer.rules.lab import lab_of
from trainer.rules.pages import RulesPage
from trainer.shared import analyses
from trainer.shared.charts import ChartView
from trainer.shared.htmx import HtmxHttpRequest
from trainer.shared.preferences import choices_of, settings_of
from trainer.shared.rule_changes import RuleChanges
from trainer.shared.rules_words import RulesWords
from trainer.shared.seats import DEFAULT_BANKROLL, DEFAULT_SEATS


@require_GET
def chart(request: HtmxHttpRequest, preset: str = "european") -> HttpResponse:
    """A preset's exact basic-strategy chart, marked where the common chart differs."""
    strategy = selectors.strategy_for_preset(preset)
    drill_rules, _notice = settings_of(request).rules_in_force()
    return _chart_page(request, strategy.rules, preset, strategy, drill_rules=drill_rules)


@require_GET
def chart_yours(request: HtmxHttpRequest) -> HttpResponse:
    """The chart of the rules the player drills on, their own changes included (worked
    out in the background, within the analysis allowance, if no one has asked before)."""
    rules, _notice = settings_of(request).rules_in_force()  # the rules the drills grade by
    if rules == PRESETS.get(rules.name):
        return redirect("trainer:chart", preset=rules.name)
    try:
        strategy = strategy_for(rules)
    except AnalysisPending:
        analysis = analyses.analysis_start(rules=rules, visitor=analyses.visitor_of(request))
        running = analysis is analyses.Analysis.RUNNING
        progress = analyses.analysis_progress(rules) if running else None
        context = {
            "rules_words": RulesWords.of(rules),
            "presets": list(PRESETS),
            "analysis": analysis,
            "analysis_seconds": progress.seconds if progress else None,
            "analysis_limit": settings.BLACKJACK_ANALYSES_PER_HOUR,
        }
        limited = analysis is analyses.Analysis.LIMITED
        return render(request, "trainer/rules/chart.html", context, status=429 if limited else 200)
    return _chart_page(request, rules, "yours", strategy, drill_rules=rules)


def _chart_page(
    request: HtmxHttpRequest, rules: Rules, tab: str, strategy: Strategy, *, drill_rules: Rules
) -> HttpResponse:
    """A chart page; ``drill_rules`` are those the player's drills are graded by."""
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
    return render(request, "trainer/rules/chart.html", context)


@require_GET
def rules(request: HtmxHttpRequest, preset: str = "european") -> HttpResponse:
    """A preset's rules: in short, in its rule document's own words, and the trainer's
    notes where the document is silent."""
    if preset not in PRESETS:
        raise Http404(f"no rules preset called {preset!r}")
    strategy = selectors.strategy_for_preset(preset)
    page = RulesPage.of(
        preset,
        viewer=get_language(),
        expected_return=strategy.expected_return,
        asked=request.GET.get("doc"),
    )
    return render(request, "trainer/rules/rules.html", {"page": page, "presets": list(PRESETS)})


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
        return render(request, "trainer/rules/rules_lab.html", context, status=400)
    name, overrides = form.cleaned_data["rules_name"], form.cleaned_data["overrides"]
    base = PRESETS[name]
    lab = lab_of(base, overrides, visitor=analyses.visitor_of(request))
    context["lab"] = lab
    context["rules_words"] = RulesWords.of(base.with_overrides(overrides))
    if lab.strategy is not None:
        context["chart"] = ChartView.of(
            lab.strategy, lab.base_strategy.chart, lab.base_strategy.rules
        )
        drill_settings, preferences = choices_of(request)
        changes = RuleChanges(tuple(overrides.items())).text
        context["drill_fields"] = {
            **drill_settings.form_fields(),
            **asdict(preferences),
            "rules_name": name,
            "custom_rules": changes,
        }
        context["practice_fields"] = {
            "rules": name,
            "custom_rules": changes,
            "bankroll": DEFAULT_BANKROLL,
            **{f"seat_{seat}": tier for seat, tier in DEFAULT_SEATS.items()},
        }
    return render(request, "trainer/rules/rules_lab.html", context)
