"""The index-play and betting drills in a browser (issue 27): by keyboard, a question from
the stored index table, its grade in expected value with the index, the next question; the
printable chart; a bet by the player's own ramp; in Arabic; and every state scanned by
axe. A table not yet worked out is waited on honestly."""

from __future__ import annotations

import json
import re
from unittest import mock

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import Screen, fits_the_width
from tests.browser.test_accessibility_browser import violations
from tests.browser.test_keyboard_browser import tab_to
from tests.counting_tables import store_index_table
from trainer.counting.services import index_right_play
from trainer.models import BetQuestion, IndexPlayQuestion
from trainer.shared import analyses

START = "/counting/indices/"


def question_shown(page: Page, after: int | None = None) -> IndexPlayQuestion:
    """The question ``page`` shows, once its plays or its grade are there; ``after``: the
    question shown before, whose graded page stays until the next loads."""
    if after is not None:
        expect(page).not_to_have_url(re.compile(rf"/counting/indices/{after}/$"))
    expect(page.locator(".index-choices button, [data-testid=index-result]").first).to_be_visible()
    found = re.search(r"/counting/indices/(\d+)/$", page.url)
    assert found is not None, page.url
    return IndexPlayQuestion.objects.get(pk=int(found[1]))


def start_by_keyboard(page: Page, url: str) -> IndexPlayQuestion:
    page.goto(f"{url}{START}")
    tab_to(page, page.get_by_role("button", name="Start the index drill"))
    page.keyboard.press("Enter")
    return question_shown(page)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_keyboard_player_makes_an_index_play_and_is_told_what_it_gave_up(
    screen: Screen, live_server: LiveServer
) -> None:
    table = store_index_table()
    page = screen.page
    question = start_by_keyboard(page, live_server.url)
    shown = {row["row"] for row in table["indices"]}
    assert question.row in shown and abs(question.true_count - question.index) <= 3
    # The two plays the index separates, the index's own first, the focus on it.
    plays = page.locator(".index-choices button")
    expect(plays).to_have_count(2)
    expect(plays.first).to_be_focused()
    assert fits_the_width(page)
    screen.shot("index-question")

    right = index_right_play(question)
    wrong = question.otherwise if right == question.play else question.play
    if page.locator(".index-choices button").first.get_attribute("value") != wrong:
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Not quite.")).to_be_visible()
    question.refresh_from_db()
    assert question.answer == wrong and question.right is False and question.given_up
    verdict = page.get_by_test_id("index-verdict").inner_text()
    assert f"{question.given_up:.3f}" in verdict and "of a bet" in verdict
    expect(page.get_by_test_id("index-why")).to_contain_text("The index:")
    expect(page.get_by_role("button", name="Next index play")).to_be_focused()
    assert fits_the_width(page)
    screen.shot("index-wrong")

    page.keyboard.press("Enter")
    following = question_shown(page, after=question.pk)
    assert following.pk != question.pk and following.answered_at is None


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_table_not_worked_out_is_waited_on_and_the_page_asks_again(
    page: Page, live_server: LiveServer
) -> None:
    with mock.patch.object(analyses, "launch") as launched:
        page.goto(f"{live_server.url}{START}")
        page.get_by_role("button", name="Start the index drill").click()
        expect(page.get_by_test_id("index-working")).to_be_visible()
    assert launched.call_count == 1
    assert "rules=american" in page.url
    # Once the table is stored, the page's own check finds it (it asks every 5 s).
    store_index_table()
    expect(page.get_by_test_id("index-ready")).to_be_visible(timeout=15_000)
    assert violations(page) == []


def sign_on_the_left(page: Page, test_id: str) -> bool:
    """Whether the sign of the signed number in the element is drawn left of its digits
    (in Arabic it drifts right unless the number is isolated left to right); True for 0."""
    return bool(
        page.get_by_test_id(test_id).evaluate(
            """element => {
              const text = element.firstChild, s = text.data;
              const sign = s.search(/[+\u2212]/), digit = s.search(/[0-9]/);
              if (sign < 0) return true;
              const at = (i) => { const r = document.createRange(); r.setStart(text, i);
                                  r.setEnd(text, i + 1); return r.getBoundingClientRect().x; };
              return at(sign) < at(digit);
            }"""
        )
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ar"])
def test_every_state_breaks_no_wcag_rule_and_fits_a_phone(
    screen: Screen, live_server: LiveServer, language: str
) -> None:
    store_index_table()
    page = screen.page
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    found = {}
    page.goto(f"{live_server.url}{START}")
    expect(page.locator("html")).to_have_attribute("lang", language)
    found["start"] = violations(page)
    page.locator("form.counting-start button[type=submit]").click()
    question_shown(page)
    found["question"] = violations(page)
    assert fits_the_width(page)
    assert sign_on_the_left(page, "index-count"), "the true count's sign drifted right"
    screen.shot(f"index-question-{language}")
    page.locator(".index-choices button").first.click()
    expect(page.get_by_test_id("index-result")).to_be_visible()
    found["result"] = violations(page)
    assert fits_the_width(page)
    screen.shot(f"index-result-{language}")
    assert all(not broken for broken in found.values()), json.dumps(found, ensure_ascii=False)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_index_chart_prints_beside_the_book(screen: Screen, live_server: LiveServer) -> None:
    store_index_table()
    page = screen.page
    page.goto(f"{live_server.url}{START}")
    page.get_by_role("link", name="Index chart").click()
    chart = page.get_by_test_id("index-chart")
    expect(chart).to_be_visible()
    expect(chart.locator("tr[data-differs]").first).to_be_visible()
    assert fits_the_width(page) and violations(page) == []
    screen.shot("index-chart")
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator(".index-chart__choices")).to_be_hidden()
    expect(chart).to_be_visible()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_player_bets_by_their_ramp_by_keyboard(
    screen: Screen, live_server: LiveServer, language: str
) -> None:
    """The betting drill: the ramp written, a count, the bet typed and Enter, the grade,
    Enter for the next count; no WCAG violation at any step, nothing off the screen."""
    page = screen.page
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/counting/betting/")
    found = {"start": violations(page)}
    page.locator("#id_ramp").fill("1:2, 3:8")
    page.locator("form.counting-start button[type=submit]").click()
    answer = page.locator("input[name=answer]")
    expect(answer).to_be_focused()
    found["question"] = violations(page)
    assert sign_on_the_left(page, "bet-count")
    found_id = re.search(r"/counting/betting/(\d+)/$", page.url)
    assert found_id is not None
    question = BetQuestion.objects.get(pk=int(found_id[1]))
    right = 1 if question.true_count < 1 else 2 if question.true_count < 3 else 8
    page.keyboard.type(str(right))
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("bet-result")).to_be_visible()
    question.refresh_from_db()
    assert question.right is True
    found["result"] = violations(page)
    assert fits_the_width(page)
    screen.shot(f"betting-result-{language}")
    page.keyboard.press("Enter")
    expect(page.locator("input[name=answer]")).to_be_focused()
    assert all(not broken for broken in found.values()), json.dumps(found, ensure_ascii=False)
