"""Accounts: sign-up with an email address, log-in, log-out and password reset.

Each is throttled in the shared cache (trainer.shared.throttle), so that nobody can guess
passwords, make accounts by the thousand or fill someone's mailbox. Django's own views do
the rest; they are wrapped rather than rewritten so that their safety checks (the
redirect after log-in, the reset tokens) stay Django's.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from trainer.accounts.forms import LoginForm, SignupForm
from trainer.accounts.limits import (
    DEVICE_AGE,
    DEVICE_COOKIE,
    RESETS_PER_ADDRESS,
    RESETS_PER_EMAIL,
    SIGNUP_ATTEMPTS_PER_ADDRESS,
    SIGNUPS_PER_ADDRESS,
    device_cookie,
    minutes_until,
    wait_for,
)
from trainer.shared.throttle import client_address, reserve_all


def _signup_refusal(address: str) -> str | None:
    """Why sign-ups from this address are refused for now, if they are."""
    if wait := SIGNUPS_PER_ADDRESS.retry_after(address):
        minutes = minutes_until(wait)
        message = ngettext(
            "Too many accounts made from your network. Try again in %(minutes)d minute.",
            "Too many accounts made from your network. Try again in %(minutes)d minutes.",
            minutes,
        )
    elif wait := SIGNUP_ATTEMPTS_PER_ADDRESS.retry_after(address):
        minutes = minutes_until(wait)
        message = ngettext(
            "Too many sign-ups from your network. Try again in %(minutes)d minute.",
            "Too many sign-ups from your network. Try again in %(minutes)d minutes.",
            minutes,
        )
    else:
        return None
    return message % {"minutes": minutes}


def _signup_refusal_now() -> str:
    """The refusal of a sign-up that lost a race for the last place (the counts it saw
    were back under the limit by the time it asked why)."""
    return ngettext(
        "Too many sign-ups from your network. Try again in %(minutes)d minute.",
        "Too many sign-ups from your network. Try again in %(minutes)d minutes.",
        1,
    ) % {"minutes": 1}


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log in to it; a guest's drill answers come along."""
    if request.method != "POST":
        return render(request, "trainer/accounts/signup.html", {"form": SignupForm()})
    address = client_address(request)
    # The attempt and the account it may make take their places first, so that racing
    # sign-ups make no more than the limit; an account not made gives its place back.
    counters = [(SIGNUPS_PER_ADDRESS, address), (SIGNUP_ATTEMPTS_PER_ADDRESS, address)]
    if not reserve_all(counters):
        # Refused unchecked: checking would tell whether the name or address is taken.
        typed = {field: request.POST.get(field, "") for field in ("username", "email")}
        refusal = _signup_refusal(address) or _signup_refusal_now()
        context = {"form": SignupForm(initial=typed), "refusal": refusal}
        return render(request, "trainer/accounts/signup.html", context, status=429)
    form = SignupForm(request.POST)
    if not form.is_valid():
        SIGNUPS_PER_ADDRESS.release(address)
        return render(request, "trainer/accounts/signup.html", {"form": form}, status=400)
    user = form.save()
    login(request, user)  # the log-in signal moves the guest's answers
    return _remember_browser(redirect("trainer:drill"), user.get_username())


def _remember_browser(response: HttpResponse, username: str) -> HttpResponse:
    """Leave the signed cookie of a browser that has logged in as ``username``
    (`limits.DEVICE_COOKIE`): its log-ins are counted by themselves from now on."""
    response.set_cookie(
        DEVICE_COOKIE,
        device_cookie(username),
        max_age=DEVICE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response


class LoginView(auth_views.LoginView):
    """Django's log-in page with `LoginForm`; a locked-out attempt is answered 429."""

    authentication_form = LoginForm

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        """Log in, and remember this browser for the account."""
        return _remember_browser(super().form_valid(form), form.get_user().get_username())

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
        # Each request takes its place before any mail goes: racing requests send no more.
        if not reserve_all(counters):
            minutes = minutes_until(wait_for(counters))
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
    return render(request, "trainer/accounts/logout.html", {"form": form})
