"""Every reason the engine gives for refusing an action, by code, in English.

An `IllegalActionError` carries its reason's code and parameters beside the English
message built from the template here, so that an app can say the same in its player's
language (the trainer keeps a sentence per code) while the command line and the tests
read the English.
"""

from __future__ import annotations

from enum import StrEnum

from engine.errors import IllegalActionError

__all__ = ["REFUSALS", "Refusal", "refused"]


class Refusal(StrEnum):
    """Why the engine refuses an action: the code an `IllegalActionError` carries (a
    string, so that an app may key its own sentences by it)."""

    NOT_AN_ACTION = "not_an_action"
    NO_SUCH_SEAT = "no_such_seat"
    SEAT_HAS_BET = "seat_has_bet"
    SAME_BET_BOTH_SEATS = "same_bet_both_seats"
    SEATS_PER_PLAYER = "seats_per_player"
    SEAT_NOT_YOURS = "seat_not_yours"
    NO_PAIR_BET = "no_pair_bet"
    NO_HISTORY_NO_PAIR_BET = "no_history_no_pair_bet"
    NO_BET_BEHIND = "no_bet_behind"
    BEHIND_OWN_SEAT = "behind_own_seat"
    BEHIND_FULL = "behind_full"
    BETS_CLOSED = "bets_closed"
    BET_NOT_WHOLE = "bet_not_whole"
    SEAT_EMPTY = "seat_empty"
    OVER_BALANCE = "over_balance"
    BET_MINIMUM = "bet_minimum"
    BET_MAXIMUM = "bet_maximum"
    BET_STEP = "bet_step"
    RAISE_BOTH_SEATS = "raise_both_seats"
    ALREADY_DEALT = "already_dealt"
    BET_BEFORE_DEAL = "bet_before_deal"
    NOT_DEALT = "not_dealt"
    ROUND_OVER = "round_over"
    ROUND_ALREADY_OVER = "round_already_over"
    ROUND_NOT_OVER = "round_not_over"
    NO_HISTORY = "no_history"
    NOT_YOUR_TURN = "not_your_turn"
    OTHER_SEATS_TURN = "other_seats_turn"
    NO_TURN_TO_COME = "no_turn_to_come"
    NATURAL_NO_DECISION = "natural_no_decision"
    TURN_HAS_COME = "turn_has_come"
    NO_DECISION_AWAITED = "no_decision_awaited"
    NOT_OFFERED = "not_offered"
    NO_INSURANCE_NOW = "no_insurance_now"
    SPLIT_ACES_ONE_CARD = "split_aces_one_card"
    NO_SURRENDER = "no_surrender"
    SURRENDER_FIRST = "surrender_first"
    DOUBLE_FIRST_TWO_CARDS = "double_first_two_cards"
    SPLIT_FIRST_TWO_CARDS = "split_first_two_cards"
    DOUBLE_BALANCE = "double_balance"
    SPLIT_BALANCE = "split_balance"
    CANNOT_DOUBLE = "cannot_double"
    CANNOT_SPLIT = "cannot_split"
    INSURANCE_BALANCE = "insurance_balance"
    INSURANCE_FIRST = "insurance_first"
    FOLLOW_BALANCE = "follow_balance"
    FOLLOW_FIRST = "follow_first"
    BAD_LIMITS = "bad_limits"
    BANKROLL_MINIMUM = "bankroll_minimum"
    SEAT_NUMBERS = "seat_numbers"
    SHARED_SEAT = "shared_seat"
    BOT_TIER = "bot_tier"
    FINISH_ROUND = "finish_round"
    NO_ROUND_DEAL = "no_round_deal"
    TIME_ZONE = "time_zone"
    TIME_SECONDS = "time_seconds"
    COUNTDOWNS = "countdowns"
    OWNER_SEATS = "owner_seats"
    BOTS_SHARE_SEAT = "bots_share_seat"
    BOTS_BANKROLL = "bots_bankroll"
    BUY_IN_WHOLE = "buy_in_whole"
    BETS_IN_PLAY = "bets_in_play"
    GUESTS_CANNOT_SIT = "guests_cannot_sit"
    SEAT_TAKEN = "seat_taken"
    BUY_IN_TO_SIT = "buy_in_to_sit"
    BUY_IN_FIRST = "buy_in_first"
    NO_HAND_FOR_SEAT = "no_hand_for_seat"
    NO_ROUND = "no_round"
    ROUND_PAUSED = "round_paused"
    NOT_A_NAME = "not_a_name"


#: The English template of each reason; ``{name}`` is a parameter.
REFUSALS: dict[Refusal, str] = {
    # The round: bets and the deal.
    Refusal.NOT_AN_ACTION: "{action} is not an action",
    Refusal.NO_SUCH_SEAT: "there is no seat {seat} at this table",
    Refusal.SEAT_HAS_BET: "seat {seat} already has a bet",
    Refusal.SAME_BET_BOTH_SEATS: "both your seats carry the same bet: {chips} chips",
    Refusal.SEATS_PER_PLAYER: "one player may hold at most {seats} seat(s)",
    Refusal.SEAT_NOT_YOURS: "seat {seat} is not yours",
    Refusal.NO_PAIR_BET: "this table has no pair side bet",
    Refusal.NO_HISTORY_NO_PAIR_BET: "a round without its history takes no pair bets",
    Refusal.NO_BET_BEHIND: "this table has no bet behind",
    Refusal.BEHIND_OWN_SEAT: "you cannot bet behind your own seat",
    Refusal.BEHIND_FULL: "seat {seat} has {bets} bets behind it, the most a seat takes",
    Refusal.BETS_CLOSED: "bets are closed for this round",
    Refusal.BET_NOT_WHOLE: "a bet must be a whole number of chips above zero",
    Refusal.SEAT_EMPTY: "seat {seat} has no player",
    Refusal.OVER_BALANCE: "that bet is more than your balance",
    Refusal.BET_MINIMUM: "the table minimum is {chips} chips",
    Refusal.BET_MAXIMUM: "the table maximum is {chips} chips",
    Refusal.BET_STEP: "bets go in steps of {chips} chips",
    Refusal.RAISE_BOTH_SEATS: "your balance does not cover raising both your seats",
    Refusal.ALREADY_DEALT: "the cards are already dealt",
    Refusal.BET_BEFORE_DEAL: "place a bet before the deal",
    # The round: decisions.
    Refusal.NOT_DEALT: "the cards have not been dealt yet",
    Refusal.ROUND_OVER: "this round is over",
    Refusal.ROUND_ALREADY_OVER: "the round is already over",
    Refusal.ROUND_NOT_OVER: "the round is not over yet",
    Refusal.NO_HISTORY: "this round kept no history: only its net is known",
    Refusal.NOT_YOUR_TURN: "it is not your turn",
    Refusal.OTHER_SEATS_TURN: "it is seat {turn}'s turn, not seat {seat}'s",
    Refusal.NO_TURN_TO_COME: "there is no turn to come in this round",
    Refusal.NATURAL_NO_DECISION: "a natural takes no decision",
    Refusal.TURN_HAS_COME: "seat {seat}'s turn has come: decide now",
    Refusal.NO_DECISION_AWAITED: "no decision is awaited",
    Refusal.NOT_OFFERED: "you cannot {action} here",
    # What a hand may do (engine.legality).
    Refusal.NO_INSURANCE_NOW: "insurance is not on offer now",
    Refusal.SPLIT_ACES_ONE_CARD: "split aces take one card only",
    Refusal.NO_SURRENDER: "this table has no surrender",
    Refusal.SURRENDER_FIRST: (
        "surrender is only allowed on the first two cards, before any other action"
    ),
    Refusal.DOUBLE_FIRST_TWO_CARDS: "you can only double on your first two cards",
    Refusal.SPLIT_FIRST_TWO_CARDS: "you can only split on your first two cards",
    Refusal.DOUBLE_BALANCE: "your balance does not cover another bet to double",
    Refusal.SPLIT_BALANCE: "your balance does not cover another bet to split",
    Refusal.CANNOT_DOUBLE: "you cannot double this hand",
    Refusal.CANNOT_SPLIT: "you can only split two cards of the same value, up to the hand limit",
    Refusal.INSURANCE_BALANCE: "your balance does not cover insurance",
    Refusal.INSURANCE_FIRST: "first decide on insurance",
    Refusal.FOLLOW_BALANCE: "your balance does not cover following",
    Refusal.FOLLOW_FIRST: "first decide whether to follow",
    # A practice table.
    Refusal.BAD_LIMITS: (
        "table limits need an even step that divides a minimum of at most the maximum"
    ),
    Refusal.BANKROLL_MINIMUM: "the bankroll must be at least {chips} chips",
    Refusal.SEAT_NUMBERS: "seats are numbered 1 to {seats}",
    Refusal.SHARED_SEAT: "two players cannot share a seat",
    Refusal.BOT_TIER: "no bot tier {tier}: choose {tiers}",
    Refusal.FINISH_ROUND: "finish this round before the next deal",
    Refusal.NO_ROUND_DEAL: "no round is in play: place a bet and deal",
    # A live table.
    Refusal.TIME_ZONE: "the time must carry its time zone",
    Refusal.TIME_SECONDS: "the time must be a number of seconds",
    Refusal.COUNTDOWNS: "each countdown is a number of seconds, up to an hour",
    Refusal.OWNER_SEATS: "an owner may hold 1 to {seats} seats under these rules",
    Refusal.BOTS_SHARE_SEAT: "two bots cannot share a seat",
    Refusal.BOTS_BANKROLL: "the bots' bankroll must be at least {chips} chips",
    Refusal.BUY_IN_WHOLE: "buy in with a whole number of chips above zero",
    Refusal.BETS_IN_PLAY: "you have bets in play: cash out when the round is over",
    Refusal.GUESTS_CANNOT_SIT: "guests may watch and bet behind, but not sit",
    Refusal.SEAT_TAKEN: "seat {seat} is taken",
    Refusal.BUY_IN_TO_SIT: "buy in with at least {chips} chips to sit",
    Refusal.BUY_IN_FIRST: "buy in before you bet",
    Refusal.NO_HAND_FOR_SEAT: "seat {seat} has no hand in this round",
    Refusal.NO_ROUND: "no round is in play",
    Refusal.ROUND_PAUSED: "the round is paused by a fault: wait until it resumes",
    Refusal.NOT_A_NAME: "that is not a player's name",
}


def refused(code: Refusal, **params: object) -> IllegalActionError:
    """The error refusing an action for the reason ``code``, its English message made
    from the reason's template and ``params``.

    >>> error = refused(Refusal.SEAT_TAKEN, seat=3)
    >>> str(error), error.code, error.params
    ('seat 3 is taken', <Refusal.SEAT_TAKEN: 'seat_taken'>, {'seat': 3})
    """
    return IllegalActionError(REFUSALS[code].format(**params), code=code, params=params)
