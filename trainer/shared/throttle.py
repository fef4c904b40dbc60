"""Counting what a visitor does in a window of time, in Django's shared cache.

The counters live in the ``default`` cache (the database unless a deployment names
another backend), so every app server sees the same counts. A visitor is an account, or
for a guest the address the request came from (see `client_address`).
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The address a request came from: the proxy's word for it only where the deployment
    says its proxy sets ``X-Forwarded-For`` (any client could claim one otherwise)."""
    if settings.TRUST_X_FORWARDED_FOR:
        forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", ""))
        # The proxy appends the address it saw; earlier entries are the client's own word.
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last
    return str(request.META.get("REMOTE_ADDR", ""))


def now() -> float:
    """The throttles' clock, in seconds since the epoch (tests move it forward)."""
    return time.time()


@dataclass(frozen=True)
class Throttle:
    """At most ``limit`` events per key in ``window`` seconds (a fixed window that starts
    with the first event).

    With a ``lockout``, the event that reaches the limit also holds the count for that
    many seconds from itself, so a visitor locked out late in a window still waits the
    whole lockout rather than only what was left of the window.

    A counter is the count and the moment its window ends, kept under one key: the end
    must be kept in the value because some backends (the database cache among them)
    reset a key's expiry each time it is incremented. Counting is a read and a write, so
    requests racing on one key may count as one: a throttle here bounds abuse within a
    factor of the number of concurrent workers, it is not a ledger.
    """

    scope: str
    limit: int
    window: int
    lockout: int = 0

    def _key(self, who: str) -> str:
        # Hashed: keys stay short and no address or name is stored in clear.
        return f"throttle:{self.scope}:{hashlib.sha256(who.encode()).hexdigest()[:32]}"

    def _counter(self, who: str) -> tuple[int, float]:
        """The count and the end of the current window; (0, now) when there is none."""
        moment = now()
        stored = cache.get(self._key(who))
        # Anything else under the key (a value written by an older version) counts as none.
        if isinstance(stored, tuple) and len(stored) == 2 and stored[1] > moment:
            return int(stored[0]), float(stored[1])
        return 0, moment

    def count(self, who: str) -> int:
        """Events counted for ``who`` in the current window."""
        return self._counter(who)[0]

    def exceeded(self, who: str) -> bool:
        """Whether ``who`` has used up the window's allowance."""
        return self.count(who) >= self.limit

    def retry_after(self, who: str) -> int:
        """Whole seconds until ``who`` may act again; 0 if they may now."""
        count, ends = self._counter(who)
        if count < self.limit:
            return 0
        return max(1, math.ceil(ends - now()))

    def record(self, who: str) -> int:
        """Count one event for ``who``; the count after it."""
        count, ends = self._counter(who)
        moment = now()
        if count == 0:
            ends = moment + self.window
        count += 1
        if self.lockout and count >= self.limit:
            ends = max(ends, moment + self.lockout)
        cache.set(self._key(who), (count, ends), timeout=math.ceil(ends - moment))
        return count

    def clear(self, who: str) -> None:
        """Forget every event counted for ``who``."""
        cache.delete(self._key(who))
