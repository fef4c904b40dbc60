"""A round as every table tells it, built only from its public history: each thing that
happened in a sentence, the cards and hands as drawn, and the step of the story at which each
appears (so that a response's new lines and cards show one after another).

The practice table, the live table and the session summary all tell rounds this way."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from engine.cards import Card
from engine.chips import Chips
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
from engine.hand import hand_value
from engine.table import PublicHand
from engine.values import Action, Decision
from trainer.shared.bidi import ltr, signed
from trainer.shared.cards import ACTION_BUTTONS, CardFace

TIER_LABELS: dict[str, Promise] = {
    "easy": gettext_lazy("Easy bot"),
    "normal": gettext_lazy("Normal bot"),
    "hard": gettext_lazy("Hard bot"),
}


RESULT_LABELS: dict[str, Promise] = {
    "win": gettext_lazy("Win"),
    "lose": gettext_lazy("Lose"),
    "push": gettext_lazy("Push"),
    "bust": gettext_lazy("Bust"),
    "blackjack": gettext_lazy("Blackjack"),
    "surrender": gettext_lazy("Surrender"),
    "void": gettext_lazy("Refunded"),
    "perfect_pair": gettext_lazy("Perfect pair"),
    "coloured_pair": gettext_lazy("Coloured pair"),
    "mixed_pair": gettext_lazy("Mixed pair"),
}


#: Stakes other than the hand's own, as the history names them.
STAKE_LABELS: dict[str, Promise] = {
    "insurance": gettext_lazy("Insurance"),
    "pair": gettext_lazy("Pair bet"),
    "behind": gettext_lazy("Bet behind"),
}


INSURANCE_BUTTONS: dict[Action, tuple[Promise, str]] = {
    Action.INSURE: (gettext_lazy("Insure"), "i"),
    Action.NO_INSURANCE: (gettext_lazy("No insurance"), "n"),
}


#: The question a decision of a bet behind asks its bettor.
BEHIND_PROMPTS: dict[Decision, Promise] = {
    Decision.BEHIND_INSURANCE: gettext_lazy("Your bet behind seat %(seat)s: insurance?"),
    Decision.FOLLOW_DOUBLE: gettext_lazy("Seat %(seat)s doubles: follow with your bet behind?"),
    Decision.FOLLOW_SPLIT: gettext_lazy("Seat %(seat)s splits: follow with your bet behind?"),
}


#: A bettor behind a seat that doubles or splits: stake as much again with it, or not.
FOLLOW_BUTTONS: dict[Action, tuple[Promise, str]] = {
    Action.FOLLOW: (gettext_lazy("Follow"), "f"),
    Action.NO_FOLLOW: (gettext_lazy("Do not follow"), "n"),
}


BUTTONS = {**ACTION_BUTTONS, **INSURANCE_BUTTONS, **FOLLOW_BUTTONS}


@dataclass(frozen=True)
class StoryCard:
    """A card on the table, and its place in the story this response tells (None: it was
    on the table already, or the story is not told in steps)."""

    face: CardFace
    step: int | None


@dataclass(frozen=True)
class HandPicture:
    cards: tuple[StoryCard, ...]
    total: int
    soft: bool
    stake: int
    #: The player's turn is on this hand.
    active: bool
    result: Promise | None
    net: int | None
    #: The net in units of the seat bet, in words ("+1.5 units", "-1 unit").
    units: str | None
    #: The step of the story at which the result is told.
    result_step: int | None

    @property
    def total_step(self) -> int | None:
        """The total is told with the hand's last card."""
        steps = [card.step for card in self.cards if card.step is not None]
        return max(steps) if steps else None


@dataclass(frozen=True)
class EventLine:
    text: str
    #: Its place among the lines this response adds (they appear one after another).
    step: int | None


def settled_hands(history: Sequence[Event]) -> dict[tuple[int, int | None], StakeSettled]:
    """Each hand's settlement in a round's history, by (seat, hand)."""
    return {
        (event.seat, event.hand): event
        for event in history
        if isinstance(event, StakeSettled) and event.kind == "hand"
    }


def hand_pictures(
    seat: int,
    hands: Sequence[PublicHand],
    *,
    story: Story,
    steps: Steps,
    results: Mapping[tuple[int, int | None], StakeSettled],
    active: int | None,
) -> tuple[HandPicture, ...]:
    """A seat's hands as the table shows them, each card at its step of the story;
    ``active`` is the hand whose turn it is, to be marked."""
    card_lines = story.seat_lines.get(seat, [])
    pictures = []
    for index, hand in enumerate(hands):
        value = hand_value(hand.cards)
        settled = results.get((seat, index))
        lines = card_lines[index] if index < len(card_lines) else []
        pictures.append(
            HandPicture(
                cards=tuple(
                    StoryCard(CardFace.of(card), steps.of(line))
                    for card, line in zip(hand.cards, lines, strict=True)
                ),
                total=value.total,
                soft=value.soft,
                stake=int(hand.stake),
                active=index == active,
                result=RESULT_LABELS.get(settled.result) if settled else None,
                net=int(settled.returned - settled.staked) if settled else None,
                units=_units(settled.units) if settled else None,
                result_step=steps.of(story.settled_lines.get((seat, index))),
            )
        )
    return tuple(pictures)


def shoe_notices(
    shuffled: ShoeShuffled | None, *, cut_card_out: bool, over: bool
) -> tuple[str, ...]:
    """What the dealer announces of the shoe, as the rules document shows it: the burn
    of a fresh shoe, the cut card out (``over``: no round is in play)."""
    notices = []
    if shuffled is not None and shuffled.burned:
        notices.append(_burn(shuffled))
    if cut_card_out:
        notices.append(
            _("The cut card is out: this is the shoe's last round.")
            if not over
            else _("The cut card is out: a fresh shoe is shuffled before the next round.")
        )
    return tuple(notices)


def _burn(shuffled: ShoeShuffled) -> str:
    return ngettext(
        "The dealer turns %(card)s and burns %(count)s card.",
        "The dealer turns %(card)s and burns %(count)s cards.",
        shuffled.burned,
    ) % {"card": _text(shuffled.shown), "count": shuffled.burned}


@dataclass(frozen=True)
class Steps:
    """Where this response's story starts: the lines from ``start`` on are new, and appear
    one after another (step 0, 1, …); what an older line told is on the table already."""

    start: int

    def of(self, line: int | None) -> int | None:
        """The step at which what line ``line`` tells appears (None: at once)."""
        return None if line is None or line < self.start else line - self.start


@dataclass
class Story:
    """A round told in sentences, and the line that tells each thing on the table."""

    lines: list[str] = field(default_factory=list)
    #: By seat, by hand (as `engine.events.seat_hands` lays them out): each card's line.
    seat_lines: dict[int, list[list[int]]] = field(default_factory=dict)
    #: Each dealer card's line (the hole card's: the line that turns it).
    dealer_lines: list[int] = field(default_factory=list)
    #: The line of each hand's settlement, by (seat, hand).
    settled_lines: dict[tuple[int, int | None], int] = field(default_factory=dict)
    #: Every settlement, with its line.
    settlements: list[tuple[StakeSettled, int]] = field(default_factory=list)

    def returned_since(self, start: int) -> dict[str, Chips]:
        """Chips paid back to each owner by the settlements told from line ``start`` on."""
        paid: dict[str, Chips] = {}
        for event, line in self.settlements:
            if line >= start and event.returned:
                paid[event.owner] = paid.get(event.owner, 0) + event.returned
        return paid


def history_lines(history: list[Event], names: dict[int, str]) -> list[str]:
    """The round told in sentences, from the end of the deal on (its cards are on show)."""
    return tell(history, names).lines


def tell(
    history: list[Event], names: dict[int, str], owners: Mapping[str, str] | None = None
) -> Story:
    """The round told in sentences, from the end of the deal on, with the line at which
    each card and each settlement is told: the deal's cards at "The cards are dealt.".
    Given ``owners`` (names by owner), a stake is told under its owner's name rather than
    its seat holder's, and the decisions of bettors behind are told too (a live table,
    where others bet behind a seat)."""
    story = Story()
    lines = story.lines
    dealt = False
    dealer: list[Card] = []  # the dealer's cards seen so far, for a bust
    for event in history:
        if isinstance(event, CardDealt):
            # A card dealt before the deal's line is told by it: the line to come.
            line = len(lines)
            if event.seat == 0:
                story.dealer_lines.append(line)
                if event.card is not None:
                    dealer.append(event.card)
            else:
                hands = story.seat_lines.setdefault(event.seat, [])
                if not hands:
                    hands.append([])
                hands[event.hand].append(line)
            if not dealt:
                if event.seat == 0 and event.card is None:  # the hole card: the deal is done
                    dealt = True
                    lines.append(_("The cards are dealt."))
                continue
            who = _("Dealer") if event.seat == 0 else _who(names, event.seat)
            lines.append(_("%(who)s draws %(card)s.") % {"who": who, "card": _text(event.card)})
            if event.seat == 0 and (total := hand_value(dealer).total) > 21:
                lines.append(_("The dealer busts with %(total)s.") % {"total": total})
            continue
        if isinstance(event, HoleCardRevealed):
            dealer.append(event.card)
            story.dealer_lines[1] = len(lines)
        elif isinstance(event, HandSplit):
            first, second = story.seat_lines[event.seat][event.hand]
            story.seat_lines[event.seat][event.hand : event.hand + 1] = [[first], [second]]
        elif isinstance(event, StakeSettled):
            story.settlements.append((event, len(lines)))
            if event.kind == "hand":
                story.settled_lines[(event.seat, event.hand)] = len(lines)
        if (text := _line(event, names, owners)) is not None:
            lines.append(text)
    return story


def _line(event: Event, names: dict[int, str], owners: Mapping[str, str] | None) -> str | None:
    if isinstance(event, BehindDecided | StakeSettled) and owners and event.owner in owners:
        names = {**names, event.seat: owners[event.owner]}
        if isinstance(event, BehindDecided):
            label = BUTTONS[Action(event.action)][0]
            return _("%(who)s: %(action)s.") % {"who": _who(names, event.seat), "action": label}
    if isinstance(event, ActionTaken):
        label = BUTTONS[Action(event.action)][0]
        text = _("%(who)s: %(action)s.") % {"who": _who(names, event.seat), "action": label}
        if event.effective != event.action:
            text += " " + _("(Not enough chips: %(action)s instead.)") % {
                "action": BUTTONS[Action(event.effective)][0]
            }
        return text
    if isinstance(event, HandSplit):
        return _("%(who)s splits the pair.") % {"who": _who(names, event.seat)}
    if isinstance(event, HandClosed) and event.total > 21:
        return _("%(who)s busts with %(total)s.") % {
            "who": _who(names, event.seat),
            "total": event.total,
        }
    if isinstance(event, HoleCardRevealed):
        return _("The dealer turns the hole card: %(card)s.") % {"card": _text(event.card)}
    if isinstance(event, DealerPeeked):
        if event.natural:
            return _("The dealer checks the hole card: blackjack.")
        return _("The dealer checks the hole card: no blackjack.")
    if isinstance(event, StakeSettled) and event.kind == "hand":
        return _("%(who)s: %(result)s, %(net)s.") % {
            "who": _who(names, event.seat),
            "result": RESULT_LABELS.get(event.result, event.result),
            "net": signed(int(event.returned - event.staked)),
        }
    if isinstance(event, StakeSettled):
        return _("%(who)s: %(kind)s, %(result)s, %(net)s.") % {
            "who": _who(names, event.seat),
            "kind": STAKE_LABELS.get(event.kind, event.kind),
            "result": RESULT_LABELS.get(event.result, event.result.replace("_", " ")),
            "net": signed(int(event.returned - event.staked)),
        }
    if isinstance(event, ShoeShuffled):
        shuffled = _("A fresh shoe is shuffled.")
        return f"{shuffled} {_burn(event)}" if event.burned else shuffled
    if isinstance(event, RoundVoided):
        return _("The round is void; every bet is refunded.")
    return None


def _units(units: Fraction) -> str:
    """Units of the bet in words, exact: they are halves at most (3:2, surrender)."""
    number = ltr(f"{float(units):+.2f}".rstrip("0").rstrip("."))
    if units.denominator == 1:
        return ngettext("%(units)s unit", "%(units)s units", abs(int(units))) % {"units": number}
    return pgettext("a fraction of units, such as +1.5", "%(units)s units") % {"units": number}


def _text(card: Card | None) -> str:
    """A card as the history writes it: rank and suit symbol (10♠)."""
    if card is None:
        return _("a face-down card")
    face = CardFace.of(card)
    return f"{face.rank}{face.symbol}"


def _who(names: dict[int, str], seat: int) -> str:
    return _("Seat %(seat)s (%(name)s)") % {"seat": seat, "name": names.get(seat, "?")}
