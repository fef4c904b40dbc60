"""The player's own counting game (issue 27): their error rates as the drills measured
them, the game they play, and its simulated figures beside the same game played without
mistakes (`engine.counting.your_game`, worked out in the background).

The game is the player's latest choices: the rules, system and true-count method of their
latest index play (the index drill's first choices before any), played with that computed
index table in full, and the ramp of their latest bet (the betting drill's first ramp
before any). Each rate is measured from the latest answers of its drill (`RECENT`):

- the count: decks not counted exactly, per card counted (at least one slip each);
- the true count: running counts turned into a wrong true count (deck estimates alone
  are left out: a half deck off seldom changes the true count);
- index plays and bets: the share answered wrong.

The rates are rounded (the count's to 0.0001 a card, the others to 0.01), so that the
simulation is run again when a figure changes that much, not at every answer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from engine.counting.risk import BetRamp, bank_for_risk, parse_ramp, simple_risk_of_ruin
from engine.counting.simulation import SLIP_KINDS, Slips
from engine.counting.systems import CountingError, system_named
from engine.counting.your_game import GameRequest, suggested_ramp
from trainer.counting.forms import CONVERSION_LABELS, ESTIMATE_LABELS, IndexStartForm
from trainer.counting.selectors import RECENT, answer_figures, bet_figures, index_figures
from trainer.counting.services import IndexSettings
from trainer.models import BetQuestion, CountingRun, IndexPlayQuestion, TrueCountQuestion
from trainer.shared.counts import FIRST_RAMP, ramp_text
from trainer.shared.owners import Owner

#: Each kind of mistake, as the page names it.
KIND_NAMES: dict[str, Promise] = {
    "count": _("Keeping the running count"),
    "true_count": _("Converting to the true count"),
    "deviations": _("Index plays"),
    "bets": _("Bets by the ramp"),
}


@dataclass(frozen=True)
class Measured:
    """One kind of mistake as measured: from how many answers (cards, for the count), how
    many were wrong, and the rate the simulation plays."""

    kind: str
    answers: int
    wrong: int
    rate: float

    @property
    def name(self) -> Promise:
        return KIND_NAMES[self.kind]


@dataclass(frozen=True)
class PlayerGame:
    """The game a player's figures are simulated for, and how it reads on the page."""

    index: IndexSettings
    ramp: BetRamp
    measured: tuple[Measured, ...]

    def request(self) -> GameRequest:
        slips = Slips(**{m.kind: m.rate for m in self.measured})
        return GameRequest(self.index.request(), self.ramp, slips, settings.BLACKJACK_GAME_ROUNDS)

    @property
    def system(self) -> str:
        return system_named(self.index.system).name

    @property
    def method(self) -> str:
        return f"{ESTIMATE_LABELS[self.index.estimate]}; {CONVERSION_LABELS[self.index.conversion]}"

    @property
    def ramp_text(self) -> str:
        return ramp_text(self.ramp)

    @property
    def index_query(self) -> dict[str, str]:
        """The index drill's choices for this game, as its address takes them."""
        return {"rules": self.index.rules_name, "changes": self.index.rules_changes,
                "system": self.index.system, "estimate": self.index.estimate.value,
                "conversion": self.index.conversion.value}  # fmt: skip


def player_game(owner: Owner | None) -> PlayerGame:
    """The game of ``owner``'s latest choices and their measured error rates."""
    return PlayerGame(_index_settings(owner), _ramp(owner), _measured(owner))


def _index_settings(owner: Owner | None) -> IndexSettings:
    latest = None if owner is None else (
        IndexPlayQuestion.objects.filter(**owner.filter()).order_by("-created_at").first()
    )  # fmt: skip
    data = IndexStartForm.defaults() if latest is None else {
        "rules": latest.rules_name, "changes": latest.rules_changes, "system": latest.system,
        "estimate": latest.estimate, "conversion": latest.conversion,
    }  # fmt: skip
    form = IndexStartForm(data)
    if not form.is_valid():  # a preset since renamed: the drill's first choices
        form = IndexStartForm(IndexStartForm.defaults())
        form.is_valid()
    return form.index_settings()


def _ramp(owner: Owner | None) -> BetRamp:
    latest = None if owner is None else (
        BetQuestion.objects.filter(**owner.filter()).order_by("-created_at").first()
    )  # fmt: skip
    if latest is None:
        return parse_ramp(FIRST_RAMP, 1)
    return parse_ramp(latest.ramp, latest.below)


def _share(kind: str, answered: int, right: int) -> Measured:
    wrong = answered - right
    return Measured(kind, answered, wrong, round(wrong / answered, 2) if answered else 0.0)


def _measured(owner: Owner | None) -> tuple[Measured, ...]:
    runs: list[CountingRun] = [] if owner is None else list(
        CountingRun.objects.filter(**owner.filter(), answered_at__isnull=False)
        .order_by("-answered_at")
        .only("cards", "exact")[:RECENT]
    )  # fmt: skip
    cards = sum(len(run.cards.split()) for run in runs)
    slipped = sum(1 for run in runs if not run.exact)
    converted = answer_figures(
        TrueCountQuestion.objects.filter(kind=TrueCountQuestion.Kind.CONVERT), owner
    )
    plays, bets = index_figures(owner), bet_figures(owner)
    return (
        Measured("count", cards, slipped, round(slipped / cards, 4) if cards else 0.0),
        _share("true_count", converted.answered, converted.right),
        _share("deviations", plays.answered, plays.right),
        _share("bets", bets.answered, bets.right),
    )


@dataclass(frozen=True)
class GameColumn:
    """One game's figures as the page shows them (units; per 100 hands)."""

    win_per_100: float
    win_stderr: float
    sd_per_100: float
    n0: float | None
    #: Win per 100 hands with a 10,000-unit bank at 13.5% risk, betting optimally.
    score: float
    #: The risk of ruin of the player's bankroll, in percent.
    risk: float
    bank_for_risk: float | None


@dataclass(frozen=True)
class Cost:
    name: Promise
    per_100: float
    stderr: float


@dataclass(frozen=True)
class GameFigures:
    """A stored simulation beside the player's bankroll and chosen risk."""

    perfect: GameColumn
    yours: GameColumn
    total: Cost
    costs: tuple[Cost, ...]
    costliest: Promise | None
    rounds: int
    #: The flat bettor's edge, in percent, and its standard error.
    flat_edge: float
    flat_edge_stderr: float
    #: The ramp the engine suggests for the bankroll, risk and top bet (None when the
    #: simulation's advantage does not rise with the count: too few rounds).
    suggested: BetRamp | None

    @property
    def suggested_text(self) -> str:
        return ramp_text(self.suggested) if self.suggested else ""

    @property
    def measurable(self) -> bool:
        """Whether the mistakes' cost stands out of the simulation's noise (two standard
        errors)."""
        return self.total.per_100 > 2 * self.total.stderr


def game_figures(report: dict[str, Any], *, bank: int, risk: float, top: int) -> GameFigures:
    """The figures of a stored report (`engine.counting.your_game.YourGame.to_json`) for
    a bankroll of ``bank`` units, a chosen risk of ruin ``risk`` (a share) and a top bet
    of ``top`` units."""

    def column(game: dict[str, Any]) -> GameColumn:
        win, variance = game["win_per_round"], game["sd_per_round"] ** 2
        needed = bank_for_risk(win, variance, risk)
        return GameColumn(
            win_per_100=game["win_per_100"],
            win_stderr=game["win_per_100_stderr"],
            sd_per_100=game["sd_per_100"],
            n0=game["n0"],
            score=game["score"],
            risk=100 * simple_risk_of_ruin(win, variance, bank),
            bank_for_risk=needed if math.isfinite(needed) else None,
        )

    costs = tuple(
        Cost(KIND_NAMES[kind], cost["per_100"], cost["stderr"])
        for kind, cost in report["costs"].items()
        if kind in SLIP_KINDS
    )
    total = report["total"]
    flat = report["flat"]
    by_count = {
        int(count): (line["rounds"], line["advantage"]) for count, line in flat["by_count"].items()
    }
    try:
        suggested: BetRamp | None = suggested_ramp(
            by_count, flat["sd_per_round"] ** 2, bank=bank, risk=risk, maximum=top
        )
    except CountingError:
        suggested = None
    return GameFigures(
        perfect=column(report["perfect"]),
        yours=column(report["yours"]),
        total=Cost(_("All of them"), total["per_100"], total["stderr"]),
        costs=costs,
        costliest=KIND_NAMES.get(report["costliest"] or ""),
        rounds=report["perfect"]["rounds_played"],
        flat_edge=100 * flat["edge"],
        flat_edge_stderr=100 * flat["win_per_round_stderr"],
        suggested=suggested,
    )
