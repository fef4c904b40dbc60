"""Invariants of the live table under random moves of several owners and a random clock
(hypothesis): people buy in, sit, bet, bet behind, act or do not, leave and cash out while
time passes by small steps and long silences; bots play; stacked shoes run out (a fault:
the round is voided). After every move the table goes through JSON and plays on from the
copy, as a web request would."""

from __future__ import annotations

import contextlib
import json
import math
import random
from collections import defaultdict
from collections.abc import Callable
from typing import Any
from unittest.mock import patch

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine import (
    DELUXE,
    SUITS,
    Action,
    Card,
    IllegalActionError,
    Round,
    Shoe,
    bots,
)
from engine.chips import Chips
from engine.events import BehindDecided
from engine.live_public import NoticeKind, Stage
from engine.live_table import BEHIND_PER_SEAT, LiveTable
from engine.round import Phase
from engine.table import BotSeat
from tests.engine.unseen_cards import with_unseen_cards_replaced

PROPERTY = settings(
    # 60: with three seeds, branch coverage of the live table grew up to about here, where
    # each example (a whole table, tens of moves) takes 30-50 ms; not fewer.
    max_examples=60,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
PEOPLE = ("ann", "bob", "cy")
MOVES = ("wait", "buy_in", "sit", "leave", "bet", "bet", "bet", "behind", "behind", "pair",
         "sit_out", "act", "act", "act", "act", "preselect", "cash_out", "clear")  # fmt: skip
AMOUNTS = st.sampled_from([10, 10, 20, 20, 30, 50, 100, 15, 0])
#: Seconds between two moves: mostly quick, now and then past a deadline or two.
PAUSES = [0.0, 0.0, 0.5, 0.5, 1.0, 2.0, 9.0, 30.0]
RICH_CARDS = [Card(rank, suit) for rank in ("A", "8", "10", "K", "5", "6") for suit in SUITS]


def random_table(data: st.DataObject) -> LiveTable:
    bot_seats = data.draw(st.lists(st.integers(1, 7), max_size=3, unique=True), label="bots")
    bots = [BotSeat(seat, data.draw(st.sampled_from(["easy", "normal"]))) for seat in bot_seats]
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    shoe = None
    if data.draw(st.booleans(), label="stacked shoe"):
        # Rich in pairs, aces and tens; it may run out mid-round (a fault).
        cards = data.draw(st.lists(st.sampled_from(RICH_CARDS), min_size=4, max_size=80))
        shoe = Shoe.stacked(cards)
    table = LiveTable.new(DELUXE, now=0.0, bots=bots, shoe=shoe, rng=random.Random(seed))
    # Most people start bought in, and ann and bob often seated, so that rounds are dealt.
    for person in PEOPLE:
        if person == "ann" or data.draw(st.integers(0, 4), label=f"{person} buys in") > 0:
            table.buy_in(person, data.draw(st.sampled_from([30, 100, 500])), now=0.0)
    for person in ("ann", "bob"):
        empty = [n for n in range(1, 8) if n not in table.holders]
        if person in table.balances and table.balances[person] >= 10 and empty:
            table.sit(person, data.draw(st.sampled_from(empty), label=f"{person}'s seat"), now=0.0)
    return table


def move(data: st.DataObject, table: LiveTable, now: float) -> tuple[str, Chips]:
    """Make one random move at ``now``; returns who moved chips into (+) or out of (-)
    the table, and how many (0 for a move that moved none)."""
    kind = data.draw(st.sampled_from(MOVES), label="move")
    owner = data.draw(st.sampled_from(PEOPLE), label="owner")
    seat = data.draw(st.integers(1, 7), label="seat")
    # Mostly a seat that makes sense for the move: one's own, or someone else's.
    own = kind in ("bet", "sit_out", "leave", "preselect")
    sensible = [
        n
        for n, holder in sorted(table.holders.items())
        if (holder.owner == owner) is own or (kind == "pair" and not own)
    ]
    if kind != "sit" and sensible and data.draw(st.integers(0, 5), label="any seat") > 0:
        seat = data.draw(st.sampled_from(sensible), label="sensible seat")
    if kind == "buy_in":
        chips = data.draw(st.sampled_from([50, 100, 500]), label="chips")
        table.buy_in(owner, chips, now=now)
        return owner, chips
    if kind == "cash_out":
        return owner, -table.cash_out(owner, now=now)
    if kind == "sit":
        table.sit(owner, seat, now=now, may_sit=owner != "cy")  # cy is a guest
    elif kind == "leave":
        table.leave(owner, seat, now=now)
    elif kind == "bet":
        table.bet(owner, seat, data.draw(AMOUNTS, label="amount"), now=now)
    elif kind == "behind":
        table.bet_behind(owner, seat, data.draw(AMOUNTS, label="amount"), now=now)
    elif kind == "pair":
        table.pair_bet(owner, seat, data.draw(AMOUNTS, label="amount"), now=now)
    elif kind == "sit_out":
        table.sit_out(owner, seat, now=now)
    elif kind == "clear":
        table.clear_bets(owner, now=now)
    elif kind == "act":
        # Mostly the awaited person's legal action; now and then anyone's anything.
        turn = table.public().turn
        actor = turn.owner if turn is not None and turn.owner in PEOPLE else owner
        legal = table.public(actor).legal
        if not legal or data.draw(st.integers(0, 5), label="out of turn") == 0:
            actor = owner
            legal = tuple(Action)
        table.act(actor, data.draw(st.sampled_from(legal), label="action"), now=now)
    elif kind == "preselect":
        choices = list(table.public(owner).preselections)
        if choices:
            chosen = data.draw(st.sampled_from(choices), label="pre-selection")
            action = data.draw(st.sampled_from([None, *chosen.allowed]), label="action")
            table.preselect(owner, chosen.seat, action, now=now)
        else:
            table.preselect(owner, seat, "stand", now=now)
    else:
        table.advance(now)
    return owner, 0


def reloaded(table: LiveTable, seed: int) -> LiveTable:
    copy = LiveTable.from_json(json.loads(json.dumps(table.to_json())), rng=random.Random(seed))
    assert copy == table
    return copy


def person_stakes(table: LiveTable) -> dict[str, Chips]:
    """Chips each person has riding in the round in play (none once it is over)."""
    rnd = table.round
    riding: defaultdict[str, Chips] = defaultdict(int)
    if rnd is None or rnd.phase in (Phase.SETTLED, Phase.VOIDED):
        return riding
    for seat in rnd.seats:
        riding[seat.owner] += sum(hand.stake for hand in seat.hands) + (seat.insurance or 0)
        for behind in seat.behind:
            riding[behind.owner] += sum(behind.stakes) + (behind.insurance or 0)
        for owner, amount in seat.pair_bets:
            riding[owner] += amount
    return riding


@PROPERTY
@given(st.data())
def test_chips_are_conserved_refusals_change_nothing_and_every_round_ends(
    data: st.DataObject,
) -> None:
    """A person's chips at the table plus those riding in the round in play are always
    what they bought in, less what they cashed out, plus the nets of the rounds played —
    whatever they do, whenever, and whatever the clock does for them."""
    conserved(data)


@PROPERTY
@given(st.data())
def test_chips_are_conserved_through_faults_paused_resumed_or_voided(data: st.DataObject) -> None:
    """The same with the bots and the deal failing now and then: a round paused by a
    fault, resumed when a retry goes through or voided after the grace period, never
    makes or loses a chip, and every round still ends."""
    chance = data.draw(st.sampled_from([0.1, 0.3, 0.6, 1.0]), label="chance of a fault")
    faults = random.Random(data.draw(st.integers(0, 2**32 - 1), label="fault seed"))
    deal = Round.deal

    def failing(call: Callable[..., Any]) -> Callable[..., Any]:
        def maybe(*args: Any) -> Any:
            if faults.random() < chance:
                event("a fault")
                raise RuntimeError("a fault")
            return call(*args)

        return maybe

    flaky = {tier: failing(bot) for tier, bot in bots.BOTS.items()}
    with patch.dict(bots.BOTS, flaky), patch.object(Round, "deal", failing(deal)):
        table = conserved(data)
    event("paused at the end" if table.fault is not None else "not paused at the end")


def conserved(data: st.DataObject) -> LiveTable:
    """Random moves at a random table, checking conservation after each; the table."""
    table = random_table(data)
    # Bought in, less cashed out.
    moved: defaultdict[str, Chips] = defaultdict(int, {p: table.balances.get(p, 0) for p in PEOPLE})
    won: defaultdict[str, Chips] = defaultdict(int)  # the nets of the rounds over
    counted = 0
    now = 0.0

    def check() -> None:
        nonlocal counted
        rnd = table.round
        over = rnd is not None and rnd.phase in (Phase.SETTLED, Phase.VOIDED)
        # At most one round ends per move: the next needs a person's new bet.
        if rnd is not None and over and counted != table.rounds:
            counted = table.rounds
            for person in PEOPLE:
                won[person] += rnd.net(person)
        # Since when the table has stood empty of players: known exactly while it is.
        someone_sits = any(holder.tier is None for holder in table.holders.values())
        assert (table.empty_since is None) is someone_sits
        riding = person_stakes(table)
        for person in PEOPLE:
            balance = table.balances.get(person, 0)
            assert balance >= 0
            assert balance + riding[person] == moved[person] + won[person], person

    for step in range(data.draw(st.integers(10, 40), label="moves")):
        now += data.draw(st.sampled_from(PAUSES), label="time passes")
        table.advance(now)
        check()
        before = json.dumps(table.to_json())
        try:
            owner, chips = move(data, table, now)
        except IllegalActionError:
            assert json.dumps(table.to_json()) == before, "a refused move changed the table"
        else:
            moved[owner] += chips
        check()
        if table.round is not None:
            event(f"round {table.round.phase.value}")
        for notice in table.notices:
            if notice.kind in (NoticeKind.PAUSED, NoticeKind.RESUMED, NoticeKind.VOIDED):
                event(f"a round {notice.kind.value}")
        table = reloaded(table, step)
    table.advance(now + 3600)  # nobody does anything for an hour: every round ends
    check()
    assert table.stage is Stage.BETTING and table.fault is None
    # A person still seated is waiting on a new table's first bet, which has no deadline.
    seated = any(holder.tier is None for holder in table.holders.values())
    assert not seated or table.deadline == math.inf
    return table


@PROPERTY
@given(st.data())
def test_the_public_view_is_the_same_whatever_the_unseen_cards_are(data: st.DataObject) -> None:
    table = random_table(data)
    now = 0.0
    for _ in range(data.draw(st.integers(5, 30), label="moves")):
        now += data.draw(st.sampled_from([0.0, 0.5, 2.0, 9.0]), label="time passes")
        with contextlib.suppress(IllegalActionError):
            move(data, table, now)
        other = with_unseen_cards_replaced(table, data)
        for viewer in (None, *PEOPLE):
            assert other.public(viewer) == table.public(viewer)


@PROPERTY
@given(st.data())
def test_a_person_may_choose_their_play_at_every_moment_before_their_turn(
    data: st.DataObject,
) -> None:
    """Time limits (WCAG 2.2.1): whatever the pace, a person never has to decide inside a
    countdown, since from the deal until their seat's turn comes (insurance asked of
    anyone, others' turns, bettors behind deciding to follow) they may choose their play
    in advance (`LiveTable.preselect`) — unless their hand takes no decision (a natural)."""
    table = random_table(data)
    for number, holder in sorted(table.holders.items()):  # everyone seated bets: a deal
        if holder.tier is None:
            with contextlib.suppress(IllegalActionError):
                table.bet(holder.owner, number, 10, now=0.0)
    now, checked = 0.0, 0
    for _step in range(data.draw(st.integers(10, 40), label="moves")):
        now += data.draw(st.sampled_from(PAUSES), label="time passes")
        with contextlib.suppress(IllegalActionError):
            move(data, table, now)
        rnd = table.round
        if table.stage is not Stage.PLAYING or rnd is None or rnd.turn is None:
            continue
        order = [seat.number for seat in rnd.seats]
        current = order.index(rnd.turn.seat)
        for place, seat in enumerate(rnd.seats):
            if seat.owner not in PEOPLE or seat.hands[0].closed:
                continue
            if rnd.phase is Phase.INSURANCE or place > current:
                offered = {p.seat: p.allowed for p in table.public(seat.owner).preselections}
                assert offered.get(seat.number), (rnd.phase, seat.number, rnd.turn)
                checked += 1
    event(f"hands checked before their turn: {min(checked, 5)}+")


def round_with_idle_bettors(
    cards: list[Card],
    bot_seats: list[int],
    ann_seat: int,
    behind: dict[int, int],
    delays: list[float],
) -> tuple[float, float, int]:
    """One round at a table of ann and bots, ``behind[seat]`` idle bettors behind each
    seat, ann answering each of her decisions ``delays[i]`` seconds after it is first
    awaited (10 or more: she never does). Returns when it was dealt, when it ended, and
    how many of ann's decisions were awaited."""
    bots = [BotSeat(seat, "normal") for seat in bot_seats]
    table = LiveTable.new(DELUXE, now=0.0, bots=bots, shoe=Shoe.stacked(cards))
    table.buy_in("ann", 1000, now=0.0)
    table.sit("ann", ann_seat, now=0.0)
    for seat, count in sorted(behind.items()):
        for i in range(count):
            name = f"b{seat}.{i}"
            table.buy_in(name, 1000, now=0.0)
            table.bet_behind(name, seat, 10, now=0.0)
    table.bet("ann", ann_seat, 10, now=1.0)  # every person seated has bet: dealt at 1
    awaited = 0
    while table.stage is Stage.PLAYING:
        public = table.public("ann")
        if public.turn is not None and public.turn.owner == "ann" and awaited < len(delays):
            delay = delays[awaited]
            awaited += 1
            if delay < table.decision_seconds:
                opened = table.deadline - table.decision_seconds
                table.act("ann", public.legal[int(delay) % len(public.legal)], now=opened + delay)
                continue
        elif public.turn is not None and public.turn.owner == "ann":
            awaited += 1
        table.advance(table.deadline)
    assert table.stage is Stage.RESULT
    assert table.round is not None and table.round.phase is Phase.SETTLED
    asked = any(isinstance(e, BehindDecided) for e in table.round.history())
    event("bettors behind asked" if asked else "no question behind")
    return 1.0, table.deadline - table.result_seconds, awaited


@settings(PROPERTY, max_examples=40)
@given(st.data())
def test_idle_bettors_behind_never_lengthen_a_round(data: st.DataObject) -> None:
    """However many bettors behind never answer, a round never lasts longer than the
    seats' own windows allow: one per decision awaited from the seated person, and for a
    bot's seat with bets behind one for its insurance and one for each double or split
    (at most three, splitting once) — a bound without the number of bettors in it."""
    # Rich in pairs, aces and tens, so that insurance, doubles and splits come often.
    cards = data.draw(st.lists(st.sampled_from(RICH_CARDS), min_size=60, max_size=60))
    seats = data.draw(st.lists(st.integers(1, 7), min_size=1, max_size=4, unique=True))
    ann_seat, bot_seats = seats[0], seats[1:]
    crowded = data.draw(st.lists(st.sampled_from(seats), min_size=1, unique=True), label="behind")
    counts = {seat: data.draw(st.integers(1, BEHIND_PER_SEAT), label="bettors") for seat in crowded}
    delays = data.draw(st.lists(st.sampled_from([0.5, 3.0, 9.5, 10.0]), max_size=8))
    dealt, ended, awaited = round_with_idle_bettors(cards, bot_seats, ann_seat, counts, delays)
    windows = awaited + 4 * len([seat for seat in crowded if seat in bot_seats])
    event(f"{sum(counts.values()) // 25 * 25}+ bettors behind")
    assert ended - dealt <= windows * 10.0
