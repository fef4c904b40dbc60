"""The limits of a background analysis: the lowest CPU priority from its first
instruction, then a CPU-time budget and an address-space cap.

``python -m trainer.shared.budget COMMAND…`` lowers its own priority and becomes COMMAND, so that
even the job's start-up (Django, numpy) runs after every player's request. Kept free of
Django, so that it starts in milliseconds.
"""

from __future__ import annotations

import os
import resource
import signal
import sys
from types import FrameType

__all__ = ["OverBudget", "limit_resources", "lower_priority"]


class OverBudget(Exception):
    """The process used up the CPU time it was given."""


def lower_priority() -> None:
    """Run after every other process on the machine (nice 19, and SCHED_IDLE)."""
    os.nice(19)
    # The job runs in a session of its own, which Linux may schedule as a group of its own
    # ("autogroup") beside the web server's, as if it were another user: the group's
    # niceness must go down too, or the job gets as much CPU as every worker together.
    try:
        with open("/proc/self/autogroup", "w") as autogroup:
            autogroup.write("19")
    except OSError:
        pass  # no autogroups here: the nice value is enough
    if hasattr(os, "sched_setscheduler"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def _over_cpu(signum: int, frame: FrameType | None) -> None:
    raise OverBudget("the analysis used up its CPU time")


def limit_resources(*, cpu_seconds: int, memory_mb: int) -> None:
    """Raise `OverBudget` once this process has used ``cpu_seconds`` of CPU since it
    started (and be killed a few seconds later if it carries on); fail any allocation
    beyond ``memory_mb`` more address space than it has now."""
    signal.signal(signal.SIGXCPU, _over_cpu)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
    with open("/proc/self/statm") as statm:  # address space in pages, first of all
        used = int(statm.read().split()[0]) * resource.getpagesize()
    limit = used + memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


if __name__ == "__main__":
    lower_priority()
    os.execv(sys.argv[1], sys.argv[1:])
