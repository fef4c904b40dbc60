"""A guest's own rules: the page says they are being worked out, then deals under them."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from unittest import mock

import pytest
from django.db import connection
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from engine.strategy import strategy_for
from trainer.models import Drill
from trainer.shared import analyses


class HeldJobs:
    """Background jobs that wait for the test's word, then run in a thread of their own."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.threads: list[threading.Thread] = []

    def launch(self, key: str, command_name: str = "analyse_rules") -> None:
        thread = threading.Thread(target=self._run, args=(key,), daemon=True)
        self.threads.append(thread)
        thread.start()

    def _run(self, key: str) -> None:
        self.go.wait(timeout=60)
        try:
            analyses.analysis_run(key)
        finally:
            connection.close()


@pytest.fixture
def held_jobs(presets_worked_out: Callable[[], None]) -> Iterator[HeldJobs]:
    jobs = HeldJobs()
    strategy_for.cache_clear()  # the player's rules not worked out in this process before
    presets_worked_out()
    with mock.patch.object(analyses, "launch", side_effect=jobs.launch):
        yield jobs
    jobs.go.set()
    for thread in jobs.threads:
        thread.join(timeout=60)
    strategy_for.cache_clear()
    presets_worked_out()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_guest_sees_their_rules_worked_out_then_drills_them(
    page: Page, live_server: LiveServer, screen, held_jobs: HeldJobs
) -> None:
    page.goto(f"{live_server.url}/drill/")
    expect(page.get_by_text("What is your play?")).to_be_visible()
    page.get_by_text("Settings").click()
    page.get_by_label("Changes to the rules").fill("decks=2, dealer_hits_soft_17=true")
    page.get_by_role("button", name="Save and deal").click()

    expect(page.get_by_text("Working out the exact strategy for your rules…")).to_be_visible()
    expect(page.get_by_role("link", name="Check again")).to_be_visible()
    assert len(held_jobs.threads) == 1 and not Drill.objects.filter(answered_at=None).exists()
    screen.shot("analysis-working")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    held_jobs.go.set()  # the job runs; the page, asking every second, deals when it is done
    # The rules line shows while the page waits too: the question is what marks the deal.
    # On a loaded CI machine the analysis (a 2-deck H17 set, worked out afresh) took over
    # a minute once: the wait allows three.
    expect(page.get_by_text("What is your play?")).to_be_visible(timeout=180_000)
    expect(page.get_by_test_id("rules-line").last).to_contain_text("European, changed — 2 decks")
    screen.shot("analysis-done")
    drill = Drill.objects.get(answered_at=None)
    assert (drill.rules["decks"], drill.rules["dealer_hits_soft_17"]) == (2, True)
