"""The rules lab: a player's rule set beside a preset, each change weighed on its own.

The figures come from the exact analyses only: the preset's, one for each changed field
alone, and one for every change together (exact for the whole set, never a sum). An
analysis not yet worked out is started in the background within the hourly allowance
(`trainer.analyses`), at most `STARTS_PER_REQUEST` by one request, and the page asks again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.errors import RulesError
from engine.rules import PRESETS, Rules, preset
from engine.strategy import AnalysisPending, Strategy, strategy_for
from trainer.analyses import Analysis, analysis_start
from trainer.preferences import OverridesError, parse_overrides, rules_error_text
from trainer.rules_words import PRESET_NAMES

#: New background analyses one lab request may start (see docs/decisions.md): the whole
#: set first, then the single changes in the form's order; later requests start the rest.
STARTS_PER_REQUEST = 2
#: Not asked for yet: an earlier analysis of this request comes first.
QUEUED = "queued"


class LabForm(forms.Form):
    """A preset and the changes to it, written as in the drill settings."""

    rules_name = forms.ChoiceField(
        label=_("Compare with"), choices=[(name, PRESET_NAMES[name]) for name in PRESETS]
    )
    custom_rules = forms.CharField(
        label=_("Changes to the rules"),
        required=False,
        max_length=400,
        help_text=_("Optional, such as: decks=2, dealer_hits_soft_17=true"),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        name = cleaned.get("rules_name")
        if name:
            try:
                cleaned["overrides"] = changed_fields(
                    preset(str(name)), parse_overrides(str(cleaned.get("custom_rules", "")))
                )
            except RulesError as error:
                self.add_error("custom_rules", rules_error_text(error))
            except OverridesError as error:
                self.add_error("custom_rules", str(error))
        return cleaned


def changed_fields(base: Rules, overrides: dict[str, str]) -> dict[str, str]:
    """The overrides that change ``base`` (one setting a field to its preset value is
    left out); `RulesError` when the whole set is not a game."""
    whole = base.with_overrides(overrides)
    return {
        field: text
        for field, text in overrides.items()
        if getattr(whole, field) != getattr(base, field)
    }


@dataclass(frozen=True)
class Figure:
    """One analysis' place in the lab: its edges once worked out, else where it stands."""

    #: The field changed alone ("decks=2"), or "" for the preset and for the whole set.
    change: str
    rules: Rules | None
    #: Ready, running, waiting, limited, failed, `QUEUED`, or "invalid" for a change
    #: that is no game on its own (resplit_aces=true where the preset splits once).
    state: str
    house_edge_percent: float | None = None
    cd_house_edge_percent: float | None = None
    #: This edge less the preset's, in percent (positive: worse for the player).
    effect_percent: float | None = None


@dataclass(frozen=True)
class Lab:
    base: Figure
    singles: tuple[Figure, ...]
    whole: Figure
    #: The whole set's analysis, for its chart, once worked out.
    strategy: Strategy | None
    base_strategy: Strategy

    @property
    def pending(self) -> bool:
        """Whether a later request may bring more figures (the page then asks again)."""
        states = {self.whole.state, *(figure.state for figure in self.singles)}
        return bool(states & {Analysis.RUNNING, Analysis.WAITING, QUEUED})


def lab_of(base: Rules, overrides: dict[str, str], *, visitor: str) -> Lab:
    """The lab's figures for ``overrides`` against the preset ``base``, starting at most
    `STARTS_PER_REQUEST` analyses not yet worked out."""
    base_strategy = strategy_for(base)  # a preset's analysis is always at hand
    base_edge = _edge(base_strategy)
    starts = 0

    def figure(change: str, rules: Rules) -> tuple[Figure, Strategy | None]:
        nonlocal starts
        try:
            strategy = strategy_for(rules)
        except AnalysisPending:
            if starts >= STARTS_PER_REQUEST:
                return Figure(change, rules, QUEUED), None
            state = analysis_start(rules=rules, visitor=visitor)
            starts += state in (Analysis.RUNNING, Analysis.WAITING)
            return Figure(change, rules, state), None
        edge = _edge(strategy)
        cd_edge = -100 * strategy.cd_expected_return
        figure = Figure(change, rules, Analysis.READY, edge, cd_edge, edge - base_edge)
        return figure, strategy

    whole, strategy = figure("", base.with_overrides(overrides))
    singles = []
    for field, text in overrides.items():
        change = f"{field}={text}"
        try:
            alone = base.with_overrides({field: text})
        except RulesError:
            singles.append(Figure(change, None, "invalid"))
            continue
        singles.append(
            replace(whole, change=change) if len(overrides) == 1 else figure(change, alone)[0]
        )
    base_figure = Figure(
        "",
        base,
        Analysis.READY,
        base_edge,
        -100 * base_strategy.cd_expected_return,
        0.0,
    )
    return Lab(base_figure, tuple(singles), whole, strategy, base_strategy)


def _edge(strategy: Strategy) -> float:
    return float(strategy.edge_json()["house_edge_percent"])
