"""Card counting: counting systems, true counts, risk and the counter's measures.

The public names, for the trainer and the analyses that build on them:

- `engine.counting.systems`: `CountingSystem` (a frozen value: name, tag per rank, the
  initial running count of an unbalanced system, an ace side count), the presets
  (`HI_LO`, `KO`, `HI_OPT_I`, `HI_OPT_II`, `OMEGA_II`, `ZEN`, `WONG_HALVES`, `RED_7`,
  all in `SYSTEMS`, found by `system_named`), `custom_system` (tags a player gives,
  checked), `COUNT_RANKS` (the ranks as a count names them: "2" … "10", "A") and
  `count_rank` (a card's rank for counting), `CountingError`.
- `engine.counting.true_count`: `DeckEstimate`, `Conversion`, `TrueCountMethod` (with
  `DEFAULT_METHOD`, Hi-Lo's half-deck estimate and floor), `decks_remaining`,
  `true_count`.
- `engine.counting.index_table`: `IndexPlay` (row, up, play, otherwise, index: the
  ``indices`` command's entries), the book tables `I18` and `FAB_4`, `INDEX_TABLES`, and
  `parse_index_table` (entries from JSON, checked).
- `engine.counting.simulation`: `simulate_counter`, `CounterSettings`, `CounterResult`.
- `engine.counting.effects` (effects of removal), `engine.counting.ratings` (betting and
  insurance correlation) and `engine.counting.indices` (index plays computed): imported
  from their modules, as they run the exact analysis.
- `engine.counting.risk`: `simple_risk_of_ruin`, `risk_of_ruin_with_goal` (Hall's),
  `n0`, `desirability_index`, `score`, `optimal_bet_ramp` and the `BetRamp` it gives.

>>> from engine.counting import HI_LO, true_count
>>> HI_LO.running_count("2c 5d Kh 7s 3h")
Fraction(2, 1)
>>> true_count(5, cards_left=130)
2
"""

from __future__ import annotations

from engine.counting.risk import (
    BetRamp,
    desirability_index,
    n0,
    optimal_bet_ramp,
    risk_of_ruin_with_goal,
    score,
    simple_risk_of_ruin,
)
from engine.counting.systems import (
    COUNT_RANKS,
    HI_LO,
    HI_OPT_I,
    HI_OPT_II,
    KO,
    OMEGA_II,
    RED_7,
    SYSTEMS,
    WONG_HALVES,
    ZEN,
    CountingError,
    CountingSystem,
    count_rank,
    custom_system,
    system_named,
)
from engine.counting.true_count import (
    DEFAULT_METHOD,
    Conversion,
    DeckEstimate,
    TrueCountMethod,
    decks_remaining,
    true_count,
)

__all__ = [
    "COUNT_RANKS",
    "DEFAULT_METHOD",
    "HI_LO",
    "HI_OPT_I",
    "HI_OPT_II",
    "KO",
    "OMEGA_II",
    "RED_7",
    "SYSTEMS",
    "WONG_HALVES",
    "ZEN",
    "BetRamp",
    "Conversion",
    "CountingError",
    "CountingSystem",
    "DeckEstimate",
    "TrueCountMethod",
    "count_rank",
    "custom_system",
    "decks_remaining",
    "desirability_index",
    "n0",
    "optimal_bet_ramp",
    "risk_of_ruin_with_goal",
    "score",
    "simple_risk_of_ruin",
    "system_named",
    "true_count",
]
