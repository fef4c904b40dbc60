"""The casino-ready check (issue 27): one shoe dealt to the cut card at a full practice
table in counting mode, graded against a stated standard.

An attempt is a practice session in counting mode (trainer/practice/counting.py), started
by the practice table's own start form, filled here (`start_fields`), on the player's own
game (`trainer.counting.your_game.player_game`: the rules, system and method of their
latest index play, the ramp of their latest bet), the player in the middle seat among six
bots. It ends when the count asked before the shuffle is given, or when the player ends
the session first (not passed). It passes when, over that shoe:

- every count asked is right, running and true;
- every bet is the ramp's at its true count;
- every deviation the count called for is played right;
- the pace is a casino's: each play within `PLAY_SECONDS`, each count within
  `COUNT_SECONDS` of being asked (by the server's clock).

An attempt is graded once, the first time its record is read after it has ended.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from trainer.counting.your_game import PlayerGame
from trainer.models import CasinoCheck, CountCheck, Drill, PracticeSession
from trainer.shared.owners import Owner
from trainer.shared.unit_of_work import NotFound

#: The pace of a casino table: the longest a play or a count may take.
PLAY_SECONDS = 10
COUNT_SECONDS = 15
#: Chips to sit down with: room for a ramp's top bets through a shoe.
BANKROLL = 5000
#: Where everyone sits: the player in the middle, bots of the normal tier around them.
PLAYER_SEAT = 4
BOT_TIER = "normal"


def start_fields(game: PlayerGame) -> dict[str, str]:
    """The practice table's start form, filled for an attempt on ``game`` (the check's
    page posts it, hidden): the practice feature makes the table and its record."""
    index = game.index
    fields = {
        "rules": index.rules_name,
        "custom_rules": index.rules_changes,
        "bankroll": str(BANKROLL),
        "counting": "on",
        "counting_system": index.system,
        "counting_ramp": game.ramp_text,
        "counting_below": str(game.ramp.below),
        "counting_estimate": index.estimate.value,
        "counting_conversion": index.conversion.value,
        "casino_check": "on",
    }
    for seat in range(1, 8):
        fields[f"seat_{seat}"] = "you" if seat == PLAYER_SEAT else BOT_TIER
    return fields


@dataclass(frozen=True)
class CheckFigures:
    """What an attempt is graded on."""

    rounds: int
    counts: int
    counts_right: int
    bets: int
    bets_right: int
    deviations: int
    deviations_right: int
    #: The slowest play and count, in seconds (None: there was none).
    slowest_play: float | None
    slowest_count: float | None
    #: The shoe was played to its end (the count before the shuffle given).
    shoe_ended: bool

    @property
    def passed(self) -> bool:
        return (
            self.shoe_ended
            and self.counts_right == self.counts
            and self.bets_right == self.bets
            and self.deviations_right == self.deviations
            and (self.slowest_play or 0) <= PLAY_SECONDS
            and (self.slowest_count or 0) <= COUNT_SECONDS
        )


def figures_of(session: PracticeSession) -> CheckFigures:
    """An attempt's figures from its session's records."""
    rounds = list(session.rounds.exclude(net__isnull=True))
    checks = list(CountCheck.objects.filter(session=session))
    plays = list(Drill.objects.filter(practice_round__session=session))
    called = [play for play in plays if play.deviation]
    play_seconds = [play.response_ms / 1000 for play in plays if play.response_ms is not None]
    count_seconds = [check.seconds for check in checks if check.seconds is not None]
    return CheckFigures(
        rounds=len(rounds),
        counts=len(checks),
        counts_right=sum(1 for check in checks if check.is_right),
        bets=len(rounds),
        bets_right=sum(1 for played in rounds if played.on_ramp),
        deviations=len(called),
        deviations_right=sum(1 for play in called if play.is_correct),
        slowest_play=max(play_seconds, default=None),
        slowest_count=max(count_seconds, default=None),
        shoe_ended=any(check.reason == CountCheck.Reason.SHUFFLE for check in checks),
    )


def _graded(check: CasinoCheck) -> CasinoCheck:
    """``check``, graded once if its session has ended."""
    session = check.session
    if check.finished_at is None and session.ended_at is not None:
        figures = figures_of(session)
        check.finished_at = session.ended_at
        check.passed = figures.passed
        check.figures = asdict(figures)
        check.save(update_fields=["finished_at", "passed", "figures"])
    return check


def owner_checks(owner: Owner) -> list[CasinoCheck]:
    """The owner's attempts, the latest first, each graded once it has ended."""
    found = CasinoCheck.objects.filter(
        session__in=PracticeSession.objects.filter(**owner.filter())
    ).select_related("session")
    return [_graded(check) for check in found.order_by("-started_at")]


def owner_check(owner: Owner, pk: int) -> CasinoCheck:
    """One of the owner's attempts, graded once it has ended; `NotFound` for anyone
    else's."""
    found = (
        CasinoCheck.objects.filter(
            pk=pk, session__in=PracticeSession.objects.filter(**owner.filter())
        )
        .select_related("session")
        .first()
    )
    if found is None:
        raise NotFound("no such check")
    return _graded(found)


def figures_shown(check: CasinoCheck) -> CheckFigures | None:
    """The figures of a graded attempt; None while it is under way."""
    return CheckFigures(**check.figures) if check.finished_at is not None else None
