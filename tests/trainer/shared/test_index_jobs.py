"""Index tables (issue 26) worked out in the background like strategy analyses: one job
per rules, system, true-count method and penetration, stored once for everyone, never
computed by a request."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.core.management import call_command

from engine.counting import index_store
from engine.counting.index_store import IndexRequest
from engine.counting.indices import compute_indices
from engine.counting.systems import HI_LO, KO
from engine.rules import AMERICAN
from trainer.models import AnalysisJob, StoredAnalysis
from trainer.shared.analyses import (
    Analysis,
    analysis_run,
    indices_ready,
    indices_start,
    launch,
)

pytestmark = pytest.mark.django_db
REQUEST = IndexRequest(AMERICAN.with_overrides({"decks": "1"}), HI_LO)


@pytest.fixture
def small_tables() -> Iterator[list[str]]:
    """Tables computed here take a small sample (a few shoes, one row); the keys of the
    requests computed."""
    computed: list[str] = []

    def small(*args: Any, **kwargs: Any) -> Any:
        computed.append("table")
        return compute_indices(*args, **kwargs, per_count=1, rows=["hard 16"],
                               counts=range(-2, 3), pool=2_000)  # fmt: skip

    with mock.patch.object(index_store, "compute_indices", side_effect=small):
        yield computed


@pytest.fixture
def no_tables() -> Iterator[None]:
    """Any index table computed in this process fails the test."""
    with mock.patch.object(index_store, "compute_indices", side_effect=AssertionError):
        yield


def test_asking_starts_one_background_job_and_computes_nothing(
    launched: list[str], no_tables: None
) -> None:
    assert indices_start(request=REQUEST, visitor="address:1") is Analysis.RUNNING
    assert indices_start(request=REQUEST, visitor="address:2") is Analysis.RUNNING
    assert launched == [REQUEST.key()]
    job = AnalysisJob.objects.get(key=REQUEST.key())
    assert IndexRequest.from_json(job.rules["indices"]).key() == REQUEST.key()
    assert not indices_ready(REQUEST)


def test_the_job_stores_the_table_once_for_everyone(
    launched: list[str], small_tables: list[str]
) -> None:
    indices_start(request=REQUEST, visitor="address:1")
    analysis_run(launched[0])  # as the background process does
    assert small_tables == ["table"]
    assert StoredAnalysis.objects.filter(key=REQUEST.key()).exists()
    assert not AnalysisJob.objects.exists()  # its slot freed
    # Anyone asking again, for the same table under another name, is served at once.
    renamed = IndexRequest(REQUEST.rules.replace(name="house"), HI_LO)
    assert indices_start(request=renamed, visitor="address:9") is Analysis.READY
    assert indices_ready(renamed) and small_tables == ["table"]
    assert launched == [REQUEST.key()]


def test_another_system_is_another_table(launched: list[str], no_tables: None) -> None:
    indices_start(request=REQUEST, visitor="address:1")
    AnalysisJob.objects.all().delete()  # its slot free again
    indices_start(request=IndexRequest(REQUEST.rules, KO), visitor="address:1")
    assert launched == [REQUEST.key(), IndexRequest(REQUEST.rules, KO).key()]


def test_a_job_over_its_budget_is_recorded_as_failed(launched: list[str]) -> None:
    indices_start(request=REQUEST, visitor="address:1")
    with (
        mock.patch.object(index_store, "compute_indices", side_effect=MemoryError),
        pytest.raises(MemoryError),
    ):
        analysis_run(launched[0])
    assert indices_start(request=REQUEST, visitor="address:1") is Analysis.FAILED
    assert not indices_ready(REQUEST) and len(launched) == 1


def test_an_index_job_runs_its_own_command_at_the_lowest_priority() -> None:
    with mock.patch("subprocess.Popen") as popen:
        popen.return_value.pid = os.getpid()
        launch("k" * 32, "analyse_indices")
    command = popen.call_args.args[0]
    assert command[:3] == [sys.executable, "-m", "trainer.shared.budget"]
    assert command[-2:] == ["analyse_indices", "k" * 32]


def test_the_index_command_runs_the_job_within_its_own_cpu_budget(
    launched: list[str], small_tables: list[str], settings: Any
) -> None:
    settings.BLACKJACK_INDICES_CPU_SECONDS = 123
    indices_start(request=REQUEST, visitor="address:1")
    with mock.patch("trainer.management.commands.analyse_indices.limit_resources") as limit:
        call_command("analyse_indices", launched[0])
    assert limit.call_args.kwargs["cpu_seconds"] == 123
    assert indices_ready(REQUEST)
