"""Exceptions raised by the engine; each message is fit to show a player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.rules import Allowed

__all__ = ["EngineError", "IllegalActionError", "RulesError", "ShoeError", "StateError"]


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalActionError(EngineError, ValueError):
    """An action that the rules or the round's state do not allow; nothing was changed.

    The message is English; the reason's ``code`` (`engine.refusals.REFUSALS`) and its
    ``params`` are kept so that an app can say the same in its player's language.
    """

    def __init__(
        self, message: str, *, code: str, params: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params: Mapping[str, object] = params or {}


class RulesError(EngineError, ValueError):
    """A `Rules` value out of a field's range, contradicting itself, or naming an unknown
    field or preset.

    The message is English (the command line shows it); the parts it is made of are kept
    so that an app can say the same in its player's language.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        code: str,
        allowed: Allowed | None = None,
    ) -> None:
        super().__init__(message)
        #: The field at fault (for ``unknown_field``, the name given).
        self.field = field
        #: What is wrong: ``range``, ``unknown_field``, ``unknown_preset``, or the name of a
        #: contradiction (``original_bets_with_peek``, ``resplit_aces_hands``,
        #: ``seats_over_max``).
        self.code = code
        #: For ``range``: the field's range (`engine.rules.ALLOWED`).
        self.allowed = allowed


class ShoeError(EngineError, ValueError):
    """A shoe that cannot be built or has run out of cards."""


class StateError(EngineError, ValueError):
    """A serialised state that does not describe a valid round or shoe."""
