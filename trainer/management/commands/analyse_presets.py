"""``manage.py analyse_presets``: compute every preset's strategy analysis ahead of time."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from engine.rules import PRESETS
from engine.strategy import strategy_for


class Command(BaseCommand):
    help = "Compute (or confirm) the stored strategy analysis of every rules preset."

    def handle(self, *args: Any, **options: Any) -> None:
        for name, rules in PRESETS.items():
            started = time.perf_counter()
            strategy_for(rules)
            elapsed = time.perf_counter() - started
            self.stdout.write(f"{name}: ready in {elapsed:.2f} s")
