"""``manage.py expire_guests``: delete what guests left behind once they stay away."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from trainer.accounts.services import guests_expire


class Command(BaseCommand):
    help = (
        "Delete the sessions, drills, practice tables and live-table bets of guests idle for "
        "longer than --days (default: the GUEST_RETENTION_DAYS setting), and take their "
        "tokens out of the live tables' states. Accounts are never touched."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, help="idle days after which a guest expires")

    def handle(self, *args: Any, days: int | None, **options: Any) -> None:
        if days is None:
            days = settings.GUEST_RETENTION_DAYS
        if days < 1:
            raise CommandError(f"--days must be at least 1, not {days}.")
        expired = guests_expire(idle_since=timezone.now() - timedelta(days=days))
        self.stdout.write(
            f"Removed what guests idle for more than {days} days left: "
            f"sessions {expired.sessions}, drills {expired.drills}, "
            f"practice tables {expired.tables}, live-table bets {expired.bets}; "
            f"their tokens taken out of {expired.live_tables} live tables."
        )
