"""The rules pages (/rules/<preset>/): the rules in short, the rule document in its own
words with its language and direction, and the trainer's notes apart from it."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from engine.live_table import (
    BEHIND_PER_SEAT,
    BETTING_SECONDS,
    FAULT_GRACE_SECONDS,
    PACES,
    RESULT_SECONDS,
)
from engine.rules import DELUXE, EUROPEAN
from engine.strategy import strategy_for
from engine.table import Limits

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "ar", "ka", "hi", "pl")
PRESETS = ("european", "deluxe", "american")

#: The first rule of each European document (its set-up's first item), as the document
#: written in that language says it (shared/rules-sources, and RULES.md for English).
EUROPEAN_FIRST_RULE = {
    "en": "6 standard 52-card decks, shuffled on the server.",
    "ar": "استخدم 6 رزم قياسية ممزوجة على الخادم.",
    "ka": "გამოიყენეთ სერვერზე შერეული 6 სტანდარტული დასტა.",
    "hi": "6 मानक डेकों को सर्वर-पक्ष पर शफ़ल करके उपयोग करें।",
    "pl": "Użyj 6 standardowych talii tasowanych po stronie serwera.",
}
#: The Deluxe document's first rule (its seats), in Arabic; and RULES.md's English.
DELUXE_FIRST_RULE = {
    "ar": "يمكن للعبة أن تستوعب ما يصل إلى سبعة مقاعد (مرقمة من 1 إلى 7)، حيث يلعب اللاعبون "
    "ضد الموزع في كل جولة.",
    "en": "8 decks in a shoe with a cut card: when the cut card comes out, the current round "
    "is the shoe's last; then the shoe is reshuffled.",
}


def viewer(language: str) -> Client:
    client = Client()
    client.cookies["django_language"] = language
    return client


def page(language: str, url: str) -> str:
    response = viewer(language).get(url)
    assert response.status_code == 200
    return response.content.decode()


def article(text: str) -> tuple[str, str, str]:
    """The rule document's ``lang``, ``dir`` and content."""
    found = re.search(
        r'<article class="rules-document" lang="(\w+)" dir="(\w+)"[^>]*>(.*?)</article>', text, re.S
    )
    assert found, "no rule document on the page"
    return found.group(1), found.group(2), html.unescape(found.group(3))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_has_a_rules_page_in_every_language(preset: str, language: str) -> None:
    text = page(language, f"/rules/{preset}/")
    assert f'<html lang="{language}"' in text
    assert 'data-testid="rules-facts"' in text and 'data-testid="product-notes"' in text
    assert f'href="/chart/{preset}/"' in text  # the chart for these rules


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_european_page_holds_the_documents_first_rule_in_the_viewers_language(
    language: str,
) -> None:
    lang, direction, content = article(page(language, "/rules/european/"))
    assert lang == language
    assert direction == ("rtl" if language == "ar" else "ltr")
    assert EUROPEAN_FIRST_RULE[language] in content


@pytest.mark.parametrize("language", ["ar", "en"])
def test_the_deluxe_page_holds_the_documents_first_rule(language: str) -> None:
    lang, _direction, content = article(page(language, "/rules/deluxe/"))
    assert lang == language
    assert DELUXE_FIRST_RULE[language] in content


@pytest.mark.parametrize("language", ["ka", "hi", "pl"])
def test_deluxe_without_a_document_in_the_viewers_language_shows_the_english_and_says_so(
    language: str,
) -> None:
    text = page(language, "/rules/deluxe/")
    lang, direction, content = article(text)
    assert (lang, direction) == ("en", "ltr")
    assert DELUXE_FIRST_RULE["en"] in content
    assert 'data-testid="language-note"' in text
    assert 'href="?doc=ar"' in text  # the Arabic original is one click away


def test_an_arabic_document_in_an_english_page_is_marked_right_to_left() -> None:
    text = page("en", "/rules/european/?doc=ar")
    assert '<html lang="en" dir="ltr">' in text
    lang, direction, content = article(text)
    assert (lang, direction) == ("ar", "rtl")
    assert EUROPEAN_FIRST_RULE["ar"] in content
    assert 'data-testid="language-note"' not in text


def test_a_document_language_that_does_not_exist_falls_back_to_the_viewers() -> None:
    lang, _direction, _content = article(page("pl", "/rules/european/?doc=xx"))
    assert lang == "pl"


def test_the_document_is_drawn_as_headings_and_lists() -> None:
    _lang, _direction, content = article(page("pl", "/rules/european/"))
    assert "<h3>Przygotowanie</h3>" in content
    assert content.count("<ol>") == 2  # set-up and a round's sequence are numbered
    assert "<ul>" in content


def test_the_deluxe_documents_tables_are_tables() -> None:
    _lang, _direction, content = article(page("ar", "/rules/deluxe/"))
    assert content.count('<table class="rules-table">') == 4


def test_the_trainers_notes_are_apart_from_the_document_and_follow_the_rules() -> None:
    european = page("en", "/rules/european/")
    _lang, _direction, content = article(european)
    notes = european.split('data-testid="product-notes"', 1)[1]
    peek = "does not look at the hole card for blackjack"
    assert peek in notes and peek not in content
    assert "75% of the shoe" in notes  # the cut card, from the rules' penetration
    deluxe = page("en", "/rules/deluxe/").split('data-testid="product-notes"', 1)[1]
    assert peek not in deluxe  # Deluxe peeks
    assert "pays 25:1" in deluxe and "Insurance pays 2:1." in deluxe


def test_american_has_no_document_and_says_so() -> None:
    text = page("pl", "/rules/american/")
    assert 'class="rules-document"' not in text
    assert 'data-testid="language-note"' in text
    with translation.override("pl"):
        peek = gettext("the dealer checks for blackjack first")
    assert peek != "the dealer checks for blackjack first"
    assert html.escape(peek) in text  # its facts, in short, in the page's language


def test_the_page_lists_the_rules_facts() -> None:
    text = page("en", "/rules/european/")
    facts = re.search(r'data-testid="rules-facts">(.*?)</ul>', text, re.S)
    assert facts
    items = re.findall(r"<li>(.*?)</li>", facts.group(1))
    assert items[:2] == ["6 decks", "dealer stands on soft 17"]
    assert "no surrender" in items


def test_an_unknown_preset_is_a_404() -> None:
    assert Client().get("/rules/nope/").status_code == 404


def test_the_rules_are_in_the_main_navigation_and_default_to_european() -> None:
    text = page("en", "/rules/")
    assert '<a href="/rules/">' in text
    assert EUROPEAN_FIRST_RULE["en"] in text


def test_the_practice_table_and_its_summary_name_the_rules_in_words() -> None:
    client = Client()
    started = client.post("/practice/", {"rules": "deluxe", "bankroll": "1000", "seat_1": "you"})
    assert started.status_code == 302
    for url in (started["Location"], started["Location"] + "summary/"):
        text = client.get(url).content.decode()
        assert '<a href="/rules/deluxe/">Deluxe</a>' in text, url
        assert "8 decks · dealer stands on soft 17" in text, url


def section(text: str, testid: str) -> str:
    """The text of the list marked ``data-testid=testid``, tags stripped."""
    found = re.search(rf'data-testid="{testid}">(.*?)</ul>', text, re.S)
    assert found, f"no {testid} on the page"
    return html.unescape(re.sub(r"<[^>]+>", " ", found.group(1)))


def test_the_deluxe_page_states_the_bound_on_bets_behind_and_their_shared_window() -> None:
    deluxe = section(page("en", "/rules/deluxe/"), "live-table-facts")
    assert f"at most {BEHIND_PER_SEAT} bets behind" in deluxe
    assert "share one decision window (the seated player's own" in deluxe
    assert 'data-testid="live-table-facts"' not in page("en", "/rules/european/")


def test_the_deluxe_page_states_the_tables_limits_countdowns_and_fault_grace() -> None:
    limits = Limits()
    facts = section(page("en", "/rules/deluxe/"), "live-table-facts")
    assert (
        f"from {limits.minimum} to {limits.maximum} chips, in steps of {limits.step}: the "
        "seat bet, bets behind and pair bets alike"
    ) in facts
    for seconds in (BETTING_SECONDS, RESULT_SECONDS, FAULT_GRACE_SECONDS):
        assert f"{seconds:g} seconds" in facts
    paces = ", ".join(str(pace) for pace in PACES)
    assert f"{paces} seconds for each decision, as the table's opener chooses" in facts


def test_each_preset_states_its_computed_return_and_deluxe_the_documents_beside_it() -> None:
    # The product's figure is the exact analysis's (docs/strategy.md: 99.5150% for
    # Deluxe); the document's is its own words, 99.53%. The pair bet's, worked out by
    # hand for 8 decks: the second card matches the first's rank and suit in 7 of the
    # 415 cards left (pays 25:1, 26 back), rank and colour in 8 (12:1, 13 back), rank
    # only in 16 (6:1, 7 back): (7*26 + 8*13 + 16*7) / 415 = 398/415 = 95.904%.
    deluxe = section(page("en", "/rules/deluxe/"), "rules-returns")
    rtp = 100 * (1 + strategy_for(DELUXE).expected_return)
    assert f"{rtp:.3f}%" in deluxe and "99.515%" in deluxe
    assert "99.53%" in deluxe
    assert "pair side bet returns 95.904% (a house edge of 4.096%)" in deluxe
    european = section(page("en", "/rules/european/"), "rules-returns")
    assert f"{100 * (1 + strategy_for(EUROPEAN).expected_return):.3f}%" in european
    assert "99.53%" not in european and "pair" not in european
