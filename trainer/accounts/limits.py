"""How often a visitor may try to log in, sign up or reset a password, counted in the shared
cache (`trainer.shared.throttle`) so that every app server sees the same counts."""

from __future__ import annotations

import math

from trainer.shared.throttle import Throttle

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


def wait_for(counters: Counters) -> int:
    """Seconds until every one of these counters allows another attempt; 0 if all do."""
    return max(throttle.retry_after(who) for throttle, who in counters)


def minutes_until(seconds: int) -> int:
    return math.ceil(seconds / MINUTE)
