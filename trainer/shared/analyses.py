"""Strategy analyses for the web: kept in the database, worked out in the background.

A request never computes the analysis of a player's own rules: it asks `analysis_start`,
which answers at once — ready, running, waiting for a free slot, refused for this hour,
or failed — and where it may, starts ``manage.py analyse_rules KEY`` as a process of its
own at the lowest CPU priority with a CPU-time and memory budget. The presets' analyses
are stored at deploy time (``manage.py analyse_presets``) and are always at hand.

Index tables (`engine.counting.index_store`, issue 26) go the same way: `indices_start`
starts ``manage.py analyse_indices KEY``, sharing the slots and the hourly allowance, with
a CPU budget of their own; they are kept in the same table, once for everyone. So does
the simulation of a player's own counting game (`game_start`, ``manage.py simulate_game
KEY``, issue 27), whose figures are kept there as JSON under the request's key, and
whose job says how far it has gone (`AnalysisJob.done`).
"""

from __future__ import annotations

import functools
import itertools
import json
import logging
import os
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.http import HttpRequest
from django.utils import timezone

from engine.counting.index_store import (
    IndexRequest,
    compute_and_store,
)
from engine.counting.risk import linear_advantage
from engine.counting.systems import CountingError
from engine.counting.your_game import GameRequest, advantage_key, play_request
from engine.rule_ranges import RulesError
from engine.rules import PRESETS, Rules
from engine.strategy import AnalysisPending, strategy_for
from engine.strategy.store import analyse_and_store, rules_key
from trainer.models import AnalysisJob, StoredAnalysis
from trainer.shared.counts import RAMP_COUNTS
from trainer.shared.throttle import Throttle, client_address

logger = logging.getLogger(__name__)

PRESET_KEYS = frozenset(rules_key(rules) for rules in PRESETS.values())
#: A failed analysis is not tried again for this long (it fails the same way).
FAILURE_KEPT = timedelta(hours=1)


#: The changes players most often make to a preset (issue 25), each combination of them
#: worked out at deployment (``manage.py analyse_common``) so that most never wait.
COMMON_CHANGES: dict[str, tuple[str, ...]] = {
    "decks": ("1", "2", "4", "6", "8"),
    "dealer_hits_soft_17": ("false", "true"),
    "double_after_split": ("false", "true"),
    "surrender": ("none", "late"),
    "dealer_peeks": ("false", "true"),
}


def common_rule_sets() -> list[Rules]:
    """Every preset with every combination of `COMMON_CHANGES`, as a player would choose
    it, one per analysis (two that share one, such as European and American with a peek,
    appear once); a combination the engine refuses is left out."""
    found: dict[str, Rules] = {}
    for base in PRESETS.values():
        for values in itertools.product(*COMMON_CHANGES.values()):
            try:
                rules = base.with_overrides(dict(zip(COMMON_CHANGES, values, strict=True)))
            except RulesError:
                continue
            found.setdefault(rules_key(rules), rules)
    return list(found.values())


@functools.cache
def kept_keys() -> frozenset[str]:
    """The analyses never evicted from the store: the presets' and the common sets'."""
    return PRESET_KEYS | {rules_key(rules) for rules in common_rule_sets()}


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
        preset = key in kept_keys()  # the column says "kept": a preset's or a common set's
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
    return _start(rules_key(rules), rules.to_json(), visitor, "analyse_rules")


def indices_ready(request: IndexRequest) -> bool:
    """Whether the index table of ``request`` is stored (never computed in a request, and
    not read here: where it is used, `load_indices` reads it)."""
    return _stored(request.key())


def _stored(key: str) -> bool:
    return StoredAnalysis.objects.filter(key=key).exists()


def indices_state(request: IndexRequest) -> Analysis | None:
    """Where the index table of ``request`` stands, starting nothing: stored, being worked
    out, failed, or None when nobody has asked for it."""
    if indices_ready(request):
        return Analysis.READY
    job = AnalysisJob.objects.filter(key=request.key()).first()
    if job is None:
        return None
    return Analysis.FAILED if job.failed_at else Analysis.RUNNING


def indices_start(*, request: IndexRequest, visitor: str) -> Analysis:
    """`analysis_start` for an index table (issue 26): the same slots, allowance and
    budget rules, its own command (``manage.py analyse_indices KEY``) and CPU budget."""
    if indices_ready(request):
        return Analysis.READY
    return _start(request.key(), {INDICES: request.to_json()}, visitor, "analyse_indices")


#: The job's ``rules`` field holds an index table's request under this name.
INDICES = "indices"
#: … and a player's game under this one.
GAME = "game"


def game_report(request: GameRequest) -> dict[str, object] | None:
    """The stored figures of ``request`` (`engine.counting.your_game.YourGame.to_json`),
    or None while they are not worked out."""
    payload = DatabaseStore().get(request.key())
    return None if payload is None else json.loads(payload)


def game_state(request: GameRequest) -> Analysis | None:
    """Where the simulation of ``request`` stands, starting nothing (as `indices_state`)."""
    if _stored(request.key()):
        return Analysis.READY
    job = AnalysisJob.objects.filter(key=request.key()).first()
    if job is None:
        return None
    return Analysis.FAILED if job.failed_at else Analysis.RUNNING


def game_start(*, request: GameRequest, visitor: str) -> Analysis:
    """`analysis_start` for the simulation of a player's game: the same slots and
    allowance, its own command (``manage.py simulate_game KEY``) and CPU budget."""
    if _stored(request.key()):
        return Analysis.READY
    return _start(request.key(), {GAME: request.to_json()}, visitor, "simulate_game")


def game_done(request: GameRequest) -> int | None:
    """The share of the simulation of ``request`` done, in percent (None: not running)."""
    return (
        AnalysisJob.objects.filter(key=request.key(), slot__isnull=False)
        .values_list("done", flat=True)
        .first()
    )


def _start(key: str, what: dict[str, object], visitor: str, command: str) -> Analysis:
    """Start the job ``key`` (``what`` kept on its row for ``command`` to read) if it is
    not running or failed, within the visitor's allowance and a free slot."""
    now = timezone.now()
    # A job's slot is held for as long as its process runs, however long a starved one
    # takes: one whose process has ended (crashed, killed, its host gone) frees it.
    for held in AnalysisJob.objects.filter(slot__isnull=False):
        if not holder_alive(held):
            AnalysisJob.objects.filter(pk=held.pk, pid=held.pid, claimed=held.claimed).delete()
    AnalysisJob.objects.filter(failed_at__lt=now - FAILURE_KEPT).delete()
    job = AnalysisJob.objects.filter(key=key).first()
    if job is not None:
        return Analysis.FAILED if job.failed_at else Analysis.RUNNING
    throttle = analyses_throttle()
    if not throttle.reserve(visitor):
        return Analysis.LIMITED
    me = this_process()
    for slot in range(1, settings.BLACKJACK_ANALYSES_AT_ONCE + 1):
        try:
            with transaction.atomic():
                # Held by this worker until the job's process takes it over (`launch`).
                AnalysisJob.objects.create(key=key, rules=what, slot=slot, started_at=now, **me)
        except IntegrityError:  # the slot is taken, or these rules are started already
            if AnalysisJob.objects.filter(key=key).exists():
                throttle.release(visitor)
                return Analysis.RUNNING
            continue
        launch(key, command)
        return Analysis.RUNNING
    throttle.release(visitor)
    return Analysis.WAITING


def analysis_progress(rules: Rules) -> AnalysisProgress | None:
    """How far the analysis of ``rules`` has gone, as far as can honestly be told: running
    for how long, or waiting behind how many (None: no job for them)."""
    return _progress(rules_key(rules))


def indices_progress(request: IndexRequest) -> AnalysisProgress | None:
    """`analysis_progress` for an index table."""
    return _progress(request.key())


def _progress(key: str) -> AnalysisProgress | None:
    job = AnalysisJob.objects.filter(key=key, slot__isnull=False).first()
    if job is None:
        return None
    seconds = max(0, int((timezone.now() - job.started_at).total_seconds()))
    return AnalysisProgress(seconds=seconds)


# The process holding a slot ---------------------------------------------------------------

#: The advisory locks' first key on PostgreSQL (the second is the slot): "BJAN".
LOCK_SPACE = 0x424A414E


@dataclass(frozen=True)
class AnalysisProgress:
    """A running job as a page may show it: how long it has been worked on."""

    seconds: int


def _start_time(pid: int) -> int | None:
    """When process ``pid`` started, in the kernel's clock ticks since boot; None if there
    is no such process, or it has ended and waits to be reaped."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return None if fields[0] in ("Z", "X") else int(fields[19])


def this_process(pid: int | None = None) -> dict[str, object]:
    """The fields of `AnalysisJob` naming process ``pid`` (this one by default) on this
    host."""
    pid = pid or os.getpid()
    return {"pid": pid, "host": socket.gethostname(), "process_start": _start_time(pid)}


def holder_alive(job: AnalysisJob) -> bool:
    """Whether the process holding ``job``'s slot is still running.

    On its own host that is known from the process table (its id and its start time, so
    that an id used again by another process is not taken for it). Elsewhere, on
    PostgreSQL, from the slot's advisory lock once the job's process has taken it: the
    database lets it go when the process ends, whatever ended it. A job on another host
    not yet taken over by its process is left to that host to judge.
    """
    if job.pid is None:  # started before processes were named (an upgrade): none to wait for
        return False
    if job.host == socket.gethostname():
        started = _start_time(job.pid)
        if job.process_start is None:  # no process table here: ask the kernel
            return _signal_reaches(job.pid)
        return started == job.process_start
    if connection.vendor == "postgresql" and job.claimed and job.slot is not None:
        return _lock_held(job.slot)
    return True


def _signal_reaches(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _lock_held(slot: int) -> bool:
    """Whether another session holds the slot's advisory lock (PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [LOCK_SPACE, slot])
        taken = cursor.fetchone()[0]
        if taken:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_SPACE, slot])
    return not taken


def _claim(job: AnalysisJob) -> None:
    """Make the slot this process's: its id on the job, and on PostgreSQL the slot's
    advisory lock, held by this process's connection until it ends."""
    claimed = False
    if connection.vendor == "postgresql" and job.slot is not None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s, %s)", [LOCK_SPACE, job.slot])
        claimed = True
    AnalysisJob.objects.filter(pk=job.pk).update(claimed=claimed, **this_process())


def _let_go(job: AnalysisJob) -> None:
    if connection.vendor == "postgresql" and job.slot is not None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_SPACE, job.slot])


def launch(key: str, command_name: str = "analyse_rules") -> None:
    """Start ``manage.py analyse_rules KEY`` (or ``command_name``) as a process of its own
    at the lowest CPU priority (see `trainer.shared.budget`), outliving the worker that
    starts it; a thread reaps it when it ends, so that it leaves no zombie."""
    env = {
        **os.environ,
        # One core at most: the analysis' numpy must not spread over the machine.
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    command = [sys.executable, str(settings.BASE_DIR / "manage.py"), command_name, key]
    process = subprocess.Popen(
        [sys.executable, "-m", "trainer.shared.budget", *command],  # at the lowest priority
        cwd=settings.BASE_DIR,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    # The slot passes to the job's process (the budget wrapper becomes the command, so
    # this id is the job's) before this worker could end and let it go.
    AnalysisJob.objects.filter(key=key, slot__isnull=False).update(**this_process(process.pid))
    threading.Thread(target=process.wait, name=f"analysis-{key}", daemon=True).start()


def _simulate(job: AnalysisJob, request: GameRequest) -> None:
    """Play the player's game, saying how far it has gone, and store its figures."""

    def progress(share: float) -> None:
        AnalysisJob.objects.filter(pk=job.pk).update(done=int(100 * share))

    report = play_request(request, progress)
    figures = report.to_json()
    store = DatabaseStore()
    store.put(request.key(), json.dumps(figures).encode())
    store.put(advantage_key(request.index), json.dumps(figures["flat"]["by_count"]).encode())


def advantage_by_count(request: IndexRequest) -> dict[int, float] | None:
    """The flat bettor's advantage per unit bet at each true count of ``request``'s game,
    from the straight line through the latest simulation of it (any player's: it depends
    on neither ramp nor mistakes); None until one is stored, or if its advantage does not
    rise with the count (too few rounds)."""
    payload = DatabaseStore().get(advantage_key(request))
    if payload is None:
        return None
    measured = {
        int(count): (line["rounds"], line["advantage"])
        for count, line in json.loads(payload).items()
    }
    try:
        return linear_advantage(measured, lowest=RAMP_COUNTS[0], highest=RAMP_COUNTS[1])
    except CountingError:
        return None


def analysis_run(key: str) -> None:
    """Compute and store the analysis (or index table) a job stands for, then free its
    slot (or record why it failed, so that players asking for it are told instead of
    waiting)."""
    job = AnalysisJob.objects.filter(key=key, slot__isnull=False).first()
    if job is None:
        return
    _claim(job)
    try:
        if INDICES in job.rules:
            request = IndexRequest.from_json(job.rules[INDICES])
            if not indices_ready(request):
                compute_and_store(request)
        elif GAME in job.rules:
            _simulate(job, GameRequest.from_json(job.rules[GAME]))
        else:
            rules = Rules.from_json(job.rules)
            if not analysis_ready(rules):
                analyse_and_store(rules)
    except Exception as error:  # over budget, out of memory, or rules it cannot analyse
        logger.warning("analysis %s failed: %r", key, error)
        AnalysisJob.objects.filter(pk=job.pk).update(
            slot=None, failed_at=timezone.now(), error=repr(error)[:200]
        )
        raise
    finally:
        _let_go(job)
    AnalysisJob.objects.filter(pk=job.pk).delete()
