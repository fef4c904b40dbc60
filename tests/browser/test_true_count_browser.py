"""The true-count drill in a browser: a shoe dealt and both its questions answered with the
keyboard alone, the discard tray drawn to scale, the pages right to left in Arabic, and
each page state clear of axe-core's WCAG A and AA rules, at a desktop's and a phone's width.

The right answers are worked out here from the question the page shows, read from the
database (`services.expected`), so a deal the server draws at random can be answered.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import Screen, fits_the_width
from tests.browser.test_accessibility_browser import violations
from tests.browser.test_keyboard_browser import tab_to
from trainer.counting.services import expected
from trainer.models import TrueCountQuestion
from trainer.shared.bidi import LRI, PDI

#: The tray's inside as drawn on the screen: its outline's geometry, mapped to the page (the
#: bounding box of a stroked path is widened by a guess at its stroke's corners).
TRAY_INSIDE = """edge => {
  const box = edge.getBBox(), to = edge.getScreenCTM();
  return {x: to.e + box.x * to.a, y: to.f + box.y * to.d,
          width: box.width * to.a, height: box.height * to.d};
}"""


def deal_a_shoe(page: Page, url: str) -> TrueCountQuestion:
    """Deal a shoe through the start form, left as it comes (6 decks, to the half deck,
    down), and wait for its tray question; the question, from the database."""
    page.goto(f"{url}/counting/true-count/")
    page.locator("form.counting-start button[type=submit]").click()
    return question_shown(page)


def question_shown(page: Page, after: int | None = None) -> TrueCountQuestion:
    """The question whose page ``page`` shows, once its answer field or its grade is there;
    ``after``: the question shown before, whose graded page stays until the next loads."""
    if after is not None:
        expect(page).not_to_have_url(re.compile(rf"/counting/true-count/{after}/$"))
    expect(page.locator("input[name=answer], [data-testid=true-count-result]")).to_be_visible()
    found = re.search(r"/counting/true-count/(\d+)/$", page.url)
    assert found is not None, page.url
    return TrueCountQuestion.objects.get(pk=int(found[1]))


def typed(number: Fraction) -> str:
    """A number as a player types it: "2.5", "3", "-2"."""
    return f"{float(number):g}"


def said(number: Fraction) -> str:
    """Decks or a count as the page says them, to compare: halves and quarters as glyphs
    ("2½", "¾"), a count signed ("+3", "-2"; the typographic minus read as a hyphen)."""
    whole, part = divmod(abs(number), 1)
    glyph = {Fraction(0): "", Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}
    return ("-" if number < 0 else "") + (str(whole) if whole or not part else "") + glyph[part]


def signed(count: Fraction) -> str:
    return said(count) if count <= 0 else f"+{said(count)}"


def text_of(page: Page, test_id: str) -> str:
    """The text of the element with ``test_id``, its spaces and minus signs made plain
    (and without the marks that keep a signed number whole in Arabic)."""
    text = page.get_by_test_id(test_id).inner_text().replace(LRI, "").replace(PDI, "")
    return re.sub(r"\s+", " ", text).replace("\N{MINUS SIGN}", "-").strip()


def small_targets(page: Page) -> list[str]:
    """The fields, buttons and links standing alone (not in a sentence) of the page's main
    part less than 24 px wide or tall (WCAG 2.2's least target size), each as its name (or
    text) and size."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll("main :is(input, select, button, a)")]
          .filter((control) => control.type !== "hidden")
          .filter((control) => control.tagName !== "A"
            || control.parentElement.textContent.trim() === control.textContent.trim())
          .map((control) => [control, control.getBoundingClientRect()])
          .filter(([, box]) => box.width < 24 || box.height < 24)
          .map(([control, {width, height}]) =>
            `${control.name || control.textContent} ${width}×${height}`)"""
    )
    return found


def answer(page: Page, text: str) -> None:
    """Type ``text`` into the answer field and press Enter (the field has the focus)."""
    field = page.locator("input[name=answer]")
    expect(field).to_be_focused()
    page.keyboard.type(text)
    page.keyboard.press("Enter")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_guest_judges_the_decks_left_then_the_true_count_by_keyboard(
    screen: Screen, live_server: LiveServer
) -> None:
    page, url = screen.page, live_server.url
    page.goto(f"{url}/counting/true-count/")
    expect(page.get_by_label("Decks in the shoe")).to_have_value("6")
    assert small_targets(page) == []
    deal = page.get_by_role("button", name="Deal a shoe").bounding_box()
    link = page.get_by_role("link", name="Count a deck").bounding_box()
    assert deal is not None and link is not None
    assert link["y"] - (deal["y"] + deal["height"]) >= 12, (deal, link)  # the ring clear
    screen.shot("true-count-start")
    tab_to(page, page.get_by_role("button", name="Deal a shoe"))
    page.keyboard.press("Enter")

    question = question_shown(page)
    assert (question.kind, question.decks) == (TrueCountQuestion.Kind.DECKS, 6)
    assert (question.estimate, question.conversion) == ("half", "floor")
    expect(page.get_by_test_id("tray")).to_be_visible()
    expect(page.get_by_label("Decks left")).to_be_focused()  # autofocus, on load
    assert fits_the_width(page)
    assert small_targets(page) == []
    screen.shot("true-count-tray")
    decks_left = expected(question)
    answer(page, typed(decks_left))

    expect(page.get_by_role("heading", name="Right!")).to_be_visible()
    assert f"Decks left: {said(decks_left)}; you said {said(decks_left)}." in text_of(
        page, "true-count-verdict"
    )
    expect(page.get_by_test_id("true-count-time")).to_contain_text(re.compile(r"\d s\."))
    expect(page.get_by_test_id("figures-decks")).to_contain_text("1 of 1 right")
    go_on = page.get_by_role("button", name="Now its true count")
    expect(go_on).to_be_focused()
    # The button's focus ring clear of the figures' heading under it.
    button = go_on.bounding_box()
    heading = page.get_by_role("heading", name="Casino standards and your figures").bounding_box()
    assert button is not None and heading is not None
    assert heading["y"] - (button["y"] + button["height"]) >= 12, (button, heading)
    screen.shot("true-count-decks-right")
    page.keyboard.press("Enter")

    conversion = question_shown(page, after=question.pk)
    assert conversion.kind == TrueCountQuestion.Kind.CONVERT
    assert (conversion.dealt, conversion.running) == (question.dealt, question.running)
    running = Fraction(question.running)
    assert (
        text_of(page, "given")
        == f"Running count {signed(running)}; decks left: {said(decks_left)}."
    )
    expect(page.get_by_label("The true count")).to_be_focused()
    assert fits_the_width(page)
    screen.shot("true-count-convert")
    right = expected(conversion)
    wrong = right + 1
    answer(page, typed(wrong))

    expect(page.get_by_role("heading", name="Not quite.")).to_be_visible()
    # The working: the running count over the decks left, the quotient, the true count.
    assert text_of(page, "true-count-verdict") == (
        f"{signed(running)} ÷ {said(decks_left)} = {float(running / decks_left):+.2f}, "
        f"so the true count is {signed(right)}; you said {signed(wrong)}."
    )
    expect(page.get_by_test_id("figures-convert")).to_contain_text("0 of 1 right")
    expect(page.get_by_role("button", name="Next shoe")).to_be_focused()
    assert fits_the_width(page)
    screen.shot("true-count-convert-wrong")
    page.keyboard.press("Enter")

    following = question_shown(page, after=conversion.pk)
    assert following.kind == TrueCountQuestion.Kind.DECKS
    assert following.pk not in (question.pk, conversion.pk)
    expect(page.get_by_test_id("tray")).to_be_visible()
    expect(page.get_by_label("Decks left")).to_be_focused()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_tray_is_drawn_to_scale(screen: Screen, live_server: LiveServer) -> None:
    """Half a 6-deck shoe dealt: the stack fills half the tray, from its bottom."""
    page = screen.page
    question = deal_a_shoe(page, live_server.url)
    TrueCountQuestion.objects.filter(pk=question.pk).update(decks=6, dealt=156)
    page.reload()
    expect(page.locator("figcaption")).to_contain_text("50%")
    tray = page.get_by_test_id("tray").locator("path").evaluate(TRAY_INSIDE)
    stack = page.get_by_test_id("tray-stack").bounding_box()
    assert stack is not None
    assert tray["height"] > 50, tray  # drawn at a size the eye can judge
    assert abs(stack["height"] - tray["height"] / 2) <= 2, (stack, tray)
    assert abs(stack["y"] + stack["height"] - (tray["y"] + tray["height"])) <= 2, (stack, tray)
    assert tray["x"] <= stack["x"] and stack["x"] + stack["width"] <= tray["x"] + tray["width"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_drill_reads_right_to_left_in_arabic(screen: Screen, live_server: LiveServer) -> None:
    page, url = screen.page, live_server.url
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": url}])
    page.goto(f"{url}/counting/true-count/")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    assert fits_the_width(page)
    assert small_targets(page) == []
    assert violations(page) == []
    screen.shot("true-count-start-ar")

    question = deal_a_shoe(page, url)
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.get_by_test_id("tray")).to_be_visible()
    assert fits_the_width(page)
    assert violations(page) == []
    screen.shot("true-count-tray-ar")
    answer(page, typed(expected(question)))

    expect(page.get_by_test_id("true-count-result")).to_be_visible()
    assert TrueCountQuestion.objects.get(pk=question.pk).right is True
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    assert fits_the_width(page)
    assert violations(page) == []
    screen.shot("true-count-result-ar")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_each_page_state_breaks_no_wcag_a_or_aa_rule(
    screen: Screen, live_server: LiveServer
) -> None:
    page, url = screen.page, live_server.url
    found: dict[str, list[dict[str, Any]]] = {}
    page.goto(f"{url}/counting/true-count/")
    found["start"] = violations(page)

    question = deal_a_shoe(page, url)
    found["tray"] = violations(page)

    answer(page, "two and a bit")
    field = page.locator("input[name=answer]")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_role("alert")).to_contain_text("Type the decks left")
    assert TrueCountQuestion.objects.get(pk=question.pk).answered_at is None
    found["error"] = violations(page)
    screen.shot("true-count-error")

    field.fill(typed(expected(question)))
    field.press("Enter")
    page.get_by_role("button", name="Now its true count").click()
    conversion = question_shown(page, after=question.pk)
    found["convert"] = violations(page)

    answer(page, typed(expected(conversion)))
    expect(page.get_by_role("heading", name="Right!")).to_be_visible()
    found["result"] = violations(page)
    broken = {state: problems for state, problems in found.items() if problems}
    assert broken == {}, json.dumps(broken, indent=1, ensure_ascii=False)
