"""The live tables' forms: what a request may carry, checked before the table sees it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.live_table import PACES
from engine.table import BotSeat
from engine.values import Action
from trainer.live.services import BUY_INS, LiveOp, LiveOrder
from trainer.shared.seats import SEAT_CHOICES, SEATS, Sitter


class OpenTableForm(forms.Form):
    """A new live table: the chips its opener brings, its pace, and who takes each seat."""

    buy_in = forms.TypedChoiceField(
        label=_("Chips you bring"),
        coerce=int,
        choices=[(amount, str(amount)) for amount in BUY_INS],
        initial=1000,
    )
    pace = forms.TypedChoiceField(
        label=_("Seconds for each decision"),
        coerce=int,
        choices=[(seconds, str(seconds)) for seconds in PACES],
        initial=PACES[1],
        widget=forms.Select(attrs={"aria-describedby": "pace-hint"}),
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat in SEATS:
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                label=_("Seat %(seat)s") % {"seat": seat},
                choices=SEAT_CHOICES,
                required=False,
                initial=Sitter.YOU if seat == 4 else Sitter.EMPTY,
            )

    def clean_pace(self) -> int:
        """The pace offered first when left out (a form from before the choice)."""
        return int(self.cleaned_data.get("pace") or PACES[1])

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in SEATS]

    def yours(self) -> list[int]:
        """The seats the opener takes."""
        return [seat for seat in SEATS if self.cleaned_data.get(f"seat_{seat}") == Sitter.YOU]

    def bots(self) -> list[BotSeat]:
        """The bots seated, each with its tier."""
        sitters = ((seat, Sitter(self.cleaned_data.get(f"seat_{seat}") or "")) for seat in SEATS)
        return [BotSeat(seat, sitter.tier) for seat, sitter in sitters if sitter.tier is not None]


class LiveOrderForm(forms.Form):
    """One request at a live table; an action on a hand names the table's version it
    was made from (``version``), the other requests set absolute values."""

    op = forms.TypedChoiceField(choices=[(op, op) for op in LiveOp], coerce=LiveOp)
    version = forms.IntegerField(min_value=0, required=False)
    seat = forms.IntegerField(min_value=1, max_value=7, required=False)
    amount = forms.IntegerField(min_value=1, max_value=1_000_000, required=False)
    action = forms.ChoiceField(choices=[(a.value, a.value) for a in Action], required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        op = data.get("op")
        for field in op.needs if isinstance(op, LiveOp) else ():
            if data.get(field) in (None, ""):
                raise forms.ValidationError(_("That request is missing something."))
        return data

    def order(self) -> LiveOrder:
        data = self.cleaned_data
        return LiveOrder(
            op=data["op"],
            version=data.get("version"),
            seat=data.get("seat"),
            amount=data.get("amount"),
            action=data.get("action") or None,
        )
