"""The counting drills' forms: how a deck or a shoe is dealt, and the player's answers."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.counting.conversion import SHOE_DECKS
from engine.counting.drill import CHECKPOINTS, GROUPS
from engine.counting.systems import SYSTEMS, CountingError
from engine.counting.true_count import Conversion, DeckEstimate
from engine.rules import PRESETS
from trainer.counting.services import IndexSettings, RunSettings, TrueCountSettings
from trainer.shared.counts import FIRST_RAMP, RAMP_MOST, RAMP_REFUSED, parse_count, table_ramp
from trainer.shared.rule_changes import RuleChanges, custom_rules_of
from trainer.shared.rules_words import PRESET_NAMES

#: Cards a second a player may choose, in tenths.
PACES = (5, 10, 15, 20, 30, 40)


class StartForm(forms.Form):
    """How the next deck is dealt."""

    system = forms.ChoiceField(
        label=_("Counting system"),
        choices=[(key, system.name) for key, system in SYSTEMS.items()],
        initial="hi-lo",
    )
    group = forms.TypedChoiceField(
        label=_("Cards shown"),
        coerce=int,
        choices=[(0, _("The whole deck laid out"))]
        + [(n, _("%(count)s at a time") % {"count": n}) for n in GROUPS],
        initial=1,
    )
    pace = forms.TypedChoiceField(
        label=_("Cards a second"),
        coerce=int,
        choices=[(tenths, f"{tenths / 10:g}") for tenths in PACES],
        initial=20,
        help_text=_("When shown a few at a time."),
    )
    checkpoint_every = forms.TypedChoiceField(
        label=_("Ask for the count on the way"),
        coerce=int,
        choices=[(0, _("Only at the end"))]
        + [(n, _("Every %(count)s cards") % {"count": n}) for n in CHECKPOINTS if n],
        initial=0,
    )

    def run_settings(self) -> RunSettings:
        data = self.cleaned_data
        return RunSettings(
            system=data["system"],
            group=data["group"],
            pace_tenths=data["pace"],
            checkpoint_every=data["checkpoint_every"],
        )


class CountForm(forms.Form):
    """The running count at the end, and at the checkpoints the deck asks for (fields
    ``checkpoint_<card>``, each optional: a checkpoint left blank is not graded)."""

    answer = forms.CharField(label=_("The running count at the end"), max_length=12)

    def __init__(self, *args: Any, checkpoints: tuple[int, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for card in checkpoints:
            self.fields[f"checkpoint_{card}"] = forms.CharField(
                label=_("The running count after card %(number)s") % {"number": card},
                max_length=12,
                required=False,
            )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name, text in list(cleaned.items()):
            if name == "answer" or text:
                count = parse_count(text)
                if count is None:
                    self.add_error(name, _("Type a count: a whole number, or a half as in 3.5."))
                else:
                    cleaned[name] = count
        return cleaned

    def counts_at_checkpoints(self) -> dict[int, Fraction]:
        return {
            int(name.removeprefix("checkpoint_")): count
            for name, count in self.cleaned_data.items()
            if name.startswith("checkpoint_") and isinstance(count, Fraction)
        }


ESTIMATE_LABELS = {
    DeckEstimate.FULL: _("To the whole deck"),
    DeckEstimate.HALF: _("To the half deck"),
    DeckEstimate.QUARTER: _("To the quarter deck"),
}
CONVERSION_LABELS = {
    Conversion.FLOOR: _("Down (floor): −0.5 is −1"),
    Conversion.TRUNCATE: _("Toward zero: −0.5 is 0"),
    Conversion.ROUND: _("To the nearest: 2.5 is 3"),
}
_DECKS = re.compile(r"^(\d{1,2})?(?:[.,](\d{1,2}))?$")
_GLYPHS = {"½": ".5", "¼": ".25", "¾": ".75"}


def parse_decks(text: str) -> Fraction | None:
    """Decks typed as a number with a fraction ("2.5", "2,75", "2½", "¾"), or None.

    >>> parse_decks("2½"), parse_decks("3,25"), parse_decks("¾"), parse_decks("two")
    (Fraction(5, 2), Fraction(13, 4), Fraction(3, 4), None)
    """
    text = text.strip().replace(" ", "")
    for glyph, decimal in _GLYPHS.items():
        text = text.replace(glyph, decimal)
    found = _DECKS.match(text)
    if found is None or not (found[1] or found[2]):
        return None
    return Fraction(f"{found[1] or 0}.{found[2] or 0}")


def parse_true_count(text: str) -> int | None:
    """A true count typed as a signed whole number ("-2", "+3", "−1"), or None."""
    found = re.fullmatch(r"([+-]?)(\d{1,2})", text.strip().replace("−", "-").replace(" ", ""))
    if found is None:
        return None
    return -int(found[2]) if found[1] == "-" else int(found[2])


class MethodForm(forms.Form):
    """The player's own way of making the true count: the deck estimate and the conversion
    (a subclass orders its own first)."""

    estimate = forms.ChoiceField(
        label=_("I judge the decks left"),
        choices=list(ESTIMATE_LABELS.items()),
        initial=DeckEstimate.HALF,
    )
    conversion = forms.ChoiceField(
        label=_("I make it a whole number"),
        choices=list(CONVERSION_LABELS.items()),
        initial=Conversion.FLOOR,
    )

    @property
    def method(self) -> tuple[DeckEstimate, Conversion]:
        return DeckEstimate(self.cleaned_data["estimate"]), Conversion(
            self.cleaned_data["conversion"]
        )


class TrueCountStartForm(MethodForm):
    """The true-count drill's shoe and the player's own way of making the true count."""

    field_order = ["decks", "estimate", "conversion"]

    decks = forms.TypedChoiceField(
        label=_("Decks in the shoe"), coerce=int, choices=[(n, n) for n in SHOE_DECKS], initial=6
    )

    def true_count_settings(self) -> TrueCountSettings:
        return TrueCountSettings(self.cleaned_data["decks"], *self.method)


class TrueCountAnswerForm(forms.Form):
    """The decks left (``decks``), or the true count (``convert``)."""

    answer = forms.CharField(max_length=12)

    def __init__(self, *args: Any, kind: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kind = kind
        self.fields["answer"].label = _("Decks left") if kind == "decks" else _("The true count")

    def clean_answer(self) -> Fraction:
        text = self.cleaned_data["answer"]
        if self.kind == "decks":
            decks = parse_decks(text)
            if decks is None:
                raise forms.ValidationError(_("Type the decks left, as in 3 or 2.5."))
            return decks
        count = parse_true_count(text)
        if count is None:
            raise forms.ValidationError(_("Type the true count as a whole number, as in −2 or 3."))
        return Fraction(count)


class IndexStartForm(MethodForm):
    """The index-play drill's rules, balanced counting system and true-count method (a
    GET of the waiting page carries them too)."""

    field_order = ["rules", "changes", "system", "estimate", "conversion"]

    rules = forms.ChoiceField(
        label=_("Rules"),
        choices=[(name, PRESET_NAMES[name]) for name in PRESETS],
        initial="american",
    )
    changes = forms.CharField(
        label=_("My changes to the rules"),
        required=False,
        max_length=200,
        help_text=_("Optional, such as decks=2, dealer_hits_soft_17=true."),
    )
    system = forms.ChoiceField(
        label=_("Counting system"),
        choices=[(key, system.name) for key, system in SYSTEMS.items() if system.balanced],
        initial="hi-lo",
    )

    def clean(self) -> dict[str, Any]:
        """The changes, if any, checked against the preset chosen and written in the order
        of their names (so the same changes are the same settings, however typed)."""
        cleaned = super().clean() or {}
        if cleaned.get("changes") and "rules" in cleaned:
            try:
                custom_rules_of(cleaned["rules"], cleaned["changes"])
                parsed = RuleChanges.parse(cleaned["changes"]).changes
                cleaned["changes"] = RuleChanges(tuple(sorted(parsed))).text
            except forms.ValidationError as error:
                self.add_error("changes", error)
        return cleaned

    @classmethod
    def defaults(cls) -> dict[str, str]:
        """Each field's first choice as a form would post it."""
        return {
            name: "" if field.initial is None else str(field.initial)
            for name, field in cls.base_fields.items()
        }

    def index_settings(self) -> IndexSettings:
        data = self.cleaned_data
        return IndexSettings(data["rules"], data["system"], *self.method, data.get("changes", ""))


class BetStartForm(forms.Form):
    """The player's own bet ramp: COUNT:BET pairs in units, and the bet below it."""

    ramp = forms.CharField(
        label=_("My ramp (true count:bet, in units)"),
        max_length=200,
        initial=FIRST_RAMP,
        help_text=_(
            "At a count between two listed, the lower one's bet; above them all, the top bet."
        ),
    )
    below = forms.IntegerField(
        label=_("My bet below the ramp, in units"), min_value=1, max_value=RAMP_MOST, initial=1
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if "ramp" in cleaned and "below" in cleaned:
            try:
                cleaned["bet_ramp"] = table_ramp(cleaned["ramp"], cleaned["below"])
            except CountingError:
                self.add_error("ramp", RAMP_REFUSED)
        return cleaned


class BetAnswerForm(forms.Form):
    """The bet the player makes, in whole units."""

    answer = forms.IntegerField(
        label=_("My bet, in units"),
        min_value=0,
        max_value=100_000,
        error_messages={"invalid": _("Type the bet as a whole number of units.")},
    )


class YourGameForm(forms.Form):
    """The bankroll a player's game is judged by, and the risk of ruin they would take."""

    bank = forms.IntegerField(
        label=_("My bankroll, in units"), min_value=1, max_value=10_000_000, initial=1000
    )
    risk = forms.DecimalField(
        label=_("The risk of ruin I would take, in percent"),
        min_value=Decimal("0.1"),
        max_value=50,
        decimal_places=1,
        initial=5,
    )
    top = forms.IntegerField(
        label=_("My top bet, in units"), min_value=1, max_value=RAMP_MOST, initial=12
    )
