"""The rules page of a preset: its facts, its rule document, and the trainer's own notes.

The document is the rule document's own text (`trainer.rules.documents`); the notes are
the decisions ``shared/RULES.md`` takes where the documents are silent, in the product's
words (translated like the rest of the app), shown apart from the document.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.utils.translation import get_language_info, gettext, ngettext

from engine.live_table import (
    BEHIND_PER_SEAT,
    BETTING_SECONDS,
    FAULT_GRACE_SECONDS,
    PACES,
    RESULT_SECONDS,
)
from engine.rules import DELUXE, PRESETS, Burn, Rules, Surrender
from engine.settlement import pair_bet_return
from engine.table import Limits
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
    #: The return to player: the product's, worked out, and the document's, as it says.
    returns: tuple[str, ...]
    #: The live table's limits, countdowns and pace, for the rules it plays (else empty).
    live_table: tuple[str, ...]

    @classmethod
    def of(
        cls, preset: str, *, viewer: str, expected_return: float, asked: str | None = None
    ) -> RulesPage:
        """``preset``'s page for a viewer reading ``viewer``'s language, the document in
        the ``asked`` language where it exists; ``expected_return`` is the preset's exact
        strategy's (`engine.strategy.Strategy.expected_return`)."""
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
            returns=returns(rules, expected_return),
            live_table=live_table_facts() if rules.name == DELUXE.name else (),
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


#: The return to player each rule document states, as it states it (a quotation).
DOCUMENT_RTP: dict[str, str] = {DELUXE.name: "99.53"}


def returns(rules: Rules, expected_return: float) -> tuple[str, ...]:
    """What the game returns to a player of the exact basic strategy (off the top of a
    full shoe, per initial bet), beside what the rule document states, and what the pair
    bet returns; every figure worked out by the engine."""
    lines = [
        gettext(
            "Return to player with the trainer's exact basic strategy for these rules: "
            "%(rtp)s%% (a house edge of %(edge)s%%), worked out by the trainer's own "
            "analysis."
        )
        % {"rtp": _rtp(1 + expected_return), "edge": _rtp(-expected_return)}
    ]
    if rules.name in DOCUMENT_RTP:
        lines.append(
            gettext("The rule document states a maximum return to player of %(rtp)s%%.")
            % {"rtp": DOCUMENT_RTP[rules.name]}
        )
    if rules.pair_bet:
        pair = float(pair_bet_return(rules))
        lines.append(
            gettext("The pair side bet returns %(rtp)s%% (a house edge of %(edge)s%%).")
            % {"rtp": _rtp(pair), "edge": _rtp(1 - pair)}
        )
    return tuple(lines)


def live_table_facts() -> tuple[str, ...]:
    """A live table's limits, countdowns and pace, in words; every figure from the
    engine's live table (`engine.live_table`, `engine.table.Limits`)."""
    limits = Limits()
    return (
        gettext(
            "Bets from %(minimum)s to %(maximum)s, in steps of %(step)s: the seat bet, bets "
            "behind and pair bets alike."
        )
        % {
            "minimum": limits.minimum,
            "maximum": ngettext("%(count)s chip", "%(count)s chips", limits.maximum)
            % {"count": limits.maximum},
            "step": limits.step,
        },
        gettext(
            "Countdowns: %(betting)s to bet (a new table's first round waits for a first "
            "bet); %(paces)s seconds for each decision, as the table's opener chooses; a "
            "round's result shows for %(result)s before the next bets."
        )
        % {
            "betting": _seconds(BETTING_SECONDS),
            "paces": ", ".join(str(pace) for pace in PACES),
            "result": _seconds(RESULT_SECONDS),
        },
        gettext(
            "A round paused by a fault resumes where it stopped if the fault is put right "
            "within %(seconds)s; otherwise it is void and every bet in it refunded."
        )
        % {"seconds": _seconds(FAULT_GRACE_SECONDS)},
        gettext(
            "Bettors behind never make a round longer, however many they are: at each step "
            "of the seat they bet behind, their insurance and follow questions share one "
            "decision window (the seated player's own, or at a bot's seat one for them "
            "all), and a question still open when it ends is answered no, the document's "
            "default."
        ),
        ngettext(
            "A seat takes at most %(bets)s bet behind it.",
            "A seat takes at most %(bets)s bets behind it.",
            BEHIND_PER_SEAT,
        )
        % {"bets": BEHIND_PER_SEAT},
    )


def _rtp(share: float) -> str:
    """A share as a percentage to three places (99.515), as return figures are given."""
    return f"{100 * share:.3f}"


def _seconds(value: float) -> str:
    """A length of time in words: "10 seconds"."""
    count = int(value) if value == int(value) else value
    return ngettext("%(count)s second", "%(count)s seconds", count) % {"count": f"{value:g}"}


def _percent(share: Fraction) -> str:
    percent = share * 100
    return str(percent.numerator) if percent.denominator == 1 else f"{float(percent):g}"
