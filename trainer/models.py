"""What the trainer stores: every drill issued to a player, and their answer to it."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Drill(models.Model):
    """A decision issued to one player (an account, or a guest), then answered.

    The situation is issued by the server and remembered, so an answer is only ever
    accepted for a drill this player was dealt, and only once.
    """

    class Source(models.TextChoices):
        DRILL = "drill"
        PLAY = "play"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    #: For a guest, the token their session keeps (see `trainer.selectors.owner_of`).
    guest_token = models.CharField(max_length=40, blank=True)
    rules_name = models.CharField(max_length=60)
    rules_version = models.CharField(max_length=20)
    #: Every rule field the drill was dealt and graded under (`Rules.to_json`).
    rules = models.JSONField(default=dict)
    #: The player's two cards and the up card, as text ("10s 6h", "10d").
    cards = models.CharField(max_length=12)
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

    class Meta:
        indexes = [
            models.Index(fields=["user", "-issued_at"]),
            models.Index(fields=["guest_token", "-issued_at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(guest_token=""),
                name="drill_has_an_owner",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.cards} v {self.up} ({self.rules_name})"

    @property
    def is_correct(self) -> bool:
        return bool(self.answered_at) and self.action == self.correct_action


class Preferences(models.Model):
    """An account's drill settings (a guest's live in their session instead)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    rules_name = models.CharField(max_length=60, default="european")
    #: Rule fields changed from the preset, as typed ("decks=2, dealer_hits_soft_17=true").
    custom_rules = models.CharField(max_length=400, blank=True)
    mode = models.CharField(max_length=8, default="all")
    auto_advance = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.user}: {self.rules_name}, {self.mode}"
