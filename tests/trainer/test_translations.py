"""The catalogues in trainer/locale: complete, compiled, and in step with the sources."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings
from django.utils import translation

LOCALE = Path(settings.LOCALE_PATHS[0])
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
PLACEHOLDER = re.compile(r"%\(\w+\)[-+ #0]*\d*(?:\.\d+)?[a-z]")

#: What the README's refresh command passes to makemessages.
MAKEMESSAGES_OPTIONS = {
    "ignore_patterns": [".venv", "tests", "staticfiles", "*.egg-info"],
    "add_location": "file",
    "no_obsolete": True,
}


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_and_the_compiled_catalogue_says_so(language: str) -> None:
    po = catalogue(language)
    assert [entry.msgid for entry in po.untranslated_entries()] == []
    assert [entry.msgid for entry in po.fuzzy_entries()] == []
    with translation.override(language):
        stale = [entry.msgid for entry in po.translated_entries() if not _compiled(entry)]
    assert stale == [], "run: .venv/bin/python manage.py compilemessages"


def _compiled(entry: polib.POEntry) -> bool:
    """Whether the compiled catalogue gives this entry's translation (every plural form of
    it, for the counts 0 to 199)."""
    if entry.msgid_plural:
        forms = {
            translation.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, n)
            if entry.msgctxt
            else translation.ngettext(entry.msgid, entry.msgid_plural, n)
            for n in range(200)
        }
        return forms == set(entry.msgstr_plural.values())
    if entry.msgctxt:
        return bool(translation.pgettext(entry.msgctxt, entry.msgid) == entry.msgstr)
    return bool(translation.gettext(entry.msgid) == entry.msgstr)


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_every_placeholder(language: str) -> None:
    changed = [
        entry.msgid
        for entry in catalogue(language).translated_entries()
        for source, translated in _pairs(entry)
        if sorted(PLACEHOLDER.findall(source)) != sorted(PLACEHOLDER.findall(translated))
    ]
    assert changed == []


def _pairs(entry: polib.POEntry) -> list[tuple[str, str]]:
    """(English, translation) for each form: a plural form against the English plural."""
    if entry.msgid_plural:
        return [(entry.msgid_plural, form) for form in entry.msgstr_plural.values()]
    return [(entry.msgid, entry.msgstr)]


def test_the_catalogues_hold_every_string_the_sources_mark(tmp_path: Path) -> None:
    # makemessages writes beside what it reads (into the trainer app's own locale folder
    # too), so it reads a copy of the sources here and writes to a scratch folder.
    root, sources, out = Path(settings.BASE_DIR), tmp_path / "sources", tmp_path / "locale"
    for folder in ("templates", "trainer"):
        skip = shutil.ignore_patterns("locale", "__pycache__")
        shutil.copytree(root / folder, sources / folder, ignore=skip)
    (out / "pl" / "LC_MESSAGES").mkdir(parents=True)
    before = Path.cwd()
    os.chdir(sources)
    try:
        with override_settings(LOCALE_PATHS=[out]):
            call_command("makemessages", locale=["pl"], verbosity=0, **MAKEMESSAGES_OPTIONS)
    finally:
        os.chdir(before)
    fresh = {entry.msgid for entry in polib.pofile(str(out / "pl" / "LC_MESSAGES" / "django.po"))}
    committed = {entry.msgid for entry in catalogue("pl") if not entry.obsolete}
    assert sorted(fresh - committed) == [], "new strings: refresh the catalogues"
    assert sorted(committed - fresh) == [], "strings gone from the sources: refresh"


@pytest.mark.django_db
def test_a_polish_page_speaks_polish_down_to_the_card_names(client: Client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "pl"
    page = client.get("/drill/").content.decode()
    assert '<html lang="pl" dir="ltr">' in page
    english = ("clubs", "diamonds", "hearts", "spades")
    with translation.override("pl"):
        assert translation.gettext("Strategy drill") in page
        suits = {translation.gettext(suit) for suit in english}
    assert not suits & set(english)
    labels = re.findall(r'card--(?:red|black) card--small" role="img" aria-label="([^"]+)"', page)
    assert len(labels) == 3  # the up card and the player's two
    for label in labels:
        assert any(suit in label for suit in suits) and not any(w in label for w in english)


@pytest.mark.django_db
def test_an_arabic_page_is_laid_out_right_to_left(client: Client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ar"
    page = client.get("/drill/").content.decode()
    assert '<html lang="ar" dir="rtl">' in page
