"""A practice table as the page shows it, built only from what a player may see.

It is built from the engine's `PublicTable`, which holds no shoe and no hole card before
it is turned (the round's public history gives the face-down card no identity) — so
nothing here can show the hole card early, or the shoe's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext as _

from engine import events
from engine.cards import Card
from engine.chips import Chips
from engine.events import (
    Event,
)
from engine.hand import hand_value
from engine.table import PLAYER, PublicTable
from engine.values import Action, Decision
from trainer.models import Drill
from trainer.practice.counting import CountingView
from trainer.practice.selectors import TableOnShow
from trainer.practice.table import CHIPS
from trainer.shared.cards import CardFace
from trainer.shared.rules_words import RulesWords
from trainer.shared.story import (
    BEHIND_PROMPTS,
    BUTTONS,
    TIER_LABELS,
    EventLine,
    HandPicture,
    Steps,
    Story,
    StoryCard,
    hand_pictures,
    settled_hands,
    shoe_notices,
    tell,
)


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
class Mistake:
    """Coach mode: the decision held back, and what it would give up."""

    value: str
    chosen: Promise
    #: The right play by name ("Double", "No insurance"), never a chart code ("Ds").
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
    #: What the decision awaited asks, when it is not a hand's play: insurance, or a bet
    #: behind's decision (None: "Your play?").
    question: str | None
    #: Your hands the decision is about, whose cards the live region says: the hand whose
    #: turn it is, or on the insurance question the seat's hand.
    deciding: tuple[HandPicture, ...]
    hint: Choice | None
    held: Mistake | None
    hints: bool
    coach: bool
    last_net: int | None
    can_deal: bool
    ended: bool
    #: Counting mode (None without it).
    counting: CountingView | None

    @classmethod
    def of(cls, shown: TableOnShow, *, seen: int | None = None) -> TableView:
        """The table as read (`trainer.practice.selectors.table_on_show`), built without a query;
        history lines from index ``seen`` on are marked as new."""
        session, table = shown.session, shown.table
        history = list(table.history)
        names = seat_names(table)
        decision = table.decision
        choices: tuple[Choice, ...] = ()
        hint = None
        question = None
        if decision is not None:
            choices = tuple(Choice(action.value, *BUTTONS[action]) for action in decision.legal)
            if decision.decision is Decision.INSURANCE:
                question = _("Insurance? The dealer shows an ace.")
            elif not decision.decision.by_holder:
                question = BEHIND_PROMPTS[decision.decision] % {"seat": decision.seat}
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
            question=question,
            deciding=_deciding(
                seats, insurance=decision is not None and decision.decision is Decision.INSURANCE
            ),
            hint=hint,
            held=_held(shown.held) if shown.held is not None else None,
            hints=session.hints,
            coach=session.coach,
            last_net=int(table.net(PLAYER)) if table.phase is not None and table.over else None,
            can_deal=table.over
            and session.ended_at is None
            and session.next_bet > 0
            and (shown.counting is None or shown.counting.asked is None),
            ended=session.ended_at is not None,
            counting=shown.counting,
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


def _deciding(seats: tuple[SeatPicture, ...], *, insurance: bool) -> tuple[HandPicture, ...]:
    """Your hands a decision is about: the active one, or every one when insurance is asked."""
    return tuple(
        hand for seat in seats if seat.is_player for hand in seat.hands if hand.active or insurance
    )


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


def _held(latest: Drill) -> Mistake:
    """The mistake held back: the latest decision recorded at this table."""
    return Mistake(
        value=latest.action,
        chosen=BUTTONS[Action(latest.action)][0],
        play=str(BUTTONS[Action(latest.correct_action)][0]),
        ev_lost=float(latest.ev_lost or 0),
    )
