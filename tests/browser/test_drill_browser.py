from __future__ import annotations

import re

import pytest
from django.contrib.sessions.models import Session
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from engine.drills import Situation
from engine.rules import EUROPEAN
from tests.browser.conftest import drill_settings, save_and_deal
from trainer.models import Drill


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_new_visitor_answers_five_drills_by_keyboard(
    page: Page, live_server: LiveServer, screen
) -> None:
    page.goto(f"{live_server.url}/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Drill").click()
    page.wait_for_load_state()  # the keyboard script is deferred: wait until it runs

    for answered in range(5):
        prompt = page.get_by_text("What is your play?")
        expect(prompt).to_be_visible()
        if answered == 0:
            screen.shot("drill-question")
        page.keyboard.press("s" if answered % 2 else "h")
        verdict = page.locator(".feedback__verdict")
        expect(verdict).to_have_text(re.compile(r"\s*(Right: \w+|Not quite: the play is \w+)"))
        expect(page.get_by_role("table")).to_contain_text("Hit")
        expect(page.locator(".chart-row__cell--here")).to_have_count(1)
        if answered == 0:
            screen.shot("drill-feedback")
        expect(page.get_by_role("button", name="Next hand")).to_be_focused()
        page.keyboard.press("Enter")

    expect(page.get_by_text("What is your play?")).to_be_visible()
    answers = Drill.objects.exclude(answered_at=None)
    assert answers.count() == 5
    assert {drill.action for drill in answers} <= {"hit", "stand"}
    assert Drill.objects.filter(answered_at=None).count() == 1
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_drills_pairs_at_the_deluxe_table(
    page: Page, live_server: LiveServer, screen
) -> None:
    drill_settings(page, live_server.url)
    page.get_by_label("Rules:", exact=True).select_option("deluxe")
    page.get_by_label("Hands").select_option("pair")
    screen.shot("drill-settings")
    page.get_by_role("button", name="Save and deal").click()

    expect(page.get_by_test_id("rules-line").last).to_contain_text("Rules: Deluxe — 8 decks")
    expect(page.get_by_role("button", name="Split")).to_be_visible()  # every pair may split
    drill = Drill.objects.get(answered_at=None)
    first, second = drill.cards.split()
    assert first[:-1] == second[:-1] or {first[:-1], second[:-1]} <= {"10", "J", "Q", "K"}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_weak_spots_session_brings_back_a_missed_cell(
    page: Page, live_server: LiveServer
) -> None:
    drill_settings(page, live_server.url)
    page.get_by_label("Hands").select_option("weak")
    save_and_deal(page)

    missed = Drill.objects.get(answered_at=None)
    situation = Situation.parse(EUROPEAN, missed.cards, missed.up)
    wrong = next(a for a in situation.legal_actions() if a is not situation.correct_action())
    page.keyboard.press({"hit": "h", "stand": "s", "double": "d", "split": "p"}[wrong.value])
    expect(page.locator(".feedback__verdict")).to_contain_text("Not quite")
    expect(page.get_by_role("button", name="Next hand")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_text("What is your play?")).to_be_visible()

    again = Drill.objects.get(answered_at=None)
    repeat = Situation.parse(EUROPEAN, again.cards, again.up)
    assert again.pk != missed.pk
    assert (repeat.row, repeat.up_column) == (situation.row, situation.up_column)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_reads_the_rules_they_may_change_and_is_told_what_is_wrong(
    page: Page, live_server: LiveServer, screen
) -> None:
    drill_settings(page, live_server.url)
    page.get_by_text("Rules you can change").click()
    expect(page.locator(".rule-fields")).to_contain_text("a whole number from 1 to 8")
    screen.shot("drill-settings-rules")
    page.get_by_label("Changes to the rules").fill("decks=100000")
    page.get_by_role("button", name="Save and deal").click()

    expect(page.get_by_text("decks must be a whole number from 1 to 8")).to_be_visible()
    expect(page.get_by_test_id("rules-line").last).to_contain_text("Rules: European — 6 decks")
    screen.shot("drill-settings-refused")
    page.get_by_label("Changes to the rules").fill("decks=2")
    page.get_by_role("button", name="Save and deal").click()
    expect(page.get_by_test_id("rules-line").last).to_contain_text("European, changed — 2 decks")
    expect(page.get_by_text("What is your play?")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_with_auto_advance_the_next_hand_is_dealt_by_itself(
    page: Page, live_server: LiveServer, screen
) -> None:
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    drill_settings(page, live_server.url)
    page.get_by_label("Deal the next hand by itself").check()
    save_and_deal(page)

    for answered in range(1, 4):
        expect(page.get_by_text("What is your play?")).to_be_visible()
        dealt = Drill.objects.get(answered_at=None)
        page.keyboard.press("s")
        expect(page.locator(".feedback__verdict")).to_be_visible()
        if answered == 1:
            screen.shot("drill-auto-advance-feedback")
        # Two seconds later the next hand comes by itself, and a new one it is.
        expect(page.get_by_text("What is your play?")).to_be_visible()
        assert Drill.objects.exclude(answered_at=None).count() == answered
        assert Drill.objects.get(answered_at=None).pk != dealt.pk

    expect(page.locator(".drill__error")).to_have_count(0)
    expect(page.locator("#drill .felt")).to_have_count(1)
    assert errors == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_enter_on_a_link_follows_it_instead_of_dealing(page: Page, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/drill/")
    page.wait_for_load_state()  # the keyboard script is deferred
    page.keyboard.press("s")
    expect(page.locator(".feedback__verdict")).to_be_visible()

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Progress").focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{live_server.url}/progress/")
    assert Drill.objects.filter(answered_at=None).count() == 0  # no hand was dealt


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_letter_keys_work_on_an_arabic_keyboard_layout(
    page: Page, live_server: LiveServer
) -> None:
    page.goto(f"{live_server.url}/drill/")
    page.wait_for_load_state()  # the keyboard script is deferred
    # The key where a US keyboard has H types "ا" on an Arabic layout.
    page.evaluate(
        """document.body.dispatchEvent(new KeyboardEvent("keydown",
             {key: "\u0627", code: "KeyH", bubbles: true, cancelable: true}))"""
    )
    expect(page.locator(".feedback__verdict")).to_be_visible()
    assert Drill.objects.get().action == "hit"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_first_visit_stores_nothing_until_the_hand_is_answered(
    page: Page, live_server: LiveServer, screen
) -> None:
    page.goto(f"{live_server.url}/drill/")
    page.wait_for_load_state()  # the keyboard script is deferred
    expect(page.get_by_text("What is your play?")).to_be_visible()
    assert Drill.objects.count() == 0 and Session.objects.count() == 0
    assert "sessionid" not in {cookie["name"] for cookie in page.context.cookies()}
    screen.shot("drill-first-visit")
    page.get_by_role("button", name=re.compile("^Stand")).click()
    expect(page.locator(".feedback__verdict")).to_be_visible()
    assert Drill.objects.get().action == "stand"
    assert "sessionid" in {cookie["name"] for cookie in page.context.cookies()}
    page.reload()  # the answered hand is this visitor's now
    expect(page.locator(".feedback__verdict")).to_be_visible()
    screen.shot("drill-first-visit-answered")
