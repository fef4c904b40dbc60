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
    LOGIN_FAILURES_PER_ACCOUNT,
    LOGIN_FAILURES_PER_ADDRESS,
    minutes_until,
    wait_for,
)
from trainer.shared.throttle import client_address


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
    """Django's log-in form, refusing every attempt while the account or the address is
    locked out, the right password included."""

    locked_out = False

    def clean(self) -> dict[str, Any]:
        assert self.request is not None  # LoginView always passes it
        # Names are counted whatever their case, so "Ann" and "ann" share one count.
        username = str(self.cleaned_data.get("username") or "").casefold()
        counters = [
            (LOGIN_FAILURES_PER_ACCOUNT, username),
            (LOGIN_FAILURES_PER_ADDRESS, client_address(self.request)),
        ]
        if wait := wait_for(counters):
            self.locked_out = True
            minutes = minutes_until(wait)
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
            if error.code == "invalid_login":
                for throttle, who in counters:
                    throttle.record(who)
            raise
        if self.user_cache is not None:
            # The owner is back: earlier slips no longer count against the account. The
            # address keeps its count, or one account of one's own would reset it.
            LOGIN_FAILURES_PER_ACCOUNT.clear(username)
        return cleaned
