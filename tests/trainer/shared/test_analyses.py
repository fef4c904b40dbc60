"""Analyses of a player's own rules: stored in the database, worked out in the background,
bounded in number, in parallel and per visitor — and never computed by a request."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from engine.rules import EUROPEAN
from engine.strategy import strategy_for
from engine.strategy.store import rules_key
from trainer.models import AnalysisJob, Drill, StoredAnalysis
from trainer.shared.analyses import (
    LOCK_SPACE,
    Analysis,
    DatabaseStore,
    analysis_run,
    analysis_start,
    launch,
    this_process,
)

pytestmark = pytest.mark.django_db
DRILL = "/drill/"
SETTINGS = "/drill/settings/"
WORKING = "Working out the exact strategy for your rules"
TWO_DECKS = EUROPEAN.with_overrides({"decks": "2"})
#: Rules outside the common sets worked out at deployment (`analyse_common`).
THREE_DECKS = EUROPEAN.with_overrides({"decks": "3"})


@pytest.fixture
def no_computing() -> Iterator[None]:
    """Any analysis computed in this process fails the test."""
    with mock.patch("engine.strategy.store.compute_strategy", side_effect=AssertionError):
        yield


def guest(address: str = "10.0.0.1") -> Client:
    return Client(REMOTE_ADDR=address)


def choose(client: Client, custom: str, rules: str = "european") -> None:
    response = client.post(SETTINGS, {"rules_name": rules, "custom_rules": custom, "mode": "all"})
    assert response.status_code == 302


# The store -------------------------------------------------------------------------------


@pytest.mark.database
def test_an_analysis_stored_by_one_process_is_read_by_another(launched: list[str]) -> None:
    assert analysis_start(rules=THREE_DECKS, visitor="a") is Analysis.RUNNING
    analysis_run(launched[0])  # as the background process does
    computed = strategy_for(THREE_DECKS)
    strategy_for.cache_clear()  # as in another app server's process
    with mock.patch("engine.strategy.store.compute_strategy", side_effect=AssertionError):
        assert strategy_for(THREE_DECKS) == computed
    stored = StoredAnalysis.objects.get()
    assert stored.key == rules_key(THREE_DECKS) and not stored.preset  # not a common set
    assert not AnalysisJob.objects.exists()  # its slot is free again


@pytest.mark.database
def test_players_analyses_are_evicted_least_recently_used_first_presets_never(
    settings: Settings,
) -> None:
    settings.BLACKJACK_STORED_ANALYSES = 2
    store = DatabaseStore()
    preset_key = rules_key(EUROPEAN)
    store.put(preset_key, b"preset")
    for key in ("first", "second"):
        store.put(key, key.encode())
    assert store.get("first") == b"first"  # used again: "second" is now the least recent
    store.put("third", b"third")
    assert store.get("second") is None
    assert {row.key for row in StoredAnalysis.objects.all()} == {preset_key, "first", "third"}
    assert StoredAnalysis.objects.get(key=preset_key).preset


# Requests never compute ------------------------------------------------------------------


def test_custom_rules_show_a_working_state_and_start_one_background_analysis(
    launched: list[str], no_computing: None
) -> None:
    client = guest()
    choose(client, "decks=2")
    page = client.get(DRILL).content.decode()
    assert (
        WORKING in page
        and 'European, changed</a> — <span class="rules-line__details">2 decks' in page
    )
    assert f'href="{DRILL}"' in page and "Check again" in page  # without JavaScript
    assert 'hx-get="/drill/"' in page and 'hx-trigger="load delay:1s"' in page
    client.get(DRILL)
    assert launched == [rules_key(TWO_DECKS)]  # started once, however often asked
    assert not Drill.objects.exists()


def test_the_working_state_polls_as_a_fragment(launched: list[str], no_computing: None) -> None:
    client = guest()
    choose(client, "decks=2")
    response = client.get(DRILL, headers={"HX-Request": "true"})
    fragment = response.content.decode()
    assert WORKING in fragment and "<html" not in fragment
    assert 'id="drill"' in fragment and "HX-Request" in response["Vary"]


def test_once_worked_out_the_drill_is_dealt_under_the_players_rules(
    launched: list[str],
) -> None:
    client = guest()
    choose(client, "decks=2")
    client.get(DRILL)
    analysis_run(launched[0])
    strategy_for.cache_clear()  # the web process reads it from the database
    with mock.patch("engine.strategy.store.compute_strategy", side_effect=AssertionError):
        page = client.get(DRILL, headers={"HX-Request": "true"}).content.decode()
    assert WORKING not in page and "What is your play?" in page
    assert Drill.objects.get().rules["decks"] == 2


def test_a_deal_under_rules_not_worked_out_starts_them_and_deals_nothing(
    launched: list[str], no_computing: None
) -> None:
    client = guest()
    choose(client, "decks=2")
    response = client.post(DRILL, {"deal": "1"}, headers={"HX-Request": "true"})
    assert WORKING in response.content.decode()
    assert launched == [rules_key(TWO_DECKS)] and not Drill.objects.exists()


def test_saving_custom_rules_starts_their_analysis(launched: list[str], no_computing: None) -> None:
    choose(guest(), "decks=3")
    assert launched == [rules_key(EUROPEAN.with_overrides({"decks": "3"}))]


def test_presets_are_dealt_while_a_players_analysis_runs(launched: list[str]) -> None:
    choose(guest("10.0.0.1"), "decks=2")
    assert AnalysisJob.objects.filter(slot__isnull=False).exists()
    page = guest("10.0.0.2").get(DRILL).content.decode()
    assert "What is your play?" in page and WORKING not in page


# Bounded: at once, per visitor, and a failure is said ------------------------------------


@pytest.mark.database
def test_no_more_analyses_run_at_once_than_allowed(
    launched: list[str], settings: Settings, no_computing: None
) -> None:
    settings.BLACKJACK_ANALYSES_AT_ONCE = 1
    assert analysis_start(rules=TWO_DECKS, visitor="a") is Analysis.RUNNING
    three_decks = EUROPEAN.with_overrides({"decks": "3"})
    assert analysis_start(rules=three_decks, visitor="b") is Analysis.WAITING
    assert len(launched) == 1
    page = _page_with(guest(), "decks=3")
    assert WORKING in page and 'hx-trigger="load delay:1s"' in page  # it keeps asking


def _ended_process() -> int:
    """The id of a process that has run and ended (and been reaped)."""
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


@pytest.fixture
def running_process() -> Iterator[int]:
    """The id of a process that runs until the test ends."""
    process = subprocess.Popen(["sleep", "120"])
    yield process.pid
    process.kill()
    process.wait()


@pytest.mark.database
def test_a_job_whose_process_ended_frees_its_slot(
    launched: list[str], settings: Settings, no_computing: None
) -> None:
    settings.BLACKJACK_ANALYSES_AT_ONCE = 1
    analysis_start(rules=TWO_DECKS, visitor="a")
    AnalysisJob.objects.update(**this_process(_ended_process()))  # it crashed a moment ago
    three_decks = EUROPEAN.with_overrides({"decks": "3"})
    assert analysis_start(rules=three_decks, visitor="b") is Analysis.RUNNING
    assert launched == [rules_key(TWO_DECKS), rules_key(three_decks)]


@pytest.mark.database
def test_a_job_started_before_processes_were_named_frees_its_slot(
    launched: list[str], settings: Settings, no_computing: None
) -> None:
    settings.BLACKJACK_ANALYSES_AT_ONCE = 1
    analysis_start(rules=TWO_DECKS, visitor="a")
    AnalysisJob.objects.update(pid=None, host="", process_start=None)  # as migrated
    assert analysis_start(rules=THREE_DECKS, visitor="b") is Analysis.RUNNING


@pytest.mark.database
def test_a_starved_job_holds_its_slot_however_long_its_process_runs(
    launched: list[str], settings: Settings, no_computing: None, running_process: int
) -> None:
    settings.BLACKJACK_ANALYSES_AT_ONCE = 1
    analysis_start(rules=TWO_DECKS, visitor="a")
    long_ago = timezone.now() - timedelta(hours=3)
    AnalysisJob.objects.update(started_at=long_ago, **this_process(running_process))
    three_decks = EUROPEAN.with_overrides({"decks": "3"})
    assert analysis_start(rules=three_decks, visitor="b") is Analysis.WAITING
    assert analysis_start(rules=TWO_DECKS, visitor="c") is Analysis.RUNNING  # not again
    assert launched == [rules_key(TWO_DECKS)]


@pytest.mark.database
def test_a_process_id_used_again_is_not_taken_for_the_jobs_process(
    launched: list[str], settings: Settings, no_computing: None, running_process: int
) -> None:
    settings.BLACKJACK_ANALYSES_AT_ONCE = 1
    analysis_start(rules=TWO_DECKS, visitor="a")
    then = this_process(running_process)
    AnalysisJob.objects.update(**{**then, "process_start": int(str(then["process_start"])) - 1})
    assert analysis_start(rules=EUROPEAN.with_overrides({"decks": "3"}), visitor="b") is (
        Analysis.RUNNING
    )


@pytest.mark.database
def test_the_job_takes_its_slot_over_from_the_worker_that_started_it(
    launched: list[str], settings: Settings
) -> None:
    settings.BLACKJACK_ANALYSES_AT_ONCE = 1
    analysis_start(rules=TWO_DECKS, visitor="a")
    assert AnalysisJob.objects.get().pid == os.getpid()  # the worker holds it meanwhile
    with mock.patch("subprocess.Popen") as popen, mock.patch("threading.Thread"):
        popen.return_value.pid = os.getpid()  # a process that runs: this one
        launch(rules_key(TWO_DECKS))
    job = AnalysisJob.objects.get()
    assert (job.pid, job.host) == (os.getpid(), this_process()["host"])


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_job_on_another_host_holds_its_slot_by_its_lock(
    launched: list[str], settings: Settings, no_computing: None
) -> None:
    settings.BLACKJACK_ANALYSES_AT_ONCE = 1
    analysis_start(rules=TWO_DECKS, visitor="a")
    elsewhere = {"host": "another-host", "pid": 1, "process_start": 1, "claimed": True}
    AnalysisJob.objects.update(**elsewhere)
    three_decks = EUROPEAN.with_overrides({"decks": "3"})
    import psycopg

    database = connection.settings_dict
    holder = psycopg.connect(  # the other host's process, on a connection of its own
        dbname=database["NAME"], user=database["USER"], password=database["PASSWORD"],
        host=database["HOST"], port=database["PORT"] or None, autocommit=True,
    )  # fmt: skip
    try:
        holder.execute("SELECT pg_advisory_lock(%s, 1)", [LOCK_SPACE])
        assert analysis_start(rules=three_decks, visitor="b") is Analysis.WAITING
    finally:
        holder.close()  # the process ends: the database lets its lock go
    assert analysis_start(rules=three_decks, visitor="b") is Analysis.RUNNING


def _page_with(client: Client, custom: str) -> str:
    choose(client, custom)
    return client.get(DRILL).content.decode()


def _finish_jobs() -> None:
    """The running jobs end (their analyses are not needed by these tests)."""
    AnalysisJob.objects.all().delete()


def test_a_visitor_starts_at_most_the_hourly_allowance_of_analyses(
    launched: list[str], settings: Settings, no_computing: None
) -> None:
    settings.BLACKJACK_ANALYSES_PER_HOUR = 2
    client = guest("10.0.0.7")
    for decks in (2, 3):
        assert WORKING in _page_with(client, f"decks={decks}")
        _finish_jobs()
    choose(client, "decks=4")
    response = client.get(DRILL)
    page = response.content.decode()
    assert "You have asked for 2 new sets of rules to be worked out" in page
    assert '<details class="drill-settings" open>' in page  # to choose rules at hand
    assert WORKING not in page and 'hx-trigger="load delay:1s"' not in page
    assert response.status_code == 429
    assert len(launched) == 2
    # Another visitor is not held back by this one.
    assert WORKING in _page_with(guest("10.0.0.8"), "decks=4")


def test_an_account_is_counted_apart_from_its_address(
    launched: list[str], settings: Settings, no_computing: None
) -> None:
    settings.BLACKJACK_ANALYSES_PER_HOUR = 1
    _page_with(guest("10.0.0.7"), "decks=2")
    _finish_jobs()
    member = guest("10.0.0.7")
    member.force_login(get_user_model().objects.create_user("member"))
    assert WORKING in _page_with(member, "decks=3")


def test_over_the_allowance_presets_and_stored_analyses_still_deal(
    launched: list[str], settings: Settings
) -> None:
    settings.BLACKJACK_ANALYSES_PER_HOUR = 1
    client = guest("10.0.0.9")
    _page_with(client, "decks=2")
    analysis_run(launched[0])  # stored
    assert "You have asked for 1 new set" in _page_with(client, "decks=5")
    with mock.patch("engine.strategy.store.compute_strategy", side_effect=AssertionError):
        assert "What is your play?" in _page_with(client, "decks=2")
    assert "What is your play?" in _page_with(client, "")


@pytest.mark.database
def test_rules_that_cannot_be_worked_out_are_said_so_and_not_tried_again(
    launched: list[str],
) -> None:
    client = guest()
    choose(client, "decks=2")
    with mock.patch("engine.strategy.store.compute_strategy", side_effect=MemoryError):
        with pytest.raises(MemoryError):
            analysis_run(launched[0])
        page = client.get(DRILL).content.decode()
    assert "could not be worked out" in page and 'hx-trigger="load delay:1s"' not in page
    assert len(launched) == 1


# The background process ------------------------------------------------------------------


def test_a_job_is_started_as_a_process_of_its_own() -> None:
    with mock.patch("subprocess.Popen") as popen:
        popen.return_value.pid = os.getpid()
        launch("k" * 32)  # the real one, which tests otherwise replace
    command, options = popen.call_args.args[0], popen.call_args.kwargs
    assert command[:3] == [sys.executable, "-m", "trainer.shared.budget"]  # lowest priority first
    assert command[-2:] == ["analyse_rules", "k" * 32]
    assert options["start_new_session"]  # a worker's restart does not take it along
    assert options["env"]["OPENBLAS_NUM_THREADS"] == "1"


def _limited(code: str, *, lowered: bool = False) -> str:
    """What a program prints, run as the job is: in a session of its own, and through
    ``python -m trainer.shared.budget`` where ``lowered``."""
    program = "from trainer.shared.budget import limit_resources, OverBudget\n" + textwrap.dedent(
        code
    )
    command = [sys.executable, "-c", program]
    if lowered:
        command = [sys.executable, "-m", "trainer.shared.budget", *command]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=60, start_new_session=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_job_runs_at_the_lowest_priority_from_its_start() -> None:
    out = _limited(
        """
        import os
        print(os.nice(0), os.sched_getscheduler(0) == os.SCHED_IDLE, end=" ")
        kernel_groups = os.path.exists("/proc/self/autogroup")  # where Linux has them
        print(open("/proc/self/autogroup").read().split()[-1] if kernel_groups else 19)
        """,
        lowered=True,
    )
    assert out == "19 True 19"


def test_the_job_stops_at_its_cpu_budget() -> None:
    out = _limited("""
        limit_resources(cpu_seconds=1, memory_mb=256)
        try:
            while True:
                pass
        except OverBudget:
            print("stopped")
    """)
    assert out == "stopped"


def test_the_job_cannot_take_more_memory_than_its_budget() -> None:
    out = _limited("""
        limit_resources(cpu_seconds=10, memory_mb=64)
        kept = bytearray(32 * 2**20)
        try:
            more = bytearray(128 * 2**20)
        except MemoryError:
            print("refused")
    """)
    assert out == "refused"


@pytest.mark.database
def test_a_job_for_rules_stored_meanwhile_does_not_compute_them_again(
    launched: list[str],
) -> None:
    analysis_start(rules=TWO_DECKS, visitor="a")
    analysis_run(launched[0])
    AnalysisJob.objects.create(
        key=rules_key(TWO_DECKS), rules=TWO_DECKS.to_json(), slot=1, started_at=timezone.now()
    )
    strategy_for.cache_clear()
    with mock.patch("engine.strategy.store.compute_strategy", side_effect=AssertionError):
        analysis_run(rules_key(TWO_DECKS))
    assert not AnalysisJob.objects.exists()


def test_the_working_state_says_how_long_the_analysis_has_been_worked_on(
    launched: list[str], no_computing: None
) -> None:
    client = guest()
    choose(client, "decks=2")
    AnalysisJob.objects.update(started_at=timezone.now() - timedelta(seconds=42))
    for url in (DRILL, reverse("trainer:chart-yours")):
        page = client.get(url).content.decode()
        assert re.search(r"Worked on for 4[2-4] seconds so far\.", page)  # the request's time
