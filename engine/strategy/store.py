"""Where analyses are kept between processes, keyed by what the strategy depends on.

An analysis is computed once for a key and then read back by every process that asks:
from a folder of files by default (the command line), or from whatever store a host
installs with `use_store` (the web app keeps them in its database, so that every app
server sees them). A store only gets and puts bytes by key; this module decides the key
and the bytes.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from engine.rules import Rules
from engine.strategy import ActionEVs, AnalysisPending, Strategy, compute_strategy

__all__ = [
    "ANALYSIS_VERSION",
    "KEY_FIELDS",
    "NOT_IN_KEY",
    "DirectoryStore",
    "StrategyStore",
    "analyse_and_store",
    "current_store",
    "decode",
    "default_directory",
    "encode",
    "load_strategy",
    "rules_key",
    "store_used",
    "use_directory",
    "use_store",
]

#: Bump when the analysis changes what it computes, so that stored results are redone.
ANALYSIS_VERSION = 7

#: The rule fields a player's best decisions, their EVs or the edge depend on.
KEY_FIELDS: tuple[str, ...] = (
    "decks",
    "dealer_hits_soft_17",
    "dealer_peeks",
    "original_bets_only",
    "blackjack_pays",  # the edge values the player's naturals
    "double_on",
    "double_after_split",
    "max_hands",
    "resplit_aces",
    "hit_split_aces",
    "surrender",
    "surrender_vs_ace_or_ten",
)

#: The other rule fields, and why the analysis does not depend on them.
NOT_IN_KEY: dict[str, str] = {
    "name": "a label",
    "version": "a label",
    "penetration": "the analysis deals off the top of a full shoe",
    "burn": "the analysis deals off the top of a full shoe",
    "insurance": "a side decision the strategy always declines; never analysed",
    "insurance_pays": "insurance is never analysed",
    "short_balance_fallback": "only without the chips to double or split; the analysis "
    "assumes a player who has them",
    "max_seats": "other seats do not change one hand's odds off the top",
    "seats_per_account": "other seats do not change one hand's odds off the top",
    "bet_behind": "a bet on someone else's hand, settled apart",
    "pair_bet": "a side bet settled on the first two cards, apart from the hand",
    "perfect_pair_pays": "a side bet's payout",
    "coloured_pair_pays": "a side bet's payout",
    "mixed_pair_pays": "a side bet's payout",
}

Floats = npt.NDArray[np.float64]


def rules_key(rules: Rules) -> str:
    """A stable hash of the fields the analysis depends on, and of the analysis version:
    two rules that differ only in a name or a side bet share one analysis.

    >>> from engine.rules import EUROPEAN
    >>> rules_key(EUROPEAN) == rules_key(EUROPEAN.replace(name="house", pair_bet=True))
    True
    """
    values = rules.to_json()
    wanted = {field: values[field] for field in KEY_FIELDS}
    text = json.dumps({"analysis": ANALYSIS_VERSION, "rules": wanted}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class StrategyStore(Protocol):
    """Keeps encoded analyses by key; a miss is None. Both may be called from any thread."""

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, payload: bytes) -> None: ...


_configured: Path | None = None


def use_directory(directory: Path | None) -> None:
    """Keep analyses in ``directory`` from now on (for the folder store)."""
    global _configured
    _configured = directory


def default_directory() -> Path:
    """The folder given to `use_directory`, else ``$BLACKJACK_STRATEGY_CACHE``, else the
    user's cache folder."""
    if _configured is not None:
        return _configured
    configured = os.environ.get("BLACKJACK_STRATEGY_CACHE")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "blackjack-trainer" / "strategy"


class DirectoryStore:
    """One file per key in a folder (`default_directory` unless given one): the command
    line's store, shared by the processes of one machine."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory

    def _path(self, key: str) -> Path:
        return (self.directory or default_directory()) / f"{key}.json.z"

    def get(self, key: str) -> bytes | None:
        try:
            return self._path(key).read_bytes()
        except OSError:
            return None

    def put(self, key: str, payload: bytes) -> None:
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, suffix=".tmp") as out:
                out.write(payload)
            os.replace(out.name, path)  # atomic: readers never see half a file
        except OSError:
            pass  # a read-only disk only costs the next process a recomputation


def _always(rules: Rules) -> bool:
    return True


_store: StrategyStore = DirectoryStore()
_compute_inline: Callable[[Rules], bool] = _always


def use_store(store: StrategyStore, *, compute_inline: Callable[[Rules], bool] = _always) -> None:
    """Keep analyses in ``store`` from now on; ``compute_inline(rules)`` says whether a
    missing analysis may be computed by whoever asks for it (else `AnalysisPending`)."""
    global _store, _compute_inline
    _store, _compute_inline = store, compute_inline


def current_store() -> StrategyStore:
    """The store in use: other stored analyses (`engine.counting.index_store`) share it."""
    return _store


@contextmanager
def store_used(
    store: StrategyStore, *, compute_inline: Callable[[Rules], bool] = _always
) -> Iterator[StrategyStore]:
    """`use_store` for a while, then the store used before (for tests)."""
    previous = _store, _compute_inline
    use_store(store, compute_inline=compute_inline)
    try:
        yield store
    finally:
        use_store(previous[0], compute_inline=previous[1])


def load_strategy(rules: Rules) -> Strategy:
    """The analysis of ``rules`` from the store; else computed now and stored, where this
    process may compute it (see `use_store`)."""
    payload = _store.get(rules_key(rules))
    if payload is not None:
        try:
            return decode(rules, payload)
        except (ValueError, KeyError, TypeError):
            pass  # unreadable: computed again below, and replaced
    if not _compute_inline(rules):
        raise AnalysisPending(rules)
    return analyse_and_store(rules)


def analyse_and_store(rules: Rules) -> Strategy:
    """Compute the analysis of ``rules`` now and put it in the store."""
    strategy = compute_strategy(rules)
    _store.put(rules_key(rules), encode(strategy))
    return strategy


def encode(strategy: Strategy) -> bytes:
    """An analysis as bytes (about 420 kB): a JSON header with the chart and the edges,
    then the EVs as little-endian arrays (`_tables`) — an array is written and read back
    in a few milliseconds, where the same floats as JSON text took a tenth of a second
    to write and compress."""
    multi_card = strategy.multi_card_evs
    header = json.dumps(
        {
            "chart": strategy.chart,
            "expected_return": strategy.expected_return,
            "cd_expected_return": strategy.cd_expected_return,
            "multi_card_hands": len(multi_card),
        },
        separators=(",", ":"),
    ).encode()
    two_card = [
        [math.nan if ev is None else ev for ev in strategy.evs[key].as_dict().values()]
        for key in _TWO_CARD_KEYS
    ]
    arrays = (
        np.array(two_card, dtype=_FLOAT),
        np.array(list(multi_card), dtype=np.uint8),
        np.array(list(multi_card.values()), dtype=_FLOAT),
    )
    return b"".join([len(header).to_bytes(4, "little"), header, *(a.tobytes() for a in arrays)])


def decode(rules: Rules, payload: bytes) -> Strategy:
    """The inverse of `encode`, as the analysis of ``rules``; ValueError if the bytes are
    not an encoded analysis."""
    size = int.from_bytes(payload[:4], "little")
    data: dict[str, Any] = json.loads(payload[4 : 4 + size])
    two_card, counts, multi_card = _tables(payload[4 + size :], int(data["multi_card_hands"]))
    return Strategy(
        rules=rules,
        chart={row: dict(cells) for row, cells in data["chart"].items()},
        evs={
            key: _action_evs(values)
            for key, values in zip(_TWO_CARD_KEYS, two_card.tolist(), strict=True)
        },
        multi_card_evs={
            tuple(hand): tuple(map(tuple, by_up))
            for hand, by_up in zip(counts.tolist(), multi_card.tolist(), strict=True)
        },
        expected_return=float(data["expected_return"]),
        cd_expected_return=float(data["cd_expected_return"]),
    )


def _action_evs(values: list[float]) -> ActionEVs:
    stand, hit, double, split, surrender = (None if math.isnan(ev) else ev for ev in values)
    if stand is None or hit is None:  # always allowed
        raise ValueError("not an encoded analysis")
    return ActionEVs(stand, hit, double, split, surrender)


#: Little-endian, so that a payload reads the same on any machine.
_FLOAT = np.dtype("<f8")
#: The two-card EVs' keys, in the order `encode` writes them: (lower rank, higher, up).
_TWO_CARD_KEYS = [
    (first, second, up) for first in range(10) for second in range(first, 10) for up in range(10)
]


def _tables(body: bytes, hands: int) -> tuple[Floats, npt.NDArray[np.uint8], Floats]:
    """The arrays after the header: the two-card EVs (key, action as `ActionEVs`, NaN where
    not allowed), the rank counts of the hands of three or more cards, and their (stand,
    hit) EVs by up card."""
    two_card_size = len(_TWO_CARD_KEYS) * 5 * _FLOAT.itemsize
    counts_size = hands * 10
    if len(body) != two_card_size + counts_size + hands * 10 * 2 * _FLOAT.itemsize:
        raise ValueError("not an encoded analysis")
    two_card = np.frombuffer(body, _FLOAT, len(_TWO_CARD_KEYS) * 5).reshape(-1, 5)
    counts = np.frombuffer(body, np.uint8, counts_size, two_card_size).reshape(hands, 10)
    multi_card = np.frombuffer(body, _FLOAT, offset=two_card_size + counts_size)
    return two_card, counts, multi_card.reshape(hands, 10, 2)
