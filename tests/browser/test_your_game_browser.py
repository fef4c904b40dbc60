"""The player's own counting game in a browser (issue 27): their measured mistakes, the
simulation started and followed while it runs (the page asks again by itself), and its
figures for a bankroll they choose, in English and Arabic at both widths, each state
scanned by axe."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import Screen, fits_the_width
from tests.browser.test_accessibility_browser import violations
from tests.counting_tables import store_index_table
from trainer.counting.services import index_right_play
from trainer.models import AnalysisJob, IndexPlayQuestion
from trainer.shared import analyses
from trainer.shared.analyses import analysis_run


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_player_simulates_their_game_and_sees_what_their_mistakes_cost(
    screen: Screen, live_server: LiveServer, language: str
) -> None:
    store_index_table()
    page = screen.page
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    # One index play, played wrong: deviations missed at a rate of 1.
    page.goto(f"{live_server.url}/counting/indices/")
    page.locator("form.counting-start button[type=submit]").click()
    expect(page.locator(".index-choices button")).to_have_count(2)
    question = IndexPlayQuestion.objects.get()
    right = index_right_play(question)
    page.locator(f".index-choices button:not([value={right}])").click()
    expect(page.get_by_test_id("index-result")).to_be_visible()

    page.goto(f"{live_server.url}/counting/your-game/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    measured = page.get_by_test_id("measured")
    expect(measured.locator("tbody tr")).to_have_count(4)
    found = {"start": violations(page)}
    assert fits_the_width(page)
    screen.shot(f"your-game-start-{language}")

    started: list[str] = []
    with mock.patch.object(analyses, "launch", side_effect=lambda key, *_: started.append(key)):
        page.locator("#game-state button[type=submit]").click()
        expect(page.get_by_test_id("game-working")).to_be_visible()
    assert len(started) == 1
    AnalysisJob.objects.filter(key=started[0]).update(done=30)
    page.reload()
    expect(page.locator("#game-progress")).to_have_attribute("value", "30")
    found["working"] = violations(page)
    screen.shot(f"your-game-working-{language}")

    analysis_run(started[0])  # the background job; the page finds its figures by itself
    expect(page.get_by_test_id("game-figures")).to_be_visible(timeout=15_000)
    expect(page.get_by_test_id("game-table").locator("tbody tr")).to_have_count(6)
    expect(page.get_by_test_id("game-costs").locator("tbody tr")).to_have_count(1)
    page.locator("#id_bank").fill("500")
    page.locator("form.game-bank button").click()
    expect(page.get_by_test_id("game-table")).to_contain_text("500")
    found["figures"] = violations(page)
    assert fits_the_width(page)
    screen.shot(f"your-game-figures-{language}")
    assert all(not broken for broken in found.values()), json.dumps(found, ensure_ascii=False)
