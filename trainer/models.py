"""What the trainer stores: drills and their answers, practice sessions, their rounds and
the bets settled in them."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.utils.translation import gettext_lazy as _

from engine.events import StakeSettled
from engine.values import StakeKind
from trainer.shared import tallies


class PlayerRecord(models.Model):
    """Something of one player's — an account's, or a guest's — under a named rules preset
    and its version (so that history stays meaningful when a preset changes)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    #: For a guest, the token their session keeps (see `trainer.shared.owners.owner_of`).
    guest_token = models.CharField(max_length=40, blank=True)
    rules_name = models.CharField(max_length=60)
    rules_version = models.CharField(max_length=20)

    class Meta:
        abstract = True
        constraints = [
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(guest_token=""),
                name="%(class)s_has_an_owner",
            ),
        ]


class DrillQuerySet(models.QuerySet["Drill"]):
    def update(self, **fields: Any) -> int:
        """Update the rows, and when that changes what the tallies count (an answered
        decision's owner, rules set, time, cell or grade), recount their owners' tallies
        (`trainer.shared.tallies`): nothing written through the ORM leaves them stale."""
        if tallies.COUNTED_FIELDS.isdisjoint(fields):
            return super().update(**fields)
        with transaction.atomic(using=self.db):
            owners = tallies.owners_of(self) | tallies.owners_in(fields)
            updated = super().update(**fields)
            tallies.recount(owners, using=self.db)
        return updated

    def update_counted_apart(self, **fields: Any) -> int:
        """Update the rows and leave the tallies alone: for a caller that moves them
        itself, in the same transaction (`trainer.shared.tallies.adopt`)."""
        return super().update(**fields)


class Drill(PlayerRecord):
    """A decision issued to one player (an account, or a guest), then answered.

    The situation is issued by the server and remembered, so an answer is only ever
    accepted for a drill this player was dealt, and only once.

    Every answered decision is counted in its owner's tallies (`trainer.shared.tallies`) in the
    transaction that writes it: saved answered (a practice decision), answered by the
    drill answer's UPDATE, or changed by an ``update()``. Rows written around the ORM (a
    bulk import, a restore) need ``manage.py tallies_rebuild``.
    """

    class Source(models.TextChoices):
        DRILL = "drill"
        PLAY = "play"

    #: Every rule field the drill was dealt and graded under (`Rules.to_json`).
    rules = models.JSONField(default=dict)
    #: The player's cards and the up card, as text ("10s 6h", "10d"); a practice round's
    #: later decisions hold more than two cards (at most 20 under 21: room for 21 of "10s ").
    cards = models.CharField(max_length=96)
    up = models.CharField(max_length=4)
    #: The situation's chart cell ("hard 16", "10"), recorded with the answer.
    row = models.CharField(max_length=12, blank=True)
    up_column = models.CharField(max_length=2, blank=True)
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.DRILL)
    issued_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    action = models.CharField(max_length=16, blank=True)
    correct_action = models.CharField(max_length=16, blank=True)
    correct_code = models.CharField(max_length=4, blank=True)
    #: EV given up by the answer, in units of the initial bet (a statistic, not chips).
    ev_lost = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    response_ms = models.PositiveIntegerField(null=True, blank=True)
    #: Timed mode: the seconds the player had to answer (None: untimed), and whether the
    #: answer came later than that by the server's clock, which counts it as a miss.
    time_limit = models.PositiveSmallIntegerField(null=True, blank=True)
    late = models.BooleanField(default=False)
    #: The drill session (docs/decisions.md) this hand belongs to, as it stood before the
    #: hand was answered and, once answered, with it: hands, right answers, the streak of
    #: right answers, EV given up. Kept here so that the answer's one UPDATE keeps them.
    session_hands = models.PositiveIntegerField(default=0)
    session_right = models.PositiveIntegerField(default=0)
    session_streak = models.PositiveIntegerField(default=0)
    session_lost = models.DecimalField(max_digits=12, decimal_places=6, default=0)
    #: For a decision taken in a practice round (source "play"), that round.
    practice_round = models.ForeignKey(
        "PracticeRound", null=True, blank=True, on_delete=models.CASCADE, related_name="decisions"
    )
    #: Coach mode: a mistake held back and then taken back, so not the play made. It still
    #: counts as the player's answer (progress); the round's record shows the play made.
    taken_back = models.BooleanField(default=False)
    #: Counting mode at the practice table: the count called for a deviation from the chart,
    #: and the decision was graded against the index play (engine.counting.deviations).
    deviation = models.BooleanField(default=False)

    objects = DrillQuerySet.as_manager()

    class Meta(PlayerRecord.Meta):
        indexes = [
            models.Index(fields=["user", "-issued_at"]),
            models.Index(fields=["guest_token", "-issued_at"]),
            # An account's answers under one rules set, latest last, with every column
            # progress and weak spots read, the id they count included (PostgreSQL reads
            # them from the index alone; SQLite, without covering indexes, from the rows).
            models.Index(
                fields=["user", "rules_name", "answered_at"],
                include=[
                    "id",
                    "source",
                    "row",
                    "up_column",
                    "action",
                    "correct_action",
                    "late",
                    "ev_lost",
                    "response_ms",
                ],
                condition=models.Q(answered_at__isnull=False),
                name="drill_account_answers",
            ),  # fmt: skip
        ]
        # One hand waits to be answered at a time, whatever races to deal the next.
        constraints = [
            *PlayerRecord.Meta.constraints,
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(answered_at__isnull=True, source="drill"),
                name="one_pending_drill_per_account",
            ),
            models.UniqueConstraint(
                fields=["guest_token"],
                condition=models.Q(user__isnull=True, answered_at__isnull=True, source="drill"),
                name="one_pending_drill_per_guest",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.cards} v {self.up} ({self.rules_name})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save the drill; an answered one is counted in its owner's tallies (recounted
        if it was saved before), in the same transaction."""
        if self.answered_at is None:
            return super().save(*args, **kwargs)
        adding = self._state.adding
        with transaction.atomic(using=kwargs.get("using")):
            super().save(*args, **kwargs)
            using = self._state.db or "default"
            if adding:
                tallies.count_in([self.pk], using=using)
            else:
                tallies.recount({tallies.owner_of(self)}, using=using)
        return None

    @property
    def is_correct(self) -> bool:
        """Answered in time with the right play."""
        return bool(self.answered_at) and self.action == self.correct_action and not self.late


class Tally(models.Model):
    """Counts of one player's answered decisions under one key, kept up to date with each
    answer (`trainer.shared.tallies`) so that progress reads these and never the answers."""

    # No index of its own: the accounts' unique constraint leads with the user.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, db_index=False
    )
    guest_token = models.CharField(max_length=40, blank=True)
    rules_name = models.CharField(max_length=60)
    answered = models.PositiveIntegerField()

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.answered} answered ({self.rules_name})"


def _one_per_owner(name: str, *keys: str) -> list[models.BaseConstraint]:
    """A tally's key, unique for each account and for each guest (what its upserts find),
    and its owner, one or the other."""
    return [
        models.CheckConstraint(
            condition=models.Q(user__isnull=False) | ~models.Q(guest_token=""),
            name=f"{name}_has_an_owner",
        ),
        models.UniqueConstraint(
            fields=["user", *keys], condition=models.Q(user__isnull=False), name=f"{name}_account"
        ),
        models.UniqueConstraint(
            fields=["guest_token", *keys],
            condition=models.Q(user__isnull=True),
            name=f"{name}_guest",
        ),
    ]


class DayTally(Tally):
    """Answers per UTC day and source (drill or practice round): the accuracy line."""

    day = models.DateField()
    source = models.CharField(max_length=8, choices=Drill.Source.choices)
    #: Right and in time.
    correct = models.PositiveIntegerField()
    lost = models.DecimalField(max_digits=15, decimal_places=6)

    class Meta:
        constraints = _one_per_owner("day_tally", "rules_name", "day", "source")


class CellTally(Tally):
    """Answers per chart cell: the heat map, the kinds of hand, the weakest cells."""

    row = models.CharField(max_length=12)
    up_column = models.CharField(max_length=2)
    correct = models.PositiveIntegerField()
    lost = models.DecimalField(max_digits=15, decimal_places=6)

    class Meta:
        constraints = _one_per_owner("cell_tally", "rules_name", "row", "up_column")


class ResponseTally(Tally):
    """Drill answers' response times per week (from Monday), as a histogram of steps of
    `trainer.shared.tallies.RESPONSE_BUCKET_MS` (the longest in the last)."""

    week = models.DateField()
    bucket = models.PositiveSmallIntegerField()

    class Meta:
        constraints = _one_per_owner("response_tally", "rules_name", "week", "bucket")


class Preferences(models.Model):
    """An account's drill settings and account-wide preferences (a guest's live in their
    session instead): `trainer.shared.preferences`."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    rules_name = models.CharField(max_length=60, default="european")
    #: Rule fields changed from the preset and their values, as the engine reads them
    #: (``{"decks": "2", "dealer_hits_soft_17": "true"}``).
    rule_changes = models.JSONField(default=dict, blank=True)
    mode = models.CharField(max_length=8, default="all")
    #: The "one row or cell" mode: the chart row, and the up card ("" for the whole row).
    focus_row = models.CharField(max_length=12, blank=True)
    focus_up = models.CharField(max_length=2, blank=True)
    #: Seconds to answer each hand in (0: untimed).
    time_limit = models.PositiveSmallIntegerField(default=0)
    auto_advance = models.BooleanField(default=False)
    #: Whether single letters (H, S, D, P, R, B) play at the drill and the practice table:
    #: off for a speech-input or one-key user, whom a stray letter would make play.
    letter_keys = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"{self.user}: {self.rules_name}, {self.mode}"


class PracticeSession(PlayerRecord):
    """A practice table of one player's: the engine's `Table` state, versioned.

    ``state`` holds the shoe's order and the hole card, so it never leaves the server.
    Every action is one transaction that moves ``version`` on by one, and only from the
    version the request was made from: a stale or replayed request changes nothing.
    """

    #: The chips the player sat down with; the balance is these plus every round's net.
    bankroll = models.PositiveIntegerField()
    balance = models.IntegerField()
    #: The bet the next deal takes (built with the chip buttons; kept between rounds).
    next_bet = models.PositiveIntegerField(default=0)
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    hints = models.BooleanField(default=False)
    coach = models.BooleanField(default=False)
    #: Coach mode: the wrong action held back for the player to take back or confirm
    #: (graded and recorded already).
    held_action = models.CharField(max_length=16, blank=True)
    #: Counting mode (trainer/practice/counting.py), None without it: the system, true-count
    #: method and ramp, the count carried from round to round, and a count question put.
    counting = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    #: When the player's current decision was put to them (for response times).
    changed_at = models.DateTimeField(auto_now=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta(PlayerRecord.Meta):
        indexes = [
            models.Index(fields=["user", "-started_at"]),
            models.Index(fields=["guest_token", "-started_at"]),
        ]
        # One table at a time, whatever races to open another.
        constraints = [
            *PlayerRecord.Meta.constraints,
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(ended_at__isnull=True),
                name="one_open_table_per_account",
            ),
            models.UniqueConstraint(
                fields=["guest_token"],
                condition=models.Q(user__isnull=True, ended_at__isnull=True),
                name="one_open_table_per_guest",
            ),
        ]

    def __str__(self) -> str:
        return f"practice {self.pk} ({self.rules_name}): {self.balance} chips"


class PracticeRound(models.Model):
    """One round of a practice session, with its public history once it is over."""

    session = models.ForeignKey(PracticeSession, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    bet = models.PositiveIntegerField()
    #: The player's chips won (positive) or lost; None until the round is over.
    net = models.IntegerField(null=True, blank=True)
    balance_after = models.IntegerField(null=True, blank=True)
    #: The round's events as a player at the table saw them (no shoe, no unseen card).
    history = models.JSONField(default=list)
    dealt_at = models.DateTimeField(auto_now_add=True)
    #: Counting mode: the true count the bet was made at, and the ramp's bet there, in
    #: chips (None without counting mode).
    true_count = models.SmallIntegerField(null=True, blank=True)
    ramp_bet = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="one_round_per_number"),
        ]
        ordering = ["number"]

    def __str__(self) -> str:
        return f"round {self.number} of practice {self.session_id}"

    @property
    def on_ramp(self) -> bool:
        """Counting mode: the bet was the ramp's at its true count."""
        return self.bet == self.ramp_bet


class CasinoCheck(models.Model):
    """An attempt at the casino-ready check (trainer/counting/casino.py): one shoe at a
    counting-mode practice table, graded against the stated standard once the shoe ends,
    or failed when the session is ended before. Owned through its session."""

    session = models.OneToOneField(
        PracticeSession, on_delete=models.CASCADE, related_name="casino_check"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    passed = models.BooleanField(null=True)
    #: What the attempt is graded on (`trainer.counting.casino.CheckFigures`).
    figures = models.JSONField(default=dict)

    def __str__(self) -> str:
        return f"casino-ready check {self.pk} (practice {self.session_id})"


class CountCheck(models.Model):
    """A count a counting-mode practice table asked for (trainer/practice/counting.py): after
    which round and why (the shoe's end, or a moment drawn at random), the running and true
    count a counter had, and the player's answer."""

    class Reason(models.TextChoices):
        SHUFFLE = "shuffle"
        RANDOM = "random"

    session = models.ForeignKey(
        PracticeSession, on_delete=models.CASCADE, related_name="count_checks"
    )
    after_round = models.PositiveIntegerField()
    reason = models.CharField(max_length=8, choices=Reason.choices)
    running = models.CharField(max_length=12)
    true_count = models.SmallIntegerField()
    running_answer = models.CharField(max_length=12)
    true_answer = models.SmallIntegerField()
    answered_at = models.DateTimeField(auto_now_add=True)
    #: From the question shown to the answer, by the server's clock.
    seconds = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["after_round"]

    def __str__(self) -> str:
        return f"count check after round {self.after_round} of practice {self.session_id}"

    @property
    def is_right(self) -> bool:
        """Both counts given were the counter's."""
        return (self.running, self.true_count) == (self.running_answer, self.true_answer)


class Bet(PlayerRecord):
    """One of a player's stakes once settled — a hand of the seat bet, insurance, a pair
    bet or a bet behind — as the round's settlement recorded it: the bet history."""

    class Kind(models.TextChoices):
        HAND = StakeKind.HAND.value, _("Seat bet")
        BEHIND = StakeKind.BEHIND.value, _("Bet behind")
        INSURANCE = StakeKind.INSURANCE.value, _("Insurance")
        PAIR = StakeKind.PAIR.value, _("Pair bet")

    #: Where it was settled: a practice round, or a live table's round (by its number
    #: there) — exactly one of the two.
    practice_round = models.ForeignKey(
        PracticeRound, null=True, blank=True, on_delete=models.CASCADE, related_name="bets"
    )
    live_table = models.ForeignKey(
        "SharedTable", null=True, blank=True, on_delete=models.CASCADE, related_name="bets"
    )
    live_round = models.PositiveIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField()
    #: Which of the seat's hands (0 first, more after a split); None for a side stake.
    hand = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    #: The engine's `Result` (win, blackjack, push, lose, bust, surrender, void, a pair's kind).
    result = models.CharField(max_length=16)
    staked = models.PositiveIntegerField()
    returned = models.PositiveIntegerField()
    settled_at = models.DateTimeField()

    class Meta(PlayerRecord.Meta):
        indexes = [
            models.Index(fields=["user", "-settled_at", "-id"]),
            models.Index(fields=["guest_token", "-settled_at", "-id"]),
        ]
        ordering = ["-settled_at", "-id"]
        constraints = [
            *PlayerRecord.Meta.constraints,
            models.CheckConstraint(
                condition=(
                    models.Q(practice_round__isnull=False, live_table__isnull=True)
                    & models.Q(live_round__isnull=True)
                )
                | models.Q(
                    practice_round__isnull=True, live_table__isnull=False, live_round__isnull=False
                ),
                name="bet_settled_at_one_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} bet of {self.staked} on seat {self.seat}: {self.result}"

    @classmethod
    def settled(cls, event: StakeSettled, **where: Any) -> Bet:
        """The record of a settled stake; ``where`` says whose it is (``user_id`` or
        ``guest_token``), under which rules, at which table and round, and when."""
        return cls(
            seat=event.seat,
            hand=event.hand,
            kind=event.kind.value,
            result=event.result.value,
            staked=int(event.staked),
            returned=int(event.returned),
            **where,
        )

    @property
    def net(self) -> int:
        """Chips won (positive) or lost."""
        return self.returned - self.staked


class SharedTable(models.Model):
    """A live Deluxe table that several people share: the engine's `LiveTable` as JSON,
    versioned like a practice session (``state`` holds the shoe: server-side only).

    The columns beside the state are copies of it that a query needs without parsing it:
    ``deadline`` (the stage or decision that ends next, so that a request can tell at a
    glance whether the clock has something to apply; none while a new table's first window
    waits for its first bet), the lobby's figures, and how many
    rounds' bets are on record.
    """

    rules_name = models.CharField(max_length=60)
    rules_version = models.CharField(max_length=20)
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, db_index=True)
    seats_taken = models.PositiveSmallIntegerField(default=0)
    #: The people with chips at the table (seated or not; bots aside).
    people = models.PositiveSmallIntegerField(default=0)
    #: Since when no person has held a seat (None while one does): an idle table closes.
    empty_since = models.DateTimeField(null=True, blank=True, db_index=True)
    #: The seconds each decision is given (the pace its opener chose).
    decision_seconds = models.PositiveSmallIntegerField(default=10)
    minimum_bet = models.PositiveIntegerField()
    maximum_bet = models.PositiveIntegerField()
    #: The rounds whose settled bets are in the bet history (the table's rounds dealt,
    #: once the last is over).
    rounds_recorded = models.PositiveIntegerField(default=0)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    opened_at = models.DateTimeField()
    #: When the last person cashed out; a closed table takes no one.
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["closed_at", "-opened_at"])]

    def __str__(self) -> str:
        return f"live table {self.pk} (version {self.version})"


class StoredAnalysis(models.Model):
    """An exact strategy analysis, kept where every app server reads it (see
    `trainer.shared.analyses.DatabaseStore`); the players' own rules' are evicted least recently
    used first, the presets' and the common sets' (``preset``: kept) never."""

    #: `engine.strategy.store.rules_key`: what the analysis depends on, hashed.
    key = models.CharField(max_length=32, unique=True)
    #: `engine.strategy.store.encode`: a JSON header and EV arrays, about 420 kB.
    payload = models.BinaryField()
    preset = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["preset", "used_at"])]

    def __str__(self) -> str:
        return f"analysis {self.key}"


class AnalysisJob(models.Model):
    """A player's rules being analysed in the background, or found too costly to analyse.

    A running job holds one of the numbered slots (unique), so that no more analyses run
    at once than the deployment allows, whichever app server starts them.
    """

    key = models.CharField(max_length=32, unique=True)
    #: The rules to analyse (`Rules.to_json`): a key cannot be turned back into rules.
    rules = models.JSONField()
    #: 1 … BLACKJACK_ANALYSES_AT_ONCE while running; None once it has failed.
    slot = models.PositiveSmallIntegerField(null=True, unique=True)
    started_at = models.DateTimeField()
    failed_at = models.DateTimeField(null=True, blank=True)
    #: Why it failed, for the logs (the player gets a translated message).
    error = models.CharField(max_length=200, blank=True)
    #: The process holding the slot (`trainer.shared.analyses.holder_alive`): the web worker
    #: starting it, then the job's own process; its host, and when it started by the
    #: kernel's clock (so that a process id used again is not taken for it).
    pid = models.PositiveIntegerField(null=True, blank=True)
    host = models.CharField(max_length=255, blank=True)
    process_start = models.BigIntegerField(null=True, blank=True)
    #: On PostgreSQL, set once the job's process holds the slot's advisory lock, which
    #: the database lets go when the process ends, on whatever host it ran.
    claimed = models.BooleanField(default=False)
    #: The share of the work done, in percent, where the job can tell it (a simulation
    #: of a player's game does, chunk by chunk); 0 otherwise.
    done = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"analysis job {self.key} (slot {self.slot})"


class ThrottleCount(models.Model):
    """One throttle's count of one visitor's events (`trainer.shared.throttle`): counted
    by one atomic statement, so that racing requests each count, and kept in a table of
    its own rather than the cache, which may evict it."""

    #: The throttle's scope and the visitor, hashed (no address or name in clear).
    key = models.CharField(max_length=80, primary_key=True)
    count = models.PositiveIntegerField()
    #: When the window (or the lockout) ends, in seconds since the epoch.
    ends = models.FloatField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"


class CountingAnswer(models.Model):
    """One question of a counting drill (trainer/counting) of a player's — an account's or
    a guest's: when it was asked, when its page first showed it (the answer's time runs
    from there) and when it was answered, once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    #: For a guest, the token their session keeps (see `trainer.shared.owners.owner_of`).
    guest_token = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    shown_at = models.DateTimeField(null=True, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        indexes = [
            models.Index(fields=["user", "-created_at"], name="%(class)s_user_idx"),
            models.Index(fields=["guest_token", "-created_at"], name="%(class)s_guest_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(guest_token=""),
                name="%(class)s_has_an_owner",
            ),
        ]


class CountingRun(CountingAnswer):
    """One deck a player counted down in the running-count drill (trainer/counting): the
    cards dealt (the deck's order never leaves the server before the page shows it), how
    they were shown, and once answered, the counts given and the time taken."""

    #: The counting system's key (`engine.counting.systems.SYSTEMS`).
    system = models.CharField(max_length=20)
    #: The cards, as texts separated by spaces ("10h As …").
    cards = models.TextField()
    #: Cards shown at a time; 0: the deck laid out whole.
    group = models.PositiveSmallIntegerField()
    #: Cards shown a second (when shown a few at a time), in tenths.
    pace_tenths = models.PositiveSmallIntegerField(default=10)
    #: Asked for the count after every so many cards; 0: only at the end.
    checkpoint_every = models.PositiveSmallIntegerField(default=0)
    #: The running count given at the end, and after each checkpoint's card ({"10": "3"}).
    answer = models.CharField(max_length=12, blank=True)
    checkpoint_answers = models.JSONField(default=dict)
    exact = models.BooleanField(null=True)

    def __str__(self) -> str:
        return f"counting run {self.pk} ({self.system})"


class TrueCountQuestion(CountingAnswer):
    """One question of the true-count drill (trainer/counting): a shoe part dealt, and
    either the decks left to judge from its discard tray or its running count to turn into
    a true count; once answered, the answer and whether it was right."""

    class Kind(models.TextChoices):
        DECKS = "decks"
        CONVERT = "convert"

    kind = models.CharField(max_length=8, choices=Kind.choices)
    decks = models.PositiveSmallIntegerField()
    dealt = models.PositiveSmallIntegerField()
    running = models.SmallIntegerField()
    #: The player's method: `engine.counting.true_count.DeckEstimate` and `Conversion`.
    estimate = models.CharField(max_length=8)
    conversion = models.CharField(max_length=8)
    answer = models.CharField(max_length=12, blank=True)
    right = models.BooleanField(null=True)

    def __str__(self) -> str:
        return f"true-count question {self.pk} ({self.kind})"


class IndexPlayQuestion(CountingAnswer):
    """One question of the index-play drill (trainer/counting): a hand, an up card and a
    true count, for one index play of the computed table of the player's rules, system and
    method. What grading and explaining it needs is copied from the table when it is asked,
    so that an answer keeps its meaning when the table is worked out again."""

    #: The rules preset, the player's changes to it ("decks=2, …"), the system's key and
    #: the player's true-count method.
    rules_name = models.CharField(max_length=60)
    rules_changes = models.CharField(max_length=200, blank=True)
    system = models.CharField(max_length=20)
    estimate = models.CharField(max_length=8)
    conversion = models.CharField(max_length=8)
    #: The index play: its chart row ("hard 16"), up card, the two plays and the index.
    row = models.CharField(max_length=20)
    up = models.CharField(max_length=2)
    play = models.CharField(max_length=12)
    otherwise = models.CharField(max_length=12)
    index = models.SmallIntegerField()
    #: The table's EV of ``play`` less ``otherwise`` by true count ({"3": 0.008, …}).
    ev_difference = models.JSONField()
    true_count = models.SmallIntegerField()
    #: The player's two cards ("10h 6c").
    cards = models.CharField(max_length=8)
    answer = models.CharField(max_length=12, blank=True)
    right = models.BooleanField(null=True)
    #: What the answer gave up at this count, in initial bets (0 when right).
    given_up = models.FloatField(null=True)

    def __str__(self) -> str:
        return f"index question {self.pk} ({self.row} v {self.up} at {self.true_count})"


class BetQuestion(CountingAnswer):
    """One question of the betting drill (trainer/counting): a true count, and the bet the
    player's own ramp makes there; once answered, the answer and whether it was right."""

    #: The ramp as COUNT:BET pairs in units ("1:2,2:4,3:8"), and the bet below it.
    ramp = models.CharField(max_length=200)
    below = models.PositiveSmallIntegerField()
    true_count = models.SmallIntegerField()
    answer = models.PositiveIntegerField(null=True)
    right = models.BooleanField(null=True)

    def __str__(self) -> str:
        return f"bet question {self.pk} (true count {self.true_count})"
