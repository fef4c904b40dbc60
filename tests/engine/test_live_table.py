"""The live Deluxe table (engine/live_table.py): seats, the betting window, countdowns,
auto-play, faults and refusals, on a clock the tests drive (``now`` in seconds).

Stacked shoes deal in RULES.md "Dealing order" (a card to each seat from the lowest, the
up card, a second card to each seat, the hole card, then hits in seat order, then the
dealer's draws). Every expected balance is worked out by hand from that order and RULES.md
§2 (a comment says how), never copied from a run.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from math import inf
from typing import Any

import pytest

from engine import (
    DELUXE,
    EUROPEAN,
    Action,
    ActionTaken,
    Card,
    CardDealt,
    Decision,
    IllegalActionError,
    Phase,
    PlayerView,
    Round,
    RoundVoided,
    Shoe,
    StakeSettled,
    StateError,
    bots,
)
from engine.live_public import (
    LivePublic,
    LiveSeat,
    Notice,
    NoticeKind,
    PublicBehind,
    SideBet,
    Stage,
)
from engine.live_table import (
    BEHIND_PER_SEAT,
    FAULT_GRACE_SECONDS,
    FAULT_RETRY_SECONDS,
    LiveTable,
)
from engine.seat import BehindBet
from engine.table import BotSeat, Limits, PublicHand
from tests.engine.test_table import SECRET_KEEPERS, field_types

BETTING, DECISION, RESULT = 15.0, 10.0, 5.0


def live(cards: str | None = None, *, bots=(), **kwargs) -> LiveTable:
    """A table opened at time 0 (betting closes 15 s after the first bet, decisions last
    10, results 5)."""
    shoe = Shoe.stacked(cards) if cards is not None else None
    return LiveTable.new(DELUXE, now=0.0, bots=bots, shoe=shoe, **kwargs)


def seated(table: LiveTable, *seats: tuple[str, int], chips: int = 100) -> LiveTable:
    for owner, seat in seats:
        if owner not in table.balances:
            table.buy_in(owner, chips, now=0.0)
        table.sit(owner, seat, now=0.0)
    return table


def kinds(notices) -> list[str]:
    return [notice.kind.value for notice in notices]


def json_of(table: LiveTable) -> str:
    return json.dumps(table.to_json(), sort_keys=True)


# The clock --------------------------------------------------------------------------------


def test_a_player_who_stops_acting_has_the_hand_finished_by_auto_play_at_the_deadline():
    # ann's 5 6 = 11 against the 9: bet at 1, so dealt at 1 (everyone seated has bet). She
    # never acts: at 11 auto-play finishes her hand, a hit (the 2c, 13) and a stand; the
    # dealer's 9 7 draws the 10h and busts, so ann wins 20. The result shows until 16,
    # when the next betting window opens, to close at 31. All of it applied by one look
    # at time 30.
    table = seated(live("5s 9h 6d 7c 2c 10h"), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    assert table.stage is Stage.PLAYING and table.deadline == 11.0
    assert table.advance(10.999) == []
    notices = table.advance(30.0)
    assert [(n.kind.value, n.at) for n in notices] == [("timed_out", 11.0)]
    assert table.stage is Stage.BETTING and table.deadline == 16.0 + BETTING
    assert table.balances["ann"] == 120
    assert table.round is not None
    taken = [e.action for e in table.round.history() if isinstance(e, ActionTaken)]
    assert taken == [Action.HIT, Action.STAND]


def test_after_a_timeout_the_second_split_hand_is_played_at_once_with_no_countdown():
    # ann splits 8 8 against the 9 at 2; her first hand gets the 3c (11) and she goes
    # quiet. At 12 auto-play hits it (10h: 21) and, with no countdown of its own, plays
    # her second hand at once: the 5d, 13, stands. The dealer's 9 7 draws the 10s: bust,
    # both hands win 20.
    table = seated(live("8s 9h 8d 7c 3c 10h 5d 10s"), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    table.act("ann", "split", now=2.0)
    assert table.deadline == 12.0
    notices = table.advance(12.0)
    assert [(n.kind, n.at) for n in notices] == [(NoticeKind.TIMED_OUT, 12.0)]
    assert table.stage is Stage.RESULT and table.deadline == 12.0 + RESULT
    assert table.balances["ann"] == 140


def test_after_an_insurance_timeout_the_hand_is_played_at_once_with_no_countdown():
    # ann's 10 5 against the ace: she does not answer insurance by 11. No insurance; the
    # dealer's A 9 is no natural; her 15 stands at once, and loses to the soft 20.
    table = seated(live("10s As 5d 9c"), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    notices = table.advance(11.0)
    assert kinds(notices) == ["timed_out"]
    assert table.stage is Stage.RESULT and table.deadline == 11.0 + RESULT
    assert table.balances["ann"] == 80


def test_after_a_timeout_on_one_seat_the_owners_other_seat_is_played_at_once():
    # ann holds seats 2 (10s 8s = 18) and 4 (10d 7d = 17) against the 9h 7c. She times
    # out on seat 2 at 11; seat 4 stands at once; the dealer's 16 draws the 10c: bust.
    # The next round, she has her countdowns again.
    table = seated(live("10s 10d 9h 8s 7d 7c 10c  10s 9h 8s 7c 2d"), ("ann", 2), ("ann", 4))
    table.bet("ann", 2, 20, now=1.0)
    table.bet("ann", 4, 20, now=1.0)
    notices = table.advance(11.0)
    assert [(n.kind, n.seat) for n in notices] == [(NoticeKind.TIMED_OUT, 2)]
    assert table.stage is Stage.RESULT and table.balances["ann"] == 140
    assert LiveTable.from_json(table.to_json()) == table
    table.advance(16.0)
    table.bet("ann", 2, 10, now=17.0)
    table.sit_out("ann", 4, now=17.0)
    assert table.stage is Stage.PLAYING and table.deadline == 27.0


def test_a_holder_absent_from_the_round_is_stored_as_such_and_played_at_once_from_the_copy():
    # The same split as above, the table stored and restored between the timeout of the
    # first hand and the second: the copy knows ann is absent.
    table = seated(live("8s 9h 8d 7c 3c 10h 5d 10s"), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    table.act("ann", "split", now=2.0)
    copy = LiveTable.from_json(json.loads(json.dumps(table.to_json())))
    copy.advance(12.0)
    assert copy.stage is Stage.RESULT and copy.balances["ann"] == 140


def test_the_time_may_be_a_timezone_aware_datetime_and_never_a_naive_one():
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    table = seated(live("5s 9h 6d 7c 2c 10h"), ("ann", 3))
    table.bet("ann", 3, 20, now=epoch + timedelta(seconds=1))
    table.advance(epoch + timedelta(seconds=11))  # the hand finished, the result shown
    assert table.deadline == 16.0
    with pytest.raises(IllegalActionError, match="time zone"):
        table.advance(datetime(1970, 1, 1, 0, 1))


def test_a_decision_gets_its_own_countdown_when_it_is_first_awaited():
    # ann (seat 1) hits at 4: her next decision's countdown starts then, until 14.
    table = seated(live("5s 9h 6d 7c 2c 10h"), ("ann", 1))
    table.bet("ann", 1, 20, now=1.0)
    table.act("ann", "hit", now=4.0)
    assert table.deadline == 14.0


def test_a_new_tables_first_window_waits_for_a_first_bet_and_then_counts_down():
    # The opener sits at 0 and reads the page for ten minutes: nothing runs out.
    table = seated(live("10s 9h 9d 7c 2c"), ("ann", 3), ("bob", 5))
    assert table.advance(600.0) == [] and table.deadline == inf
    assert table.stage is Stage.BETTING and sorted(table.holders) == [3, 5]
    assert table.public("ann").deadline == inf
    table.bet("bob", 5, 20, now=600.0)  # the first bet: the normal countdown from now
    assert table.deadline == 600.0 + BETTING
    table.advance(600.0 + BETTING - 0.001)
    assert table.stage is Stage.BETTING
    notices = table.advance(600.0 + BETTING)  # ann did not bet: unseated as ever
    assert kinds(notices)[:2] == ["unseated", "dealt"] and 3 not in table.holders


def test_a_first_bet_withdrawn_leaves_the_countdown_running():
    table = seated(live(), ("ann", 3), ("bob", 5))
    table.bet("bob", 5, 20, now=2.0)
    table.clear_bets("bob", now=3.0)
    assert table.deadline == 2.0 + BETTING
    assert kinds(table.advance(2.0 + BETTING)) == ["unseated", "unseated", "no_round"]


def test_a_later_window_with_nobody_betting_closes_at_its_countdown():
    # After the first round, a window opens with its countdown at once, bet or no bet.
    table = seated(live("10s 9h 9d 7c 2c " + "2c 3d 4h 5s " * 10), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)  # dealt at once: ann 10 9 against the 9
    table.act("ann", "stand", now=2.0)
    assert table.stage is Stage.RESULT
    opened = table.deadline
    table.advance(opened)
    assert table.stage is Stage.BETTING and table.deadline == opened + BETTING
    # ann played a round: without a bet she keeps the seat for this one (RULES.md §2)
    assert kinds(table.advance(opened + BETTING)) == ["kept_no_bet", "no_round"]
    assert 3 in table.holders


def test_a_waiting_first_window_is_stored_as_strict_json_and_read_back():
    table = seated(live(), ("ann", 3))
    text = json.dumps(table.to_json(), allow_nan=False)  # PostgreSQL's jsonb takes no inf
    again = LiveTable.from_json(json.loads(text))
    assert again.deadline == inf and again == table


def test_betting_closes_at_its_deadline_and_unseats_a_seat_without_a_bet_returning_its_side_bets():
    # ann sits at 3 and does not bet; carl bets behind her and on her pair; bob bets on 5.
    table = seated(live("10s 9h 9d 7c 2c"), ("ann", 3), ("bob", 5))
    table.buy_in("carl", 100, now=0.0)
    table.bet_behind("carl", 3, 10, now=1.0)
    table.pair_bet("carl", 3, 10, now=1.0)
    table.bet("bob", 5, 20, now=2.0)
    assert table.stage is Stage.BETTING  # ann has not bet: the window stays open
    notices = table.advance(1.0 + BETTING)  # counted from carl's first bet
    assert kinds(notices)[:4] == ["unseated", "behind_returned", "pair_returned", "dealt"]
    assert 3 not in table.holders
    assert table.balances["carl"] == 100
    assert table.round is not None and [seat.number for seat in table.round.seats] == [5]


def test_betting_closes_early_once_every_seated_person_has_bet_or_sits_out():
    table = seated(live("10s 9h 9d 7c 10c 8h 2c"), ("ann", 3), ("bob", 5))
    table.bet("ann", 3, 20, now=1.0)
    table.sit_out("bob", 5, now=2.0)
    assert table.stage is Stage.PLAYING and table.deadline == 2.0 + DECISION


def test_a_seat_may_sit_out_one_round_and_is_freed_after_a_second_in_a_row():
    table = seated(live("10s 9h 9d 7c 10c 9s 8d 7h"), ("ann", 3), ("bob", 5))
    table.sit_out("bob", 5, now=1.0)
    table.bet("ann", 3, 20, now=1.0)
    assert Notice(1.0, NoticeKind.SAT_OUT, 5, "bob") in table.notices and 5 in table.holders
    table.act("ann", "stand", now=2.0)  # 19 against 16, which draws 10c: bust
    table.advance(2.0 + RESULT)  # the next window opens
    table.sit_out("bob", 5, now=8.0)
    table.bet("ann", 3, 20, now=8.0)
    assert 5 not in table.holders
    assert Notice(8.0, NoticeKind.FREED_SAT_OUT, 5, "bob") in table.notices


def test_a_seat_that_played_a_round_and_places_no_bet_is_kept_for_that_round_then_freed():
    # Round 1 (dealt at 1, both bet): ann 10s 10h = 20, bob 10d 9c = 19, dealer 7c 10c =
    # 17; both stand at 2, the result shows until 7. In the next window only bob bets:
    # it closes at its deadline, 22, and ann (who played round 1) keeps her seat for
    # round 2, which bob plays alone (9s 10h against 7d 10d; he stands at 23, the result
    # shows until 28). With no bet again when that window closes at 43, she is freed.
    table = seated(
        live("10s 10d 7c 10h 9c 10c  9s 7d 10h 10d  9s 7d 10h 10d"), ("ann", 3), ("bob", 5)
    )
    table.bet("ann", 3, 20, now=1.0)
    table.bet("bob", 5, 20, now=1.0)
    table.act("ann", "stand", now=2.0)
    table.act("bob", "stand", now=2.0)
    table.bet("bob", 5, 20, now=8.0)
    assert table.stage is Stage.BETTING  # ann has not bet: the window stays open
    notices = table.advance(7.0 + BETTING)
    assert Notice(22.0, NoticeKind.KEPT_NO_BET, 3, "ann") in notices
    assert 3 in table.holders and table.stage is Stage.PLAYING
    assert table.round is not None and [seat.number for seat in table.round.seats] == [5]
    assert LiveTable.from_json(table.to_json()) == table
    table.act("bob", "stand", now=23.0)
    table.bet("bob", 5, 20, now=29.0)
    notices = table.advance(28.0 + BETTING)
    assert Notice(43.0, NoticeKind.UNSEATED, 3, "ann") in notices and 3 not in table.holders


def test_a_seat_kept_without_a_bet_is_back_in_full_once_it_bets_again():
    # ann plays round 1, has no bet in round 2 (kept), bets in round 3 and has no bet in
    # round 4: kept again, since she played the round before it.
    table = seated(live(rng=random.Random(25)), ("ann", 3), ("bob", 5))
    table.bet("ann", 3, 20, now=1.0)
    table.bet("bob", 5, 20, now=1.0)
    kept = []
    for window in range(3):
        while table.stage is not Stage.BETTING:
            table.advance(table.deadline)
        opened = table.deadline - BETTING
        table.bet("bob", 5, 20, now=opened)
        if window == 1:
            table.bet("ann", 3, 20, now=opened)
        notices = table.advance(table.deadline)
        kept.append(Notice(opened + BETTING, NoticeKind.KEPT_NO_BET, 3, "ann") in notices)
    assert kept == [True, False, True] and 3 in table.holders


def test_a_holder_who_cannot_cover_the_minimum_when_the_round_starts_is_freed():
    # ann's 10 chips go on 10 7 against the dealer's 10 K (bob's 10 K pushes): lost.
    # Next round she sits out, with 0 chips.
    table = seated(live("10s 10h 10d 7c Kc Kh 9s 8h 7h 6c"), ("ann", 3), ("bob", 5), chips=10)
    table.bet("ann", 3, 10, now=1.0)
    table.bet("bob", 5, 10, now=1.0)
    table.act("ann", "stand", now=2.0)
    table.act("bob", "stand", now=2.0)
    assert table.balances["ann"] == 0
    table.advance(2.0 + RESULT)
    table.sit_out("ann", 3, now=8.0)
    table.bet("bob", 5, 10, now=8.0)
    assert 3 not in table.holders
    assert Notice(8.0, NoticeKind.FREED_SHORT, 3, "ann") in table.notices


def test_a_seat_sitting_out_on_the_minimum_keeps_its_place_and_has_its_side_bets_returned():
    # ann has exactly the minimum and sits out; carl bets behind her and on her pair and
    # on bob's pair; bob's bet closes the window.
    table = seated(live("10s 9h 9d 7c 2c"), ("ann", 3), ("bob", 5), chips=10)
    table.buy_in("carl", 100, now=0.0)
    table.bet_behind("carl", 3, 10, now=1.0)
    table.pair_bet("carl", 3, 20, now=1.0)
    table.pair_bet("carl", 5, 10, now=1.0)
    table.sit_out("ann", 3, now=2.0)
    table.bet("bob", 5, 10, now=3.0)
    assert table.notices[:3] == [
        Notice(3.0, NoticeKind.SAT_OUT, 3, "ann"),
        Notice(3.0, NoticeKind.BEHIND_RETURNED, 3, "carl", 10),
        Notice(3.0, NoticeKind.PAIR_RETURNED, 3, "carl", 20),
    ]
    # bob is dealt 10s 9d: carl's pair bet on his seat rode and lost; the rest came back.
    assert 3 in table.holders and table.balances["carl"] == 90


def test_without_a_persons_stake_no_round_is_dealt_and_a_quiet_table_waits_unplayed():
    table = live(bots=[BotSeat(1, "easy")])
    table.buy_in("bob", 100, now=0.0)
    table.bet_behind("bob", 1, 10, now=0.0)  # the first bet starts the countdown
    table.clear_bets("bob", now=1.0)
    notices = table.advance(10_000.0)
    assert kinds(notices) == ["no_round"]  # the empty windows after it are skipped
    assert table.stage is Stage.BETTING and 10_000.0 < table.deadline <= 10_000.0 + BETTING
    assert table.rounds == 0 and table.balances == {"bot 1": 1000, "bob": 100}


def test_a_watched_table_without_bets_keeps_only_its_latest_notices():
    # Polled every 5 s for an hour, nobody betting: a window closes with no round every
    # 15 s, and the stored state must not grow with each one.
    table = seated(live(), ("ann", 3))
    table.buy_in("bob", 100, now=0.0)
    table.pair_bet("bob", 3, 10, now=0.0)  # the first bet starts the countdown
    sizes = []
    for tick in range(1, 721):
        table.advance(5.0 * tick)
        sizes.append(len(json_of(table)))
    assert kinds(table.notices) == ["no_round"]
    assert max(sizes[60:]) <= sizes[60] + 4  # the same after an hour (a longer time aside)


def test_bots_bet_the_minimum_and_play_at_once_around_a_persons_turn():
    # Easy bots at 1 and 5 hit below 17. Seat 1: 10 6 hits the 2 and stands on 18; ann
    # (3) stands on 19 at 4; seat 5: 10 7 stands. Dealer 9 7 draws the 10d: bust.
    table = seated(
        live("10s 9c 10h 9h 6d 9d 7s 7c 2c 10d", bots=[BotSeat(1, "easy"), BotSeat(5, "easy")]),
        ("ann", 3),
    )
    table.bet("ann", 3, 20, now=1.0)
    assert table.round is not None and table.round.turn is not None
    assert table.round.turn.owner == "ann"
    table.act("ann", "stand", now=4.0)
    assert table.stage is Stage.RESULT
    assert table.balances == {"bot 1": 1010, "bot 5": 1010, "ann": 120}


def test_a_bettor_behind_who_does_not_answer_in_time_does_not_follow_the_double():
    # ann doubles 5 6 against the 9 at 2, within her decision's window (dealt at 1, so
    # until 11); bob (10 behind her) is asked in the same window and says nothing: at 11
    # the default applies, the 10h goes to ann (21) and the dealer's 9 7 draws the 9d.
    table = seated(live("5s 9h 6d 7c 10h 9d"), ("ann", 3))
    table.buy_in("bob", 100, now=0.0)
    table.bet_behind("bob", 3, 10, now=0.5)
    table.bet("ann", 3, 20, now=1.0)
    table.act("ann", "double", now=2.0)
    public = table.public("bob")
    assert public.turn is not None and public.turn.decision is Decision.FOLLOW_DOUBLE
    assert public.legal == (Action.FOLLOW, Action.NO_FOLLOW) and public.deadline == 11.0
    assert table.public("ann").legal == ()
    table.advance(11.0)
    assert table.balances == {"ann": 140, "bob": 110}


def behind(table: LiveTable, seat: int, count: int, *, amount: int = 10) -> list[str]:
    """``count`` bettors (100 chips each) behind ``seat``, placed at time 0.5."""
    names = [f"b{i}" for i in range(count)]
    for name in names:
        table.buy_in(name, 100, now=0.0)
        table.bet_behind(name, seat, amount, now=0.5)
    return names


def test_idle_bettors_behind_share_the_seats_window_however_many_they_are():
    # ann (dealt at 1, her window until 11) doubles 5 6 against the 9 at 2; her 35
    # bettors behind are asked to follow within that same window and say nothing. At 11
    # they all default to no at once: the 10h gives ann 21, the dealer's 9 7 draws the
    # 9d and busts. Each stake behind (10, not doubled) wins 10; ann's 40 wins 40.
    table = seated(live("5s 9h 6d 7c 10h 9d"), ("ann", 3))
    names = behind(table, 3, 35)
    table.bet("ann", 3, 20, now=1.0)
    table.act("ann", "double", now=2.0)
    assert table.deadline == 11.0
    notices = table.advance(11.0)
    assert [(n.kind, n.owner) for n in notices] == [(NoticeKind.TIMED_OUT, "b0")]
    assert table.stage is Stage.RESULT and table.deadline == 11.0 + RESULT
    assert table.balances["ann"] == 140
    assert all(table.balances[name] == 110 for name in names)


def test_a_bettor_who_answers_leaves_the_next_the_rest_of_the_same_window():
    # ann doubles at 2; b0 follows at 4 (20 riding), b1 is asked with the window still
    # ending at 11 and says nothing: no. ann's 21 beats the dealer's bust.
    table = seated(live("5s 9h 6d 7c 10h 9d"), ("ann", 3))
    behind(table, 3, 2)
    table.bet("ann", 3, 20, now=1.0)
    table.act("ann", "double", now=2.0)
    table.act("b0", "follow", now=4.0)
    assert table.public("b1").turn is not None and table.public("b1").turn.owner == "b1"
    assert table.deadline == 11.0
    table.advance(11.0)
    assert (table.balances["b0"], table.balances["b1"]) == (120, 110)


def test_bettors_behind_an_absent_holders_insurance_default_to_no_at_once():
    # ann's 10 5 against the ace: she does not answer insurance by 11; her window is
    # over, so her five bettors behind are not insured and get no countdown of their
    # own. The dealer's A 9 is no natural; ann's 15 stands and loses, as do their bets.
    table = seated(live("10s As 5d 9c"), ("ann", 3))
    names = behind(table, 3, 5)
    table.bet("ann", 3, 20, now=1.0)
    notices = table.advance(11.0)
    assert [(n.kind, n.owner) for n in notices] == [(NoticeKind.TIMED_OUT, "ann")]
    assert table.stage is Stage.RESULT and table.deadline == 11.0 + RESULT
    assert all(table.balances[name] == 90 for name in names)


def test_bettors_behind_a_bots_seat_share_one_window_for_its_double():
    # The normal bot (1) doubles its 5 6 against the 9 at the deal (15.5: the first
    # window counts down from the first bet, at 0.5): its three bettors behind get one
    # window, until 25.5, for all of them. b0 follows at 16; the others say nothing.
    # The bot's 21 beats the dealer's bust.
    table = live("5s 9h 6d 7c 10h 9d", bots=[BotSeat(1, "normal")])
    behind(table, 1, 3)
    dealt = 0.5 + BETTING
    table.advance(dealt)
    assert table.deadline == dealt + DECISION
    table.act("b0", "follow", now=16.0)
    assert table.deadline == dealt + DECISION
    table.advance(dealt + DECISION)
    assert table.stage is Stage.RESULT
    assert [table.balances[name] for name in ("b0", "b1", "b2")] == [120, 110, 110]


def test_a_seat_takes_a_bounded_number_of_bets_behind_and_those_placed_may_change():
    table = seated(live(), ("ann", 3))
    names = behind(table, 3, BEHIND_PER_SEAT)
    table.buy_in("late", 100, now=0.0)
    before = json_of(table)
    with pytest.raises(IllegalActionError, match=f"{BEHIND_PER_SEAT} bets behind"):
        table.bet_behind("late", 3, 10, now=1.0)
    assert json_of(table) == before
    table.bet_behind(names[0], 3, 20, now=1.0)  # a bet placed may still change
    assert sum(bet.seat == 3 for bet in table.behind) == BEHIND_PER_SEAT


def test_chips_bought_in_during_the_insurance_question_may_insure():
    # ann bets all her 100 on a pair of aces against an ace: she cannot insure. She buys
    # in 50 more while the question waits: now she can, before any reload of the table.
    table = seated(live("As Ah Ad Kc"), ("ann", 1), chips=100)
    table.bet("ann", 1, 100, now=1.0)
    assert table.public("ann").legal == (Action.NO_INSURANCE,)
    table.buy_in("ann", 50, now=2.0)
    assert table.public("ann").legal == (Action.INSURE, Action.NO_INSURANCE)


def test_two_live_tables_are_equal_only_in_the_same_state():
    table = seated(live("5s 9h 6d 7c 10h 9d"), ("ann", 3))
    assert table == LiveTable.from_json(table.to_json())
    assert table != seated(live("5s 9h 6d 7c 10h 9d"), ("ann", 2))
    assert table != table.to_json()


def test_the_public_view_gives_each_players_chips_and_none_to_a_stranger():
    table = seated(live("5s 9h 6d 7c 10h 9d"), ("ann", 3))
    table.buy_in("bob", 100, now=0.0)
    table.bet("ann", 3, 20, now=1.0)
    public = table.public("carl")
    assert public.balance("ann") == table.balances["ann"] == 80
    assert public.balance("bob") == 100 and public.balance("carl") == 0


def test_a_holder_who_leaves_mid_round_is_played_by_auto_play_and_freed_at_the_end():
    table = seated(live("5s 9h 6d 7c 2c 10h"), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    table.leave("ann", 3, now=2.0)  # 11: hits the 2c, then 13 stands; the dealer busts
    assert table.stage is Stage.RESULT and 3 not in table.holders
    assert table.balances["ann"] == 120


def test_a_preselected_action_is_carried_out_when_the_turn_comes():
    table = seated(live("10s 10h 9h 8d 9d 7c 2c"), ("ann", 1), ("bob", 2))
    table.bet("ann", 1, 20, now=1.0)
    table.bet("bob", 2, 20, now=1.0)
    public = table.public("bob")
    assert [p.seat for p in public.preselections] == [2]
    table.preselect("bob", 2, "stand", now=2.0)
    table.act("ann", "stand", now=3.0)  # bob's stand follows at once: the dealer plays
    assert table.stage is Stage.RESULT


def test_one_owner_on_two_seats_bets_the_same_on_both():
    table = seated(live(), ("ann", 2), ("ann", 4))
    table.bet("ann", 2, 20, now=1.0)
    with pytest.raises(IllegalActionError, match="same bet: 20 chips"):
        table.bet("ann", 4, 30, now=1.0)
    table.bet("ann", 4, 20, now=1.0)  # both bet: the round is dealt
    assert table.round is not None and [seat.bet for seat in table.round.seats] == [20, 20]


def test_a_fault_pauses_the_round_and_one_not_put_right_in_the_grace_voids_it_refunding_all():
    # The stacked shoe runs out when ann hits at 2: the round pauses as it stood before
    # the hit, the stakes still riding. The hit is tried again every 5 s; still failing
    # 60 s after the fault, at 62, the round is voided and every stake in it (ann's seat
    # bet, carl's bet behind and pair bet) comes back.
    table = seated(live("5s 9h 6d 7c"), ("ann", 3))
    table.buy_in("carl", 100, now=0.0)
    table.bet_behind("carl", 3, 10, now=0.5)
    table.pair_bet("carl", 3, 10, now=0.5)
    table.bet("ann", 3, 20, now=1.0)
    assert table.balances == {"ann": 80, "carl": 80}
    table.act("ann", "hit", now=2.0)
    public = table.public("ann")
    assert table.stage is Stage.PLAYING and public.paused and public.turn is None
    assert table.deadline == 2.0 + FAULT_RETRY_SECONDS  # the next try
    assert public.deadline == 2.0 + FAULT_GRACE_SECONDS  # what a player waits for
    assert table.balances == {"ann": 80, "carl": 80}
    assert table.round is not None and len(table.round.seats[0].hands[0].cards) == 2
    assert table.advance(2.0 + FAULT_GRACE_SECONDS - 0.001) == []
    notices = table.advance(2.0 + FAULT_GRACE_SECONDS)
    assert kinds(notices) == ["voided"]
    assert table.round is not None and table.round.phase is Phase.VOIDED
    assert table.stage is Stage.RESULT and table.balances == {"ann": 100, "carl": 100}
    assert [n.kind for n in table.notices].count(NoticeKind.PAUSED) == 1


def test_while_a_round_is_paused_a_decision_is_refused_and_changes_nothing():
    table = seated(live("5s 9h 6d 7c"), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    table.act("ann", "hit", now=2.0)
    before = json_of(table)
    with pytest.raises(IllegalActionError, match="paused"):
        table.act("ann", "stand", now=3.0)
    assert json_of(table) == before


def test_a_fault_of_a_bot_put_right_in_the_grace_resumes_the_round_where_it_stopped(
    monkeypatch,
):
    # ann (3) stands on 10 9 at 2; the easy bot (5) then breaks on its 9 6. It is mended
    # at 10: the retry at 12 goes through, the bot hits the 5c (20) and stands, and the
    # round plays on as if nothing happened: the dealer's 10 9 pushes ann's 19 and loses
    # to the bot's 20.
    mended = bots.BOTS["easy"]
    broken = True

    def flaky(view):
        if broken:
            raise RuntimeError("the bot broke")
        return mended(view)

    monkeypatch.setitem(bots.BOTS, "easy", flaky)
    table = seated(live("10s 9c 10h 9h 6d 9d 5c", bots=[BotSeat(5, "easy")]), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    table.act("ann", "stand", now=2.0)
    assert table.public("ann").paused and table.balances == {"bot 5": 990, "ann": 80}
    table.advance(9.0)  # the retry at 7 fails too
    assert table.public("ann").paused
    restored = LiveTable.from_json(json.loads(json_of(table)))
    assert restored == table
    broken = False
    notices = restored.advance(12.0)
    assert [(n.kind, n.at) for n in notices] == [(NoticeKind.RESUMED, 12.0)]
    assert restored.stage is Stage.RESULT and restored.round is not None
    assert restored.round.phase is Phase.SETTLED
    assert restored.balances == {"bot 5": 1010, "ann": 100}


def test_a_fault_at_the_deal_put_right_deals_the_round_with_its_bets_once(monkeypatch):
    # The deal fails once (at 1, when ann's bet closes the window): nothing is taken;
    # the retry at 6 places every bet once and deals. ann stands on 20 against the 7 10.
    deal = Round.deal
    failures = [RuntimeError("the shoe jammed")]

    def jamming(self):
        if failures:
            raise failures.pop()
        return deal(self)

    monkeypatch.setattr(Round, "deal", jamming)
    table = seated(live("10s 7c 10h 10d"), ("ann", 3))
    table.buy_in("carl", 100, now=0.0)
    table.bet_behind("carl", 3, 10, now=0.5)
    table.bet("ann", 3, 20, now=1.0)
    assert table.public("ann").paused and table.balances == {"ann": 100, "carl": 100}
    table.advance(6.0)
    assert table.balances == {"ann": 80, "carl": 90}
    table.act("ann", "stand", now=7.0)
    assert table.balances == {"ann": 120, "carl": 110}


def test_while_the_deal_is_paused_a_bettor_in_it_may_not_cash_out(monkeypatch):
    # The deal fails (at 1): carl's bet behind ann is not taken yet, but it is in the
    # round to come, so he may not leave with his chips; dan, with no bet, may.
    def jammed(self):
        raise RuntimeError("the shoe jammed")

    monkeypatch.setattr(Round, "deal", jammed)
    table = seated(live("10s 7c 10h 10d"), ("ann", 3))
    for name in ("carl", "dan"):
        table.buy_in(name, 100, now=0.0)
    table.bet_behind("carl", 3, 10, now=0.5)
    table.bet("ann", 3, 20, now=1.0)
    assert table.public("ann").paused
    for name in ("ann", "carl"):
        with pytest.raises(IllegalActionError, match="bets in play"):
            table.cash_out(name, now=2.0)
    assert table.cash_out("dan", now=2.0) == 100


def test_a_decision_that_met_a_fault_is_carried_out_when_the_fault_is_put_right(monkeypatch):
    # ann's stand at 2 fails once; the retry at 7 carries it out: her 20 beats 17.
    apply = Round.apply
    failures = [RuntimeError("lost in transit")]

    def flaky(self, action, **kwargs):
        if failures and action == "stand":
            raise failures.pop()
        return apply(self, action, **kwargs)

    monkeypatch.setattr(Round, "apply", flaky)
    table = seated(live("10s 7c 10h 10d"), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    table.act("ann", "stand", now=2.0)
    assert table.stage is Stage.PLAYING and table.public("ann").paused
    table.advance(7.0)
    assert table.stage is Stage.RESULT and table.balances["ann"] == 120


def test_a_fault_of_a_bot_not_put_right_voids_the_round_with_its_reason(monkeypatch):
    def broken(view):
        raise RuntimeError("the bot broke")

    monkeypatch.setitem(bots.BOTS, "easy", broken)
    table = seated(live("10s 9c 10h 9h 6d 9d", bots=[BotSeat(5, "easy")]), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    table.act("ann", "stand", now=2.0)  # then the bot's turn: it fails
    table.advance(2.0 + FAULT_GRACE_SECONDS)
    assert table.round is not None and table.round.phase is Phase.VOIDED
    assert table.balances == {"bot 5": 1000, "ann": 100}
    assert RoundVoided("RuntimeError: the bot broke") in table.round.history()


def test_a_fault_in_auto_play_pauses_the_round_at_the_time_it_happened(monkeypatch):
    def broken(self):
        raise RuntimeError("auto-play broke")

    monkeypatch.setattr(Round, "auto_play", broken)
    table = seated(live("10s 9h 9s 7c"), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    table.leave("ann", 3, now=4.0)
    assert (4.0, NoticeKind.PAUSED) in [(n.at, n.kind) for n in table.notices]
    table.advance(4.0 + FAULT_GRACE_SECONDS)
    assert (64.0, NoticeKind.VOIDED) in [(n.at, n.kind) for n in table.notices]
    assert 3 not in table.holders and table.balances["ann"] == 100


def test_a_bettor_behind_a_bots_seat_decides_whether_to_follow_its_double():
    # Nobody is seated but the normal bot (1): bob's bet behind it is dealt at 16. The
    # bot doubles its 5s 6d = 11 against the 9h, and bob is asked to follow.
    table = live("5s 9h 6d 7c 10h 9d", bots=[BotSeat(1, "normal")])
    table.buy_in("bob", 100, now=0.0)
    table.bet_behind("bob", 1, 10, now=1.0)
    table.advance(1.0 + BETTING)
    public = table.public("bob")
    assert public.turn is not None and public.turn.owner == "bob"
    assert public.turn.decision is Decision.FOLLOW_DOUBLE


# Every stake is in the history ------------------------------------------------------------


def test_each_stake_is_settled_with_its_kind_seat_and_owner_for_the_bet_history():
    # Against the ace: ann insures, bob (behind ann) insures; the dealer has no natural.
    table = seated(live("10s Ah 10d 7c 2c"), ("ann", 3))
    table.buy_in("bob", 100, now=0.0)
    table.bet_behind("bob", 3, 10, now=0.5)
    table.pair_bet("bob", 3, 10, now=0.5)
    table.bet("ann", 3, 20, now=1.0)
    table.act("ann", "insure", now=2.0)
    table.act("bob", "insure", now=3.0)
    table.act("ann", "stand", now=4.0)  # 20 against soft 18
    assert table.round is not None
    stakes = [
        (s.seat, s.owner, s.kind.value, s.staked, s.returned - s.staked)
        for s in table.round.history()
        if isinstance(s, StakeSettled)
    ]
    assert stakes == [
        (3, "ann", "hand", 20, 20),
        (3, "bob", "behind", 10, 10),
        (3, "ann", "insurance", 10, -10),
        (3, "bob", "insurance", 5, -5),
        (3, "bob", "pair", 10, 60),  # 10s 10d: same rank, black and red: mixed, 6:1
    ]


# Refusals change nothing ------------------------------------------------------------------


def refusals_table() -> LiveTable:
    table = seated(live("5s 9h 6d 7c 2c 10h 9s 9c"), ("ann", 3), ("ann", 5), ("bob", 1))
    table.buy_in("guest", 100, now=0.0)
    return table


@pytest.mark.parametrize(
    ("attempt", "message"),
    [
        (lambda t: t.bet("bob", 3, 20, now=1.0), "^seat 3 is not yours$"),
        (lambda t: t.bet_behind("ann", 3, 10, now=1.0), "^you cannot bet behind your own seat$"),
        (lambda t: t.sit("ann", 6, now=1.0), "at most 2 seat"),
        (lambda t: t.sit("guest", 6, now=1.0, may_sit=False), "^guests may watch"),
        (lambda t: t.sit("guest", 1, now=1.0), "^seat 1 is taken$"),
        (lambda t: t.bet("bob", 1, 200, now=1.0), "^that bet is more than your balance$"),
        (lambda t: t.bet_behind("guest", 1, 110, now=1.0), "more than your balance"),
        (lambda t: t.act("bob", "hit", now=1.0), "^no round is in play$"),
        (lambda t: t.bet("bob", 1, 15, now=1.0), "steps of 10"),
        (lambda t: t.pair_bet("guest", 2, 10, now=1.0), "^seat 2 has no player$"),
        (lambda t: t.sit("guest", 0, now=1.0), "^there is no seat 0 at this table$"),
        (lambda t: t.sit("guest", 8, now=1.0), "^there is no seat 8 at this table$"),
        (lambda t: t.sit("guest", "2", now=1.0), "^there is no seat 2 at this table$"),
        (lambda t: t.sit("carl", 2, now=1.0), "^buy in with at least 10 chips to sit$"),
        (lambda t: t.buy_in("guest", 0, now=1.0), "^buy in with a whole number of chips"),
        pytest.param(
            lambda t: t.buy_in("guest", "10", now=1.0), "^buy in with a whole", id="chips-text"
        ),
        (lambda t: t.buy_in("bot 2", 100, now=1.0), "^that is not a player's name$"),
        pytest.param(lambda t: t.buy_in("", 100, now=1.0), "^that is not", id="name-empty"),
        pytest.param(lambda t: t.buy_in(7, 100, now=1.0), "^that is not", id="name-number"),
        (lambda t: t.advance(float("nan")), "^the time must be a number of seconds$"),
        pytest.param(lambda t: t.advance("3"), "^the time must be a number", id="time-text"),
    ],
)
def test_a_refused_move_in_the_betting_window_says_why_and_changes_nothing(attempt, message):
    table = refusals_table()
    table.advance(1.0)
    before = json_of(table)
    with pytest.raises(IllegalActionError, match=message):
        attempt(table)
    assert json_of(table) == before


@pytest.mark.parametrize(
    ("attempt", "message"),
    [
        (lambda t: t.act("ann", "hit", now=3.0), "^it is not your turn$"),
        (lambda t: t.act("bob", "insure", now=3.0), "^insurance is not on offer now$"),
        (lambda t: t.bet_behind("guest", 1, 10, now=3.0), "closed for this round$"),
        (lambda t: t.pair_bet("guest", 1, 10, now=3.0), "^bets are closed for this round$"),
        (lambda t: t.cash_out("bob", now=3.0), "^you have bets in play"),
        (lambda t: t.preselect("bob", 3, "stand", now=3.0), "^seat 3 is not yours$"),
    ],
)
def test_a_refused_move_in_a_round_says_why_and_changes_nothing(attempt, message):
    table = refusals_table()
    table.bet("bob", 1, 20, now=1.0)
    table.bet("ann", 3, 20, now=2.0)
    table.bet("ann", 5, 20, now=2.0)
    assert table.stage is Stage.PLAYING and table.round is not None
    assert table.round.turn is not None and table.round.turn.owner == "bob"
    table.advance(3.0)
    before = json_of(table)
    with pytest.raises(IllegalActionError, match=message):
        attempt(table)
    assert json_of(table) == before


@pytest.mark.parametrize("stake", ["behind", "pair", None])
def test_in_a_round_only_a_person_without_a_stake_in_it_may_cash_out(stake):
    table = refusals_table()
    if stake == "behind":
        table.bet_behind("guest", 1, 10, now=0.5)
    if stake == "pair":
        table.pair_bet("guest", 1, 10, now=0.5)
    table.bet("bob", 1, 20, now=1.0)
    table.bet("ann", 3, 20, now=2.0)
    table.bet("ann", 5, 20, now=2.0)
    assert table.stage is Stage.PLAYING
    if stake is None:
        assert table.cash_out("guest", now=3.0) == 100
        return
    with pytest.raises(IllegalActionError, match="^you have bets in play"):
        table.cash_out("guest", now=3.0)
    assert table.balances["guest"] == 90


def test_cash_out_returns_every_chip_and_frees_the_seats_between_rounds():
    # ann's 19 loses to the dealer's 9 7 5 = 21: 80 chips left. Betting opens at 7.
    table = seated(live("10s 9h 9d 7c 5c"), ("ann", 2))
    table.bet("ann", 2, 20, now=1.0)
    table.act("ann", "stand", now=2.0)
    assert table.cash_out("ann", now=8.0) == 80
    assert "ann" not in table.balances and not table.holders


def test_no_field_of_the_live_public_view_can_hold_the_shoe_or_the_round():
    kinds = set(field_types(LivePublic, set()))
    assert {LiveSeat, PublicHand, PublicBehind, PlayerView, Card, CardDealt} <= kinds
    secret = (*SECRET_KEEPERS, LiveTable, BehindBet)
    assert not [kind for kind in kinds if isinstance(kind, type) and kind in secret]
    assert object not in kinds and Any not in kinds


def test_the_table_goes_through_json_mid_decision_with_its_deadline_and_plays_on_the_same():
    table = seated(live("5s 9h 6d 7c 2c 10h"), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    copy = LiveTable.from_json(json.loads(json_of(table)))
    assert copy == table and copy.deadline == 11.0
    for each in (table, copy):
        each.advance(30.0)
    assert copy == table and copy.balances["ann"] == 120


def test_leaving_in_the_betting_window_frees_the_seat_and_returns_the_bets_on_it():
    table = seated(live(), ("ann", 3), ("bob", 5))
    table.buy_in("carl", 100, now=0.0)
    table.bet_behind("carl", 3, 10, now=1.0)
    table.pair_bet("carl", 3, 20, now=1.0)
    table.leave("ann", 3, now=2.0)
    assert 3 not in table.holders and table.public("carl").committed == 0
    assert table.notices == [
        Notice(2.0, NoticeKind.LEFT, 3, "ann"),
        Notice(2.0, NoticeKind.BEHIND_RETURNED, 3, "carl", 10),
        Notice(2.0, NoticeKind.PAIR_RETURNED, 3, "carl", 20),
    ]


def test_clearing_ones_bets_withdraws_every_bet_of_the_window():
    table = seated(live(rng=random.Random(25)), ("ann", 3), ("bob", 5))
    table.bet("ann", 3, 20, now=1.0)
    table.bet_behind("ann", 5, 10, now=1.0)
    assert table.public("ann").committed == 30
    table.clear_bets("ann", now=2.0)
    assert table.public("ann").committed == 0 and table.stage is Stage.BETTING


def test_each_move_applies_the_clock_before_it_and_a_single_chip_buys_in():
    # carl sits at 1 and never bets, bob bets on 5: betting closes at 15 with bob alone.
    table = seated(live("10s 9h 9d 7c 2c"), ("carl", 1), ("bob", 5))
    table.buy_in("ann", 10, now=0.0)
    table.bet("bob", 5, 20, now=1.0)
    table.sit("ann", 3, now=16.0)  # taken from the next deal: not in the round in play
    assert table.stage is Stage.PLAYING and 1 not in table.holders and 3 in table.holders
    assert table.round is not None and [seat.number for seat in table.round.seats] == [5]
    # bob's hand is auto-played at 25 and the result shown until 30.
    table.buy_in("dan", 1, now=31.0)
    assert table.stage is Stage.BETTING and table.balances["dan"] == 1


def test_a_lone_person_freed_for_sitting_out_twice_leaves_the_table_waiting_unplayed():
    table = seated(live(), ("ann", 3))
    table.sit_out("ann", 3, now=1.0)  # the window closes at once: nobody has a bet
    assert kinds(table.notices) == ["sat_out", "no_round"] and table.deadline == 1.0 + BETTING
    table.sit_out("ann", 3, now=2.0)
    assert table.notices == [
        Notice(2.0, NoticeKind.FREED_SAT_OUT, 3, "ann"),
        Notice(2.0, NoticeKind.NO_ROUND),
    ]
    assert table.holders == {} and table.deadline == 2.0 + BETTING


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"betting_seconds": 0}, "^each countdown is a number of seconds, up to an hour$"),
        ({"decision_seconds": 3600}, "^each countdown"),
        ({"result_seconds": "5"}, "^each countdown"),
        ({"max_seats_per_owner": 3}, "^an owner may hold 1 to 2 seats under these rules$"),
        ({"max_seats_per_owner": 0}, "^an owner may hold 1 to 2 seats"),
        ({"max_seats_per_owner": "1"}, "^an owner may hold 1 to 2 seats"),
        ({"bots": [BotSeat(8, "easy")]}, "^seats are numbered 1 to 7$"),
        ({"bots": [BotSeat("1", "easy")]}, "^seats are numbered 1 to 7$"),
        ({"bots": [BotSeat(2, "easy"), BotSeat(2, "hard")]}, "^two bots cannot share a seat$"),
        ({"bots": [BotSeat(2, "expert")]}, "^no bot tier 'expert': choose easy, normal, hard$"),
        ({"bot_bankroll": 9}, "^the bots' bankroll must be at least 10 chips$"),
        ({"bot_bankroll": "1000"}, "^the bots' bankroll must be at least 10 chips$"),
    ],
)
def test_a_table_opens_only_with_settings_it_can_keep(settings, message):
    with pytest.raises(IllegalActionError, match=message):
        LiveTable.new(DELUXE, now=0.0, **settings)


def test_a_table_opens_with_settings_at_their_bounds_and_keeps_them():
    table = LiveTable.new(
        DELUXE, now=0.0, bots=[BotSeat(1, "easy"), BotSeat(7, "hard")], bot_bankroll=10,
        betting_seconds=0.5, decision_seconds=3599, result_seconds=1, max_seats_per_owner=1,
    )  # fmt: skip
    assert (table.betting_seconds, table.decision_seconds, table.deadline) == (0.5, 3599.0, inf)
    assert table.balances == {"bot 1": 10, "bot 7": 10}
    table.buy_in("ann", 100, now=0.0)
    table.sit("ann", 3, now=0.0)
    with pytest.raises(IllegalActionError, match="^one player may hold at most 1 seat"):
        table.sit("ann", 4, now=0.0)


def test_a_table_given_a_generator_shuffles_its_shoe_with_it():
    def shoe_of(seed: int) -> Shoe:
        shoe = LiveTable.new(DELUXE, now=0.0, rng=random.Random(seed)).shoe
        shoe.prepare_round(DELUXE)  # a fresh shoe is shuffled before its first round
        return shoe

    assert shoe_of(7) == shoe_of(7) and shoe_of(7) != shoe_of(8)


# What the table shows (RULES.md §2) -------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_the_round_that_opens_a_fresh_shoe_shows_the_card_turned_and_how_many_are_burned(seed):
    # Deluxe burns before a fresh shoe's first round: the dealer turns the first card and
    # burns that many more (ace 1, ten-values 10). Every viewer sees the card turned and
    # the count, never the burned cards; the next round of the shoe burns nothing.
    table = seated(LiveTable.new(DELUXE, now=0.0, rng=random.Random(seed)), ("ann", 3))
    table.bet("ann", 3, 10, now=1.0)
    shuffled = table.public(None).shuffled
    assert shuffled is not None and shuffled.shown is not None
    rank = shuffled.shown.rank
    value = 1 if rank == "A" else 10 if rank in ("10", "J", "Q", "K") else int(rank)
    assert shuffled.burned == 1 + value == table.shoe.burned
    assert table.public("ann").shuffled == shuffled
    table.advance(20.0)  # auto-play ends the round at 11; the next window opens at 16
    table.bet("ann", 3, 10, now=20.0)
    assert table.stage is Stage.PLAYING and table.public("ann").shuffled is None


def test_the_public_view_shows_each_seat_its_bets_and_then_its_cards_and_stakes():
    # ann holds seat 3, an easy bot seat 5; bob bets 10 behind ann and 20 on her pair. In
    # the window: what is placed, the bot at the minimum. Dealt at 1 (ann bets 20): ann
    # 5s 6d, the bot 10s 7s, the dealer's 9h up and the 7c face down; ann's turn, so only
    # she is shown a decision.
    table = seated(live("5s 10s 9h 6d 7s 7c", bots=[BotSeat(5, "easy")]), ("ann", 3))
    table.buy_in("bob", 100, now=0.0)
    table.bet_behind("bob", 3, 10, now=0.5)
    table.pair_bet("bob", 3, 20, now=0.5)
    minimum = table.limits.minimum
    window = table.public("bob")
    assert window.seats == (
        LiveSeat(3, "ann", None, False, 0, False, None, (),
                 (PublicBehind("bob", 10, (), None),), (SideBet(3, "bob", 20),)),
        LiveSeat(5, "bot 5", "easy", False, 0, False, minimum, (), (), ()),
    )  # fmt: skip
    assert (window.stage, window.phase, window.history, window.dealer) == (
        Stage.BETTING, None, (), ()
    )  # fmt: skip
    assert (window.turn, window.decision) == (None, None)

    table.bet("ann", 3, 20, now=1.0)
    dealt = table.public("ann")
    cards = Card.parse
    assert dealt.seats == (
        LiveSeat(3, "ann", None, False, 0, False, 20,
                 (PublicHand((cards("5s"), cards("6d")), 20),),
                 (PublicBehind("bob", 10, (10,), None),), (SideBet(3, "bob", 20),)),
        LiveSeat(5, "bot 5", "easy", False, 0, False, minimum,
                 (PublicHand((cards("10s"), cards("7s")), minimum),), (), ()),
    )  # fmt: skip
    assert (dealt.stage, dealt.phase, dealt.dealer) == (
        Stage.PLAYING, Phase.PLAYER_TURNS, (cards("9h"), None)
    )  # fmt: skip
    assert dealt.turn is not None and dealt.turn.owner == "ann" and dealt.history
    assert dealt.decision is not None and dealt.decision.seat == 3
    assert table.public("bob").decision is None and table.public(None).decision is None


def leaving_table(limits: Limits | None = None, bet: int = 20) -> LiveTable:
    """ann on 3 and bob on 5, both bet at 1: ann 5s 6d (11), bob 10s 7s (17), the dealer's
    9h up and the 7c down; ann's decision is awaited from 1, until 11."""
    table = live("5s 10s 9h 6d 7s 7c 2c 10h 5d", limits=limits)
    seated(table, ("ann", 3), ("bob", 5))
    table.bet("bob", 5, bet, now=1.0)
    table.bet("ann", 3, bet, now=1.0)
    assert table.stage is Stage.PLAYING and table.deadline == 11.0
    return table


def test_leaving_while_another_decides_keeps_their_countdown_and_frees_the_seat_after():
    table = leaving_table()
    table.leave("bob", 5, now=4.0)
    assert table.deadline == 11.0 and table.holders[5].leaving
    table.advance(30.0)  # ann's hand and then bob's are played by auto-play
    assert 5 not in table.holders and 3 in table.holders


def test_leaving_in_the_result_pause_frees_the_seat_at_once():
    table = seated(live("5s 9h 6d 7c 2c 10h"), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    table.act("ann", "stand", now=2.0)
    assert table.stage is Stage.RESULT
    table.leave("ann", 3, now=3.0)
    assert 3 not in table.holders


def test_the_last_person_to_bet_leaving_the_window_closes_it_and_deals():
    table = seated(live("5s 9h 6d 7c 2c 10h"), ("ann", 3), ("bob", 5))
    table.bet("ann", 3, 20, now=1.0)
    table.leave("bob", 5, now=2.0)
    assert table.stage is Stage.PLAYING and table.deadline == 12.0


def test_a_table_of_its_own_limits_with_a_holder_leaving_comes_back_from_json_the_same():
    # At limits of 4 to 100 in steps of 2: bob leaves on ann's turn.
    table = leaving_table(Limits(4, 100, 2), bet=6)
    table.leave("bob", 5, now=2.0)
    copy = LiveTable.from_json(json.loads(json_of(table)))
    assert copy == table and copy.holders[5].leaving
    assert copy.limits == Limits(4, 100, 2)


def test_a_table_stored_before_issue_25_loads_with_nobody_absent_paused_or_played():
    table = seated(live("5s 9h 6d 7c 2c 10h"), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    data = table.to_json()
    for key in ("absent", "window", "fault"):
        del data[key]
    data["holders"] = {n: holder[:5] for n, holder in data["holders"].items()}
    old = LiveTable.from_json(data)
    assert (old.absent, old.window, old.fault) == (set(), None, None)
    assert not old.holders[3].played
    old.advance(11.0)  # and plays on: ann's 11 hits the 2c, stands; the dealer busts
    assert old.balances["ann"] == 120


def test_a_stored_table_with_a_bot_of_an_unknown_tier_is_refused_as_such():
    data = json.loads(json_of(live(bots=[BotSeat(2, "easy")])))
    data["holders"]["2"][1] = "expert"
    with pytest.raises(StateError, match="^not a valid live table: unknown bot tier$"):
        LiveTable.from_json(data)


def test_a_table_without_the_pair_bet_refuses_one_by_name():
    table = seated(LiveTable.new(EUROPEAN, now=0.0), ("ann", 3))
    with pytest.raises(IllegalActionError, match="^this table has no pair side bet$"):
        table.pair_bet("ann", 3, 10, now=1.0)


def test_a_seat_taken_during_the_round_has_no_hand_to_preselect_for():
    table = leaving_table()
    seated(table, ("carl", 6))
    with pytest.raises(IllegalActionError, match="^seat 6 has no hand in this round$"):
        table.preselect("carl", 6, "stand", now=2.0)


@pytest.mark.parametrize(
    "late",
    [lambda t: t.clear_bets("ann", now=16.0), lambda t: t.pair_bet("ann", 3, 10, now=16.0)],
    ids=["clear", "pair bet"],
)
def test_bets_cannot_be_cleared_or_placed_once_the_window_has_closed(late):
    # bob never bets: at 15 he is unseated and ann's round is dealt, before she moves.
    table = seated(live("5s 9h 6d 7c 2c 10h"), ("ann", 3), ("bob", 5))
    table.bet("ann", 3, 20, now=1.0)
    with pytest.raises(IllegalActionError, match="^bets are closed for this round$"):
        late(table)


def test_cashing_out_in_the_window_takes_back_the_bets_placed():
    table = seated(live(), ("ann", 3))
    table.buy_in("carl", 100, now=0.0)
    table.bet_behind("carl", 3, 10, now=1.0)
    table.pair_bet("carl", 3, 10, now=1.0)
    assert table.cash_out("carl", now=2.0) == 100
    (seat,) = table.public("ann").seats
    assert (seat.behind, seat.pairs) == ((), ())


def test_sitting_out_withdraws_the_seat_bet():
    table = seated(live(rng=random.Random(25)), ("ann", 3), ("bob", 5))
    table.bet("ann", 3, 20, now=1.0)
    table.sit_out("ann", 3, now=2.0)
    assert table.public("ann").committed == 0 and table.public("ann").seats[0].bet is None
    assert table.public("ann").seats[0].sitting_out


def test_a_bet_after_sitting_out_takes_the_seat_back_into_the_round():
    table = seated(live(), ("ann", 3), ("bob", 5))
    table.sit_out("ann", 3, now=1.0)
    table.bet("ann", 3, 20, now=2.0)
    (seat, _) = table.public("ann").seats
    assert (seat.bet, seat.sitting_out) == (20, False)


def test_clearing_ones_bets_leaves_everyone_elses():
    table = seated(live(), ("ann", 3), ("bob", 5))
    table.pair_bet("ann", 3, 10, now=1.0)
    table.pair_bet("bob", 3, 20, now=1.0)
    table.clear_bets("ann", now=2.0)
    assert table.public("ann").seats[0].pairs == (SideBet(3, "bob", 20),)


def test_a_seat_that_sat_out_a_round_is_back_in_the_next_window():
    # ann sits out; bob's 10s 9d = 19 stands, the dealer's 9h 7c draws the 5c: 21. The
    # result shows until 7, when the next window opens with nobody sitting out.
    table = seated(live("10s 9h 9d 7c 5c"), ("ann", 3), ("bob", 5))
    table.sit_out("ann", 3, now=1.0)
    table.bet("bob", 5, 20, now=1.0)
    table.act("bob", "stand", now=2.0)
    table.advance(8.0)
    ann = table.public("ann").seats[0]
    assert table.stage is Stage.BETTING and (ann.sitting_out, ann.rounds_out) == (False, 1)


def test_a_bot_at_the_minimum_plays_on_and_one_below_it_is_bought_in_again_at_the_deal():
    # The bot on 5 starts with the minimum, 10, and is not bought in. Round 1: ann's 10s 9s
    # and the bot's 10h 7c both lose to the dealer's 10d 10c. At 8 ann bets again: the
    # bot, at 0, is bought in with 10 as the round is dealt (9h 9d, the 8c up, 10h 8d,
    # the 9c down).
    table = live("10s 10h 10d 9s 7c 10c 9h 9d 8c 10h 8d 9c",
                 bots=[BotSeat(5, "easy")], bot_bankroll=10)  # fmt: skip
    seated(table, ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    assert not [n for n in table.notices if n.kind is NoticeKind.BOT_BOUGHT_IN]
    table.act("ann", "stand", now=2.0)
    assert table.balances["bot 5"] == 0
    table.bet("ann", 3, 20, now=8.0)
    bought = [n for n in table.notices if n.kind is NoticeKind.BOT_BOUGHT_IN]
    assert bought == [Notice(8.0, NoticeKind.BOT_BOUGHT_IN, 5, "bot 5", 10)]
    table.advance(60.0)  # ann's 19 stands by auto-play; the bot's 17 pushes the dealer's
    assert table.balances["bot 5"] == 10


def test_a_side_bet_changed_counts_its_old_amount_as_free_and_others_stay_apart():
    # carl has 31 chips at a table of steps of 2: a first bet of 32 behind seat 3 is
    # refused, but a bet of 20 there may be raised to 30 (its 20 is free again). Bets
    # behind two seats, and two owners' behind one seat, are each their own.
    table = live(limits=Limits(4, 100, 2))
    seated(table, ("ann", 3), ("bob", 5))
    table.buy_in("carl", 31, now=0.0)
    with pytest.raises(IllegalActionError, match="^that bet is more than your balance$"):
        table.bet_behind("carl", 3, 32, now=0.5)
    table.bet_behind("carl", 3, 20, now=0.5)
    table.bet_behind("carl", 3, 30, now=0.5)
    table.bet_behind("ann", 5, 10, now=0.5)
    table.bet_behind("bob", 3, 10, now=0.5)
    ann_seat, bob_seat = table.public("carl").seats
    assert [(b.owner, b.amount) for b in ann_seat.behind] == [("carl", 30), ("bob", 10)]
    assert [(b.owner, b.amount) for b in bob_seat.behind] == [("ann", 10)]


def test_preselections_and_acting_belong_to_the_round_in_play_only():
    # ann stands on 19 against the 9: the round ends with the dealer's 9 7 2 = 18.
    table = seated(live("10s 9h 9d 7c 2c"), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    assert table.public(None).preselections == ()
    table.act("ann", "stand", now=2.0)
    assert table.stage is Stage.RESULT and table.public("ann").preselections == ()
    with pytest.raises(IllegalActionError, match="^no round is in play$"):
        table.act("ann", "hit", now=3.0)


def test_a_timed_out_decision_names_its_seat_and_owner():
    table = seated(live("5s 9h 6d 7c 2c 10h"), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    (notice,) = table.advance(12.0)
    assert notice == Notice(11.0, NoticeKind.TIMED_OUT, 3, "ann")


def test_a_bet_behind_needs_a_table_that_has_them_and_a_held_seat():
    european = seated(LiveTable.new(EUROPEAN, now=0.0), ("ann", 3))
    with pytest.raises(IllegalActionError, match="^this table has no bet behind$"):
        european.bet_behind("ann", 3, 10, now=1.0)
    table = seated(live(), ("ann", 3))
    with pytest.raises(IllegalActionError, match="^seat 6 has no player$"):
        table.bet_behind("ann", 6, 10, now=1.0)


def test_the_next_window_shows_its_own_bets_not_the_last_rounds_cards():
    # Round 1: ann stands on 19, the dealer's 9 7 2 = 18; bob sits down in the result
    # pause. In the next window (from 7) ann bets 20 and nothing of round 1 is shown; a
    # watcher has nothing committed.
    table = seated(live("10s 9h 9d 7c 2c"), ("ann", 3))
    table.bet("ann", 3, 20, now=1.0)
    table.act("ann", "stand", now=2.0)
    table.buy_in("bob", 100, now=3.0)
    table.sit("bob", 5, now=3.0)
    table.bet("ann", 3, 20, now=8.0)
    window = table.public(None)
    ann, bob = window.seats
    assert window.stage is Stage.BETTING
    assert (ann.bet, ann.hands, bob.bet, bob.hands) == (20, (), None, ())
    assert (window.history, window.dealer, window.committed) == ((), (), 0)


def test_a_bettor_behind_who_declines_insurance_shows_a_stake_of_none_taken():
    # Against the ace: ann declines, bob (10 behind her) declines; the dealer's A 7.
    table = seated(live("10s Ah 10d 7c 2c"), ("ann", 3))
    table.buy_in("bob", 100, now=0.0)
    table.bet_behind("bob", 3, 10, now=0.5)
    table.bet("ann", 3, 20, now=1.0)
    (behind,) = table.public("bob").seats[0].behind
    assert behind.insurance is None
    table.act("ann", "no_insurance", now=2.0)
    table.act("bob", "no_insurance", now=3.0)
    (behind,) = table.public("bob").seats[0].behind
    assert (behind.stakes, behind.insurance) == ((10,), 0)


def test_a_table_restored_with_a_seeded_generator_shuffles_with_it():
    # A new table's shoe is shuffled when the first round is dealt, by the generator the
    # table was restored with: the same seed deals the same cards, another seed others.
    data = json.loads(json_of(LiveTable.new(DELUXE, now=0.0, rng=random.Random(1))))

    def dealt(seed: int) -> tuple[PublicHand, ...]:
        table = seated(LiveTable.from_json(data, rng=random.Random(seed)), ("ann", 3))
        table.bet("ann", 3, 20, now=1.0)
        return table.public(None).seats[0].hands

    assert dealt(7) == dealt(7) != dealt(8)


def test_a_seat_bet_changed_counts_its_old_amount_as_free_and_a_first_may_not_pass_the_balance():
    table = live()
    table.buy_in("ann", 109, now=0.0)
    table.sit("ann", 3, now=0.0)
    with pytest.raises(IllegalActionError, match="^that bet is more than your balance$"):
        table.bet("ann", 3, 110, now=1.0)  # 109 chips: not 110
    seated(table, ("bob", 5))
    table.bet("ann", 3, 60, now=1.0)
    table.bet("ann", 3, 100, now=1.0)  # 49 free and the 60 placed
    assert table.public("ann").seats[0].bet == 100


def test_one_owner_on_two_seats_may_put_all_their_chips_on_both_and_changes_both_at_once():
    table = seated(live(), ("ann", 2), ("ann", 4), ("bob", 6))
    table.bet("ann", 2, 50, now=1.0)
    table.bet("ann", 4, 50, now=1.0)  # the other 50 of her 100
    table.bet("ann", 2, 30, now=1.0)
    assert [seat.bet for seat in table.public("ann").seats] == [30, 30, None]
    again = seated(live(), ("ann", 2), ("ann", 4), ("bob", 6))
    again.bet("ann", 2, 60, now=1.0)
    with pytest.raises(IllegalActionError, match="^that bet is more than your balance$"):
        again.bet("ann", 4, 60, now=1.0)


def test_a_raise_on_two_seats_the_balance_cannot_cover_twice_is_split_in_the_tables_steps():
    # ann has 90: 20 on each seat leaves 50 free. Raising one seat to 50 would cost 60 on
    # both, so the 70 of 20 + 50 is split: 35, down to the step of 10, is 30 on each.
    table = seated(live(), ("ann", 2), ("ann", 4), ("bob", 6), chips=90)
    table.bet("ann", 2, 20, now=1.0)
    table.bet("ann", 4, 20, now=1.0)
    table.bet("ann", 2, 50, now=1.0)
    assert [seat.bet for seat in table.public("ann").seats[:2]] == [30, 30]


def test_a_hand_played_out_for_a_leaver_starts_the_next_players_countdown():
    # ann (1) leaves on her own turn at 4: her 10s 9s = 19 stands by auto-play, and bob's
    # decision (10h 8d against the 9h) is awaited from 4, until 14.
    table = seated(live("10s 10h 9h 9s 8d 7c"), ("ann", 1), ("bob", 3))
    table.bet("ann", 1, 20, now=1.0)
    table.bet("bob", 3, 20, now=1.0)
    table.leave("ann", 1, now=4.0)
    assert table.round is not None and table.round.turn is not None
    assert table.round.turn.owner == "bob" and table.deadline == 14.0


# How long a table has stood empty of players (for its idle close) -------------------------


def test_a_table_is_empty_from_its_opening_until_a_person_sits():
    table = live(bots=[BotSeat(1, "easy")])
    assert table.empty_since == 0.0
    seated(table, ("ann", 3))
    assert table.empty_since is None


def test_a_table_is_empty_from_when_its_last_persons_seat_is_freed():
    table = seated(live(), ("ann", 3), ("bob", 5))
    table.leave("ann", 3, now=3.0)
    assert table.empty_since is None  # bob still sits
    table.cash_out("bob", now=4.0)  # his seat is freed with his chips
    assert table.empty_since == 4.0
    table.advance(1_000.0)
    assert table.empty_since == 4.0  # still empty since then, however long


def test_a_seat_freed_by_the_clock_dates_the_emptiness_to_the_deadline_not_the_reading():
    table = seated(live(), ("ann", 3))
    table.buy_in("bob", 100, now=0.0)
    table.pair_bet("bob", 3, 10, now=1.0)  # the countdown: betting closes at 16
    table.advance(5_000.0)  # read long after: ann was unseated at 16
    assert table.empty_since == 1.0 + BETTING
    again = LiveTable.from_json(json.loads(json.dumps(table.to_json())))
    assert again.empty_since == 1.0 + BETTING


def test_a_table_stored_before_emptiness_was_kept_reads_as_long_empty_only_without_players():
    empty, taken = live(), seated(live(), ("ann", 3))
    for table, expected in ((empty, 0.0), (taken, None)):
        data = table.to_json()
        del data["empty_since"]
        assert LiveTable.from_json(data).empty_since == expected
