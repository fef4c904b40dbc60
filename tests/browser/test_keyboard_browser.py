"""A drill and a practice round played with the keyboard alone: after each swap the focus is
where the next move is, and each result is said once by the page's live region."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import SCREENSHOTS, settled, sit_down

# You 10s 6h against the dealer's 9d (the hole card 7c); a hit brings the 4h, 20; the
# dealer's 16 draws the 10c and busts: +10.
SHOE = "10s 9d 6h 7c 4h 10c " + "2c 3d 4h 5s " * 10
# Records each text the live region is given (one entry a response), as a screen reader
# hears it: an entry per change of the region's content.
LISTEN = """() => {
  const region = document.getElementById("announcement");
  window.said = [];
  new MutationObserver(() => {
    const text = region.textContent.replace(/\\s+/g, " ").trim();
    if (text) window.said.push(text);
  }).observe(region, {childList: true, subtree: true, characterData: true});
}"""


def said(page: Page) -> list[str]:
    """What the live region was given since `LISTEN`, in order."""
    return list(page.evaluate("window.said"))


def text_of(locator: Locator) -> str:
    return re.sub(r"\s+", " ", locator.inner_text()).strip()


def tab_to(page: Page, target: Locator, *, most: int = 40) -> int:
    """Press Tab until the target has the focus; how many presses it took."""
    for presses in range(1, most + 1):
        page.keyboard.press("Tab")
        if target.evaluate("element => element === document.activeElement"):
            return presses
    raise AssertionError(f"{most} presses of Tab never reached {target}")


def letter_keys_off(page: Page, url: str) -> None:
    """Turn single-letter keys off in the drill's settings, by keyboard."""
    page.goto(f"{url}/drill/")
    tab_to(page, page.locator(".drill-settings > summary"))
    page.keyboard.press("Enter")
    tab_to(page, page.get_by_label("Play with single-letter keys (H, S, D, P, R, B)"))
    page.keyboard.press("Space")
    expect(page.get_by_label("Play with single-letter keys (H, S, D, P, R, B)")).not_to_be_checked()
    tab_to(page, page.get_by_role("button", name="Save and deal"))
    # Until the saved settings' page has loaded, a key would reach the old page, whose
    # letter keys are still on (wait_for_load_state alone returns before it starts).
    with page.expect_navigation():
        page.keyboard.press("Enter")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_drill_by_keyboard_keeps_focus_on_the_next_move_and_says_each_result_once(
    page: Page, live_server: LiveServer
) -> None:
    page.goto(f"{live_server.url}/drill/")
    page.wait_for_load_state()  # the keyboard script is deferred
    page.evaluate(LISTEN)
    next_hand = page.get_by_role("button", name="Next hand")
    plays = page.locator("#answer .action-button")

    page.keyboard.press("s")  # a letter answers
    verdict = page.locator(".feedback__verdict")
    expect(next_hand).to_be_focused()
    assert said(page) == [text_of(verdict)]

    page.keyboard.press("Enter")  # on "Next hand": the next hand, its first play focused
    expect(plays.first).to_be_focused()
    dealt = said(page)[1]
    cards = page.locator("#drill .card[aria-label]:not(.card--back)")
    up, *yours = (card.get_attribute("aria-label") for card in cards.all())
    assert dealt == f"Dealer: {up}. Your hand: {', '.join(map(str, yours))}."
    page.keyboard.press("Tab")  # the next Tab reaches the next play
    expect(plays.nth(1)).to_be_focused()

    page.keyboard.press("Space")  # on the second play: answers it
    expect(next_hand).to_be_focused()
    settled(page)
    page.keyboard.press("Space")  # Space on "Next hand" deals too
    expect(plays.first).to_be_focused()
    verdicts = [line for line in said(page) if line.startswith(("Right", "Not quite"))]
    assert len(said(page)) == 4 and len(verdicts) == 2


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_with_letter_keys_off_a_letter_plays_nothing_and_tab_and_enter_still_do(
    page: Page, live_server: LiveServer
) -> None:
    letter_keys_off(page, live_server.url)
    page.keyboard.press("h")
    page.keyboard.press("s")
    expect(page.get_by_text("What is your play?")).to_be_visible()
    expect(page.locator(".feedback__verdict")).to_have_count(0)
    expect(page.locator("#answer kbd").first).to_be_hidden()  # no letters offered

    tab_to(page, page.locator("#answer .action-button").first)
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Next hand")).to_be_focused()

    # The setting holds at the practice table too.
    sit_down(page, live_server.url, SHOE)
    page.keyboard.press("Enter")  # Enter and Space stay on: Deal
    status = page.locator("#table-status")
    expect(status).to_be_focused()
    page.keyboard.press("h")
    expect(page.get_by_test_id("seat-1").locator(".card")).to_have_count(2)
    tab_to(page, page.get_by_role("button", name="Hit"))
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("seat-1").locator(".card")).to_have_count(3)
    expect(status).to_be_focused()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_practice_round_by_keyboard_keeps_focus_on_the_table_and_says_the_result_once(
    page: Page, live_server: LiveServer
) -> None:
    sit_down(page, live_server.url, SHOE)
    page.evaluate(LISTEN)
    status = page.locator("#table-status")

    page.keyboard.press("Enter")  # Deal
    expect(status).to_be_focused()
    expect(status).to_contain_text("Your play?")
    # What the deal brought is said; the prompt is what the focus says.
    assert "Dealer: Nine of diamonds." in said(page)[0]
    assert "Your hand: Ten of spades, Six of hearts." in said(page)[0]
    assert "Your play?" not in said(page)[0]
    page.keyboard.press("Tab")  # from the status, the next Tab reaches the first play
    expect(page.get_by_role("button", name="Hit")).to_be_focused()

    page.keyboard.press("h")
    expect(page.get_by_test_id("seat-1").locator(".card")).to_have_count(3)
    expect(status).to_be_focused()
    page.keyboard.press("s")
    expect(page.get_by_test_id("round-result")).to_contain_text("+10")
    expect(status).to_be_focused()
    expect(status).to_contain_text("Your bet")
    results = [line for line in said(page) if "Round over" in line]
    assert len(said(page)) == 3
    assert len(results) == 1 and "+10" in results[0]

    # Ticking Hints keeps the focus on the box; the hint of the next hand is said by focus.
    hints = page.get_by_label("Hints")
    tab_to(page, hints)
    page.keyboard.press("Space")
    expect(hints).to_be_checked()
    expect(hints).to_be_focused()

    # A chip: the bet is said, and Enter deals it.
    chip = page.get_by_role("button", name="Add a chip of 50", exact=True)
    tab_to(page, chip)
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("next-bet")).to_have_text("60")
    assert said(page)[-1] == "Your bet: 60"
    expect(page.get_by_role("button", name="Deal")).to_be_focused()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_screenshots_of_the_focus_ring_on_light_and_dark_areas(
    page: Page, live_server: LiveServer
) -> None:
    """Kept in tests/screenshots/focus-*.png to be looked at: the ring on the page, on a
    white button, on the dark header and on the felt."""
    SCREENSHOTS.mkdir(exist_ok=True)
    sit_down(page, live_server.url, SHOE)
    places = {
        "header": page.get_by_role("navigation", name="Main").get_by_role("link", name="Drill"),
        "chip": page.get_by_role("button", name="Add a chip of 10", exact=True),
        "deal": page.get_by_role("button", name="Deal"),
        "checkbox": page.get_by_label("Hints"),
    }
    for name, target in places.items():
        tab_to(page, target, most=60)
        box = target.bounding_box()
        assert box is not None
        page.screenshot(
            path=SCREENSHOTS / f"focus-{name}.png",
            clip={
                "x": max(0, box["x"] - 24),
                "y": max(0, box["y"] - 24),
                "width": box["width"] + 48,
                "height": box["height"] + 48,
            },
        )
    tab_to(page, places["deal"])
    page.keyboard.press("Enter")  # the focus goes to the table's status
    expect(page.locator("#table-status")).to_be_focused()
    page.locator(".practice__controls").screenshot(path=SCREENSHOTS / "focus-status.png")


# Three rounds: each time you stand on 19 against the dealer's 20; the cards differ from
# round to round so that each deal's words are its own.
THREE_ROUNDS = "10s 10d 9h 10c Ks Kd 9c Kc Qs Qd 9d Qc " + "2c 3d 4h 5s " * 5


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_deal_of_a_session_is_said_by_the_live_region(
    page: Page, live_server: LiveServer
) -> None:
    sit_down(page, live_server.url, THREE_ROUNDS)
    page.evaluate(LISTEN)
    region = page.locator("#announcement")
    for number, ten in enumerate(("Ten", "King", "Queen"), start=1):
        page.get_by_role("button", name="Deal").click()
        expect(page.get_by_role("button", name="Stand")).to_be_visible()
        expect(region).to_contain_text("Dealer:")
        heard = text_of(region)
        assert f"Dealer: {ten} of diamonds." in heard, (number, heard)
        assert f"Your hand: {ten} of spades, Nine of" in heard, (number, heard)
        page.get_by_role("button", name="Stand").click()
        expect(page.get_by_test_id("round-result")).to_be_attached()
        expect(region).to_contain_text("Round over")
    deals = [line for line in said(page) if "The cards are dealt" in line]
    assert len(deals) == 3


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_insurance_question_is_said_with_your_cards(
    page: Page, live_server: LiveServer
) -> None:
    sit_down(page, live_server.url, "10s As 9h 7c 2d", rules="deluxe")
    page.evaluate(LISTEN)
    page.get_by_role("button", name="Deal").click()
    expect(page.get_by_role("button", name="Insure")).to_be_visible()
    heard = text_of(page.locator("#announcement"))
    assert "Dealer: Ace of spades." in heard
    assert "Your hand: Ten of spades, Nine of hearts." in heard
    assert "Insurance?" in heard
    expect(page.locator("#table-status")).to_contain_text("Insurance?")
