"""Counting systems as values: a tag per rank, and the running count they keep.

A system tags the ranks as a count names them (`COUNT_RANKS`: "2" … "9", "10" for every
ten-valued card, "A"). Tags are `Fraction`s, so Wong Halves' halves stay exact. Red 7
tags a card by its colour too: `CountingSystem.red_tags` holds the tags that red cards of
a rank take instead of the rank's own.

An unbalanced system (its tags over a deck do not add to 0) starts from an initial running
count that depends on the decks in the shoe: ``initial_per_deck × decks + initial_offset``
(KO: −4 × (decks − 1); Red 7: −2 × decks).

>>> HI_LO.tag("Kh"), WONG_HALVES.tag("5c"), RED_7.tag("7d"), RED_7.tag("7s")
(Fraction(-1, 1), Fraction(3, 2), Fraction(1, 1), Fraction(0, 1))
>>> HI_LO.balanced, KO.balanced, KO.initial_count(6)
(True, False, Fraction(-20, 1))
>>> KO.running_count("2c 7d", decks=6)
Fraction(-18, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from engine.cards import CARDS, Card
from engine.errors import EngineError

__all__ = [
    "COUNT_RANKS",
    "HI_LO",
    "HI_OPT_I",
    "HI_OPT_II",
    "KO",
    "OMEGA_II",
    "RED_7",
    "SYSTEMS",
    "WONG_HALVES",
    "ZEN",
    "CountingError",
    "CountingSystem",
    "count_rank",
    "custom_system",
    "system_named",
]

#: The ranks as a count names them: every ten-valued card is "10".
COUNT_RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")

#: Cards of each count rank in one deck.
_PER_DECK = {rank: 16 if rank == "10" else 4 for rank in COUNT_RANKS}
_ALIASES = {"T": "10", "t": "10", "a": "A"}
#: The largest tag a custom system may give (every published system stays within ±3).
_MAX_TAG = 4


class CountingError(EngineError, ValueError):
    """A counting system, tag or true-count setting that cannot be used; nothing changed."""


def count_rank(card: Card) -> str:
    """The rank a count sees: J, Q and K are tagged as 10.

    >>> count_rank(Card("Q", "h")), count_rank(Card("A", "s"))
    ('10', 'A')
    """
    return "10" if card.rank in ("J", "Q", "K") else card.rank


@dataclass(frozen=True, slots=True)
class CountingSystem:
    """A card counting system: a tag for each of `COUNT_RANKS`, in that order.

    >>> ZEN.tags_by_rank["10"], ZEN.imbalance
    (Fraction(-2, 1), Fraction(0, 1))
    """

    #: The name a player reads ("Hi-Lo").
    name: str
    #: A short key for the command line and URLs ("hi-lo").
    key: str
    #: One tag per rank of `COUNT_RANKS`.
    tags: tuple[Fraction, ...]
    #: Tags that the red cards of a rank take instead of the rank's tag (Red 7's sevens).
    red_tags: tuple[tuple[str, Fraction], ...] = ()
    #: Played with a separate count of the aces (Hi-Opt I and II).
    ace_side_count: bool = False
    initial_per_deck: Fraction = Fraction(0)
    initial_offset: Fraction = Fraction(0)

    @property
    def tags_by_rank(self) -> dict[str, Fraction]:
        """Each count rank's tag (a black card's, where red cards differ)."""
        return dict(zip(COUNT_RANKS, self.tags, strict=True))

    @property
    def imbalance(self) -> Fraction:
        """What the tags of one whole deck add up to: 0 for a balanced system."""
        red = dict(self.red_tags)
        total = Fraction(0)
        for rank, tag in zip(COUNT_RANKS, self.tags, strict=True):
            if rank in red:  # two red and two black cards of a rank other than 10
                total += 2 * tag + 2 * red[rank]
            else:
                total += _PER_DECK[rank] * tag
        return total

    @property
    def balanced(self) -> bool:
        """The tags of a deck add up to 0, so a full shoe counts down to 0."""
        return self.imbalance == 0

    def initial_count(self, decks: int) -> Fraction:
        """The running count at the start of a shoe of ``decks`` decks (0 if balanced).

        >>> RED_7.initial_count(2), HI_LO.initial_count(8)
        (Fraction(-4, 1), Fraction(0, 1))
        """
        return self.initial_per_deck * decks + self.initial_offset

    def tag(self, card: Card | str) -> Fraction:
        """A card's tag; a card is a `Card` or text such as ``"7d"``."""
        card = Card.parse(card) if isinstance(card, str) else card
        rank = count_rank(card)
        if card.colour == "red":
            for red_rank, red_tag in self.red_tags:
                if red_rank == rank:
                    return red_tag
        return self.tags[COUNT_RANKS.index(rank)]

    def tags_by_code(self) -> tuple[Fraction, ...]:
        """Each card code's tag (see `engine.cards`): what a simulation looks up."""
        return tuple(self.tag(card) for card in CARDS)

    def running_count(self, cards: Iterable[Card] | str, *, decks: int | None = None) -> Fraction:
        """The count after seeing ``cards``: their tags, plus the initial count of a shoe
        of ``decks`` decks (needed by an unbalanced system, whose count starts below 0).

        >>> HI_LO.running_count("As Kd 5h 5c 5d")
        Fraction(1, 1)
        >>> KO.running_count("As")
        Traceback (most recent call last):
        ...
        engine.counting.systems.CountingError: KO is unbalanced: say how many decks the shoe has
        """
        if decks is None:
            if not self.balanced:
                raise CountingError(f"{self.name} is unbalanced: say how many decks the shoe has")
            start = Fraction(0)
        else:
            start = self.initial_count(decks)
        words = cards.replace(",", " ").split() if isinstance(cards, str) else cards
        return start + sum((self.tag(card) for card in words), Fraction(0))


def _system(
    name: str,
    key: str,
    tags: str,
    *,
    red_tags: tuple[tuple[str, Fraction], ...] = (),
    ace_side_count: bool = False,
    initial_per_deck: int = 0,
    initial_offset: int = 0,
) -> CountingSystem:
    return CountingSystem(
        name=name,
        key=key,
        tags=tuple(Fraction(tag) for tag in tags.split()),
        red_tags=red_tags,
        ace_side_count=ace_side_count,
        initial_per_deck=Fraction(initial_per_deck),
        initial_offset=Fraction(initial_offset),
    )


#                        2    3    4    5    6    7    8    9    10   A
HI_LO = _system("Hi-Lo", "hi-lo", "1 1 1 1 1 0 0 0 -1 -1")
KO = _system("KO", "ko", "1 1 1 1 1 1 0 0 -1 -1", initial_per_deck=-4, initial_offset=4)
HI_OPT_I = _system("Hi-Opt I", "hi-opt-i", "0 1 1 1 1 0 0 0 -1 0", ace_side_count=True)
HI_OPT_II = _system("Hi-Opt II", "hi-opt-ii", "1 1 2 2 1 1 0 0 -2 0", ace_side_count=True)
OMEGA_II = _system("Omega II", "omega-ii", "1 1 2 2 2 1 0 -1 -2 0")
ZEN = _system("Zen", "zen", "1 1 2 2 2 1 0 0 -2 -1")
WONG_HALVES = _system("Wong Halves", "wong-halves", "1/2 1 1 3/2 1 1/2 0 -1/2 -1 -1")
RED_7 = _system(
    "Red 7",
    "red-7",
    "1 1 1 1 1 0 0 0 -1 -1",
    red_tags=(("7", Fraction(1)),),
    initial_per_deck=-2,
)

#: The presets by key.
SYSTEMS: dict[str, CountingSystem] = {
    system.key: system
    for system in (HI_LO, KO, HI_OPT_I, HI_OPT_II, OMEGA_II, ZEN, WONG_HALVES, RED_7)
}


def system_named(key: str) -> CountingSystem:
    """A preset by its key or name, in any case.

    >>> system_named("Omega II").key
    'omega-ii'
    """
    wanted = key.strip().lower().replace(" ", "-")
    if wanted in SYSTEMS:
        return SYSTEMS[wanted]
    raise CountingError(f"unknown counting system {key!r}: choose one of {', '.join(SYSTEMS)}")


def custom_system(
    tags: Mapping[str, object],
    *,
    name: str = "Custom",
    red_tags: Mapping[str, object] | None = None,
    ace_side_count: bool = False,
    initial_per_deck: object = None,
    initial_offset: object = 0,
) -> CountingSystem:
    """A system from the tags a player gives, keyed by rank ("2" … "10" or "T", "A").

    Each tag is a whole or half number from −4 to +4 (``1``, ``"-1/2"``, ``"1.5"``). An
    unbalanced system starts by default at minus its imbalance per deck times the decks,
    so that a whole shoe counts back to 0 (as Red 7 does); give ``initial_per_deck`` and
    ``initial_offset`` for another start (KO's is −4 and +4).

    >>> tags = dict(zip(COUNT_RANKS, "1 1 1 1 1 1 0 0 -1 -1".split()))
    >>> mine = custom_system(tags, name="My KO", initial_per_deck=-4, initial_offset=4)
    >>> mine.tags == KO.tags, mine.initial_count(2)
    (True, Fraction(-4, 1))
    >>> custom_system({**tags, "9": "x"})
    Traceback (most recent call last):
    ...
    engine.counting.systems.CountingError: the tag of 9 is not a number: 'x'
    """
    by_rank = _ranked(tags, "tags")
    missing = [rank for rank in COUNT_RANKS if rank not in by_rank]
    if missing:
        raise CountingError(f"no tag given for {', '.join(missing)}")
    values = tuple(by_rank[rank] for rank in COUNT_RANKS)
    if not any(values):
        raise CountingError("every tag is 0: a system must count some cards")
    reds = _ranked(red_tags or {}, "red tags")
    if "10" in reds:
        raise CountingError("red tags are for ranks 2 to 9 and A, not the tens")
    if not name.strip():
        raise CountingError("a counting system needs a name")
    system = CountingSystem(
        name=name.strip(),
        key="custom",
        tags=values,
        red_tags=tuple((rank, reds[rank]) for rank in COUNT_RANKS if rank in reds),
        ace_side_count=ace_side_count,
    )
    if system.balanced:
        if initial_per_deck not in (None, 0) or initial_offset != 0:
            raise CountingError("a balanced system starts at 0: give no initial count")
        return system
    per_deck = (
        -system.imbalance
        if initial_per_deck is None
        else _number(initial_per_deck, "the initial count per deck")
    )
    offset = _number(initial_offset, "the initial count's offset")
    return CountingSystem(
        name=system.name,
        key=system.key,
        tags=system.tags,
        red_tags=system.red_tags,
        ace_side_count=ace_side_count,
        initial_per_deck=per_deck,
        initial_offset=offset,
    )


def _ranked(tags: Mapping[str, object], what: str) -> dict[str, Fraction]:
    ranked: dict[str, Fraction] = {}
    for given, value in tags.items():
        rank = _ALIASES.get(str(given).strip(), str(given).strip())
        if rank not in COUNT_RANKS:
            raise CountingError(
                f"not a rank in the {what}: {given!r} (write 2 to 10 and A; J, Q and K count as 10)"
            )
        if rank in ranked:
            raise CountingError(f"{rank} is tagged twice in the {what}")
        tag = _number(value, f"the tag of {rank}")
        if tag.denominator not in (1, 2) or abs(tag) > _MAX_TAG:
            raise CountingError(
                f"{_show(tag)} cannot be the tag of {rank}: a tag is a whole or half "
                f"number from -{_MAX_TAG} to +{_MAX_TAG}"
            )
        ranked[rank] = tag
    return ranked


def _number(value: object, what: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | Fraction | str | float):
        raise CountingError(f"{what} is not a number: {value!r}")
    try:
        return Fraction(value.strip() if isinstance(value, str) else value)
    except (ValueError, ZeroDivisionError, OverflowError):
        raise CountingError(f"{what} is not a number: {value!r}") from None


def _show(tag: Fraction) -> str:
    return str(tag.numerator) if tag.denominator == 1 else f"{float(tag):g}"
