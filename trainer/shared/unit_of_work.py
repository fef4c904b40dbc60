"""The one way a table changes: loaded locked, checked, changed in memory, saved once.

A practice table and a live table are each an aggregate: a row holding the engine's table
as JSON with a version number, and records written beside it (rounds, decisions, bets).
`changing` runs one request against one of them in a transaction: it loads the aggregate
(its row locked, so a racing request waits, then reads what this one wrote), lets the
caller check and change it (the engine decides), and saves it once. Whatever is refused
carries the table as it stood before the request, for the page to show; anything that
fails half-way rolls the whole transaction back and is refused as "Something went wrong",
never let through as an error.

A change no player asked for has nothing to refuse: a passed deadline applied to a live
table (`trainer.live.services.apply_deadlines`), or an open practice table ended as
another opens or a guest logs in (`trainer.practice.services`). Those lock and save the
same aggregates in a transaction of their own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from django.db import transaction
from django.utils.translation import gettext as _

from engine.errors import IllegalActionError
from trainer.shared.refusals import refusal

logger = logging.getLogger(__name__)


class Refused(Exception):
    """A request a table cannot take; its message is fit to show the player.

    ``shown`` is the table as it stands once the request is undone, when it was read on
    the way (a practice table's or a live table's snapshot): the page shows it without
    reading the table again.
    """

    def __init__(self, message: str, *, shown: Any = None) -> None:
        super().__init__(message)
        self.shown = shown


class Moved(Refused):
    """The request was made from an older state of the table (another tab, a double
    click, a replay)."""


class NotFound(Refused):
    """No table of this owner's has that id (someone else's, or none): a 404."""


class Aggregate(Protocol):
    """A table while one request changes it."""

    def snapshot(self) -> object:
        """What a page is built from, as the table stands now."""

    def save(self) -> None:
        """Write the change once, one version on from the version loaded."""


@contextmanager
def changing[A: Aggregate](load: Callable[[], A], *, name: str) -> Iterator[A]:
    """The aggregate ``load`` returns (locking its row), to check and change, then saved,
    whole or not at all. ``name`` says which table in the log when a change fails.

    The engine's `IllegalActionError` is refused in the player's words; a `Refused` raised
    by the caller gets the table as it stood; any other failure is logged and refused.
    """
    shown: object | None = None
    try:
        with transaction.atomic():
            aggregate = load()
            shown = aggregate.snapshot()
            try:
                yield aggregate
            except IllegalActionError as error:
                raise Refused(refusal(error), shown=shown) from None
            except Refused as refused:
                refused.shown = refused.shown or shown
                raise
            aggregate.save()
    except Refused:
        raise
    except Exception:
        # A fault of ours (or a stacked shoe run out): the transaction is rolled back, so
        # the table is as it was; the player is told, the operator gets the traceback.
        logger.exception("%s: a change failed and was undone", name)
        raise Refused(
            _("Something went wrong at the table. Nothing was changed."), shown=shown
        ) from None
