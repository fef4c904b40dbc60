"""The rules page of a preset: its facts, its rule document, and the trainer's own notes.

The document is the rule document's own text (`trainer.rules.documents`); the notes are
the decisions ``shared/RULES.md`` takes where the documents are silent, in the product's
words (translated like the rest of the app), shown apart from the document.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.utils.translation import get_language_info, gettext

from engine.rules import PRESETS, Burn, Rules, Surrender
from trainer.rules.documents import Document, choose_language, document, languages_of
from trainer.shared.rules_words import RulesWords, odds, preset_name


@dataclass(frozen=True)
class DocumentLink:
    language: str
    #: The language's name in that language ("العربية").
    name: str
    current: bool


@dataclass(frozen=True)
class RulesPage:
    preset: str
    name: str
    words: RulesWords
    document: Document | None
    #: Every language the document exists in, to read it in another.
    languages: tuple[DocumentLink, ...]
    #: Why the document is not in the viewer's language, or "".
    language_note: str
    notes: tuple[str, ...]

    @classmethod
    def of(cls, preset: str, *, viewer: str, asked: str | None = None) -> RulesPage:
        """``preset``'s page for a viewer reading ``viewer``'s language, the document in
        the ``asked`` language where it exists."""
        rules = PRESETS[preset]
        language = choose_language(preset, asked, viewer)
        available = languages_of(preset)
        shown = document(preset, language) if language is not None else None
        return cls(
            preset=preset,
            name=preset_name(preset),
            words=RulesWords.of(rules),
            document=shown,
            languages=tuple(
                DocumentLink(code, get_language_info(code)["name_local"], code == language)
                for code in available
            ),
            language_note=_language_note(available, viewer, asked),
            notes=product_notes(rules),
        )


def _language_note(available: tuple[str, ...], viewer: str, asked: str | None) -> str:
    if not available:
        return gettext(
            "These rules have no rule document: they are the common game that published "
            "basic-strategy charts are made for, kept as a point of comparison. What they "
            "are is listed above, from the rules the trainer plays."
        )
    if viewer in available or asked in available:
        return ""
    names = ", ".join(str(get_language_info(code)["name_translated"]) for code in available)
    return gettext(
        "This rule document exists only in these languages: %(languages)s. It is shown "
        "in English; the rules in short, above, and the trainer's notes are in your "
        "language."
    ) % {"languages": names}


def product_notes(rules: Rules) -> tuple[str, ...]:
    """The decisions taken where the documents are silent, for these rules, in words;
    every figure from the rules themselves."""
    notes = [
        gettext(
            "The shoe is shuffled on the server with the operating system's secure random "
            "generator, and shuffled again between rounds once the cut card, at "
            "%(penetration)s%% of the shoe, has come out. The order of the cards never "
            "leaves the server."
        )
        % {"penetration": _percent(rules.penetration)},
        gettext(
            "Cards are dealt one to each seat from the lowest number, then the dealer's up "
            "card; a second to each seat, then the dealer's hole card. A split hand gets its "
            "second card at once and is played to the end before the next one gets its own."
        ),
        gettext("A hand that reaches 21 stands by itself."),
    ]
    if not rules.dealer_peeks:
        notes.append(
            gettext(
                "The dealer does not look at the hole card for blackjack before you act. "
                "If the dealer turns up a blackjack, every player hand that is not a "
                "blackjack loses everything wagered on it, doubles and split hands included; "
                "a player blackjack against a dealer blackjack is a push."
            )
        )
    if rules.double_after_split and rules.max_hands > 1:
        notes.append(
            gettext(
                "A hand made by a split may be doubled on its first two cards, except split aces."
            )
        )
    if rules.burn is Burn.FIRST_CARD_VALUE:
        notes.append(
            gettext(
                "The burn after a shuffle counts an ace as 1 and a ten-value card as 10; "
                "every fresh shoe, the first one too, is burned before its first round."
            )
        )
    if rules.seats_per_account > 1:
        notes.append(
            gettext(
                "Guests may watch a live table and bet behind, but only registered accounts "
                "may sit. A practice table where every other seat is a bot is practice: "
                "anyone may sit there."
            )
        )
    notes.append(
        gettext("A win pays 1:1 and a blackjack %(blackjack)s.")
        % {"blackjack": odds(rules.blackjack_pays)}
    )
    if rules.surrender is not Surrender.NONE:
        notes.append(gettext("A surrender returns half the bet."))
    if rules.insurance:
        notes.append(gettext("Insurance pays %(odds)s.") % {"odds": odds(rules.insurance_pays)})
    if rules.pair_bet:
        notes.append(
            gettext(
                "The pair side bet, on a seat's first two cards: a perfect pair (same rank "
                "and suit) pays %(perfect)s:1, a coloured pair (same rank and colour) "
                "%(coloured)s:1, a mixed pair (same rank, other colour) %(mixed)s:1."
            )
            % {
                "perfect": rules.perfect_pair_pays,
                "coloured": rules.coloured_pair_pays,
                "mixed": rules.mixed_pair_pays,
            }
        )
    return tuple(notes)


def _percent(share: Fraction) -> str:
    percent = share * 100
    return str(percent.numerator) if percent.denominator == 1 else f"{float(percent):g}"
