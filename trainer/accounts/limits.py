"""How often a visitor may try to log in, sign up or reset a password, counted in the
database (`trainer.shared.throttle`) so that every app server sees the same counts."""

from __future__ import annotations

import math
import secrets

from django.core import signing
from django.http import HttpRequest

from trainer.shared.throttle import Throttle

MINUTE = 60
HOUR = 60 * MINUTE


#: Failed log-ins (docs/decisions.md, issue 25). Ten for one name from one address within
#: 15 minutes lock that name at that address for 15 minutes from the tenth: enough for a
#: forgetful player, too few to guess with; failures elsewhere never lock its owner out.
LOGIN_FAILURES_PER_NAME_AND_ADDRESS = Throttle(
    "login-name-address", limit=10, window=15 * MINUTE, lockout=15 * MINUTE
)


#: Thirty from one address, whatever the names, lock the address: guessing one password
#: for many names is bounded too, while a shared network's slips do not lock it at ten.
LOGIN_FAILURES_PER_ADDRESS = Throttle(
    "login-address", limit=30, window=15 * MINUTE, lockout=15 * MINUTE
)


#: A browser that has logged in to the account before (`DEVICE_COOKIE`) is counted by
#: itself: others' failures never lock it out, and its own ten lock only it.
LOGIN_FAILURES_PER_DEVICE = Throttle(
    "login-device", limit=10, window=15 * MINUTE, lockout=15 * MINUTE
)

#: The signed cookie a successful log-in leaves: the account's name (case-folded) and a
#: random name for the browser. A year, renewed at every log-in.
DEVICE_COOKIE = "trusted_device"
DEVICE_AGE = 365 * 24 * HOUR
_DEVICE_SALT = "trainer.accounts.device"


def device_cookie(username: str) -> str:
    """The cookie's value for a browser that has just logged in as ``username``."""
    return signing.dumps([username.casefold(), secrets.token_urlsafe(16)], salt=_DEVICE_SALT)


def device_of(request: HttpRequest, username: str) -> str | None:
    """The browser's name if it has logged in as ``username`` before (a cookie signed
    here, for that account, within `DEVICE_AGE`); None otherwise."""
    value = request.COOKIES.get(DEVICE_COOKIE)
    if not value:
        return None
    try:
        name, device = signing.loads(value, salt=_DEVICE_SALT, max_age=DEVICE_AGE)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    return str(device) if name == username.casefold() else None


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


def wait_for(counters: Counters) -> int:
    """Seconds until every one of these counters allows another attempt; 0 if all do."""
    return max(throttle.retry_after(who) for throttle, who in counters)


def minutes_until(seconds: int) -> int:
    return max(1, math.ceil(seconds / MINUTE))
