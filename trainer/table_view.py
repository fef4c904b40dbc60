"""A practice table as the page shows it, built only from what a player may see.

Seats' cards are all face up; the dealer's cards are read from the round's public history,
where the hole card has no identity until it is turned — so nothing here can show the hole
card early, and the shoe is never read at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from engine.cards import CARDS, Card
from engine.events import (
    ActionTaken,
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
from engine.round import Phase
from engine.table import PLAYER, Table, bot_owner
from engine.values import Action
from trainer.bidi import ltr, signed
from trainer.drill_view import ACTION_BUTTONS, CardFace
from trainer.models import Drill
from trainer.practice import CHIPS
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
BUTTONS = {**ACTION_BUTTONS, **INSURANCE_BUTTONS}


@dataclass(frozen=True)
class HandPicture:
    cards: tuple[CardFace, ...]
    total: int
    soft: bool
    stake: int
    #: The player's turn is on this hand.
    active: bool
    result: Promise | None
    net: int | None
    #: The net in units of the seat bet, in words ("+1.5 units", "-1 unit").
    units: str | None


@dataclass(frozen=True)
class SeatPicture:
    number: int
    who: Promise | str
    is_player: bool
    balance: int
    hands: tuple[HandPicture, ...]


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
    rules_label: str
    #: "betting" (no round, or the last one over), "playing", or "dealer".
    stage: str
    round_number: int
    seats: tuple[SeatPicture, ...]
    dealer: tuple[CardFace | None, ...]
    dealer_total: int | None
    events: tuple[EventLine, ...]
    events_seen: int
    balance: int
    bankroll: int
    next_bet: int
    chips: tuple[int, ...]
    minimum: int
    maximum: int
    choices: tuple[Choice, ...]
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
        rnd = table.round
        history: list[Event] = rnd.history() if rnd is not None else []
        names = seat_names(table)
        awaiting = table.players_turn
        choices: tuple[Choice, ...] = ()
        hint = None
        if awaiting and rnd is not None:
            choices = tuple(
                Choice(action.value, *BUTTONS[action]) for action in rnd.legal_actions()
            )
            if shown.hint_bot is not None:
                best = shown.hint_bot(table.view())
                hint = Choice(best.value, *BUTTONS[best])
        dealer, dealer_total = dealer_cards(history)
        over = rnd is None or rnd.phase in (Phase.SETTLED, Phase.VOIDED)
        lines = history_lines(history, names)
        start = len(lines) if seen is None else max(0, min(seen, len(lines)))
        return cls(
            id=session.pk,
            version=session.version,
            rules_label=table.rules.label,
            stage="betting" if over else ("playing" if awaiting else "dealer"),
            round_number=shown.rounds_dealt,
            seats=_seats(table, names, history),
            dealer=dealer,
            dealer_total=dealer_total,
            events=tuple(
                EventLine(text, index - start if index >= start else None)
                for index, text in enumerate(lines)
            ),
            events_seen=len(lines),
            balance=session.balance,
            bankroll=session.bankroll,
            next_bet=session.next_bet,
            chips=CHIPS,
            minimum=table.limits.minimum,
            maximum=table.limits.maximum,
            choices=choices,
            hint=hint,
            held=_held(shown.held) if shown.held is not None else None,
            hints=session.hints,
            coach=session.coach,
            last_net=int(rnd.net(PLAYER)) if rnd is not None and over else None,
            can_deal=over and session.ended_at is None and session.next_bet > 0,
            ended=session.ended_at is not None,
        )


def seat_names(table: Table) -> dict[int, str]:
    names = {bot.seat: str(TIER_LABELS[bot.tier]) for bot in table.bots}
    names[table.player_seat] = _("You")
    return names


def _seats(table: Table, names: dict[int, str], history: list[Event]) -> tuple[SeatPicture, ...]:
    """Every seat at the table, with its hands in the round (seats' cards are face up)."""
    rnd = table.round
    results: dict[tuple[int, int | None], StakeSettled] = {
        (event.seat, event.hand): event
        for event in history
        if isinstance(event, StakeSettled) and event.kind == "hand"
    }
    turn = rnd.turn if rnd is not None else None
    in_round = {seat.number: seat for seat in rnd.seats} if rnd is not None else {}
    pictures = []
    for number in sorted(names):
        owner = PLAYER if number == table.player_seat else bot_owner(number)
        hands: list[HandPicture] = []
        if number in in_round:
            for index, hand in enumerate(in_round[number].hands):
                cards = [CARDS[code] for code in hand.cards]
                value = hand_value(cards)
                settled = results.get((number, index))
                hands.append(
                    HandPicture(
                        cards=tuple(CardFace.of(card) for card in cards),
                        total=value.total,
                        soft=value.soft,
                        stake=int(hand.stake),
                        active=turn is not None
                        and turn.seat == number
                        and turn.hand == index
                        and owner == PLAYER,
                        result=RESULT_LABELS.get(settled.result) if settled else None,
                        net=int(settled.returned - settled.staked) if settled else None,
                        units=_units(settled.units) if settled else None,
                    )
                )
        pictures.append(
            SeatPicture(
                number=number,
                who=names[number],
                is_player=owner == PLAYER,
                balance=int(table.balances.get(owner, 0)),
                hands=tuple(hands),
            )
        )
    return tuple(pictures)


def dealer_cards(history: list[Event]) -> tuple[tuple[CardFace | None, ...], int | None]:
    """The dealer's cards as the table sees them: the hole card face down until turned."""
    cards: list[Card | None] = []
    for event in history:
        if isinstance(event, CardDealt) and event.seat == 0:
            cards.append(event.card)
        elif isinstance(event, HoleCardRevealed):
            cards[1] = event.card
    seen = [card for card in cards if card is not None]
    total = hand_value(seen).total if seen and None not in cards else None
    return tuple(None if card is None else CardFace.of(card) for card in cards), total


def history_lines(history: list[Event], names: dict[int, str]) -> list[str]:
    """The round told in sentences, from the end of the deal on (its cards are on show)."""
    lines: list[str] = []
    dealt = False
    dealer: list[Card] = []  # the dealer's cards seen so far, for a bust
    for event in history:
        if isinstance(event, CardDealt):
            if event.seat == 0 and event.card is not None:
                dealer.append(event.card)
            if not dealt:
                if event.seat == 0 and event.card is None:  # the hole card: the deal is done
                    dealt = True
                    lines.append(_("The cards are dealt."))
                continue
            who = _("Dealer") if event.seat == 0 else _who(names, event.seat)
            lines.append(_("%(who)s draws %(card)s.") % {"who": who, "card": _text(event.card)})
            if event.seat == 0 and (total := hand_value(dealer).total) > 21:
                lines.append(_("The dealer busts with %(total)s.") % {"total": total})
        else:
            if isinstance(event, HoleCardRevealed):
                dealer.append(event.card)
            if (text := _line(event, names)) is not None:
                lines.append(text)
    return lines


def _line(event: Event, names: dict[int, str]) -> str | None:
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
        return _("A fresh shoe is shuffled.")
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
