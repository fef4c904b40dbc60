"""Whose data a request sees: an account, or a guest known by a token in their session.

Every record of a player's (drills, practice sessions, bets) names its owner in two
columns, ``user`` and ``guest_token``; the engine's tables name the people at them by a
string (``account 17``, ``guest <token>``; ``bot 3`` for a bot). `Owner` is the one value
that stands for both, so no code parses those strings but `Owner.named`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.dispatch import Signal
from django.http import HttpRequest

#: Where a guest's token is kept in their session.
GUEST_KEY = "guest_owner"
_ACCOUNT = "account "
#: How a guest's name begins at a table (``guest <token>``).
GUEST_PREFIX = _GUEST = "guest "

#: Sent when a guest logs in (sign-up logs in too), with ``guest_token`` and ``user_id``:
#: each feature gives the account what the guest left there (`TrainerConfig.ready`
#: connects them).
guest_adopted = Signal()


@dataclass(frozen=True)
class Owner:
    """An account (``user_id``), or a guest (``user_id`` None, by the token in their
    session)."""

    user_id: int | None
    guest_token: str

    @classmethod
    def account(cls, user_id: int) -> Owner:
        return cls(user_id=user_id, guest_token="")

    @classmethod
    def guest(cls, token: str) -> Owner:
        return cls(user_id=None, guest_token=token)

    @classmethod
    def named(cls, name: str) -> Owner | None:
        """The person the engine names ``name`` at a table; None for a bot.

        >>> Owner.named("account 17"), Owner.named("bot 3")
        (Owner(user_id=17, guest_token=''), None)
        """
        if name.startswith(_ACCOUNT):
            return cls.account(int(name.removeprefix(_ACCOUNT)))
        if name.startswith(_GUEST):
            return cls.guest(name.removeprefix(_GUEST))
        return None

    @property
    def name(self) -> str:
        """The engine's name for this person at a table (`named` reads it back)."""
        if self.user_id is not None:
            return f"{_ACCOUNT}{self.user_id}"
        return f"{_GUEST}{self.guest_token}"

    def filter(self) -> dict[str, object]:
        """The lookups that select this owner's records."""
        if self.user_id is not None:
            return {"user_id": self.user_id}
        return {"user__isnull": True, "guest_token": self.guest_token}

    def fields(self) -> dict[str, object]:
        """The owner columns of a record of this owner's, to create it with."""
        return {"user_id": self.user_id, "guest_token": self.guest_token}


def owner_of(request: HttpRequest) -> Owner:
    """The account owning this request's records, or for a guest a token kept in the
    session, issued on their first request (the only write here, to the session).

    The token lives in the session's data, not its key, because logging in gives the
    session a new key: that way the guest's records can follow them into their account.
    """
    if request.user.is_authenticated:
        return Owner.account(request.user.pk)
    token = request.session.get(GUEST_KEY)
    if token is None:
        token = request.session[GUEST_KEY] = secrets.token_urlsafe(24)
    return Owner.guest(token)


def owner_known(request: HttpRequest) -> Owner | None:
    """The request's owner if it has one already, writing nothing: None for a visitor whose
    session holds no guest token (a first visit, a crawler)."""
    if request.user.is_authenticated:
        return Owner.account(request.user.pk)
    token = request.session.get(GUEST_KEY)
    return None if token is None else Owner.guest(token)


def owner_as_guest(request: HttpRequest, token: str) -> Owner:
    """Make a visitor without a guest token the guest ``token`` names (a token drawn for
    them, and signed, before anything was stored): their first write."""
    request.session[GUEST_KEY] = token
    return Owner.guest(token)
