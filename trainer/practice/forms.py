"""Forms: what a request may carry, checked before any service sees it."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.counting.risk import BetRamp
from engine.counting.systems import SYSTEMS, CountingError
from engine.counting.true_count import DEFAULT_METHOD, Conversion, DeckEstimate, TrueCountMethod
from engine.shoe import Shoe
from engine.values import Action
from trainer.practice.counting import CountingMode
from trainer.shared.counts import FIRST_RAMP, RAMP_MOST, RAMP_REFUSED, parse_count, table_ramp
from trainer.shared.rule_changes import custom_rules_of
from trainer.shared.rules_words import preset_name
from trainer.shared.seats import DEFAULT_BANKROLL, DEFAULT_SEATS, SEAT_CHOICES, SEATS, Sitter


class PracticeStartForm(forms.Form):
    """A new practice table: rules, chips, and who sits in each of the seven seats.

    The rules are a preset, with changes of the player's own (as the rules lab sends
    them, written as in the drill settings); ``cleaned_data["rules_in_play"]`` holds both.
    """

    rules = forms.ChoiceField(label=_("Rules"), choices=[], initial="european")
    custom_rules = forms.CharField(required=False, max_length=400, widget=forms.HiddenInput)
    bankroll = forms.TypedChoiceField(
        label=_("Starting chips"), coerce=int, choices=[], initial=DEFAULT_BANKROLL
    )
    hints = forms.BooleanField(
        label=_("Hints: show the strategy's play before I act"), required=False
    )
    coach = forms.BooleanField(
        label=_("Coach: stop me at a wrong play, and let me take it back"), required=False
    )
    counting = forms.BooleanField(
        label=_("Counting mode: the table asks for the count and grades my bets"),
        required=False,
    )
    counting_system = forms.ChoiceField(
        label=_("Counting system"),
        choices=[(key, system.name) for key, system in SYSTEMS.items() if system.balanced],
        initial="hi-lo",
        required=False,
    )
    counting_ramp = forms.CharField(
        label=_("My ramp (true count:bet, in units of the table minimum)"),
        max_length=200,
        initial=FIRST_RAMP,
        required=False,
    )

    counting_below = forms.IntegerField(min_value=1, max_value=RAMP_MOST, initial=1, required=False)
    counting_estimate = forms.ChoiceField(
        choices=[(estimate.value, estimate.value) for estimate in DeckEstimate],
        required=False,
        widget=forms.HiddenInput,
    )
    counting_conversion = forms.ChoiceField(
        choices=[(conversion.value, conversion.value) for conversion in Conversion],
        required=False,
        widget=forms.HiddenInput,
    )
    #: An attempt at the casino-ready check (its page posts this form, hidden).
    casino_check = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, presets: list[str], bankrolls: tuple[int, ...],
                 stacked_shoes: bool = False, **kwargs: Any) -> None:  # fmt: skip
        super().__init__(*args, **kwargs)
        rules, bankroll = self.fields["rules"], self.fields["bankroll"]
        assert isinstance(rules, forms.ChoiceField) and isinstance(bankroll, forms.ChoiceField)
        rules.choices = [(name, preset_name(name)) for name in presets]
        bankroll.choices = [(amount, str(amount)) for amount in bankrolls]
        for seat in SEATS:
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                label=_("Seat %(seat)s") % {"seat": seat},
                choices=SEAT_CHOICES,
                required=False,
                initial=DEFAULT_SEATS.get(seat, Sitter.EMPTY),
            )
        if stacked_shoes:  # tests and demos only: see settings.PRACTICE_STACKED_SHOES
            self.fields["shoe"] = forms.CharField(required=False)

    def clean_shoe(self) -> Shoe | None:
        text = self.cleaned_data.get("shoe")
        if not text:
            return None
        try:
            return Shoe.stacked(text)
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        name = cleaned.get("rules")
        if name:
            try:
                cleaned["rules_in_play"] = custom_rules_of(name, cleaned.get("custom_rules", ""))
            except forms.ValidationError as error:
                self.add_error("custom_rules", error)
        if cleaned.get("counting"):
            if not cleaned.get("counting_system"):
                self.add_error("counting_system", _("Choose a counting system."))
            try:
                below = cleaned.get("counting_below") or 1
                cleaned["ramp"] = table_ramp(cleaned.get("counting_ramp", ""), below=below)
            except CountingError:
                self.add_error("counting_ramp", RAMP_REFUSED)
        return cleaned

    def counting_mode(self) -> CountingMode | None:
        """Counting mode as chosen, or None; the true count is Hi-Lo's method (half decks,
        floor) unless the form says another (the casino-ready check gives the player's)."""
        data = self.cleaned_data
        if not data.get("counting"):
            return None
        method = TrueCountMethod(
            DeckEstimate(data.get("counting_estimate") or DEFAULT_METHOD.estimate),
            Conversion(data.get("counting_conversion") or DEFAULT_METHOD.conversion),
        )
        ramp: BetRamp = data["ramp"]
        return CountingMode.start(
            data["rules_in_play"], system=data["counting_system"], method=method, ramp=ramp
        )

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in SEATS]

    def seats(self) -> list[tuple[int, Sitter]]:
        """(seat, you or a bot) for every occupied seat."""
        return [
            (seat, Sitter(self.cleaned_data[f"seat_{seat}"]))
            for seat in SEATS
            if self.cleaned_data.get(f"seat_{seat}")
        ]


class TableOp(StrEnum):
    """A request the practice table takes."""

    CHIP = "chip"
    CLEAR = "clear"
    DEAL = "deal"
    ACT = "act"
    TAKE_BACK = "take_back"
    END = "end"
    COUNT = "count"


class TableForm(forms.Form):
    """One request at the practice table, made from the table's version ``version``."""

    op = forms.TypedChoiceField(choices=[(op, op) for op in TableOp], coerce=TableOp)
    version = forms.IntegerField(min_value=0)
    action = forms.ChoiceField(choices=[(a.value, a.value) for a in Action], required=False)
    chip = forms.IntegerField(min_value=1, required=False)
    #: How many history lines the page already shows (the rest appear one by one).
    seen = forms.IntegerField(min_value=0, required=False)
    #: With a deal: your pair bet on your seat, and your bets behind bots' seats (0: none).
    pair = forms.IntegerField(min_value=0, required=False)
    #: With a count: the running count (halves as 3.5, 3,5 or 3½) and the true count.
    running = forms.CharField(max_length=12, required=False)
    true_count = forms.IntegerField(min_value=-99, max_value=99, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat in SEATS:
            self.fields[f"behind_{seat}"] = forms.IntegerField(min_value=0, required=False)

    def side_bets(self) -> tuple[int, dict[int, int]]:
        """The pair bet and the bets behind, by seat, that were given (not zero)."""
        data = self.cleaned_data
        behind = {seat: data[f"behind_{seat}"] for seat in SEATS if data.get(f"behind_{seat}")}
        return data.get("pair") or 0, behind

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("op") is TableOp.ACT and not data.get("action"):
            raise forms.ValidationError(_("Choose an action."))
        if data.get("op") is TableOp.CHIP and not data.get("chip"):
            raise forms.ValidationError(_("Choose a chip."))
        if data.get("op") is TableOp.COUNT:
            data["running"] = parse_count(data.get("running") or "")
            if data["running"] is None or data.get("true_count") is None:
                raise forms.ValidationError(
                    _("Type the running count and the true count as numbers.")
                )
        return data


class TableOptionsForm(forms.Form):
    hints = forms.BooleanField(required=False)
    coach = forms.BooleanField(required=False)
