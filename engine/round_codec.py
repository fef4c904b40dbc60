"""A round's state and history as JSON values, and back.

Two forms, for two readers:

* The round's whole state (`seat_to_json`, `event_to_json` and their inverses, which
  `Round.to_json` assembles): server-side only, the shoe and the hole card included.
  Cards are codes and each event a short list, ``["card", seat, hand, code]``, so that a
  stored table stays small; rounds stored in this form are read back as they were
  written.
* The public history (`history_to_json`, `history_from_json`): what the players saw,
  kept with a played round — one object per event, cards as text (``"As"``), chips exact
  (``"15"``, ``"45/2"``).

>>> from engine.cards import CARDS
>>> event = CardDealt(1, 0, CARDS[51])
>>> event_to_json(event), event_from_json(event_to_json(event)) == event
(['card', 1, 0, 51], True)
>>> history_to_json([event])
[{'event': 'CardDealt', 'seat': 1, 'hand': 0, 'card': 'As'}]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from fractions import Fraction
from typing import Any, get_args

from engine.cards import CARDS, Card
from engine.chips import Chips, whole
from engine.events import (
    ActionTaken,
    BehindDecided,
    CardDealt,
    DealerPeeked,
    Event,
    HandClosed,
    HandSplit,
    HoleCardRevealed,
    RoundVoided,
    ShoeShuffled,
    StakeSettled,
)
from engine.hand import Hand
from engine.seat import BehindBet, Seat
from engine.values import Action, Result, StakeKind

__all__ = [
    "chips_from_json",
    "chips_to_json",
    "event_from_json",
    "event_to_json",
    "history_from_json",
    "history_to_json",
    "seat_from_json",
    "seat_to_json",
]


def chips_to_json(value: Chips) -> int | str:
    """Whole chips as a number, a fraction as text (``"45/2"``)."""
    return value if isinstance(value, int) else str(value)


def chips_from_json(value: int | str) -> Chips:
    if isinstance(value, bool):
        raise ValueError("chips must be a number")
    if isinstance(value, int):
        return value
    return whole(Fraction(value))


# The round's state ---------------------------------------------------------------------

_HAND_FLAGS = ("closed", "doubled", "from_split", "natural", "split_aces", "surrendered")


def seat_to_json(seat: Seat) -> dict[str, Any]:
    return {
        "number": seat.number,
        "owner": seat.owner,
        "bet": seat.bet,
        "insurance": None if seat.insurance is None else chips_to_json(seat.insurance),
        "pair_bets": [[owner, amount] for owner, amount in seat.pair_bets],
        "behind": [
            {
                "owner": behind.owner,
                "amount": behind.amount,
                "insurance": None if behind.insurance is None else chips_to_json(behind.insurance),
                "stakes": [chips_to_json(stake) for stake in behind.stakes],
            }
            for behind in seat.behind
        ],
        "hands": [hand_to_json(hand) for hand in seat.hands],
        "preselected": None if seat.preselected is None else seat.preselected.value,
    }


def hand_to_json(hand: Hand) -> dict[str, Any]:
    return {
        "cards": list(hand.cards),
        "stake": chips_to_json(hand.stake),
        **{flag: getattr(hand, flag) for flag in _HAND_FLAGS},
    }


def seat_from_json(data: dict[str, Any]) -> Seat:
    seat = Seat(int(data["number"]), str(data["owner"]), int(data["bet"]))
    seat.insurance = None if data["insurance"] is None else chips_from_json(data["insurance"])
    seat.pair_bets = [(str(owner), int(amount)) for owner, amount in data["pair_bets"]]
    seat.behind = []
    for item in data["behind"]:
        # Rounds stored before bettors behind were asked carry follow flags and no
        # insurance: the flags are dropped (a double or split still to come asks).
        behind = BehindBet(str(item["owner"]), int(item["amount"]))
        insurance = item.get("insurance")
        behind.insurance = None if insurance is None else chips_from_json(insurance)
        behind.stakes = [chips_from_json(stake) for stake in item["stakes"]]
        seat.behind.append(behind)
    seat.hands = [hand_from_json(item) for item in data["hands"]]
    preselected = data.get("preselected")  # stored before pre-selection: none
    seat.preselected = None if preselected is None else Action(preselected)
    return seat


def hand_from_json(data: dict[str, Any]) -> Hand:
    hand = Hand(chips_from_json(data["stake"]))
    for code in data["cards"]:
        hand.add(int(code))
    for flag in _HAND_FLAGS:
        setattr(hand, flag, bool(data[flag]))
    return hand


def event_to_json(event: Event) -> list[Any]:
    """An event as the round's state stores it: a tag, then its fields, cards as codes.

    The hole card's `CardDealt` has no card (``None``); the round keeps the card itself.
    """
    match event:
        case CardDealt(seat, hand, card):
            return ["card", seat, hand, None if card is None else card.code]
        case ActionTaken(seat, hand, action, effective):
            return ["act", seat, hand, action.value, effective.value]
        case BehindDecided(seat, hand, behind, owner, action):
            return ["behind", seat, hand, behind, owner, action.value]
        case HandClosed(seat, hand, total):
            return ["close", seat, hand, total]
        case StakeSettled(seat, hand, owner, kind, result, staked, returned, unit):
            return [
                "settle", seat, hand, owner, kind.value, result.value,
                chips_to_json(staked), chips_to_json(returned), chips_to_json(unit),
            ]  # fmt: skip
        case HandSplit(seat, hand):
            return ["split", seat, hand]
        case HoleCardRevealed(card):
            return ["reveal", card.code]
        case DealerPeeked(natural):
            return ["peek", natural]
        case ShoeShuffled(shown, burned):
            return ["shuffle", None if shown is None else shown.code, burned]
        case RoundVoided(reason):
            return ["void", reason]
    raise TypeError(f"not an event: {event!r}")


def event_from_json(entry: list[Any]) -> Event:
    """The inverse of `event_to_json`."""
    tag, *values = entry
    if tag == "card":
        seat, hand, code = values
        return CardDealt(int(seat), int(hand), None if code is None else _card(code))
    if tag == "act":
        seat, hand, action, effective = values
        return ActionTaken(int(seat), _optional_int(hand), Action(action), Action(effective))
    if tag == "behind":
        seat, hand, behind, owner, action = values
        return BehindDecided(
            int(seat), _optional_int(hand), int(behind), str(owner), Action(action)
        )
    if tag == "close":
        seat, hand, total = values
        return HandClosed(int(seat), int(hand), int(total))
    if tag == "settle":
        seat, hand, owner, kind, result, staked, returned, unit = values
        return StakeSettled(
            int(seat), _optional_int(hand), str(owner), StakeKind(kind), Result(result),
            chips_from_json(staked), chips_from_json(returned), chips_from_json(unit),
        )  # fmt: skip
    if tag == "split":
        seat, hand = values
        return HandSplit(int(seat), int(hand))
    if tag == "reveal":
        (code,) = values
        return HoleCardRevealed(_card(code))
    if tag == "peek":
        (natural,) = values
        return DealerPeeked(bool(natural))
    if tag == "shuffle":
        shown, burned = values
        return ShoeShuffled(None if shown is None else _card(shown), int(burned))
    if tag == "void":
        (reason,) = values
        return RoundVoided(str(reason))
    raise ValueError(f"unknown history entry {entry!r}")


def _card(value: Any) -> Card:
    code = int(value)
    if not 0 <= code < len(CARDS):
        raise ValueError(f"card code out of range: {code}")
    return CARDS[code]


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


# The public history --------------------------------------------------------------------

_EVENTS: dict[str, type[Event]] = {kind.__name__: kind for kind in get_args(Event)}
_CARD_FIELDS = {"card", "shown"}
_CHIP_FIELDS = {"staked", "returned", "unit", "units"}


def history_to_json(events: Sequence[Event]) -> list[dict[str, Any]]:
    """A round's public events as plain JSON: cards as text, chips exact ("15", "45/2").

    A settlement also keeps its net in units of the bet (``units``), as rounds stored
    before it kept the bet (``unit``) had only that.
    """
    stored = []
    for event in events:
        data: dict[str, Any] = {"event": type(event).__name__}
        for field in fields(event):
            data[field.name] = getattr(event, field.name)
        if isinstance(event, StakeSettled):
            data["units"] = event.units
        for name, value in data.items():
            plain = value is None or isinstance(value, (bool, int, str))
            if not plain or name in _CHIP_FIELDS:
                data[name] = str(value)
        stored.append(data)
    return stored


def history_from_json(stored: Sequence[dict[str, Any]]) -> list[Event]:
    """The inverse of `history_to_json`; it reads the histories stored before too."""
    events: list[Event] = []
    for data in stored:
        values = dict(data)
        kind = _EVENTS[values.pop("event")]
        for name in _CARD_FIELDS & values.keys():
            if values[name] is not None:
                values[name] = Card.parse(values[name])
        if kind is ActionTaken:
            values["action"] = Action(values["action"])
            values["effective"] = Action(values["effective"])
        elif kind is BehindDecided:
            values["action"] = Action(values["action"])
        elif kind is StakeSettled:
            values["kind"] = StakeKind(values["kind"])
            values["result"] = Result(values["result"])
            for name in ("staked", "returned"):
                values[name] = whole(Fraction(values[name]))
            units = Fraction(values.pop("units"))
            if "unit" in values:
                values["unit"] = whole(Fraction(values["unit"]))
            else:  # stored before the bet was: any unit that gives the net back will do
                net = values["returned"] - values["staked"]
                values["unit"] = whole(net / units) if units else values["staked"]
        events.append(kind(**values))
    return events
