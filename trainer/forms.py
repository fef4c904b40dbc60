"""Forms: what a request may carry, checked before any service sees it."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.round import Action

ANSWERS = [Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER]


class AnswerForm(forms.Form):
    """An answer to an issued drill: which drill, and which action."""

    drill = forms.IntegerField(min_value=1)
    action = forms.ChoiceField(
        choices=[(action.value, action.value) for action in ANSWERS],
        error_messages={
            "required": _("Choose an action."),
            "invalid_choice": _("Choose an action."),
        },
    )
