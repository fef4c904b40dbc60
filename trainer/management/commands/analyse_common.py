"""``manage.py analyse_common``: work out the common custom rule sets ahead of time.

Run at deployment in the background (README): the presets with every combination of the
changes players most often make (`trainer.shared.analyses.COMMON_CHANGES`), so that most
players choosing their own rules never wait. It runs at the lowest CPU priority, after
every request, one analysis at a time, and skips what is stored already: stopped and run
again, it carries on where it was.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from engine.strategy.store import analyse_and_store
from trainer.shared.analyses import COMMON_CHANGES, analysis_ready, common_rule_sets
from trainer.shared.budget import lower_priority


class Command(BaseCommand):
    help = (
        "Compute and store the strategy analyses of the common custom rule sets (every "
        "preset with 1-8 decks, S17/H17, DAS or not, late surrender or none, peek or not), "
        "at the lowest CPU priority; those stored already are skipped."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--limit", type=int, help="work out at most this many of the sets (a sample)"
        )

    def handle(self, *args: Any, limit: int | None, **options: Any) -> None:
        lower_priority()
        sets = common_rule_sets()[:limit]
        started, worked_out = time.perf_counter(), 0
        for number, rules in enumerate(sets, start=1):
            if analysis_ready(rules):
                continue
            began = time.perf_counter()
            analyse_and_store(rules)
            worked_out += 1
            fields = rules.to_json()
            changes = " ".join(f"{name}={fields[name]}" for name in COMMON_CHANGES)
            self.stdout.write(
                f"{number}/{len(sets)} {rules.name} {changes}: {time.perf_counter() - began:.2f} s"
            )
        self.stdout.write(
            f"{worked_out} worked out, {len(sets) - worked_out} stored already, "
            f"in {time.perf_counter() - started:.0f} s."
        )
