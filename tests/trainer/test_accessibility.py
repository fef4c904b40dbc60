"""What a screen reader and a keyboard rely on in the pages as served: one live region per
page, filled out of band by each htmx response; no live region inserted already filled;
the single-letter keys setting; English names marked on other languages' pages; a title
per account page."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from tests.trainer.drills.test_drill import URL as DRILL
from tests.trainer.drills.test_drill import issued, rig
from tests.trainer.practice.test_practice_views import send, start
from trainer.models import PracticeSession, Preferences

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
# You 10s 6h against the dealer's 9d (hole 7c); a hit brings the 4h, 20; the dealer's 16
# draws the 10c and busts.
SHOE = "10s 9d 6h 7c 4h 10c " + "2c 3d 4h 5s " * 5
SETTINGS = {"rules_name": "european", "custom_rules": "", "mode": "all"}


def live_regions(page: str) -> list[tuple[str, str]]:
    """The opening tag and content of every element given the live region's id."""
    return re.findall(r'(<[^>]*\bid="announcement"[^>]*>)(.*?)</div>', page, re.S)


def said(page: str) -> str:
    """The text an htmx response puts into the page's live region (its one out-of-band
    element), as a screen reader hears it."""
    [(tag, content)] = live_regions(page)
    assert 'hx-swap-oob="innerHTML"' in tag
    plain = html.unescape(re.sub(r"<[^>]+>", " ", content))
    return re.sub(r"\s+", " ", plain.replace("\u2066", "").replace("\u2069", "")).strip()


@pytest.mark.parametrize("path", ["/", DRILL, "/chart/", "/practice/", "/accounts/login/"])
def test_every_page_has_one_live_region_and_it_is_empty(client: Client, path: str) -> None:
    page = client.get(path).content.decode()
    [(tag, content)] = live_regions(page)
    assert 'role="status"' in tag and "hx-swap-oob" not in tag
    assert content == ""


def test_a_drill_answer_says_its_verdict_once_through_the_live_region(client: Client) -> None:
    drill = rig(issued(client), "10s 6h", "10d")
    response = client.post(DRILL, {"drill": drill.pk, "action": "stand"}, headers=HTMX)
    page = response.content.decode()
    assert said(page).startswith("Not quite: the play is Hit.")
    assert 'role="status"' not in page and "aria-live" not in page  # nothing inserted filled


def test_a_new_hand_says_the_cards_through_the_live_region(client: Client) -> None:
    drill = rig(issued(client), "10s 6h", "10d")
    client.post(DRILL, {"drill": drill.pk, "action": "hit"}, headers=HTMX)
    page = client.post(DRILL, {"deal": "1"}, headers=HTMX).content.decode()
    dealt = re.findall(r'role="img" aria-label="([^"]+)"', page)
    up, _back, *yours = dealt
    assert said(page) == f"Dealer: {up}. Your hand: {', '.join(yours)}."


def test_the_full_drill_page_carries_no_out_of_band_element(client: Client) -> None:
    drill = rig(issued(client), "10s 6h", "10d")
    client.post(DRILL, {"drill": drill.pk, "action": "hit"})
    page = client.get(DRILL).content.decode()
    assert "hx-swap-oob" not in page and len(live_regions(page)) == 1


def seen(page: str) -> int:
    """How much of the round's story the page has told (each form sends it back)."""
    found = re.search(r'name="seen" value="(\d+)"', page)
    assert found is not None
    return int(found.group(1))


def test_a_practice_round_says_what_each_response_adds_and_the_result_once(
    client: Client,
) -> None:
    session = start(client, SHOE)
    page = client.get(f"/practice/{session.pk}/").content.decode()
    dealt = send(client, session, "deal", seen=seen(page)).content.decode()
    assert "Dealer: Nine of diamonds." in said(dealt)
    assert "Your hand: Ten of spades, Six of hearts." in said(dealt)
    hit = send(client, session, "act", action="hit", seen=seen(dealt)).content.decode()
    assert "draws 4♥" in said(hit) and "Your hand: Ten of spades, Six of hearts, Four" in said(hit)
    assert "Round over" not in said(dealt) + said(hit)
    stood = send(client, session, "act", action="stand", seen=seen(hit)).content.decode()
    assert said(stood).count("Round over: +10 chips for you.") == 1
    assert "draws 4♥" not in said(stood)  # what an earlier response said is not said again
    for page in (dealt, hit, stood):
        assert 'role="status"' not in page and "aria-live" not in page
    chip = send(client, session, "chip", chip=50, seen=seen(stood)).content.decode()
    assert said(chip) == "Your bet: 60"


def test_the_coachs_verdict_is_said_through_the_live_region(client: Client) -> None:
    session = start(client, SHOE, coach=True)
    send(client, session, "deal")
    held = send(client, session, "act", action="stand").content.decode()
    assert said(held).startswith("Stand gives up")
    assert 'role="alert"' not in held


def test_letter_keys_off_is_kept_for_an_account_and_marked_on_the_drill_and_the_table(
    client: Client,
) -> None:
    user = get_user_model().objects.create_user("ann", password="not used here 1")
    client.force_login(user)
    client.post("/drill/settings/", SETTINGS)  # the box left unticked
    assert Preferences.objects.get(user=user).letter_keys is False
    assert 'data-keys data-letter-keys="off"' in client.get(DRILL).content.decode()
    session = start(client, SHOE)
    table = client.get(f"/practice/{session.pk}/").content.decode()
    assert 'data-keys data-letter-keys="off"' in table

    client.post("/drill/settings/", {**SETTINGS, "letter_keys": "on"})
    assert Preferences.objects.get(user=user).letter_keys is True
    assert "data-letter-keys" not in client.get(DRILL).content.decode()


def test_letter_keys_off_is_kept_in_a_guests_session(client: Client) -> None:
    assert "data-letter-keys" not in client.get(DRILL).content.decode()  # on by default
    client.post("/drill/settings/", SETTINGS)
    assert client.session["drill_preferences"]["letter_keys"] is False
    assert 'data-letter-keys="off"' in client.get(DRILL).content.decode()


def test_english_names_are_marked_as_english_on_an_arabic_page(client: Client) -> None:
    client.cookies["django_language"] = "ar"
    chart = client.get("/chart/").content.decode()
    assert '<span lang="en" dir="ltr">Deluxe</span>' in chart  # kept in English
    with translation.override("ar"):
        european = gettext("European")
    assert european != "European" and f">{european}</a>" in chart  # translated, not marked


def test_the_log_in_sign_up_and_reset_pages_have_titles_of_their_own(client: Client) -> None:
    titles = {
        path: re.search(r"<title>(.*?)</title>", client.get(path).content.decode(), re.S)
        for path in ("/accounts/login/", "/accounts/signup/", "/accounts/password_reset/")
    }
    texts = [found.group(1).split(" — ")[0] for found in titles.values() if found]
    assert texts == ["Log in", "Create an account", "Reset your password"]


def test_the_chart_and_heat_map_scroll_regions_are_reachable_by_keyboard(client: Client) -> None:
    drill = rig(issued(client), "10s 6h", "10d")
    client.post(DRILL, {"drill": drill.pk, "action": "hit"})
    for path, heading in (("/chart/", "chart-heading"), ("/progress/", "heat-heading")):
        page = client.get(path).content.decode()
        region = re.search(r'<div class="chart-scroll"[^>]*>', page)
        assert region is not None, path
        assert 'tabindex="0"' in region.group(0)
        assert f'aria-labelledby="{heading}"' in region.group(0) and f'id="{heading}"' in page


def test_the_chart_rows_cell_for_the_hand_is_named_not_only_framed(client: Client) -> None:
    drill = rig(issued(client), "10s 6h", "10d")
    page = client.post(DRILL, {"drill": drill.pk, "action": "hit"}, headers=HTMX)
    cells = re.findall(
        r'<span class="chart-row__cell[^"]*">(.*?)</span>\s*(?=<span class="chart|</div>)',
        page.content.decode(),
        re.S,
    )
    marked = [cell for cell in cells if "(Your hand)" in cell]
    assert len(marked) == 1 and '<span class="chart-row__up">10</span>H' in marked[0]


# Three rounds, you alone: each time you stand on 19 against the dealer's 20 (European: the
# dealer stands). The cards differ from round to round, so each deal's words are its own.
THREE_ROUNDS = "10s 10d 9h 10c Ks Kd 9c Kc Qs Qd 9d Qc " + "2c 3d 4h 5s " * 5


def test_every_deal_is_said_not_only_the_first(client: Client) -> None:
    session = start(client, THREE_ROUNDS)
    page = client.get(f"/practice/{session.pk}/").content.decode()
    for ten in ("Ten", "King", "Queen"):
        dealt = send(client, session, "deal", seen=seen(page)).content.decode()
        assert f"Dealer: {ten} of diamonds." in said(dealt), ten
        assert f"Your hand: {ten} of spades, Nine of" in said(dealt), ten
        page = send(client, session, "act", action="stand", seen=seen(dealt)).content.decode()
        assert said(page).count("Round over: -10 chips for you.") == 1


def test_the_insurance_question_says_your_cards_and_that_it_asks_for_insurance(
    client: Client,
) -> None:
    # Deluxe: 10s 9h against the As (hole 7c); insurance is asked before any play.
    data = {"rules": "deluxe", "bankroll": "1000", "seat_1": "you", "shoe": "10s As 9h 7c 2d"}
    client.post("/practice/", data)
    session = PracticeSession.objects.get()
    dealt = send(client, session, "deal", seen=0).content.decode()
    assert "Dealer: Ace of spades." in said(dealt)
    assert "Your hand: Ten of spades, Nine of hearts." in said(dealt)
    assert "Insurance?" in said(dealt)
