"""Every page state passes axe-core's WCAG 2.2 A and AA rules, in English and Arabic, at a
desktop's and a phone's width, for a guest and for an account.

axe-core is the npm package's own file, vendored under tests/browser/vendor/ with its
licence (Mozilla Public License 2.0). It is evaluated through the DevTools protocol, which
the page's Content-Security-Policy does not govern, so the policy stays as served.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from engine.rules import EUROPEAN
from engine.shoe import Shoe
from engine.strategy import store, strategy_for
from tests.browser.conftest import SIZES, sit_down
from tests.counting_tables import store_index_table
from trainer.live.services import open_table

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
#: WCAG 2.0, 2.1 and 2.2 at levels A and AA: the rules the issue holds every page to.
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
LANGUAGES = ("en", "ar")
# You 10s 6h against the dealer's 9d: a decision to take.
PLAYING_SHOE = "10s 9d 6h 7c " + "2c 3d 4h 5s " * 10


def answer_a_drill(page: Page, url: str) -> None:
    page.goto(f"{url}/drill/")
    page.locator("#answer .action-button").first.click()
    expect(page.locator(".feedback__verdict")).to_be_visible()


def practice_betting(page: Page, url: str) -> None:
    sit_down(page, url, PLAYING_SHOE)


def practice_playing(page: Page, url: str) -> None:
    sit_down(page, url, PLAYING_SHOE)
    page.get_by_role("button", name="Deal").click()
    expect(page.get_by_role("button", name="Stand")).to_be_visible()


def practice_summary(page: Page, url: str) -> None:
    practice_playing(page, url)
    page.get_by_role("button", name="Stand").click()
    page.get_by_role("button", name="End the session").click()
    expect(page).to_have_url(re.compile(r"/summary/$"))


def live_table(page: Page, url: str) -> None:
    page.goto(f"{url}/tables/")
    # The table's number is its id: earlier tests may have opened tables before it.
    page.get_by_role("link", name=re.compile(r"^Table \d+$")).first.click()
    expect(page.get_by_test_id("live-table")).to_be_visible()


def progress_page(page: Page, url: str) -> None:
    answer_a_drill(page, url)
    page.goto(f"{url}/progress/")


def bets_page(page: Page, url: str) -> None:
    practice_summary(page, url)
    page.goto(f"{url}/bets/")


def rules_lab(page: Page, url: str) -> None:
    """A lab with its figures and its marked chart (worked out before the page asks)."""
    with store.store_used(store.DirectoryStore()):
        strategy_for(EUROPEAN.with_overrides({"decks": "2"}))
    page.goto(f"{url}/rules/lab/?rules_name=european&decks=2")
    expect(page.get_by_test_id("lab-drill")).to_be_visible()


def progress_with_counting(page: Page, url: str) -> None:
    """Progress after an index play and a counted deck: the counting table and the index
    plays' heat map drawn."""
    store_index_table()
    page.goto(f"{url}/counting/indices/")
    page.locator("form.counting-start button[type=submit]").click()
    page.locator(".index-choices button").first.click()
    expect(page.get_by_test_id("index-result")).to_be_visible()
    page.goto(f"{url}/progress/")
    expect(page.get_by_test_id("index-heat-map")).to_be_visible()


def visit(path: str) -> Callable[[Page, str], None]:
    def go(page: Page, url: str) -> None:
        page.goto(f"{url}{path}")

    return go


#: Each page state the issue lists, and how a browser gets to it.
STATES: dict[str, Callable[[Page, str], None]] = {
    "home": visit("/"),
    "drill-dealt": visit("/drill/"),
    "drill-answered": answer_a_drill,
    "chart": visit("/chart/"),
    "rules-lab": rules_lab,
    "rules-lab-refused": visit("/rules/lab/?rules_name=deluxe&resplit_aces=true"),
    "progress": progress_page,
    "practice-betting": practice_betting,
    "practice-playing": practice_playing,
    "practice-summary": practice_summary,
    "live-lobby": visit("/tables/"),
    "live-table": live_table,
    "bets": bets_page,
    "progress-counting": progress_with_counting,
    "counting": visit("/counting/"),
    "true-count": visit("/counting/true-count/"),
    "index-plays": visit("/counting/indices/"),
    "index-chart": visit("/counting/indices/chart/"),
    "betting": visit("/counting/betting/"),
    "log-in": visit("/accounts/login/"),
    "sign-up": visit("/accounts/signup/"),
    "reset": visit("/accounts/password_reset/"),
}
#: The account pages are a guest's.
GUEST_ONLY = {"log-in", "sign-up", "reset"}


def violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's WCAG A/AA violations on the page as it stands, each with its nodes."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE)
    found: list[dict[str, Any]] = page.evaluate(
        """async (tags) => {
          const result = await axe.run(document, {runOnly: {type: "tag", values: tags}});
          return result.violations.map((v) => ({
            id: v.id, help: v.help,
            nodes: v.nodes.map((n) => ({target: n.target.join(" "), why: n.failureSummary})),
          }));
        }""",
        WCAG_AA,
    )
    return found


def account_context(browser: Browser, url: str) -> BrowserContext:
    """A browser logged in as a fresh account, through the session cookie Django makes."""
    user = get_user_model().objects.create_user("axe-reader", password="not used here 1")
    client = Client()
    client.force_login(user)
    context = browser.new_context()
    cookie = client.cookies["sessionid"]
    context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": url}])
    return context


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("state", list(STATES))
def test_the_page_state_breaks_no_wcag_a_or_aa_rule(
    browser: Browser, live_server: LiveServer, state: str
) -> None:
    url = live_server.url
    contexts = {"guest": browser.new_context()}
    if state not in GUEST_ONLY:
        contexts["account"] = account_context(browser, url)
    if state == "live-table":
        owner = get_user_model().objects.create_user("host", password="not used here 1")
        open_table(
            user_id=owner.pk, bots=[], seats=[3], buy_in=500, now=timezone.now(),
            shoe=Shoe.stacked(PLAYING_SHOE),
        )  # fmt: skip
    found: dict[str, list[dict[str, Any]]] = {}
    scans = 0
    for who, context in contexts.items():
        page = context.new_page()
        STATES[state](page, url)
        for language in LANGUAGES:
            context.add_cookies([{"name": "django_language", "value": language, "url": url}])
            page.reload()
            expect(page.locator("html")).to_have_attribute("lang", language)
            for size, (width, height) in SIZES.items():
                page.set_viewport_size({"width": width, "height": height})
                scans += 1
                if broken := violations(page):
                    found[f"{who} {language} {size}"] = broken
        context.close()
    assert scans == 4 * len(contexts)
    assert found == {}, json.dumps(found, indent=1, ensure_ascii=False)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_summarys_mistakes_fit_a_320_pixel_screen(page: Page, live_server: LiveServer) -> None:
    practice_summary(page, live_server.url)  # standing on 16 against a 9: a mistake
    page.set_viewport_size({"width": 320, "height": 640})
    mistakes = page.locator(".mistakes")
    expect(mistakes.locator("tbody tr")).to_have_count(1)
    table = mistakes.bounding_box()
    assert table is not None and table["x"] >= 0 and table["x"] + table["width"] <= 320
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_accuracy_line_has_its_figures_as_a_table(page: Page, live_server: LiveServer) -> None:
    answer_a_drill(page, live_server.url)
    page.goto(f"{live_server.url}/progress/")
    page.get_by_text("The figures as a table").click()
    figures = page.get_by_test_id("accuracy-figures")
    expect(figures.locator("tbody tr")).to_have_count(1)
    # One answer, today: the day's row holds the page's totals.
    total_right = page.locator(".stats div").filter(has_text="Right").locator("dd").inner_text()
    expect(figures.locator("tbody td").nth(0)).to_have_text("1")
    expect(figures.locator("tbody td").nth(1)).to_have_text(total_right)


def contrast(first: str, second: str) -> float:
    """WCAG's contrast ratio of two CSS colours given as ``rgb(r, g, b)`` or ``#rrggbb``.

    >>> round(contrast("#ffffff", "rgb(0, 0, 0)"), 1)
    21.0
    """

    def luminance(colour: str) -> float:
        if colour.startswith("#"):
            channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        else:  # the first three numbers: rgb(), or a box-shadow's colour before its sizes
            channels = [float(part) / 255 for part in re.findall(r"[\d.]+", colour)[:3]]
        red, green, blue = (
            c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels
        )
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_focus_ring_field_edges_and_table_text_have_enough_contrast(
    page: Page, live_server: LiveServer
) -> None:
    """The ring's two bands: the dark one 3:1 on the page and on white, the light one 3:1 on
    the felt and the header; a field's edge 3:1 on white and on the page; the empty dealer's
    "Waiting for bets" 4.5:1 on the felt's lightest green at a phone's width."""
    page.set_viewport_size({"width": 390, "height": 844})
    sit_down(page, live_server.url, PLAYING_SHOE)
    colours = page.evaluate(
        """() => {
          const root = getComputedStyle(document.documentElement);
          const deal = document.querySelector("[data-next]");
          deal.focus();
          const ring = getComputedStyle(deal);
          const waiting = getComputedStyle(document.querySelector(".felt__empty"));
          return {
            dark: ring.outlineColor, light: ring.boxShadow,
            paper: root.getPropertyValue("--paper").trim(),
            felt: root.getPropertyValue("--felt").trim(),
            feltDark: root.getPropertyValue("--felt-dark").trim(),
            waiting: waiting.color, waitingOpacity: waiting.opacity,
          };
        }"""
    )
    for background in (colours["paper"], "#ffffff"):
        assert contrast(colours["dark"], background) >= 3, background
    for background in (colours["felt"], colours["feltDark"], "#17794a"):
        assert contrast(colours["light"], background) >= 3, background
    assert colours["waitingOpacity"] == "1"
    assert contrast(colours["waiting"], "#17794a") >= 4.5  # the felt's lightest green

    page.goto(f"{live_server.url}/accounts/login/")
    edge = page.get_by_label("Username").evaluate("field => getComputedStyle(field).borderColor")
    for background in (colours["paper"], "#ffffff"):
        assert contrast(edge, background) >= 3, background
