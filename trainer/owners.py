"""Who owns drills: an account, or a guest known by a token in their session."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Owner:
    """Whose drills these are: an account, or a guest (by the token in their session)."""

    user_id: int | None
    guest_token: str

    def filter(self) -> dict[str, object]:
        if self.user_id is not None:
            return {"user_id": self.user_id}
        return {"user__isnull": True, "guest_token": self.guest_token}
