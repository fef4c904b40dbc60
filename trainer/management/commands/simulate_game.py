"""``manage.py simulate_game KEY``: the background job that simulates a player's counting game.

Started by `trainer.shared.analyses.launch` at the lowest CPU priority, never by hand: the
index table's request, the ramp and the player's error rates come from the job's row.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from trainer.shared.analyses import analysis_run
from trainer.shared.budget import limit_resources


class Command(BaseCommand):
    help = "Simulate and store the counting game of a started job, within its budget."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("key", help="the job's key (engine.counting.your_game)")

    def handle(self, *args: Any, **options: Any) -> None:
        limit_resources(
            cpu_seconds=settings.BLACKJACK_GAME_CPU_SECONDS,
            memory_mb=settings.BLACKJACK_ANALYSIS_MEMORY_MB,
        )
        analysis_run(options["key"])
