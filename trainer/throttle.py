"""Counting what a visitor does in a window of time, in Django's shared cache.

The counters live in the ``default`` cache (the database unless a deployment names
another backend), so every app server sees the same counts. A visitor is an account, or
for a guest the address the request came from (see `client_address`).
"""

from __future__ import annotations

import hashlib
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


@dataclass(frozen=True)
class Throttle:
    """At most ``limit`` events per key in ``window`` seconds (a fixed window that starts
    with the first event).

    A database cache counts with a read and a write, so two racing requests may both get
    through at the very limit: a throttle here bounds abuse, it is not a ledger.
    """

    scope: str
    limit: int
    window: int

    def _key(self, who: str) -> str:
        # Hashed: keys stay short and no address or name is stored in clear.
        return f"throttle:{self.scope}:{hashlib.sha256(who.encode()).hexdigest()[:32]}"

    def count(self, who: str) -> int:
        """Events counted for ``who`` in the current window."""
        return int(cache.get(self._key(who), 0))

    def exceeded(self, who: str) -> bool:
        """Whether ``who`` has used up the window's allowance."""
        return self.count(who) >= self.limit

    def record(self, who: str) -> int:
        """Count one event for ``who``; the count after it."""
        key = self._key(who)
        if cache.add(key, 1, timeout=self.window):
            return 1
        try:
            return int(cache.incr(key))
        except ValueError:  # expired between add and incr
            cache.add(key, 1, timeout=self.window)
            return 1

    def clear(self, who: str) -> None:
        cache.delete(self._key(who))
