"""Exceptions raised by the engine; each message is fit to show a player."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["EngineError", "IllegalActionError", "ShoeError", "StateError"]


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


class ShoeError(EngineError, ValueError):
    """A shoe that cannot be built or has run out of cards."""


class StateError(EngineError, ValueError):
    """A serialised state that does not describe a valid round or shoe."""
