"""Full tables, practice and live, measured at a desktop's and a phone's width: every
control a target of at least 24 × 24 px with room around it, every seat's name whole, a
split seat's hands labelled, the seats drawn in the order they are read, and the live
table's buttons drawn like the rest of the site's."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import Screen
from tests.browser.test_live_layout_browser import ann_at_a_full_table, split_at_seat_3
from tests.browser.test_table_layout_browser import FULL_TABLE_SHOE, sit_at_a_full_table

#: The least size of a target (WCAG 2.5.8) and the least room between two.
LEAST = 24
ROOM = 4

# Every control a pointer aims at; a checkbox's target is its label.
CONTROLS = (
    "button, a[href], summary, select, label:has(input[type=checkbox]),"
    " input:not([type=hidden]):not([type=checkbox])"
)
TARGETS = """([region, controls]) => [...document.querySelectorAll(region)]
  .flatMap((area) => [...area.querySelectorAll(controls)])
  .filter((el) => el.checkVisibility() && !el.closest(".visually-hidden"))
  .filter((el) => !(el.matches("a[href]") && el.closest("p, li, td")))
  .map((el) => { const r = el.getBoundingClientRect();
    return {name: el.outerHTML.slice(0, 90), x: r.x, y: r.y, w: r.width, h: r.height}; })"""
CUT_NAMES = """() => [...document.querySelectorAll(".seat__name")]
  .filter((el) => el.scrollWidth > el.clientWidth + 1)
  .map((el) => el.textContent)"""
STYLE = """(el) => { const s = getComputedStyle(el);
  return [s.borderTopColor, s.borderTopWidth, s.fontFamily, s.fontWeight, s.backgroundColor]; }"""


def targets(page: Page, region: str) -> list[dict[str, Any]]:
    """The visible controls of ``region`` (links inside a sentence aside: text links)."""
    return list(page.evaluate(TARGETS, [region, CONTROLS]))


def gap(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The room between two boxes (negative where they overlap)."""
    across = max(b["x"] - (a["x"] + a["w"]), a["x"] - (b["x"] + b["w"]))
    down = max(b["y"] - (a["y"] + a["h"]), a["y"] - (b["y"] + b["h"]))
    return max(across, down)


def assert_targets(page: Page, region: str) -> None:
    found = targets(page, region)
    assert found
    small = [t for t in found if t["w"] < LEAST or t["h"] < LEAST]
    assert not small, small
    for index, one in enumerate(found):
        for other in found[index + 1 :]:
            assert gap(one, other) >= ROOM, (one, other)


def assert_names_whole(page: Page) -> None:
    names = page.locator(".seat__name")
    cut = page.evaluate(CUT_NAMES)
    assert names.count() and cut == []


def assert_read_as_drawn(page: Page) -> None:
    """Each seat, in the page's order, comes after the one before it as the eye reads:
    further down, or on the same line further along (to the left in Arabic)."""
    boxes = [seat.bounding_box() for seat in page.locator(".seats > .seat").all()]
    rtl = page.evaluate("document.documentElement.dir") == "rtl"
    for before, after in zip(boxes, boxes[1:], strict=False):
        assert before is not None and after is not None
        if abs(after["y"] - before["y"]) < 2:
            assert (after["x"] < before["x"]) if rtl else (after["x"] > before["x"]), (
                before,
                after,
            )
        else:
            assert after["y"] >= before["y"] + before["height"] - 1, (before, after)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_practice_tables_targets_names_hands_and_order(
    page: Page, live_server: LiveServer, screen: Screen
) -> None:
    page.emulate_media(reduced_motion="reduce")
    sit_at_a_full_table(page, live_server, FULL_TABLE_SHOE, rules="deluxe")
    page.locator(".side-bets summary").click()
    assert_targets(page, "#table")
    assert_names_whole(page)
    assert_read_as_drawn(page)
    page.get_by_role("button", name="Deal").click()
    expect(page.get_by_role("button", name="Split")).to_be_visible()
    page.get_by_role("button", name="Split").click()
    hands = page.get_by_test_id("seat-4").locator(".seat__hand")
    expect(hands).to_have_count(2, timeout=90_000)
    expect(hands.nth(0)).to_contain_text("Hand 1 of 2")
    expect(hands.nth(1)).to_contain_text("Hand 2 of 2")
    screen.shot("targets-practice")
    assert_targets(page, "#table")
    assert_names_whole(page)
    assert_read_as_drawn(page)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("clock")  # standing still: no deadline passes
def test_the_live_tables_targets_names_order_and_buttons(
    screen: Screen, live_server: LiveServer
) -> None:
    page = screen.page
    ann_at_a_full_table(page, live_server.url, bot="normal")
    expect(page.get_by_role("group", name="Bet behind seat 1")).to_be_visible()
    expect(page.get_by_role("group", name="Pair bet on seat 3")).to_be_visible()
    screen.shot("targets-live-betting")
    assert_targets(page, "#live")
    assert_names_whole(page)
    assert_read_as_drawn(page)

    split_at_seat_3(page)
    decision = page.get_by_test_id("decision")
    expect(page.get_by_test_id("seat-3")).to_contain_text("Hand 1 of 2")
    screen.shot("targets-live-decision")
    assert_targets(page, "#live")
    assert_read_as_drawn(page)
    # A seat's button is drawn as the site's buttons are: their border, corners and type.
    site = decision.get_by_role("button", name="Hit").evaluate(STYLE)
    seat_button = page.get_by_test_id("preselect-4").get_by_role("button").first.evaluate(STYLE)
    assert seat_button == site
