"""The hard limits a background analysis sets on its own process before it starts.

Kept free of Django, so that a test can apply them in a throwaway interpreter.
"""

from __future__ import annotations

import os
import resource
import signal
from types import FrameType

__all__ = ["OverBudget", "limit_resources"]


class OverBudget(Exception):
    """The process used up the CPU time it was given."""


def _over_cpu(signum: int, frame: FrameType | None) -> None:
    raise OverBudget("the analysis used up its CPU time")


def limit_resources(*, cpu_seconds: int, memory_mb: int) -> None:
    """Run after every other process on the machine; raise `OverBudget` once this process
    has used ``cpu_seconds`` of CPU (and be killed a few seconds later if it carries on);
    fail any allocation beyond ``memory_mb`` more address space than it has now."""
    os.nice(19)  # other players' requests always get the CPU first
    signal.signal(signal.SIGXCPU, _over_cpu)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
    with open("/proc/self/statm") as statm:  # address space in pages, first of all
        used = int(statm.read().split()[0]) * resource.getpagesize()
    limit = used + memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
