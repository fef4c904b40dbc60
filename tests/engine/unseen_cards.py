"""A table that differs from another only in cards no player has seen: what the hidden-card
property tests of the engine's public views (practice and live tables) and of the table's
page compare with."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.cards import CARDS
from engine.events import HoleCardRevealed
from engine.live_table import LiveTable
from engine.table import Table


def with_unseen_cards_replaced[AnyTable: (Table, LiveTable)](
    table: AnyTable, data: st.DataObject
) -> AnyTable:
    """The same table with every card no player has seen replaced by any card at all: the
    shoe's cards not yet dealt and, once dealt and while it is face down, the hole card."""
    state = table.to_json()
    shoe = state["round"]["shoe"] if "round" in state else state["shoe"]
    undealt = len(shoe["cards"]) - shoe["position"]
    codes = st.integers(0, len(CARDS) - 1)
    if undealt:
        shoe["cards"][shoe["position"] :] = data.draw(
            st.lists(codes, min_size=undealt, max_size=undealt), label="other undealt cards"
        )
    rnd = table.round
    if (
        rnd is not None
        and len(state["round"]["dealer"]) >= 2
        and not any(isinstance(e, HoleCardRevealed) for e in rnd.history())
    ):
        state["round"]["dealer"][1] = data.draw(codes, label="other hole card")
    return type(table).from_json(state)
