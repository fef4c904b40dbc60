"""The rules lab: a player's rule set beside a preset, each change weighed on its own.

The figures come from the exact analyses only: the preset's, one for each changed field
alone, and one for every change together (exact for the whole set, never a sum). An
analysis not yet worked out is started in the background within the hourly allowance
(`trainer.shared.analyses`), at most `STARTS_PER_REQUEST` by one request, and the page asks again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.utils.formats import number_format

from engine.rule_ranges import RulesError
from engine.rules import ALLOWED, Rules
from engine.strategy import AnalysisPending, Strategy, strategy_for
from trainer.shared.analyses import Analysis, analysis_start
from trainer.shared.rules_words import value_text

#: New background analyses one lab request may start (see docs/decisions.md): the whole
#: set first, then the single changes in the form's order; later requests start the rest.
STARTS_PER_REQUEST = 2
#: Not asked for yet: an earlier analysis of this request comes first.
QUEUED = "queued"


@dataclass(frozen=True)
class Figure:
    """One analysis' place in the lab: its edges once worked out, else where it stands."""

    #: The field changed alone, in words ("2 decks"), or "" for the preset and the whole set.
    change: str
    rules: Rules | None
    #: Ready, running, waiting, limited, failed, `QUEUED`, or "invalid" for a change
    #: that is no game on its own (resplit_aces=true where the preset splits once).
    state: str
    house_edge_percent: float | None = None
    cd_house_edge_percent: float | None = None
    #: This edge less the preset's, in percent (positive: worse for the player).
    effect_percent: float | None = None

    @property
    def effect_text(self) -> str:
        """The effect in hundredths of a percent with its sign: "+0.22%", "−0.05%"."""
        if self.effect_percent is None:
            return ""
        rounded = round(self.effect_percent, 2)
        sign = "+" if rounded > 0 else "\N{MINUS SIGN}" if rounded < 0 else ""
        return sign + number_format(abs(rounded), decimal_pos=2) + "%"


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
        change = value_text(field, ALLOWED[field].parse(field, text))
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
