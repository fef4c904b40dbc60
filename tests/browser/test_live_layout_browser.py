"""A live table with all seven seats taken: what the viewer's decision needs — the dealer,
their own hands, their action buttons — fits on one screen, the other seats compact."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from engine.shoe import Shoe
from engine.table import BotSeat
from tests.browser.conftest import Screen
from tests.browser.test_live_autoplay_browser import PASSWORD, Clock, log_in
from tests.browser.test_table_layout_browser import assert_on_screen
from trainer.live.services import open_table

# Ann holds seats 3 and 4, easy bots the five others. Deal order: seats 1–7, the up card,
# seats 1–7, the hole card. The bots hold 20s and stand; Ann's seat 3 holds 8♠ 8♥ against
# the 6♣ and splits: the first hand draws 3♣ (11) and awaits her play, while her seat 4
# (9♣ 9♦) waits its turn with a play to choose.
FULL_TABLE_SHOE = "10s 10h 8s 9c Ks Kh Kd 6c Qs Qh 8h 9d Js Jh Jd 10c 3c " + "2c 3d 4h 5s " * 20


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_decision_at_a_full_live_table_fits_on_one_screen(
    screen: Screen, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timezone, "now", Clock())  # standing still: no deadline passes
    ann = get_user_model().objects.create_user("ann", password=PASSWORD)
    bots = [BotSeat(seat, "easy") for seat in (1, 2, 5, 6, 7)]
    row = open_table(
        user_id=ann.pk, bots=bots, seats=[3, 4], buy_in=500, now=timezone.now(),
        shoe=Shoe.stacked(FULL_TABLE_SHOE),
    )  # fmt: skip
    page = screen.page
    page.emulate_media(reduced_motion="reduce")  # the whole story at once
    log_in(page, live_server, "ann")
    page.goto(f"{live_server.url}/tables/{row.pk}/")
    for seat in (3, 4):
        page.get_by_role("group", name=f"Your bet on seat {seat}").get_by_role(
            "button", name="10", exact=True
        ).click()
    decision = page.get_by_test_id("decision")
    decision.get_by_role("button", name="Split").click()
    expect(page.get_by_test_id("seat-3").locator(".seat__hand")).to_have_count(2)
    expect(decision.get_by_role("button", name="Hit")).to_be_visible()
    expect(page.get_by_test_id("preselect-4")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    screen.shot("live-full-decision")

    assert_on_screen(page, page.get_by_test_id("dealer-cards"), "the dealer's cards")
    for seat in (3, 4):
        for hand in page.get_by_test_id(f"seat-{seat}").locator(".seat__hand").all():
            assert_on_screen(page, hand, f"your hand on seat {seat}")
    buttons = decision.get_by_role("button").all()
    assert buttons
    for button in buttons:
        assert_on_screen(page, button, "an action button")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
