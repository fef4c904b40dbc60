"""``manage.py analyse_common``: work out the common custom rule sets ahead of time.

Run at deployment in the background (README): the presets with every combination of the
changes players most often make (`trainer.shared.analyses.COMMON_CHANGES`), so that most
players choosing their own rules never wait. It runs at the lowest CPU priority, after
every request, one analysis at a time, and skips what is stored already: stopped and run
again, it carries on where it was. With ``--indices`` it then works out the index tables
the counting drills start from (each preset, Hi-Lo, the half-deck estimate floored: about
a minute of CPU each).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from engine.counting.index_store import IndexRequest, compute_and_store
from engine.counting.systems import HI_LO
from engine.rules import PRESETS
from engine.strategy.store import analyse_and_store
from trainer.shared.analyses import COMMON_CHANGES, analysis_ready, common_rule_sets, indices_ready
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
        parser.add_argument(
            "--indices",
            action="store_true",
            help="then the presets' Hi-Lo index tables (half deck, floored) too",
        )

    def handle(self, *args: Any, limit: int | None, indices: bool, **options: Any) -> None:
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
        if indices:
            for rules in PRESETS.values():
                request = IndexRequest(rules, HI_LO)
                if indices_ready(request):
                    continue
                began = time.perf_counter()
                compute_and_store(request)
                self.stdout.write(
                    f"index table {rules.name} hi-lo: {time.perf_counter() - began:.0f} s"
                )
