"""Strategy analyses for the web: kept in the database, worked out in the background.

A request never computes the analysis of a player's own rules: it asks `analysis_start`,
which answers at once — ready, running, waiting for a free slot, refused for this hour,
or failed — and where it may, starts ``manage.py analyse_rules KEY`` as a process of its
own at the lowest CPU priority with a CPU-time and memory budget. The presets' analyses
are stored at deploy time (``manage.py analyse_presets``) and are always at hand.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from datetime import timedelta
from enum import StrEnum

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone

from engine.rules import PRESETS, Rules
from engine.strategy import AnalysisPending, strategy_for
from engine.strategy.store import analyse_and_store, rules_key
from trainer.models import AnalysisJob, StoredAnalysis
from trainer.shared.throttle import Throttle, client_address

logger = logging.getLogger(__name__)

PRESET_KEYS = frozenset(rules_key(rules) for rules in PRESETS.values())
#: A failed analysis is not tried again for this long (it fails the same way).
FAILURE_KEPT = timedelta(hours=1)


def is_preset(rules: Rules) -> bool:
    """Whether ``rules`` share a preset's analysis (these may be computed where asked)."""
    return rules_key(rules) in PRESET_KEYS


class DatabaseStore:
    """`engine.strategy.store.StrategyStore` in the `StoredAnalysis` table, with at most
    ``BLACKJACK_STORED_ANALYSES`` players' analyses besides the presets'."""

    def get(self, key: str) -> bytes | None:
        payload = StoredAnalysis.objects.filter(key=key).values_list("payload", flat=True).first()
        if payload is None:
            return None
        # Read once per process (then kept in memory): a write here costs little.
        StoredAnalysis.objects.filter(key=key).update(used_at=timezone.now())
        return bytes(payload)

    def put(self, key: str, payload: bytes) -> None:
        preset = key in PRESET_KEYS
        fields = {"payload": payload, "preset": preset, "used_at": timezone.now()}
        try:
            with transaction.atomic():
                StoredAnalysis.objects.update_or_create(key=key, defaults=fields)
        except IntegrityError:
            return  # a racing process stored the same analysis first
        if not preset:
            evicted = StoredAnalysis.objects.filter(preset=False).order_by("-used_at")
            stale = list(evicted.values_list("pk", flat=True)[settings.BLACKJACK_STORED_ANALYSES :])
            StoredAnalysis.objects.filter(pk__in=stale).delete()


class Analysis(StrEnum):
    """Where the analysis of a player's rules stands, as a request finds it."""

    READY = "ready"
    RUNNING = "running"
    #: Every slot is taken by other analyses; asking again starts it once one is free.
    WAITING = "waiting"
    #: This visitor has started their allowance of new analyses this hour.
    LIMITED = "limited"
    FAILED = "failed"


def analyses_throttle() -> Throttle:
    return Throttle("analyses", limit=settings.BLACKJACK_ANALYSES_PER_HOUR, window=3600)


def visitor_of(request: HttpRequest) -> str:
    """Who a request counts against: the account, or for a guest the address."""
    if request.user.is_authenticated:
        return f"account:{request.user.pk}"
    return f"address:{client_address(request)}"


def analysis_ready(rules: Rules) -> bool:
    """Whether the analysis of ``rules`` is at hand (a preset's always is)."""
    try:
        strategy_for(rules)
    except AnalysisPending:
        return False
    return True


def analysis_start(*, rules: Rules, visitor: str) -> Analysis:
    """Where the analysis of ``rules`` stands; if it is neither stored nor running, start
    it in the background — within the visitor's hourly allowance, and if a slot is free."""
    if analysis_ready(rules):
        return Analysis.READY
    key, now = rules_key(rules), timezone.now()
    # A job that outlived the timeout died with its process: it holds its slot no longer.
    timeout = timedelta(seconds=settings.BLACKJACK_ANALYSIS_TIMEOUT)
    AnalysisJob.objects.filter(slot__isnull=False, started_at__lt=now - timeout).delete()
    AnalysisJob.objects.filter(failed_at__lt=now - FAILURE_KEPT).delete()
    job = AnalysisJob.objects.filter(key=key).first()
    if job is not None:
        return Analysis.FAILED if job.failed_at else Analysis.RUNNING
    throttle = analyses_throttle()
    if throttle.exceeded(visitor):
        return Analysis.LIMITED
    for slot in range(1, settings.BLACKJACK_ANALYSES_AT_ONCE + 1):
        try:
            with transaction.atomic():
                AnalysisJob.objects.create(
                    key=key, rules=rules.to_json(), slot=slot, started_at=now
                )
        except IntegrityError:  # the slot is taken, or these rules are started already
            if AnalysisJob.objects.filter(key=key).exists():
                return Analysis.RUNNING
            continue
        throttle.record(visitor)
        launch(key)
        return Analysis.RUNNING
    return Analysis.WAITING


def launch(key: str) -> None:
    """Start ``manage.py analyse_rules KEY`` as a process of its own at the lowest CPU
    priority (see `trainer.shared.budget`), outliving the worker that starts it; a thread reaps
    it when it ends, so that it leaves no zombie."""
    env = {
        **os.environ,
        # One core at most: the analysis' numpy must not spread over the machine.
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    command = [sys.executable, str(settings.BASE_DIR / "manage.py"), "analyse_rules", key]
    process = subprocess.Popen(
        [sys.executable, "-m", "trainer.shared.budget", *command],  # at the lowest priority
        cwd=settings.BASE_DIR,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    threading.Thread(target=process.wait, name=f"analysis-{key}", daemon=True).start()


def analysis_run(key: str) -> None:
    """Compute and store the analysis a job stands for, then free its slot (or record why
    it failed, so that players asking for it are told instead of waiting)."""
    job = AnalysisJob.objects.filter(key=key, slot__isnull=False).first()
    if job is None:
        return
    try:
        rules = Rules.from_json(job.rules)
        if not analysis_ready(rules):
            analyse_and_store(rules)
    except Exception as error:  # over budget, out of memory, or rules it cannot analyse
        logger.warning("analysis %s failed: %r", key, error)
        AnalysisJob.objects.filter(pk=job.pk).update(
            slot=None, failed_at=timezone.now(), error=repr(error)[:200]
        )
        raise
    AnalysisJob.objects.filter(pk=job.pk).delete()
