"""Accounts: sign-up with an email address, log-in, log-out and password reset.

Each is throttled in the shared cache (trainer.shared.throttle), so that nobody can guess
passwords, make accounts by the thousand or fill someone's mailbox. Django's own views do
the rest; they are wrapped rather than rewritten so that their safety checks (the
redirect after log-in, the reset tokens) stay Django's.
"""

from __future__ import annotations

import math
from typing import Any

from django import forms
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from trainer.shared.throttle import Throttle, client_address

MINUTE = 60
HOUR = 60 * MINUTE

#: Ten failed log-ins within 15 minutes, for one account or from one address, lock it
#: for 15 minutes from the tenth: enough for a forgetful player, too few to guess with.
LOGIN_FAILURES_PER_ACCOUNT = Throttle(
    "login-account", limit=10, window=15 * MINUTE, lockout=15 * MINUTE
)
LOGIN_FAILURES_PER_ADDRESS = Throttle(
    "login-address", limit=10, window=15 * MINUTE, lockout=15 * MINUTE
)
#: Accounts made from one address in an hour.
SIGNUPS_PER_ADDRESS = Throttle("signup-accounts", limit=5, window=HOUR)
#: Sign-up attempts from one address in an hour: each refusal tells whether a name or an
#: email address is taken, so probing for them is bounded too.
SIGNUP_ATTEMPTS_PER_ADDRESS = Throttle("signup-attempts", limit=20, window=HOUR)
#: Password-reset requests in an hour, for one email address and from one address. They
#: are counted whether or not an account has the email address, so that being refused
#: tells nothing about it either.
RESETS_PER_EMAIL = Throttle("reset-email", limit=3, window=HOUR)
RESETS_PER_ADDRESS = Throttle("reset-address", limit=5, window=HOUR)

Counters = list[tuple[Throttle, str]]


def _wait(counters: Counters) -> int:
    """Seconds until every one of these counters allows another attempt; 0 if all do."""
    return max(throttle.retry_after(who) for throttle, who in counters)


def _minutes(seconds: int) -> int:
    return math.ceil(seconds / MINUTE)


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


def _signup_refusal(address: str) -> str | None:
    """Why sign-ups from this address are refused for now, if they are."""
    if wait := SIGNUPS_PER_ADDRESS.retry_after(address):
        minutes = _minutes(wait)
        message = ngettext(
            "Too many accounts made from your network. Try again in %(minutes)d minute.",
            "Too many accounts made from your network. Try again in %(minutes)d minutes.",
            minutes,
        )
    elif wait := SIGNUP_ATTEMPTS_PER_ADDRESS.retry_after(address):
        minutes = _minutes(wait)
        message = ngettext(
            "Too many sign-ups from your network. Try again in %(minutes)d minute.",
            "Too many sign-ups from your network. Try again in %(minutes)d minutes.",
            minutes,
        )
    else:
        return None
    return message % {"minutes": minutes}


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log in to it; a guest's drill answers come along."""
    if request.method != "POST":
        return render(request, "registration/signup.html", {"form": SignupForm()})
    address = client_address(request)
    if refusal := _signup_refusal(address):
        # Refused unchecked: checking would tell whether the name or address is taken.
        typed = {field: request.POST.get(field, "") for field in ("username", "email")}
        context = {"form": SignupForm(initial=typed), "refusal": refusal}
        return render(request, "registration/signup.html", context, status=429)
    SIGNUP_ATTEMPTS_PER_ADDRESS.record(address)
    form = SignupForm(request.POST)
    if not form.is_valid():
        return render(request, "registration/signup.html", {"form": form}, status=400)
    user = form.save()
    SIGNUPS_PER_ADDRESS.record(address)
    login(request, user)  # the log-in signal moves the guest's answers
    return redirect("trainer:drill")


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
        if wait := _wait(counters):
            self.locked_out = True
            minutes = _minutes(wait)
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


class LoginView(auth_views.LoginView):
    """Django's log-in page with `LoginForm`; a locked-out attempt is answered 429."""

    authentication_form = LoginForm

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        if isinstance(form, LoginForm) and form.locked_out:
            response.status_code = 429
        return response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset page, mailing one email address at most 3 times an hour and taking 5
    requests an hour from one address; it answers alike whether or not an account has
    the email address."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        counters = [
            (RESETS_PER_EMAIL, form.cleaned_data["email"].casefold()),
            (RESETS_PER_ADDRESS, client_address(self.request)),
        ]
        if wait := _wait(counters):
            minutes = _minutes(wait)
            form.add_error(
                None,
                ngettext(
                    "Too many password reset requests for this email address or from your "
                    "network. Try again in %(minutes)d minute.",
                    "Too many password reset requests for this email address or from your "
                    "network. Try again in %(minutes)d minutes.",
                    minutes,
                )
                % {"minutes": minutes},
            )
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        for throttle, who in counters:
            throttle.record(who)
        return super().form_valid(form)


_log_out = auth_views.LogoutView.as_view()


@require_http_methods(["GET", "POST"])
def logout(request: HttpRequest) -> HttpResponse:
    """Log out with a POST, so that a link planted elsewhere cannot; opened directly, the
    page offers the button."""
    if request.method == "POST":
        return _log_out(request)
    # A form without fields: the page's form carries only its CSRF token and the button.
    form = forms.Form() if request.user.is_authenticated else None
    return render(request, "registration/logout.html", {"form": form})
