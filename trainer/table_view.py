"""A practice table as the page shows it, built only from what a player may see.

It is built from the engine's `PublicTable`, which holds no shoe and no hole card before
it is turned (the round's public history gives the face-down card no identity) — so
nothing here can show the hole card early, or the shoe's order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from engine import events
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
from engine.table import PLAYER, PublicHand, PublicTable
from engine.values import Action, Decision
from trainer.bidi import ltr, signed
from trainer.drill_view import ACTION_BUTTONS, CardFace
from trainer.models import Drill
from trainer.practice_table import CHIPS
from trainer.rules_words import RulesWords
from trainer.selectors import TableOnShow

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
class SeatPicture:
    number: int
    who: Promise | str
    is_player: bool
    balance: int
    #: The chips shown until the story reaches the settlement (None: no change to tell).
    balance_before: int | None
    hands: tuple[HandPicture, ...]
    #: Your pair bet and your bets behind on this seat in the round shown (0: none).
    your_pair: int
    your_behind: int


@dataclass(frozen=True)
class Choice:
    value: str
    label: Promise
    key: str


@dataclass(frozen=True)
class EventLine:
    text: str
    #: Its place among the lines this response adds (they appear one after another).
    step: int | None


@dataclass(frozen=True)
class Mistake:
    """Coach mode: the decision held back, and what it would give up."""

    value: str
    chosen: Promise
    #: The right play, with its chart code when it has one ("Hit (H)", "No insurance").
    play: str
    ev_lost: float


@dataclass(frozen=True)
class TableView:
    id: int
    version: int
    rules: RulesWords
    #: "betting" (no round, or the last one over), "playing", or "dealer".
    stage: str
    round_number: int
    seats: tuple[SeatPicture, ...]
    #: The dealer's cards; a face of None is the hole card, face down.
    dealer: tuple[StoryCard | None, ...]
    #: The score of the dealer's cards face up: the up card's alone while the hole card
    #: is down.
    dealer_total: int | None
    dealer_soft: bool
    #: What the table announces: the burn of a fresh shoe, the cut card out.
    notices: tuple[str, ...]
    events: tuple[EventLine, ...]
    events_seen: int
    #: The step after the story's last line: the round's result and the new balance
    #: appear then (None: nothing new to tell).
    story_end: int | None
    balance: int
    #: Your chips shown until the story reaches the settlement (None: no change to tell).
    balance_before: int | None
    bankroll: int
    next_bet: int
    chips: tuple[int, ...]
    minimum: int
    maximum: int
    #: The side bets the rules offer with a deal: a pair bet on your seat, bets behind
    #: the bots' seats.
    pair_bets: bool
    bets_behind: bool
    step: int
    choices: tuple[Choice, ...]
    #: What the decision awaited asks, when it is a bet behind's rather than the seat's own.
    behind_prompt: str | None
    hint: Choice | None
    held: Mistake | None
    hints: bool
    coach: bool
    last_net: int | None
    can_deal: bool
    ended: bool

    @classmethod
    def of(cls, shown: TableOnShow, *, seen: int | None = None) -> TableView:
        """The table as read (`trainer.selectors.table_on_show`), built without a query;
        history lines from index ``seen`` on are marked as new."""
        session, table = shown.session, shown.table
        history = list(table.history)
        names = seat_names(table)
        decision = table.decision
        choices: tuple[Choice, ...] = ()
        hint = None
        behind_prompt = None
        if decision is not None:
            choices = tuple(Choice(action.value, *BUTTONS[action]) for action in decision.legal)
            if not decision.decision.by_holder:
                behind_prompt = BEHIND_PROMPTS[decision.decision] % {"seat": decision.seat}
            elif shown.hint_bot is not None:
                best = shown.hint_bot(decision)
                hint = Choice(best.value, *BUTTONS[best])
        story = tell(history, names)
        lines = story.lines
        start = len(lines) if seen is None else max(0, min(seen, len(lines)))
        steps = Steps(start)
        face_up = [card for card in table.dealer if card is not None]
        dealer_value = hand_value(face_up) if face_up else None
        returned = story.returned_since(start)
        seats = _seats(table, names, history, story, steps, returned)
        return cls(
            id=session.pk,
            version=session.version,
            rules=RulesWords.of(table.rules),
            stage="betting" if table.over else ("playing" if decision is not None else "dealer"),
            round_number=shown.rounds_dealt,
            seats=seats,
            dealer=tuple(
                None if card is None else StoryCard(CardFace.of(card), steps.of(line))
                for card, line in zip(table.dealer, story.dealer_lines, strict=True)
            ),
            dealer_total=dealer_value.total if dealer_value else None,
            dealer_soft=dealer_value.soft if dealer_value else False,
            notices=shoe_notices(table.shuffled, cut_card_out=table.cut_card_out, over=table.over),
            events=tuple(EventLine(text, steps.of(index)) for index, text in enumerate(lines)),
            events_seen=len(lines),
            story_end=steps.of(len(lines)) if len(lines) > start else None,
            balance=session.balance,
            balance_before=_before(session.balance, returned.get(PLAYER)),
            bankroll=session.bankroll,
            next_bet=session.next_bet,
            chips=CHIPS,
            pair_bets=table.rules.pair_bet,
            bets_behind=table.rules.bet_behind,
            step=table.limits.step,
            minimum=table.limits.minimum,
            maximum=table.limits.maximum,
            choices=choices,
            behind_prompt=behind_prompt,
            hint=hint,
            held=_held(shown.held) if shown.held is not None else None,
            hints=session.hints,
            coach=session.coach,
            last_net=int(table.net(PLAYER)) if table.phase is not None and table.over else None,
            can_deal=table.over and session.ended_at is None and session.next_bet > 0,
            ended=session.ended_at is not None,
        )


def seat_names(table: PublicTable) -> dict[int, str]:
    return {
        seat.number: _("You") if seat.tier is None else str(TIER_LABELS[seat.tier])
        for seat in table.seats
    }


def _seats(
    table: PublicTable,
    names: dict[int, str],
    history: list[Event],
    story: Story,
    steps: Steps,
    returned: dict[str, Chips],
) -> tuple[SeatPicture, ...]:
    """Every seat at the table, with its hands in the round (seats' cards are face up)."""
    results = settled_hands(history)
    turn = table.turn
    pictures = []
    for seat in table.seats:
        pictures.append(
            SeatPicture(
                number=seat.number,
                who=names[seat.number],
                is_player=seat.owner == PLAYER,
                balance=int(seat.balance),
                balance_before=_before(int(seat.balance), returned.get(seat.owner)),
                hands=hand_pictures(
                    seat.number,
                    seat.hands,
                    story=story,
                    steps=steps,
                    results=results,
                    active=turn.hand
                    if turn is not None and turn.seat == seat.number and seat.owner == PLAYER
                    else None,
                ),
                your_pair=_yours(seat.pair_bets),
                your_behind=_yours(seat.bets_behind),
            )
        )
    return tuple(pictures)


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


def _yours(bets: tuple[tuple[str, int], ...]) -> int:
    return sum(amount for owner, amount in bets if owner == PLAYER)


def _before(balance: int, returned: Chips | None) -> int | None:
    """The chips before the story's settlements paid ``returned`` (None: none did)."""
    return None if not returned else int(balance - returned)


def dealer_cards(history: list[Event]) -> tuple[tuple[CardFace | None, ...], int | None]:
    """The dealer's cards as a round's history shows them: the hole card face down until
    turned; and their total once all are face up."""
    return _dealer_faces(events.dealer_cards(history))


def _dealer_faces(
    cards: Sequence[Card | None],
) -> tuple[tuple[CardFace | None, ...], int | None]:
    seen = [card for card in cards if card is not None]
    total = hand_value(seen).total if seen and None not in cards else None
    return tuple(None if card is None else CardFace.of(card) for card in cards), total


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


def named_play(label: Promise | str, code: str) -> str:
    """A play with its chart code ("Hit (H)"); insurance has no code ("No insurance")."""
    if not code:
        return str(label)
    return _("%(play)s (%(code)s)") % {"play": label, "code": code}


def _text(card: Card | None) -> str:
    """A card as the history writes it: rank and suit symbol (10♠)."""
    if card is None:
        return _("a face-down card")
    face = CardFace.of(card)
    return f"{face.rank}{face.symbol}"


def _who(names: dict[int, str], seat: int) -> str:
    return _("Seat %(seat)s (%(name)s)") % {"seat": seat, "name": names.get(seat, "?")}


def _held(latest: Drill) -> Mistake:
    """The mistake held back: the latest decision recorded at this table."""
    return Mistake(
        value=latest.action,
        chosen=BUTTONS[Action(latest.action)][0],
        play=named_play(BUTTONS[Action(latest.correct_action)][0], latest.correct_code),
        ev_lost=float(latest.ev_lost or 0),
    )
