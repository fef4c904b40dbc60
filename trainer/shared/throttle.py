"""Counting what a visitor does in a window of time, in the database.

The counters are rows of `ThrottleCount`, so every app server sees the same counts, each
changed by one atomic statement, and none is evicted as a cache's entries may be. A
visitor is an account, or for a guest the address the request came from (see
`client_address`).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.db.models import F
from django.http import HttpRequest

from trainer.models import ThrottleCount


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

    With a ``lockout``, the failure that reaches the limit (`record`, `locked_if_reached`)
    also holds the count for that many seconds from itself, so a visitor locked out late
    in a window still waits the whole lockout rather than only what was left of it.

    Each count is one row of `ThrottleCount`, changed by one atomic statement (an upsert
    that returns the count after it): of racing requests each counts, so a limit of 10
    lets 10 through and no more. An attempt that must not be let through beyond the
    limit takes its place first (`reserve`) and gives it back if it should not count
    (`release`).
    """

    scope: str
    limit: int
    window: int
    lockout: int = 0

    def _key(self, who: str) -> str:
        # Hashed: keys stay short and no address or name is stored in clear.
        return f"{self.scope}:{hashlib.sha256(who.encode()).hexdigest()[:32]}"

    def _counter(self, who: str) -> tuple[int, float]:
        """The count and the end of the current window; (0, now) when there is none."""
        moment = now()
        row = ThrottleCount.objects.filter(key=self._key(who), ends__gt=moment)
        found = row.values_list("count", "ends").first()
        return (int(found[0]), float(found[1])) if found else (0, moment)

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

    def _add(self, who: str) -> int:
        """Count one event for ``who`` in one statement (a new window if the last one
        ended); the count after it."""
        moment = now()
        table = connection.ops.quote_name(ThrottleCount._meta.db_table)
        # The same statement on PostgreSQL and SQLite (3.35 and later).
        with connection.cursor() as cursor:
            cursor.execute(
                f'INSERT INTO {table} AS t ("key", "count", "ends") VALUES (%s, 1, %s) '
                'ON CONFLICT ("key") DO UPDATE SET '
                '"count" = CASE WHEN t."ends" <= %s THEN 1 ELSE t."count" + 1 END, '
                '"ends" = CASE WHEN t."ends" <= %s THEN excluded."ends" ELSE t."ends" END '
                'RETURNING "count"',
                [self._key(who), moment + self.window, moment, moment],
            )
            return int(cursor.fetchone()[0])

    def record(self, who: str) -> int:
        """Count one event for ``who``; the count after it."""
        count = self._add(who)
        if self.lockout and count >= self.limit:
            self._lock(who)
        return count

    def reserve(self, who: str) -> bool:
        """Count an attempt before it is made: whether it is within the limit. One that is
        not is not counted (it is refused unmade)."""
        if self._add(who) <= self.limit:
            return True
        self.release(who)
        return False

    def release(self, who: str) -> None:
        """Take back one reserved attempt that turned out not to count."""
        ThrottleCount.objects.filter(key=self._key(who), count__gt=0).update(count=F("count") - 1)

    def locked_if_reached(self, who: str) -> None:
        """After a reserved attempt failed: start the lockout if it reached the limit."""
        if self.lockout and self.count(who) >= self.limit:
            self._lock(who)

    def _lock(self, who: str) -> None:
        until = now() + self.lockout
        ThrottleCount.objects.filter(key=self._key(who), ends__lt=until).update(ends=until)

    def clear(self, who: str) -> None:
        """Forget every event counted for ``who``."""
        ThrottleCount.objects.filter(key=self._key(who)).delete()


def reserve_all(counters: Sequence[tuple[Throttle, str]]) -> bool:
    """Reserve an attempt on every counter (`Throttle.reserve`), or on none: whether all
    had room. The ones reserved before one without room are released."""
    taken: list[tuple[Throttle, str]] = []
    for throttle, who in counters:
        if not throttle.reserve(who):
            for earlier, whom in taken:
                earlier.release(whom)
            return False
        taken.append((throttle, who))
    return True


def throttles_forget_ended(*, before: float) -> int:
    """Delete the counts whose window ended before ``before``; how many."""
    deleted, _ = ThrottleCount.objects.filter(ends__lt=before).delete()
    return deleted
