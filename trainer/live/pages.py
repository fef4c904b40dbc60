"""A live table as one person's page shows it, built only from `LivePublic` (what a
player may see: no shoe, no hole card before it turns).

It is drawn with the practice table's parts (`trainer.practice.pages`: hands, the dealer,
the shoe's notices, the story). The story's steps here are the lines' own numbers in the
round's story, the same for every viewer and every poll — the page's script works out
which of them are new to this page (static/js/story.js) — so that a poll's answer stays
one per version of the table, and a 304 stays valid.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, ngettext_lazy

from engine.events import StakeSettled
from engine.hand import hand_value
from engine.live_public import LivePublic, LiveSeat, Notice, NoticeKind, Stage
from engine.live_table import FAULT_GRACE_SECONDS
from engine.values import Action, Decision
from engine.view import PlayerView
from trainer.live.services import BUY_INS
from trainer.shared.bidi import signed
from trainer.shared.cards import CardFace
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

STAGE_LABELS: dict[Stage, Promise] = {
    Stage.BETTING: gettext_lazy("Place your bets"),
    Stage.PLAYING: gettext_lazy("Round in play"),
    Stage.RESULT: gettext_lazy("Round over"),
}
#: The stage's words while a fault pauses the round in play.
PAUSED_LABEL = gettext_lazy("Round paused")
ACTION_LABELS: dict[Action, Promise] = {action: label for action, (label, _key) in BUTTONS.items()}
DECISION_LABELS: dict[Decision, Promise] = {
    Decision.HAND: gettext_lazy("Your hand on seat %(seat)s: your play."),
    Decision.INSURANCE: gettext_lazy("Seat %(seat)s: insurance?"),
    **BEHIND_PROMPTS,
}
NOTICE_LABELS: dict[NoticeKind, Promise] = {
    NoticeKind.UNSEATED: gettext_lazy("Seat %(seat)s had no bet when betting closed: freed."),
    NoticeKind.SAT_OUT: gettext_lazy("Seat %(seat)s sits this round out."),
    NoticeKind.KEPT_NO_BET: gettext_lazy(
        "No bet from seat %(seat)s this round: the seat is kept for this round only."
    ),
    NoticeKind.FREED_SAT_OUT: gettext_lazy("Seat %(seat)s sat out two rounds: freed."),
    NoticeKind.FREED_SHORT: gettext_lazy("Seat %(seat)s cannot cover the minimum bet: freed."),
    NoticeKind.LEFT: gettext_lazy("%(name)s left seat %(seat)s."),
    NoticeKind.BEHIND_RETURNED: gettext_lazy(
        "A bet behind seat %(seat)s was returned: %(amount)s chips."
    ),
    NoticeKind.PAIR_RETURNED: gettext_lazy(
        "A pair bet on seat %(seat)s was returned: %(amount)s chips."
    ),
    NoticeKind.NO_ROUND: gettext_lazy("Betting closed without a bet: no round."),
    NoticeKind.DEALT: gettext_lazy("Round %(amount)s dealt."),
    NoticeKind.TIMED_OUT: gettext_lazy("Time ran out for %(name)s: played automatically."),
    NoticeKind.PAUSED: ngettext_lazy(
        "A fault stopped the round: it is paused, and resumes where it stopped if the fault "
        "is put right within %(grace)s second; otherwise it is void and every bet in it "
        "refunded.",
        "A fault stopped the round: it is paused, and resumes where it stopped if the fault "
        "is put right within %(grace)s seconds; otherwise it is void and every bet in it "
        "refunded.",
        "grace",
    ),
    NoticeKind.RESUMED: gettext_lazy(
        "The fault was put right: the round resumes where it stopped."
    ),
    NoticeKind.VOIDED: gettext_lazy(
        "The round could not be completed: it is void and every bet in it refunded."
    ),
    NoticeKind.BOT_BOUGHT_IN: gettext_lazy("The bot in seat %(seat)s bought in again."),
}
#: The latest notices shown (a quiet table notes every window that closed without a bet).
NOTICES_SHOWN = 6
#: The amounts offered as bet buttons, within the table's limits.
BET_AMOUNTS: tuple[int, ...] = (10, 20, 50, 100, 200, 500)


#: Every line of a story is its own step: its number in the round's story.
LINES = Steps(0)


@dataclass(frozen=True)
class SeatShown:
    """One of the seven seats, with what the viewer may do there."""

    number: int
    who: str
    mine: bool
    bot: bool
    empty: bool
    bet: int | None
    hands: tuple[HandPicture, ...]
    #: Bets behind the seat and pair bets on it, in words.
    side_bets: tuple[str, ...]
    to_act: bool
    can_sit: bool
    can_bet: bool
    can_bet_behind: bool
    can_pair: bool
    #: The seat bets the viewer may place here: one's second seat is taken with the
    #: first one's bet (RULES.md §2), so that amount alone until it has a bet.
    bet_amounts: tuple[int, ...] = ()
    #: Any amount within the limits may be bet here too (not on a second seat before it
    #: has the first one's bet).
    any_amount: bool = False
    #: What the viewer may choose now for their seat's coming turn (value, label), and
    #: the value chosen (`LiveTable.preselect`).
    preselect: tuple[tuple[str, str], ...] = ()
    preselected: str | None = None
    preselected_label: str | None = None


@dataclass(frozen=True)
class LiveTableView:
    table_id: int
    version: int
    closed: bool
    stage: str
    stage_label: str
    #: The stage shown until the story reaches the round's end (None: no story to wait).
    stage_before: str | None
    #: When the stage or the awaited decision ends (seconds since the epoch), and how
    #: many seconds are left as the page is drawn (the countdown without JavaScript);
    #: None while a new table's first window waits for its first bet (no countdown).
    deadline: float
    seconds_left: int | None
    #: The seconds each decision is given (the pace the table's opener chose).
    pace: int
    rounds: int
    #: The dealer's cards; a face of None is the hole card, face down.
    dealer: tuple[StoryCard | None, ...]
    #: The score of the dealer's cards face up (None before the deal): the up card's
    #: alone while the hole card is down.
    dealer_total: int | None
    dealer_soft: bool
    seats: tuple[SeatShown, ...]
    #: What the dealer announces of the shoe: the burn of a fresh shoe, the cut card out.
    shoe_notices: tuple[str, ...]
    #: The round told in sentences, each at its line (see the module's doc).
    events: tuple[EventLine, ...]
    #: The line after the story's last: the results and the new balance come then.
    story_end: int
    at_table: bool
    #: The first seat the viewer may take as their second (None if none is offered):
    #: where one is, the page says that both carry the same bet (RULES.md §2).
    same_bet_seat: int | None
    guest: bool
    balance: int
    #: The viewer's chips before the round's settlements paid them (None: none did),
    #: shown until the story reaches them.
    balance_before: int | None
    committed: int
    decision: str | None
    actions: tuple[tuple[str, str], ...]
    turn: str | None
    notices: tuple[str, ...]
    buy_ins: tuple[int, ...]
    amounts: tuple[int, ...]
    #: The table's limits: a bet from ``minimum`` to ``maximum`` in steps of ``step``.
    minimum: int
    maximum: int
    step: int
    #: What the page's live region says of this version to this viewer (static/js/live.js
    #: says it once it changes, after the story): their turn with their cards and the up
    #: card, their hand played for them, their result, else whose turn or the stage.
    announcement: str = ""

    @classmethod
    def of(
        cls, *, table_id: int, version: int, closed: bool, public: LivePublic,
        names: Mapping[str, str], guest: bool, now: float, pace: int,
    ) -> LiveTableView:  # fmt: skip
        viewer = public.viewer
        betting = public.stage is Stage.BETTING and not closed
        at_table = viewer is not None and any(o == viewer for o, _c in public.balances)
        mine = sum(seat.owner == viewer for seat in public.seats)
        held = {seat.number: seat for seat in public.seats}
        results = settled_hands(public.history)
        # A holder who left during the round is named by their hands' settlements.
        seat_names = {seat: _name(e.owner, names, viewer) for (seat, _h), e in results.items()}
        seat_names |= {seat.number: _seat_name(seat, names, viewer) for seat in public.seats}
        story = tell(
            list(public.history),
            seat_names,
            {o: _name(o, names, viewer) for o, _c in public.balances if not o.startswith("bot ")},
        )
        limits = public.limits
        amounts = tuple(a for a in BET_AMOUNTS if limits.minimum <= a <= limits.maximum)
        seats = tuple(
            _seat(
                number,
                held.get(number),
                public,
                names,
                story,
                results,
                may_sit=at_table and not guest and not closed and mine < 2,
                betting=betting,
                at_table=at_table,
                amounts=amounts,
            )  # fmt: skip
            for number in range(1, public.rules.max_seats + 1)
        )
        turn, decision = public.turn, None
        if public.decision is not None and turn is not None:
            decision = str(DECISION_LABELS[turn.decision] % {"seat": turn.seat})
        face_up = [card for card in public.dealer if card is not None]
        dealer_value = hand_value(face_up) if face_up else None
        balance = int(public.balance(viewer)) if viewer is not None else 0
        paid = sum(
            event.returned
            for event in public.history
            if isinstance(event, StakeSettled) and event.owner == viewer
        )
        turn_words = (
            _("Seat %(seat)s to play: %(name)s")
            % {"seat": turn.seat, "name": _name(turn.owner, names, viewer)}
            if turn is not None
            else None
        )
        stage_label = str(PAUSED_LABEL if public.paused else STAGE_LABELS[public.stage])
        return cls(
            table_id=table_id,
            version=version,
            closed=closed,
            stage=public.stage.value,
            stage_label=stage_label,
            stage_before=str(STAGE_LABELS[Stage.PLAYING])
            if public.stage is Stage.RESULT and story.lines
            else None,
            deadline=public.deadline,
            seconds_left=None
            if math.isinf(public.deadline)
            else max(0, math.ceil(public.deadline - now)),
            pace=pace,
            rounds=public.rounds,
            dealer=tuple(
                None if card is None else StoryCard(CardFace.of(card), LINES.of(line))
                for card, line in zip(public.dealer, story.dealer_lines, strict=True)
            ),
            dealer_total=dealer_value.total if dealer_value else None,
            dealer_soft=dealer_value.soft if dealer_value else False,
            seats=seats,
            shoe_notices=shoe_notices(
                public.shuffled,
                cut_card_out=public.cut_card_out,
                over=public.stage is not Stage.PLAYING,
            ),
            events=tuple(EventLine(text, LINES.of(line)) for line, text in enumerate(story.lines)),
            story_end=len(story.lines),
            at_table=at_table,
            same_bet_seat=next((s.number for s in seats if s.can_sit), None) if mine else None,
            guest=guest,
            balance=balance,
            balance_before=int(balance - paid) if paid else None,
            committed=int(public.committed),
            decision=decision,
            actions=tuple((a.value, str(ACTION_LABELS[a])) for a in public.legal),
            turn=turn_words,
            notices=tuple(_notice(n, names, viewer) for n in public.notices[-NOTICES_SHOWN:]),
            buy_ins=BUY_INS,
            amounts=amounts,
            minimum=limits.minimum,
            maximum=limits.maximum,
            step=limits.step,
            announcement=_announcement(
                public, decision, turn_words or ("" if closed else stage_label)
            ),
        )


def _seat(
    number: int, seat: LiveSeat | None, public: LivePublic, names: Mapping[str, str],
    story: Story, results: Mapping[tuple[int, int | None], StakeSettled], *, may_sit: bool,
    betting: bool, at_table: bool, amounts: tuple[int, ...],
) -> SeatShown:  # fmt: skip
    viewer = public.viewer
    if seat is None:
        return SeatShown(number, _("Empty"), False, False, True, None, (), (),
                         False, may_sit, False, False, False)  # fmt: skip
    own = seat.owner == viewer
    turn = public.turn
    hands = hand_pictures(
        number,
        seat.hands,
        story=story,
        steps=LINES,
        results=results,
        active=turn.hand
        if turn is not None and turn.seat == number and not turn.of_bettor_behind
        else None,
    )
    sides = tuple(
        _("Behind: %(name)s, %(amount)s")
        % {"name": _name(b.owner, names, viewer), "amount": b.amount}
        for b in seat.behind
    ) + tuple(
        _("Pair bet: %(name)s, %(amount)s")
        % {"name": _name(p.owner, names, viewer), "amount": p.amount}
        for p in seat.pairs
    )
    paired = next(
        (other.bet for other in public.seats
         if other.owner == viewer and other.number != number and other.bet),
        None,
    )  # fmt: skip
    choice = next((p for p in public.preselections if p.seat == number), None)
    return SeatShown(
        number=number,
        who=_seat_name(seat, names, viewer),
        mine=own,
        bot=seat.tier is not None,
        empty=False,
        bet=seat.bet,
        hands=hands,
        side_bets=sides,
        to_act=turn is not None and turn.seat == number,
        can_sit=False,
        can_bet=own and betting,
        can_bet_behind=not own and betting and at_table,
        can_pair=betting and at_table,
        # Only one's own seats offer bets: another's is then drawn alike for every player
        # (trainer/templatetags/shared_parts.py).
        bet_amounts=()
        if not own
        else (paired,)
        if paired is not None and seat.bet is None
        else amounts,
        any_amount=own and (paired is None or seat.bet is not None),
        preselect=tuple((a.value, str(ACTION_LABELS[a])) for a in choice.allowed)
        if choice is not None
        else (),
        preselected=choice.chosen.value if choice is not None and choice.chosen else None,
        preselected_label=str(ACTION_LABELS[choice.chosen])
        if choice is not None and choice.chosen
        else None,
    )


def _seat_name(seat: LiveSeat, names: Mapping[str, str], viewer: str | None) -> str:
    """Who holds a seat: "You", a player's name, or the bot's tier."""
    return _name(seat.owner, names, viewer) if seat.tier is None else str(TIER_LABELS[seat.tier])


def _name(owner: str, names: Mapping[str, str], viewer: str | None) -> str:
    if owner == viewer:
        return _("You")
    if owner.startswith("guest "):
        return _("A guest")
    return names.get(owner, _("A player"))


def _notice(notice: Notice, names: Mapping[str, str], viewer: str | None) -> str:
    name = _name(notice.owner, names, viewer) if notice.owner else ""
    # Formatted before str(): a plural label picks its form by the count it is given.
    return str(
        NOTICE_LABELS[notice.kind]
        % {
            "seat": notice.seat,
            "name": name,
            "amount": notice.amount,
            "grace": round(FAULT_GRACE_SECONDS),
        }
    )


def _announcement(public: LivePublic, decision: str | None, otherwise: str) -> str:
    """What a screen reader is told of this version: the viewer's hand played for them
    when their time ran out, then their turn (their cards and the up card), their net
    result once the round is over, or else ``otherwise`` (whose turn, the stage)."""
    viewer = public.viewer
    parts: list[str] = []
    dealt = max((n.at for n in public.notices if n.kind is NoticeKind.DEALT), default=None)
    timed_out = any(
        n.kind is NoticeKind.TIMED_OUT and n.owner == viewer and dealt is not None and n.at >= dealt
        for n in public.notices
    )
    if timed_out:
        parts.append(_("Time ran out: played automatically."))
    mine = [
        e for e in public.history if isinstance(e, StakeSettled) and e.owner == viewer
    ]  # fmt: skip
    if public.decision is not None and decision is not None:
        parts.append(f"{decision} {_hand_words(public.decision)}")
    elif public.stage is Stage.RESULT and mine:
        net = int(sum(e.returned - e.staked for e in mine))
        parts.append(
            ngettext(
                "Round over: %(net)s chip.", "Round over: %(net)s chips.", abs(net)
            ) % {"net": signed(net)}
        )  # fmt: skip
    else:
        parts.append(otherwise)
    return " ".join(part for part in parts if part)


def _hand_words(view: PlayerView) -> str:
    """The hand a decision is about and the dealer's up card, in words."""
    cards = ", ".join(CardFace.of(card).name for card in view.hand)
    total = _("soft %(total)s") % {"total": view.total} if view.soft else str(view.total)
    return _("%(cards)s: %(total)s, against the dealer's %(up)s.") % {
        "cards": cards,
        "total": total,
        "up": CardFace.of(view.up_card).name,
    }
