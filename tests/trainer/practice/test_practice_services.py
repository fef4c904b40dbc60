"""The practice table's services (trainer/practice/services.py), called directly.

The property test plays random sessions and checks the chip ledger after every round and
every decision; the others pin what the services refuse and what one transaction undoes.
Stacked shoes deal as RULES.md "Dealing order" says: with the player alone in seat 1,
your card, the up card, your card, the hole card, then your hits and the dealer's draws.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Sum
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from engine.cards import CARDS
from engine.events import Event
from engine.round_codec import history_from_json, history_to_json
from engine.rules import EUROPEAN
from engine.shoe import Shoe
from engine.table import PLAYER, Table
from engine.values import Action
from trainer.models import DayTally, Drill, PracticeRound, PracticeSession
from trainer.practice.selectors import session_totals
from trainer.practice.services import (
    BANKROLLS,
    SeatChoice,
    practice_act,
    practice_adopt,
    practice_chip,
    practice_deal,
    practice_end,
    practice_options,
    practice_start,
    practice_take_back,
)
from trainer.practice.table import CHIPS, TableSnapshot
from trainer.shared.owners import Owner
from trainer.shared.seats import Sitter
from trainer.shared.unit_of_work import Moved, Refused

pytestmark = pytest.mark.database
LEDGER = settings(
    # 40: with three seeds, the practice services reached their last new branch at 31-35.
    max_examples=40,
    deadline=None,
    database=None,  # nothing written to the working tree
    # No shrinking: a failure prints its seed and draws, and shrinking a run of whole
    # sessions takes minutes.
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,  # the database: each example has its own owner
    ],
)
#: More decisions than any European round of one seat can take (four hands of ~10 hits),
#: with room for the coach's mistakes taken back and made again.
MAX_DECISIONS = 150


def guest() -> Owner:
    """A new guest, so that examples sharing one test transaction never share a table."""
    return Owner(user_id=None, guest_token=secrets.token_urlsafe(18))


def alone(owner: Owner, shoe: str, *, bankroll: int = 1000, coach: bool = False) -> int:
    """A European table with the player alone in seat 1, dealing exactly ``shoe``."""
    session = practice_start(
        owner=owner,
        rules=EUROPEAN,
        bankroll=bankroll,
        seats=[SeatChoice(1, Sitter.YOU)],
        coach=coach,
        shoe=Shoe.stacked(shoe),
    )
    return session.pk


def fresh(session_id: int) -> PracticeSession:
    return PracticeSession.objects.get(pk=session_id)


def version(session_id: int) -> int:
    return fresh(session_id).version


def everything(session_id: int) -> dict[str, Any]:
    """All a service could change, for "nothing changed" checks."""
    return {
        "session": PracticeSession.objects.filter(pk=session_id).values().get(),
        "rounds": list(PracticeRound.objects.filter(session_id=session_id).values()),
        "drills": list(Drill.objects.order_by("pk").values()),
        "sessions": list(PracticeSession.objects.order_by("pk").values("pk", "ended_at")),
    }


# The ledger, under random play -----------------------------------------------------------


def rich_shoe(seed: int) -> Shoe:
    """Four decks and an extra deck's worth of aces, eights, fives and tens, shuffled by
    ``seed`` and stacked: naturals, pairs, splits and doubles come often, and no run of
    four rounds can empty it."""
    cards = list(CARDS) * 4 + [card for card in CARDS if card.rank in ("A", "8", "5", "10")] * 3
    random.Random(seed).shuffle(cards)
    return Shoe.stacked(cards)


def stake_on_the_table(table: Table) -> int:
    """The player's chips riding on the round in play (hands and insurance)."""
    rnd = table.round
    if rnd is None or not table.in_play:
        return 0
    total = 0
    for seat in rnd.seats:
        if seat.owner == PLAYER:
            total += sum(int(hand.stake) for hand in seat.hands) + int(seat.insurance or 0)
    return total


def check_ledger(session_id: int, applied: int) -> tuple[PracticeSession, Table]:
    """What holds between any two requests: the balance is the bankroll plus every settled
    round's net, less what rides on the round in play; the session's balance is the
    engine's; every decision point played is recorded once."""
    session = fresh(session_id)
    table = Table.from_json(session.state)
    settled = PracticeRound.objects.filter(session=session, net__isnull=False)
    nets = settled.aggregate(total=Sum("net"))["total"] or 0
    assert type(session.balance) is int
    assert session.balance == table.balances[PLAYER]
    assert session.balance >= 0
    assert session.balance + stake_on_the_table(table) == session.bankroll + nets
    decisions = Drill.objects.filter(practice_round__session=session)
    # Every play made is on record once, and so is a mistake held back (not played yet);
    # a mistake taken back stays on record, marked, beside the play made instead.
    made = decisions.filter(taken_back=False)
    assert made.count() == applied + bool(session.held_action)
    assert set(decisions.values_list("source", flat=True)) <= {Drill.Source.PLAY}
    return session, table


@pytest.mark.django_db
@LEDGER
@given(
    data=st.data(),
    seed=st.integers(0, 2**32 - 1),
    bankroll=st.sampled_from(BANKROLLS),
    bots=st.lists(st.sampled_from([Sitter.EASY, Sitter.NORMAL, Sitter.HARD]), max_size=2),
    coach=st.booleans(),
    rounds=st.integers(1, 4),
)
def test_the_chip_ledger_reconciles_after_every_round(
    data: st.DataObject, seed: int, bankroll: int, bots: list[Sitter], coach: bool, rounds: int
) -> None:
    owner = guest()
    seats = [Sitter.YOU, *bots]
    data.draw(st.randoms(use_true_random=False)).shuffle(seats)
    session_id = practice_start(
        owner=owner,
        rules=EUROPEAN,
        bankroll=bankroll,
        seats=[SeatChoice(number, tier) for number, tier in enumerate(seats, start=1)],
        coach=coach,
        shoe=rich_shoe(seed),
    ).pk
    applied = 0  # decision points played (a held-back mistake is played later, or not)
    for number in range(1, rounds + 1):
        session, _table = check_ledger(session_id, applied)
        if session.balance < 10:  # out of chips: no deal, nothing changes
            before = everything(session_id)
            with pytest.raises(Refused):
                practice_deal(owner=owner, session_id=session_id, version=session.version)
            assert everything(session_id) == before
            break
        practice_chip(owner=owner, session_id=session_id, version=session.version, chip=None)
        for chip in data.draw(st.lists(st.sampled_from(CHIPS), min_size=1, max_size=4)):
            before = everything(session_id)
            try:
                practice_chip(owner=owner, session_id=session_id, version=version(session_id),
                              chip=chip)  # fmt: skip
            except Refused:  # past the maximum or the balance: nothing changes
                assert everything(session_id) == before
        bet = fresh(session_id).next_bet
        if bet == 0:
            practice_chip(owner=owner, session_id=session_id, version=version(session_id),
                          chip=10)  # fmt: skip
            bet = 10
        assert bet <= min(500, session.balance)
        practice_deal(owner=owner, session_id=session_id, version=version(session_id))

        for _ in range(MAX_DECISIONS):
            session, table = check_ledger(session_id, applied)
            if not table.players_turn:
                break
            assert table.round is not None
            if session.held_action:  # coach mode held a mistake back
                event("a mistake held back")
                if data.draw(st.booleans(), label="take back"):
                    practice_take_back(owner=owner, session_id=session_id,
                                       version=session.version)  # fmt: skip
                    continue
                action = session.held_action
            else:
                legal = table.round.legal_actions()
                rare = [a for a in legal if a in (Action.SPLIT, Action.DOUBLE)]  # made common
                choice = st.sampled_from(legal)
                if rare:
                    choice = st.one_of(st.sampled_from(rare), choice)
                action = data.draw(choice, label="action")
                event(f"played: {action}")
            practice_act(owner=owner, session_id=session_id, version=session.version,
                         action=action)  # fmt: skip
            if not fresh(session_id).held_action:
                applied += 1
        else:
            raise AssertionError("the round never ended")

        session, table = check_ledger(session_id, applied)
        assert table.round is not None and not table.in_play
        record = PracticeRound.objects.get(session=session, number=number)
        assert record.net is not None
        event(f"round net {'<' if record.net < 0 else '>' if record.net > 0 else '='} 0")
        assert record.bet == bet
        assert record.net == table.round.net(PLAYER)
        assert record.balance_after == session.balance
        # The round's history is stored whole, as plain JSON, and reads back the same.
        assert json.loads(json.dumps(record.history)) == record.history
        assert history_from_json(record.history) == table.round.history()
        # The ledger: the balance is the bankroll plus every round's net.
        nets = list(PracticeRound.objects.filter(session=session).values_list("net", flat=True))
        assert None not in nets and session.balance == session.bankroll + sum(
            net for net in nets if net is not None
        )
        totals = session_totals(session)
        assert (totals["rounds"], totals["net"]) == (number, session.balance - session.bankroll)
        # The summary counts every decision as progress does, a mistake taken back too.
        tallied = DayTally.objects.filter(**owner.filter()).aggregate(
            n=Sum("answered"), right=Sum("correct"), lost=Sum("lost")
        )
        assert (totals["decisions"], totals["right"]) == (tallied["n"] or 0, tallied["right"] or 0)
        assert totals["ev_lost"] == pytest.approx(float(tallied["lost"] or 0))
        # The next bet stays within the balance and the limits, in steps of 10.
        assert 0 <= session.next_bet <= min(session.balance, 500)
        assert session.next_bet % 10 == 0
        assert session.held_action == ""


# What one transaction undoes -------------------------------------------------------------


@pytest.mark.django_db
def test_a_request_beaten_to_its_version_is_undone_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two requests from one version: the one that commits second changes nothing, not even
    the decision it graded on the way (its Drill row is rolled back with it)."""
    owner = guest()
    session_id = alone(owner, "10s 10d 6h 7c 2c 9s")  # you 16 v 10 (hole 7c)
    practice_deal(owner=owner, session_id=session_id, version=0)
    before = everything(session_id)
    act = Table.act

    def racing_act(self: Table, action: Action | str) -> None:
        # Another request takes version 1 between this one's read and its write. (In a test
        # it shares this request's connection, so its write is undone with the rest.)
        PracticeSession.objects.filter(pk=session_id).update(version=2)
        act(self, action)

    monkeypatch.setattr(Table, "act", racing_act)
    with pytest.raises(Moved):
        practice_act(owner=owner, session_id=session_id, version=1, action="hit")
    assert everything(session_id) == before  # no card drawn, no decision recorded


@pytest.mark.django_db
def test_a_failure_inside_an_action_is_refused_and_undone_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whatever goes wrong half-way through an action (here after the decision has been
    graded and recorded) is undone and refused with a message, never let through."""
    owner = guest()
    session_id = alone(owner, "10s 10d 6h 7c 2c 9s")  # you 16 v 10 (hole 7c)
    practice_deal(owner=owner, session_id=session_id, version=0)
    before = everything(session_id)

    def broken_act(self: Table, action: Action | str) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(Table, "act", broken_act)
    with pytest.raises(Refused, match="Nothing was changed"):
        practice_act(owner=owner, session_id=session_id, version=1, action="hit")
    assert everything(session_id) == before


@pytest.mark.django_db
def test_a_replayed_request_is_told_the_table_moved() -> None:
    owner = guest()
    session_id = alone(owner, "10s 10d 6h 7c 2c 9s")
    practice_deal(owner=owner, session_id=session_id, version=0)
    practice_act(owner=owner, session_id=session_id, version=1, action="hit")
    before = everything(session_id)
    calls: list[Callable[[], object]] = [
        lambda: practice_act(owner=owner, session_id=session_id, version=1, action="hit"),
        lambda: practice_deal(owner=owner, session_id=session_id, version=0),
        lambda: practice_chip(owner=owner, session_id=session_id, version=0, chip=10),
        lambda: practice_end(owner=owner, session_id=session_id, version=1),
        lambda: practice_act(owner=owner, session_id=session_id, version=99, action="stand"),
    ]
    for call in calls:
        with pytest.raises(Moved, match="moved on"):
            call()
    assert everything(session_id) == before


@pytest.mark.django_db
def test_no_service_touches_someone_elses_table() -> None:
    owner, intruder = guest(), guest()
    session_id = alone(owner, "10s 10d 6h 7c 2c 9s")
    practice_deal(owner=owner, session_id=session_id, version=0)
    before = everything(session_id)
    calls: list[Callable[[], object]] = [
        lambda: practice_act(owner=intruder, session_id=session_id, version=1, action="hit"),
        lambda: practice_take_back(owner=intruder, session_id=session_id, version=1),
        lambda: practice_chip(owner=intruder, session_id=session_id, version=1, chip=None),
        lambda: practice_deal(owner=intruder, session_id=session_id, version=1),
        lambda: practice_end(owner=intruder, session_id=session_id, version=1),
        lambda: practice_options(owner=intruder, session_id=session_id, hints=True, coach=True),
        lambda: practice_act(owner=owner, session_id=session_id + 1000, version=1, action="hit"),
    ]
    for call in calls:
        with pytest.raises(Refused, match="That table is not yours."):
            call()
    assert everything(session_id) == before


# Racing requests, on real parallel connections -------------------------------------------

#: The race tests' fixture (tests/trainer/conftest.py): run calls in threads released at once.
Together = Callable[[Sequence[Callable[[], Any]]], list[Any]]
#: Two rounds of the player alone: 16 v 10, then 18 v 9 (never reached in the races).
TWO_ROUNDS = "10s 10d 6h 7c 2c 9s 9h 9d 10c 9c"
#: Several tries of a race between two requests: the window is milliseconds wide, and a
#: lost race must show in one run of the suite.
TRIES = 10


def open_tables(owner: Owner) -> list[int]:
    return list(
        PracticeSession.objects.filter(**owner.filter(), ended_at__isnull=True).values_list(
            "pk", flat=True
        )
    )


def unexpected(outcomes: list[Any]) -> list[Any]:
    """What no request at the table may end in: any exception but a refusal."""
    return [
        outcome
        for outcome in outcomes
        if isinstance(outcome, BaseException) and not isinstance(outcome, Refused)
    ]


@pytest.mark.django_db(transaction=True)
def test_two_deals_at_once_deal_one_round_and_show_the_other_the_table(
    together: Together,
) -> None:
    """A double click on Deal: one deal is applied; the other is told the table moved on."""
    for _ in range(TRIES):
        owner = guest()
        session_id = alone(owner, TWO_ROUNDS)
        outcomes = together(
            [partial(practice_deal, owner=owner, session_id=session_id, version=0)] * 2
        )
        assert unexpected(outcomes) == []
        assert sorted(type(outcome).__name__ for outcome in outcomes) == [
            "Moved",
            "TableSnapshot",
        ]
        assert fresh(session_id).version == 1
        # Both are shown the table as the one deal left it: the loser read it after the
        # winner's commit, under the lock.
        for outcome in outcomes:
            shown = outcome.shown if isinstance(outcome, Moved) else outcome
            assert isinstance(shown, TableSnapshot)
            assert (shown.session.version, shown.table.phase) == (1, "player_turns")
        assert PracticeRound.objects.filter(session_id=session_id).count() == 1
        assert fresh(session_id).balance == 990  # one bet of 10 on the felt


@pytest.mark.django_db(transaction=True)
def test_a_new_table_racing_a_deal_leaves_one_table_open(together: Together) -> None:
    """Whichever comes first wins: a deal first, and the new table is refused while its
    round is in play; a new table first, and the deal at the ended one is refused."""
    for _ in range(TRIES):
        owner = guest()
        old = alone(owner, TWO_ROUNDS)
        dealt, started = together(
            [
                partial(practice_deal, owner=owner, session_id=old, version=0),
                partial(
                    practice_start,
                    owner=owner,
                    rules=EUROPEAN,
                    bankroll=1000,
                    seats=[SeatChoice(1, Sitter.YOU)],
                ),
            ]
        )
        assert unexpected([dealt, started]) == []
        (still_open,) = open_tables(owner)
        if still_open == old:  # the deal came first
            assert isinstance(dealt, TableSnapshot) and isinstance(started, Refused)
            assert fresh(old).rounds.count() == 1
        else:
            assert isinstance(started, PracticeSession) and started.pk == still_open
            assert isinstance(dealt, Refused)
            assert fresh(old).rounds.count() == 0 and fresh(old).balance == 1000


@pytest.mark.django_db(transaction=True)
def test_fifty_new_tables_at_once_leave_one_table_open(together: Together) -> None:
    owner = guest()
    alone(owner, TWO_ROUNDS)
    start = partial(
        practice_start,
        owner=owner,
        rules=EUROPEAN,
        bankroll=1000,
        seats=[SeatChoice(1, Sitter.YOU)],
    )
    outcomes = together([start] * 50)
    assert unexpected(outcomes) == []
    (still_open,) = open_tables(owner)
    assert still_open in [o.pk for o in outcomes if isinstance(o, PracticeSession)]


# Starting --------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("seats", "bankroll", "reason"),
    [
        ([SeatChoice(1, Sitter.EASY)], 1000, "exactly one seat"),
        ([SeatChoice(1, Sitter.YOU), SeatChoice(2, Sitter.YOU)], 1000, "exactly one seat"),
        ([SeatChoice(8, Sitter.YOU)], 1000, "Seats are numbered 1 to 7"),
        ([SeatChoice(1, Sitter.YOU), SeatChoice(1, Sitter.HARD)], 1000, "cannot share a seat"),
        ([SeatChoice(1, Sitter.YOU)], 5, "at least 10 chips"),
    ],
    ids=["no-you", "two-you", "seat-8", "shared-seat", "tiny-bankroll"],
)
def test_a_refused_start_leaves_the_open_table_open(
    seats: list[SeatChoice], bankroll: int, reason: str
) -> None:
    owner = guest()
    open_id = alone(owner, "10s 10d 6h 7c")
    before = everything(open_id)
    with pytest.raises(Refused, match=reason):
        practice_start(owner=owner, rules=EUROPEAN, bankroll=bankroll, seats=seats)
    assert everything(open_id) == before


@pytest.mark.django_db
def test_a_new_table_is_refused_while_the_open_one_has_a_round_in_play() -> None:
    """Starting a new table ends the open one, but not mid-round: the bet on the felt
    would be neither settled nor refunded. Once the round is over, the new table opens.

    You 10s 6h v 10d (hole 7c): stand loses 10 to the dealer's 17.
    """
    owner = guest()
    old_id = alone(owner, "10s 10d 6h 7c 2c 9s")
    practice_deal(owner=owner, session_id=old_id, version=0)
    before = fresh(old_id).state
    with pytest.raises(Refused, match="Finish the round"):
        practice_start(
            owner=owner, rules=EUROPEAN, bankroll=1000, seats=[SeatChoice(1, Sitter.YOU)]
        )
    assert fresh(old_id).state == before and fresh(old_id).ended_at is None
    assert PracticeSession.objects.count() == 1

    practice_act(owner=owner, session_id=old_id, version=1, action="stand")
    practice_start(owner=owner, rules=EUROPEAN, bankroll=1000, seats=[SeatChoice(1, Sitter.YOU)])
    old = fresh(old_id)
    assert old.ended_at is not None
    assert old.version == 3  # ending it is a change too: a tab still showing it is stale
    assert old.balance == old.bankroll + sum(
        n or 0 for n in old.rounds.values_list("net", flat=True)
    )
    assert old.balance == 990


@pytest.mark.django_db
def test_a_table_left_mid_round_by_logging_in_has_its_round_voided_and_refunded() -> None:
    """Logging in keeps one table open, the one played last; the other's round in play
    cannot be completed, so it is void and its bet refunded (RULES: malfunction)."""
    user = get_user_model().objects.create_user("bea", password="pw-long-enough-1")
    account = Owner(user_id=user.pk, guest_token="")
    hers = alone(account, "10s 10d 6h 7c 2c 9s")
    practice_deal(owner=account, session_id=hers, version=0)
    assert fresh(hers).balance == 990  # the 10 is on the felt
    visitor = guest()
    theirs = alone(visitor, "9s 5d 9h 7c")  # started (and so changed) after hers
    practice_adopt(guest_token=visitor.guest_token, user_id=user.pk)

    old = fresh(hers)
    assert old.ended_at is not None and fresh(theirs).ended_at is None
    assert old.balance == old.bankroll == 1000
    (voided,) = old.rounds.all()
    assert voided.net == 0 and voided.balance_after == 1000
    assert [event["event"] for event in voided.history][-2:] == ["RoundVoided", "StakeSettled"]


# History as JSON -------------------------------------------------------------------------


def rounds_of(shoe: str, bankroll: int, plays: list[tuple[int, list[str]]]) -> Iterator[Event]:
    table = Table.new(EUROPEAN, player_seat=1, bankroll=bankroll, shoe=Shoe.stacked(shoe))
    for bet, actions in plays:
        table.deal(bet)
        for action in actions:
            table.act(action)
        assert table.round is not None
        yield from table.round.history()


def test_a_rounds_history_goes_to_json_and_back() -> None:
    # Round 1 (bet 10): you As Kh against the 9d (hole 7c): a natural, paid 3:2 = 15.
    # Round 2 (bet 20): you 8s 8h v 6c (hole 10d): split; 8s gets 3c (11), doubled, 10h: 21;
    # 8h gets 9s: 17, stood. The dealer's 16 draws 10c and busts: +40 and +20.
    events = list(rounds_of(
        "As 9d Kh 7c  8s 6c 8h 10d 3c 10h 9s 10c",
        1000,
        [(10, []), (20, ["split", "double", "stand"])],
    ))  # fmt: skip
    stored = history_to_json(events)
    assert json.loads(json.dumps(stored)) == stored  # plain JSON
    assert history_from_json(stored) == events
    settled = [e for e in stored if e["event"] == "StakeSettled" and e["owner"] == PLAYER]
    assert [(e["staked"], e["returned"]) for e in settled] == [
        ("10", "25"), ("40", "80"), ("20", "40"),
    ]  # fmt: skip
    hole = [e for e in stored if e["event"] == "CardDealt" and e["seat"] == 0]
    assert [e["card"] for e in hole] == ["9d", None, "6c", None, "10c"]  # the hole cards hidden
