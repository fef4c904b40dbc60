"""The running-count drill (/counting/) as a player meets it: a deck laid out and counted,
a deck dealt three cards at a time at the fastest pace with checkpoints and answered by
keyboard alone, both in Arabic, every state scanned by axe-core, and the drill without
JavaScript.

The true count is worked out here from the cards the page shows (their names for screen
readers) or the run's cards as stored, with Hi-Lo's tags written out below: the test does
not ask the engine what it is checking.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import SIZES, Screen, fits_the_width
from tests.browser.test_accessibility_browser import violations
from trainer.models import CountingRun
from trainer.shared.bidi import ltr

#: Hi-Lo's tag of each rank, by the rank's name in English and as the run stores it.
HI_LO = {
    **dict.fromkeys(("Two", "Three", "Four", "Five", "Six", "2", "3", "4", "5", "6"), 1),
    **dict.fromkeys(("Seven", "Eight", "Nine", "7", "8", "9"), 0),
    **dict.fromkeys(("Ten", "Jack", "Queen", "King", "Ace", "10", "J", "Q", "K", "A"), -1),
}
DECK_CARDS = ".counting__deck .card[aria-label]"
#: The cards after which the page asks for the count, in its order.
CHECKPOINTS = "items => items.map(item => Number(item.dataset.checkpoint))"
RUN_URL = re.compile(r"/counting/(\d+)/$")
#: The answer's field, the same in every language.
ANSWER = "input[name=answer]"


def running_counts(ranks: list[str]) -> list[int]:
    """The Hi-Lo running count after each card, from a deck's start (0).

    >>> running_counts(["Two", "Ace", "Seven", "K", "5"])
    [1, 0, 0, -1, 0]
    """
    count, found = 0, []
    for rank in ranks:
        count += HI_LO[rank]
        found.append(count)
    return found


def shown_counts(page: Page) -> list[int]:
    """The running count after each card of the deck on the page, from the cards' names
    ("Seven of spades"), in the page's order."""
    names = page.locator(DECK_CARDS).evaluate_all("cards => cards.map(c => c.ariaLabel)")
    return running_counts([name.split()[0] for name in names])


def stored_counts(page: Page) -> list[int]:
    """The running count after each card of the run the page shows, from its stored cards
    (for a page whose card names are not in English)."""
    found = RUN_URL.search(page.url)
    assert found is not None, page.url
    cards = CountingRun.objects.get(pk=int(found[1])).cards.split()
    return running_counts([card[:-1] for card in cards])


def said(count: int) -> str:
    """A count as the result says it: signed with a true minus sign, 0 bare, isolated
    left to right (so that its sign stays on its left in Arabic)."""
    return ltr("0" if count == 0 else f"{count:+d}".replace("-", "−"))


def deal(page: Page, url: str, *, group: int, pace: int = 20, every: int = 0) -> None:
    """Deal a deck from the start page, shown ``group`` cards at a time (0: laid out) at
    ``pace`` tenths of a card a second, asking for the count every ``every`` cards. The
    fields are found by name: their labels change with the language."""
    page.goto(f"{url}/counting/")
    page.locator("select[name=group]").select_option(str(group))
    page.locator("select[name=pace]").select_option(str(pace))
    page.locator("select[name=checkpoint_every]").select_option(str(every))
    page.locator("form.counting-start button[type=submit]").click()
    expect(page).to_have_url(RUN_URL)
    page.wait_for_load_state()  # the dealing script is deferred


def no_overflow(page: Page) -> None:
    """Nothing scrolls sideways, and every card of the deck lies inside the window."""
    assert fits_the_width(page)
    width = page.viewport_size["width"] if page.viewport_size else 0
    edges = page.locator(DECK_CARDS).evaluate_all(
        "cards => cards.map(c => c.getBoundingClientRect())"
        ".map(r => [Math.floor(r.left), Math.ceil(r.right)])"
    )
    assert all(left >= 0 and right <= width for left, right in edges), edges


def small_targets(page: Page, where: str) -> list[str]:
    """The fields and buttons shown in ``where`` that are under 24 px either way (WCAG 2.5.8)."""
    found: list[str] = page.locator(where).evaluate_all(
        """items => items.flatMap(item => [...item.querySelectorAll("select, input, button")])
             .filter(target => target.offsetParent !== null)
             .map(target => [target.name || target.textContent, target.getBoundingClientRect()])
             .filter(([_, box]) => box.width < 24 || box.height < 24)
             .map(([name, box]) => `${name}: ${box.width}x${box.height}`)"""
    )
    return found


#: The cards whose centre pip, as drawn, covers part of the rank in their corner.
COVERED = """cards => cards.filter(card => {
  const glyphs = (text) => {
    const range = document.createRange();
    range.selectNodeContents(text);
    return range.getBoundingClientRect();
  };
  const pip = card.querySelector(".card__pip");
  if (!pip || pip.getClientRects().length === 0) return false;
  const a = glyphs(card.querySelector(".card__corner").firstChild), b = glyphs(pip);
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}).map(card => card.ariaLabel)"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_guest_counts_a_laid_out_deck_exactly(live_server: LiveServer, screen: Screen) -> None:
    page = screen.page
    deal(page, live_server.url, group=0)

    deck = page.locator("[data-counting-deck]")
    expect(deck).to_be_visible()
    expect(page.locator("[data-counting-stage]")).to_be_hidden()
    expect(page.locator("[data-checkpoint]")).to_have_count(0)
    counts = shown_counts(page)
    assert 44 <= len(counts) <= 51  # a deck less one to eight cards held back
    expect(page.get_by_text(f"Hi-Lo, {len(counts)} cards")).to_be_visible()
    no_overflow(page)
    assert page.locator(DECK_CARDS).evaluate_all(COVERED) == []
    screen.shot("counting-deck")

    page.get_by_label("The running count at the end").fill(str(counts[-1]))
    page.get_by_role("button", name="Check my count").click()

    result = page.get_by_test_id("counting-result")
    expect(result.get_by_role("heading", level=2)).to_have_text("Exact!")
    expect(page.get_by_test_id("counting-verdict")).to_contain_text(
        f"The running count was {said(counts[-1])}, as you said."
    )
    expect(page.get_by_test_id("counting-time")).to_contain_text(
        re.compile(r"Time: [\d.]+ s \([\d.]+ s a card\)")
    )
    expect(page.get_by_test_id("first-wrong")).to_have_count(0)
    expect(page.get_by_test_id("exact-decks")).to_have_text("1 of 1")
    expect(page.get_by_role("button", name="Count another deck")).to_be_focused()
    assert fits_the_width(page)
    screen.shot("counting-result")

    # Another deck, dealt as this one was: laid out, and not the same run.
    first = page.url
    page.get_by_role("button", name="Count another deck").click()
    expect(page).not_to_have_url(first)
    expect(page).to_have_url(RUN_URL)
    expect(page.locator("[data-counting-deck]")).to_be_visible()
    expect(page.locator("[data-counting-stage]")).to_be_hidden()


#: Records, on `window.staged`, every number of cards the stage has shown.
WATCH_STAGE = """() => {
  window.staged = [];
  const stage = document.querySelector("[data-counting-stage]");
  new MutationObserver(() => window.staged.push(stage.querySelectorAll(".card").length))
    .observe(stage, {childList: true, subtree: true});
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_deck_dealt_three_at_a_time_is_counted_by_keyboard_and_the_slip_found(
    live_server: LiveServer, screen: Screen
) -> None:
    page = screen.page
    page.goto(f"{live_server.url}/counting/")
    assert small_targets(page, "form.counting-start") == []
    assert fits_the_width(page)
    screen.shot("counting-start")
    # By keyboard alone: into the form, a choice per field, Tab on, Enter to deal.
    page.get_by_label("Counting system").focus()
    page.keyboard.press("Tab")
    expect(page.get_by_label("Cards shown")).to_be_focused()
    page.keyboard.press("3")  # "3 at a time"
    page.keyboard.press("Tab")
    expect(page.get_by_label("Cards a second")).to_be_focused()
    page.keyboard.press("End")  # the fastest
    page.keyboard.press("Tab")
    expect(page.get_by_label("Ask for the count on the way")).to_be_focused()
    page.keyboard.press("ArrowDown")  # every 10 cards
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Deal a deck")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(RUN_URL)
    page.wait_for_load_state("domcontentloaded")
    run = CountingRun.objects.get()
    assert (run.group, run.pace_tenths, run.checkpoint_every) == (3, 40, 10)
    page.evaluate(WATCH_STAGE)  # before the first cards, dealt 1.5 s after the page

    counts = shown_counts(page)  # the deck is in the page, hidden
    names = page.locator(DECK_CARDS).evaluate_all("cards => cards.map(c => c.ariaLabel)")
    deck = page.locator("[data-counting-deck]")
    stage = page.locator("[data-counting-stage]")
    expect(stage).to_be_visible()
    expect(deck).to_be_hidden()
    expect(page.get_by_label("The running count at the end")).to_be_hidden()
    expect(stage.locator(".card")).to_have_count(3)
    assert fits_the_width(page)
    # The three cards side by side on the stage, inside the window, at least 80 px wide.
    boxes = stage.locator(".card").evaluate_all(
        "cards => cards.map(c => c.getBoundingClientRect().toJSON())"
    )
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert len({round(box["top"]) for box in boxes}) == 1, boxes
    assert all(box["left"] >= 0 and box["right"] <= width for box in boxes), boxes
    assert all(box["width"] >= 80 for box in boxes), boxes
    assert stage.locator(".card").evaluate_all(COVERED) == []
    screen.shot("counting-stage")

    asked = list(range(10, len(counts), 10))  # none after the last card: the end asks
    assert page.locator("[data-checkpoint]").evaluate_all(CHECKPOINTS) == asked
    for card in asked:
        field = page.get_by_label(f"The running count after card {card}")
        expect(field).to_be_focused(timeout=15_000)
        expect(deck).to_be_hidden()
        expect(stage.locator(".card")).to_have_count(0)
        expect(page.get_by_role("button", name="Go on")).to_be_visible()
        if card == 20:
            assert small_targets(page, "[data-counting-ask]") == []
            assert fits_the_width(page)
            screen.shot("counting-checkpoint")
        # The count after card 20 given one too high: the slip is among cards 11 to 20.
        page.keyboard.type(str(counts[card - 1] + (1 if card == 20 else 0)))
        page.keyboard.press("Enter")  # deals on; does not post
        expect(field).to_be_hidden()
    expect(page).to_have_url(RUN_URL)

    end = page.get_by_label("The running count at the end")
    expect(end).to_be_focused(timeout=15_000)
    expect(stage).to_be_hidden()
    expect(deck).to_be_hidden()
    staged = page.evaluate("window.staged")
    shown = [n for n in staged if n]
    assert shown and max(shown) == 3, staged
    screen.shot("counting-answer")
    page.keyboard.type(str(counts[-1] - 2))
    page.keyboard.press("Enter")

    result = page.get_by_test_id("counting-result")
    expect(result.get_by_role("heading", level=2)).to_have_text("Not quite.")
    expect(page.get_by_test_id("counting-verdict")).to_contain_text(
        f"The running count was {said(counts[-1])}; you said {said(counts[-1] - 2)}, "
        f"{ltr('2')} too low."
    )
    checkpoints = result.locator(".counting-result__checkpoints li")
    expect(checkpoints).to_have_text([
        f"After card {card}: {said(counts[card - 1])}, right." if card != 20 else
        f"After card 20: {said(counts[19] + 1)}, where it was {said(counts[19])}."
        for card in asked
    ])  # fmt: skip
    expect(page.get_by_test_id("first-wrong")).to_have_text(
        "Your count first went wrong between card 11 and card 20"
    )
    # The stretch: cards 11 to 20, as dealt, each with the count after it.
    rows = result.locator(".counting-result__stretch tbody tr")
    expect(rows).to_have_count(10)
    stretch = rows.locator(".card").evaluate_all("cards => cards.map(c => c.ariaLabel)")
    assert stretch == names[10:20]
    assert rows.locator(".card").evaluate_all(COVERED) == []  # each rank readable
    after = rows.locator("td:last-child").all_inner_texts()
    assert after == [said(count) for count in counts[10:20]]
    assert fits_the_width(page)
    screen.shot("counting-stretch")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_drill_reads_right_to_left_in_arabic(live_server: LiveServer, screen: Screen) -> None:
    page = screen.page
    url = live_server.url
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": url}])
    page.goto(f"{url}/counting/")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    assert fits_the_width(page)
    screen.shot("counting-start-ar")

    deal(page, url, group=0)
    expect(page.locator("html[dir=rtl]")).to_have_count(1)
    cards = page.locator(DECK_CARDS)
    first, second = cards.nth(0).bounding_box(), cards.nth(1).bounding_box()
    assert first is not None and second is not None
    assert first["x"] > second["x"]  # the deck reads from the right
    no_overflow(page)
    screen.shot("counting-deck-ar")

    counts = stored_counts(page)
    page.locator(ANSWER).fill(str(counts[-1]))
    page.locator(".counting__answer button[type=submit]").click()
    result = page.get_by_test_id("counting-result")
    with translation.override("ar"):
        expect(result.get_by_role("heading", level=2)).to_have_text(translation.gettext("Exact!"))
    expect(page.locator("html[dir=rtl]")).to_have_count(1)
    assert fits_the_width(page)
    screen.shot("counting-result-ar")


def scanned(page: Page, state: str, found: dict[str, Any], language: str) -> None:
    """Scan the page as it stands at each size; keep what axe finds under the state's name."""
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        if broken := violations(page):
            found[f"{state} {language} {size}"] = broken


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ar"])
def test_every_state_of_the_drill_breaks_no_wcag_a_or_aa_rule(
    page: Page, live_server: LiveServer, language: str
) -> None:
    """The dealing states are scanned as the deal goes on: a deck dealt at the slowest
    pace holds its first cards six seconds, a scan's time; the checkpoints and the answer
    wait for the player."""
    url = live_server.url
    page.context.add_cookies([{"name": "django_language", "value": language, "url": url}])
    found: dict[str, Any] = {}

    page.goto(f"{url}/counting/")
    scanned(page, "start", found, language)

    deal(page, url, group=0)
    scanned(page, "laid-out", found, language)
    page.locator(ANSWER).fill("0")
    page.locator(".counting__answer button[type=submit]").click()
    expect(page.get_by_test_id("counting-result")).to_be_visible()
    scanned(page, "result", found, language)

    deal(page, url, group=3, pace=5)
    stage = page.locator("[data-counting-stage]")
    expect(stage).to_be_visible()
    scanned(page, "ready", found, language)
    expect(stage.locator(".card")).to_have_count(3)
    scanned(page, "dealing", found, language)

    deal(page, url, group=3, pace=40, every=10)
    ask = page.locator("[data-counting-ask] input[name=checkpoint_10]")
    expect(ask).to_be_focused()
    scanned(page, "checkpoint", found, language)
    for card in page.locator("[data-checkpoint]").evaluate_all(CHECKPOINTS):
        field = page.locator(f"[data-counting-ask] input[name=checkpoint_{card}]")
        expect(field).to_be_focused(timeout=15_000)
        field.press("Enter")
    expect(page.locator(ANSWER)).to_be_focused(timeout=15_000)
    scanned(page, "answer", found, language)

    assert found == {}, json.dumps(found, indent=1, ensure_ascii=False)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_without_javascript_a_dealt_deck_is_laid_out_with_its_checkpoints(
    browser: Browser, live_server: LiveServer
) -> None:
    width, height = SIZES["phone"]
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": width, "height": height}
    )
    page = context.new_page()
    deal(page, live_server.url, group=3, pace=40, every=10)

    expect(page.locator("[data-counting-deck]")).to_be_visible()
    expect(page.locator("[data-counting-stage]")).to_be_hidden()
    expect(page.locator(DECK_CARDS).first).to_be_visible()
    expect(page.get_by_role("button", name="Go on")).to_have_count(0)  # all hidden
    counts = shown_counts(page)
    asked = list(range(10, len(counts), 10))
    fields = page.locator("[data-counting-deck] [data-checkpoint] input")
    expect(fields).to_have_count(len(asked))
    # Each checkpoint's field follows its card: the tenth card, the twentieth, ...
    after = page.locator("[data-checkpoint]").evaluate_all(
        """items => items.map(item => {
             let cards = 0;
             for (let li = item.previousElementSibling; li; li = li.previousElementSibling) {
               cards += li.querySelectorAll(".card").length;
             }
             return cards;
           })"""
    )
    assert after == asked
    no_overflow(page)
    screen = Screen("phone", page)
    screen.shot("counting-no-script")

    for card in asked:
        page.get_by_label(f"The running count after card {card}").fill(str(counts[card - 1]))
    # A count that is no count: said so, and the counts typed are kept.
    page.get_by_label("The running count at the end").fill("lots")
    page.get_by_role("button", name="Check my count").click()
    expect(page.locator("#answer-error")).to_contain_text("Type a count")
    expect(page.get_by_label("The running count after card 10")).to_have_value(str(counts[9]))
    assert CountingRun.objects.get().answered_at is None

    page.get_by_label("The running count at the end").fill(str(counts[-1]))
    page.get_by_role("button", name="Check my count").click()
    result = page.get_by_test_id("counting-result")
    expect(result.get_by_role("heading", level=2)).to_have_text("Exact!")
    expect(result.locator(".counting-result__checkpoints li")).to_have_text(
        [f"After card {card}: {said(counts[card - 1])}, right." for card in asked]
    )
    context.close()
