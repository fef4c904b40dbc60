"""Reads of the drill pages, every one scoped to its owner: the latest drill, and a drill with
the exact strategy that shows and grades it."""

from __future__ import annotations

from dataclasses import dataclass

from engine.drills import Situation
from engine.errors import EngineError
from engine.explain import Explanation, explain
from engine.rules import Rules, preset
from engine.strategy import Strategy, strategy_for
from trainer.models import (
    Drill,
)
from trainer.shared.owners import Owner


def latest_drill(owner: Owner) -> Drill | None:
    """The owner's most recently issued drill, answered or not (practice decisions aside)."""
    return (
        Drill.objects.filter(**owner.filter(), source=Drill.Source.DRILL)
        .order_by("-issued_at", "-pk")
        .first()
    )


def situation_of(drill: Drill) -> Situation:
    """The situation a drill was dealt, under the rules it was dealt under."""
    rules = Rules.from_json(drill.rules) if drill.rules else preset(drill.rules_name)
    return Situation.parse(rules, drill.cards, drill.up)


def situation_or_none(drill: Drill) -> Situation | None:
    """The drill's situation, or None when it was dealt under rules (or cards) that the
    engine no longer accepts: stored data must never stop a page."""
    try:
        return situation_of(drill)
    except (EngineError, ValueError):
        return None


@dataclass(frozen=True)
class DealtDrill:
    """A drill with all that showing it takes: the situation dealt, and the exact strategy
    of its rules (its chart row, and once answered every play's EV)."""

    drill: Drill
    situation: Situation
    strategy: Strategy
    #: Answered, in a cell where these rules' chart parts from the common chart: why.
    explanation: Explanation | None = None


def dealt_drill(drill: Drill) -> DealtDrill:
    """The drill and its strategy, read from the analyses' store unless this process holds
    it already; `AnalysisPending` while its rules are still being worked out.

    Once answered, the explanation compares the chart with the common one, the American
    preset's analysis: read once per process, then kept with the comparison."""
    situation = situation_of(drill)
    strategy = strategy_for(situation.rules)
    explanation = explain(situation) if drill.answered_at else None
    return DealtDrill(drill, situation, strategy, explanation)


# The practice pages -----------------------------------------------------------------------
