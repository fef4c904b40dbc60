from __future__ import annotations

import random
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils.translation import trans_real
from pytest_django.asserts import assertContains, assertNotContains

from engine.drills import CLOSE_MARGIN, Situation, deal_situation
from engine.rules import DELUXE, EUROPEAN, preset
from trainer.models import Drill, Preferences

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("returning_guest")]
DRILL = "/drill/"
SETTINGS = "/drill/settings/"

#: How the drill page names a preset's rules: linked to its rules page.
RULES_LINK = '<a href="/rules/{name}/">{title}</a>'
#: And a custom set of European's: what it changed.
CUSTOM_LINE = 'European, changed</a> — <span class="rules-line__details">{details}</span>'


def choose(client: Client, rules: str = "european", mode: str = "all", auto: bool = False) -> None:
    data = {"rules_name": rules, "mode": mode}
    if auto:
        data["auto_advance"] = "on"
    response = client.post(SETTINGS, data)
    assert response.status_code == 302 and response["Location"] == reverse("trainer:drill")


def dealt(client: Client) -> Situation:
    client.get(DRILL)
    drill = Drill.objects.filter(answered_at=None).latest("pk")
    return Situation.parse(preset(drill.rules_name), drill.cards, drill.up)


@pytest.mark.parametrize("mode", ["hard", "soft", "pair"])
def test_a_mode_deals_only_its_kind_of_hand(client: Client, mode: str) -> None:
    choose(client, mode=mode)
    for _ in range(4):
        assert dealt(client).row.startswith(mode)
        Drill.objects.filter(answered_at=None).delete()


def test_close_calls_are_within_the_margin() -> None:
    rng = random.Random(5)
    for _ in range(10):
        situation = deal_situation(EUROPEAN, rng, mode="close")
        assert situation.margin() <= CLOSE_MARGIN


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown drill mode"):
        deal_situation(EUROPEAN, random.Random(1), mode="weird")


def test_the_rules_chosen_are_the_rules_dealt(client: Client) -> None:
    choose(client, rules="deluxe")
    assert dealt(client).rules is DELUXE
    assertContains(client.get(DRILL), RULES_LINK.format(name="deluxe", title="Deluxe"))


def test_changing_settings_drops_only_the_unanswered_hand(client: Client) -> None:
    client.get(DRILL)
    first = Drill.objects.get()
    client.post(DRILL, {"drill": first.pk, "action": "stand"})
    client.post(DRILL, {"deal": "1"})
    assert Drill.objects.filter(answered_at=None).count() == 1
    choose(client, mode="pair")
    # The hand dealt under the old settings is gone; the one dealt now follows the new.
    assert Drill.objects.filter(answered_at=None).count() == 1
    assert dealt(client).row.startswith("pair")
    assert Drill.objects.filter(pk=first.pk).exists()


def test_bad_settings_are_refused_and_change_nothing(client: Client) -> None:
    response = client.post(SETTINGS, {"rules_name": "vegas", "mode": "all"})
    assert response.status_code == 400
    assert "drill_preferences" not in client.session


def test_an_account_keeps_its_settings_and_a_guest_brings_theirs(client: Client) -> None:
    choose(client, rules="american", mode="soft", auto=True)
    password = "a-long-pass-phrase-7"
    client.post(
        reverse("signup"),
        {
            "username": "ann",
            "email": "ann@example.com",
            "password1": password,
            "password2": password,
        },
    )
    stored = Preferences.objects.get(user__username="ann")
    assert (stored.rules_name, stored.mode, stored.auto_advance) == ("american", "soft", True)
    other = Client()
    other.force_login(get_user_model().objects.create_user("bob", password=password))
    choose(other, mode="pair")
    assert Preferences.objects.get(user__username="ann").mode == "soft"


def test_auto_advance_deals_the_next_hand_by_itself(client: Client) -> None:
    choose(client, auto=True)
    dealt(client)
    drill = Drill.objects.filter(answered_at=None).latest("pk")
    response = client.post(
        DRILL, {"drill": drill.pk, "action": "hit"}, headers={"HX-Request": "true"}
    )
    assertContains(response, 'hx-trigger="submit, load delay:2s"')


def test_settings_need_a_post(client: Client) -> None:
    assert client.get(SETTINGS).status_code == 405


def test_a_player_drills_their_own_casinos_rules(client: Client) -> None:
    response = client.post(
        SETTINGS,
        {"rules_name": "european", "mode": "all", "custom_rules": "decks=1, blackjack_pays=6/5"},
    )
    assert response.status_code == 302
    client.get(DRILL)
    drill = Drill.objects.get(answered_at=None)
    assert (drill.rules_name, drill.rules["decks"], drill.rules["blackjack_pays"]) == (
        "european-custom",
        1,
        "6/5",
    )
    assertContains(
        client.get(DRILL),
        CUSTOM_LINE.format(details="1 deck, blackjack pays 6:5"),
    )
    answered = client.post(DRILL, {"drill": drill.pk, "action": "stand"})
    assert answered.status_code == 302


def test_early_surrender_is_accepted_where_the_dealer_does_not_peek(client: Client) -> None:
    response = client.post(
        SETTINGS, {"rules_name": "european", "mode": "all", "custom_rules": "surrender=early"}
    )
    assert response.status_code == 302
    client.get(DRILL)
    drill = Drill.objects.get(answered_at=None)
    assert (drill.rules_name, drill.rules["surrender"]) == ("european-custom", "early")


@pytest.mark.parametrize(
    ("custom", "message"),
    [
        ("decks=0", "decks must be a whole number from 1 to 8"),
        ("nonsense=1", "nonsense is not a rule you can change here"),
        ("decks", "FIELD=VALUE"),
        ("decks=100000", "decks must be a whole number from 1 to 8"),
        ("decks=1000000000", "decks must be a whole number from 1 to 8"),
        ("decks=" + "9" * 300, "decks must be a whole number from 1 to 8"),
        ("max_hands=1000", "max_hands must be a whole number from 1 to 4"),
        ("blackjack_pays=1e400", "blackjack_pays must be a fraction from 1 to 2"),
        ("original_bets_only=maybe", "original_bets_only must be true or false"),
        ("double_on=any", "double_on must be one of: any_two, 9-11, 10-11"),
        ("decks=2, decks=3", "decks is given more than once"),
        ("decks=2; Decks=2", "Decks is not a rule you can change here"),
        ("max_seats=7", "max_seats is not a rule you can change here"),
        ("name=mine", "name is not a rule you can change here"),
        ("perfect_pair_pays=30", "perfect_pair_pays is not a rule you can change here"),
        ("resplit_aces=true, max_hands=2", "resplit_aces needs max_hands of 3 or more"),
        ("surrender=sometimes", "surrender must be one of: none, early, late"),
        (
            "surrender=early, dealer_peeks=yes",
            "early surrender only applies when the dealer does not peek (dealer_peeks=false)",
        ),
    ],
)
def test_bad_custom_rules_are_shown_and_change_nothing(
    client: Client, custom: str, message: str
) -> None:
    response = client.post(
        SETTINGS, {"rules_name": "european", "mode": "all", "custom_rules": custom}
    )
    assertContains(response, message, status_code=400)
    assertContains(response, '<details class="drill-settings" open>', status_code=400)
    assert "drill_preferences" not in client.session


def test_the_form_lists_the_rules_a_player_may_change_with_their_ranges(client: Client) -> None:
    page = client.get(DRILL).content.decode()
    listing = page[page.index('<dl class="rule-fields"') :]
    listing = listing[: listing.index("</dl>")]
    for field, range_ in [
        ("decks", "a whole number from 1 to 8"),
        ("blackjack_pays", "a fraction from 1 to 2"),
        ("max_hands", "a whole number from 1 to 4"),
        ("double_on", "one of: any_two, 9-11, 10-11"),
        ("original_bets_only", "true or false"),
        ("surrender", "one of: none, early, late"),
    ]:
        line = rf'<dt><code dir="ltr">{field}</code></dt>\s*<dd>[^<]*{range_}'
        assert re.search(line, listing), field
    for hidden in ("name", "version", "max_seats", "seats_per_account", "perfect_pair_pays"):
        assert f">{hidden}</code>" not in listing


@pytest.fixture
def polish_range_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """Polish for the range message's two parts, as the catalogue will have them: the
    message shows in Polish only if it is built from those msgids through gettext."""
    catalogue = trans_real.translation("pl")._catalog._catalogs[0]  # type: ignore[attr-defined]
    monkeypatch.setitem(catalogue, "%(field)s must be %(range)s", "%(field)s musi być %(range)s")
    monkeypatch.setitem(
        catalogue,
        "a whole number from %(low)s to %(high)s",
        "liczbą całkowitą od %(low)s do %(high)s",
    )


def test_an_error_is_given_in_the_players_language(
    client: Client, polish_range_message: None
) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "pl"
    response = client.post(
        SETTINGS, {"rules_name": "european", "mode": "all", "custom_rules": "decks=100000"}
    )
    assertContains(response, "decks musi być liczbą całkowitą od 1 do 8", status_code=400)


def test_rules_may_be_written_in_any_form_of_their_type(client: Client) -> None:
    response = client.post(
        SETTINGS,
        {"rules_name": "european", "mode": "all",
         "custom_rules": "blackjack_pays=1.5e0; dealer_hits_soft_17=YES"},
    )  # fmt: skip
    assert response.status_code == 302
    client.get(DRILL)  # dealt once the rules are worked out (at once in tests)
    drill = Drill.objects.get(answered_at=None)
    assert (drill.rules["blackjack_pays"], drill.rules["dealer_hits_soft_17"]) == ("3/2", True)


def test_save_and_deal_deals_a_new_hand_under_the_new_rules(client: Client) -> None:
    client.get(DRILL)
    first = Drill.objects.get()
    client.post(DRILL, {"drill": first.pk, "action": "stand"})
    response = client.post(
        SETTINGS, {"rules_name": "european", "mode": "all", "custom_rules": "decks=2"}
    )
    assert response.status_code == 302
    page = client.get(DRILL)
    new = Drill.objects.get(answered_at=None)
    assert new.pk != first.pk and new.rules["decks"] == 2
    assertContains(page, CUSTOM_LINE.format(details="2 decks"))
    assertContains(page, f'name="drill" value="{new.pk}"')  # its play is asked for
    assertNotContains(page, "Next hand")


def keep_in_session(client: Client, stored: object) -> None:
    session = client.session
    session["drill_preferences"] = stored
    session.save()


@pytest.mark.parametrize(
    ("stored", "dealt_under"),
    [
        ({"rules_name": "european", "rule_changes": {"decks": "100000"}}, "european"),
        ({"rules_name": "american", "rule_changes": {"original_bets_only": "maybe"}}, "american"),
        ({"rules_name": "deluxe", "rule_changes": {"colour": "blue"}}, "deluxe"),
        ({"rules_name": "vegas"}, "european"),
    ],
)
def test_a_guests_stored_rules_that_no_longer_hold_fall_back_to_the_preset(
    client: Client, stored: dict[str, object], dealt_under: str
) -> None:
    keep_in_session(client, {"mode": "all", "auto_advance": False, **stored})
    response = client.get(DRILL)
    assertContains(response, "Your saved rules no longer work")
    assertContains(response, RULES_LINK.format(name=dealt_under, title=dealt_under.capitalize()))
    drill = Drill.objects.get()
    assert drill.rules_name == dealt_under
    dealt_again = client.post(DRILL, {"deal": "1"}, headers={"HX-Request": "true"})
    assertContains(dealt_again, RULES_LINK.format(name=dealt_under, title=dealt_under.capitalize()))


@pytest.mark.parametrize(
    "stored",
    [
        "not a mapping",
        {"mode": "bogus"},
        {"auto_advance": "maybe", "rules_name": 7, "colour": "blue"},
    ],
)
def test_a_guests_stored_settings_of_the_wrong_shape_are_ignored(
    client: Client, stored: object
) -> None:
    keep_in_session(client, stored)
    assertContains(client.get(DRILL), RULES_LINK.format(name="european", title="European"))
    assert client.post(DRILL, {"deal": "1"}, headers={"HX-Request": "true"}).status_code == 200


def test_an_accounts_stored_rules_that_no_longer_hold_fall_back_to_the_preset(
    client: Client,
) -> None:
    user = get_user_model().objects.create_user("cy", password="a-long-pass-phrase-7")
    Preferences.objects.create(user=user, rules_name="deluxe", rule_changes={"decks": "100000"})
    client.force_login(user)
    response = client.get(DRILL)
    assertContains(response, "Your saved rules no longer work")
    assertContains(response, "decks must be a whole number from 1 to 8")
    assertContains(response, RULES_LINK.format(name="deluxe", title="Deluxe"))
    # The settings form still shows what is stored, to be corrected.
    assertContains(response, 'value="decks=100000"')


STALE_RULES = {**EUROPEAN.to_json(), "name": "old-custom", "decks": 100000}


@pytest.mark.database
def test_a_pending_drill_under_rules_no_longer_valid_is_dealt_again(client: Client) -> None:
    client.get(DRILL)
    Drill.objects.update(rules=STALE_RULES, rules_name="old-custom")
    stale = Drill.objects.get()
    answer = client.post(DRILL, {"drill": stale.pk, "action": "stand"})
    assert answer.status_code == 400
    assertContains(answer, "dealt under rules that no longer hold", status_code=400)
    response = client.get(DRILL)
    assertContains(response, RULES_LINK.format(name="european", title="European"))
    new = Drill.objects.get()
    assert new.pk != stale.pk and new.answered_at is None


@pytest.mark.database
def test_an_answered_drill_under_rules_no_longer_valid_is_kept_but_not_shown(
    client: Client,
) -> None:
    client.get(DRILL)
    first = Drill.objects.get()
    client.post(DRILL, {"drill": first.pk, "action": "stand"})
    Drill.objects.update(rules=STALE_RULES, rules_name="old-custom")
    response = client.get(DRILL)
    assertContains(response, RULES_LINK.format(name="european", title="European"))
    assert Drill.objects.filter(pk=first.pk, answered_at__isnull=False).exists()
    assert Drill.objects.filter(answered_at=None).count() == 1
    assert client.get("/progress/").status_code == 200
    assert client.post(DRILL, {"deal": "1"}, headers={"HX-Request": "true"}).status_code == 200


def test_a_guests_settings_of_an_older_shape_do_not_stop_a_sign_up(client: Client) -> None:
    keep_in_session(client, {"rules_name": "american", "colour": "blue", "mode": 3})
    password = "a-long-pass-phrase-7"
    response = client.post(
        reverse("signup"),
        {
            "username": "dee",
            "email": "dee@example.com",
            "password1": password,
            "password2": password,
        },
    )
    assert response.status_code == 302
    stored = Preferences.objects.get(user__username="dee")
    assert (stored.rules_name, stored.mode) == ("american", "all")


def test_an_htmx_answer_to_a_stale_drill_swaps_in_the_whole_new_hand(client: Client) -> None:
    client.get(DRILL)
    Drill.objects.update(rules=STALE_RULES, rules_name="old-custom")
    stale = Drill.objects.get()
    response = client.post(
        DRILL, {"drill": stale.pk, "action": "stand"}, headers={"HX-Request": "true"}
    )
    new = Drill.objects.get()
    # The cards on the page are the stale hand's: the answer region alone would not do.
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#drill", "outerHTML")
    assertContains(response, '<section id="drill"')
    assertContains(response, f'name="drill" value="{new.pk}"')
    assertContains(response, "dealt under rules that no longer hold")


@pytest.mark.database  # a JSON column: each database stores and reads it its own way
def test_rule_changes_are_kept_as_the_engines_fields_for_an_account_and_a_guest(
    client: Client,
) -> None:
    changes = "decks=2, dealer_hits_soft_17=true"
    fields = {"decks": "2", "dealer_hits_soft_17": "true"}
    choose_rules = {"rules_name": "european", "mode": "all", "custom_rules": changes}
    assert client.post(SETTINGS, choose_rules).status_code == 302
    assert client.session["drill_preferences"]["rule_changes"] == fields
    user = get_user_model().objects.create_user("kim")
    account = Client()
    account.force_login(user)
    assert account.post(SETTINGS, choose_rules).status_code == 302
    assert Preferences.objects.get(user=user).rule_changes == fields
    # Read back as they were typed, for the player to change.
    assertContains(account.get(DRILL), f'value="{changes}"')
