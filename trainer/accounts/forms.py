"""The account forms: sign-up with an email address, and a log-in that counts failures."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from trainer.accounts.limits import (
    LOGIN_FAILURES_PER_ADDRESS,
    LOGIN_FAILURES_PER_DEVICE,
    LOGIN_FAILURES_PER_NAME_AND_ADDRESS,
    Counters,
    device_of,
    minutes_until,
    wait_for,
)
from trainer.shared.throttle import client_address, reserve_all


class SignupForm(UserCreationForm[User]):
    """A new account: a name, an email address to reset a forgotten password, a password."""

    email = forms.EmailField(
        label=_("Email address"),
        max_length=254,
        help_text=_("Only used to send you a link if you forget your password."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = get_user_model().objects.normalize_email(self.cleaned_data["email"])
        # One account per address, whatever its case: a reset link goes to every account
        # that has it.
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise ValidationError(
                _(
                    "An account already uses this email address. If it is yours, log in, "
                    "or reset its password if you have forgotten it."
                ),
                code="email_taken",
            )
        return email


class LoginForm(AuthenticationForm):
    """Django's log-in form, refusing every attempt while its counters are used up, the
    right password included.

    A browser that has logged in to the account before is counted by itself; any other
    attempt by the name and address together, and by the address. Each attempt takes
    its place on the counters before its password is checked, so that racing attempts
    check no more passwords than the limit; a right password gives it back.
    """

    locked_out = False

    def clean(self) -> dict[str, Any]:
        assert self.request is not None  # LoginView always passes it
        # Names are counted whatever their case, so "Ann" and "ann" share one count.
        username = str(self.cleaned_data.get("username") or "").casefold()
        address = client_address(self.request)
        device = device_of(self.request, username)
        counters: Counters = (
            [(LOGIN_FAILURES_PER_DEVICE, device)]
            if device
            else [
                (LOGIN_FAILURES_PER_NAME_AND_ADDRESS, f"{username}\n{address}"),
                (LOGIN_FAILURES_PER_ADDRESS, address),
            ]
        )
        if not reserve_all(counters):
            self.locked_out = True
            minutes = minutes_until(wait_for(counters))
            raise ValidationError(
                ngettext(
                    "Too many failed log-ins for this account or from your network. "
                    "Try again in %(minutes)d minute.",
                    "Too many failed log-ins for this account or from your network. "
                    "Try again in %(minutes)d minutes.",
                    minutes,
                )
                % {"minutes": minutes},
                code="locked_out",
            )
        try:
            cleaned = super().clean()
        except ValidationError as error:
            for throttle, who in counters:
                if error.code == "invalid_login":
                    throttle.locked_if_reached(who)
                else:  # an inactive account: the password was right
                    throttle.release(who)
            raise
        for throttle, who in counters:
            throttle.release(who)  # no password checked, or the right one
        if self.user_cache is not None:
            # The owner is back: their slips no longer count against this name here. The
            # address keeps its count, or one account of one's own would reset it.
            counters[0][0].clear(counters[0][1])
        return cleaned
