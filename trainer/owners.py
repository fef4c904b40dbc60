"""Who owns drills: an account, or a guest known by a token in their session."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class Owned(Protocol):
    """A record of one player's (`trainer.models.PlayerRecord`)."""

    user_id: int | None
    guest_token: str


@dataclass(frozen=True)
class Owner:
    """Whose drills these are: an account, or a guest (by the token in their session)."""

    user_id: int | None
    guest_token: str

    def filter(self) -> dict[str, object]:
        if self.user_id is not None:
            return {"user_id": self.user_id}
        return {"user__isnull": True, "guest_token": self.guest_token}

    def owns(self, record: Owned) -> bool:
        """Whether the record is this owner's: what `filter` asks of a query, for a record
        read without it (`trainer.answer_queries.answered_drill`)."""
        if self.user_id is not None:
            return record.user_id == self.user_id
        return record.user_id is None and record.guest_token == self.guest_token
