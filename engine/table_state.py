"""What a table keeps beside its seats, as JSON: the round in play (or the last one played),
or between rounds the rules, the shoe and the balances themselves.

A round carries the rules, the shoe and the balances it shares with its table, so a table
with a round stores them once, inside it. The practice table (`engine.table`) and the live
table (`engine.live_table`) both keep their state this way.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.chips import Chips
from engine.round import Round
from engine.round_codec import chips_from_json, chips_to_json
from engine.rules import Rules
from engine.shoe import Shoe


def table_state_to_json(
    current: Round | None, rules: Rules, shoe: Shoe, balances: Mapping[str, Chips]
) -> dict[str, Any]:
    """The round as JSON values if there is one, else the rules, shoe and balances."""
    if current is not None:
        return {"round": current.to_json()}
    return {
        "rules": rules.to_json(),
        "shoe": shoe.to_json(),
        "balances": {owner: chips_to_json(chips) for owner, chips in balances.items()},
    }


def table_state_from_json(
    data: Mapping[str, Any], *, rng: random.Random | None
) -> tuple[Round | None, Rules, Shoe, dict[str, Chips]]:
    """The inverse of `table_state_to_json`: the round (or None), the rules, the shoe (its
    RNG given anew: it is not state) and the balances, shared with the round if any."""
    if "round" in data:
        current = Round.from_json(data["round"], rng=rng)
        if current.balances is None:
            raise ValueError("a table's round keeps the balances")
        return current, current.rules, current.shoe, current.balances
    balances = {str(owner): chips_from_json(chips) for owner, chips in data["balances"].items()}
    return None, Rules.from_json(data["rules"]), Shoe.from_json(data["shoe"], rng=rng), balances
