"""Exceptions raised by the engine; each message is fit to show a player."""

from __future__ import annotations

__all__ = ["EngineError", "IllegalActionError", "RulesError", "ShoeError", "StateError"]


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalActionError(EngineError, ValueError):
    """An action that the rules or the round's state do not allow; nothing was changed."""


class RulesError(EngineError, ValueError):
    """A `Rules` value that contradicts itself or names an unknown field."""


class ShoeError(EngineError, ValueError):
    """A shoe that cannot be built or has run out of cards."""


class StateError(EngineError, ValueError):
    """A serialised state that does not describe a valid round or shoe."""
