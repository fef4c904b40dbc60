"""Every reason the engine gives for refusing an action, by code, in English.

An `IllegalActionError` carries its reason's code and parameters beside the English
message built from the template here, so that an app can say the same in its player's
language (the trainer keeps a sentence per code) while the command line and the tests
read the English.
"""

from __future__ import annotations

from engine.errors import IllegalActionError

__all__ = ["REFUSALS", "refused"]

#: The English template of each reason, by code; ``{name}`` is a parameter.
REFUSALS: dict[str, str] = {
    # The round: bets and the deal.
    "not_an_action": "{action} is not an action",
    "no_such_seat": "there is no seat {seat} at this table",
    "seat_has_bet": "seat {seat} already has a bet",
    "same_bet_both_seats": "both your seats carry the same bet: {chips} chips",
    "seats_per_player": "one player may hold at most {seats} seat(s)",
    "seat_not_yours": "seat {seat} is not yours",
    "no_pair_bet": "this table has no pair side bet",
    "no_history_no_pair_bet": "a round without its history takes no pair bets",
    "no_bet_behind": "this table has no bet behind",
    "behind_own_seat": "you cannot bet behind your own seat",
    "bets_closed": "bets are closed for this round",
    "bet_not_whole": "a bet must be a whole number of chips above zero",
    "seat_empty": "seat {seat} has no player",
    "over_balance": "that bet is more than your balance",
    "bet_minimum": "the table minimum is {chips} chips",
    "bet_maximum": "the table maximum is {chips} chips",
    "bet_step": "bets go in steps of {chips} chips",
    "raise_both_seats": "your balance does not cover raising both your seats",
    "already_dealt": "the cards are already dealt",
    "bet_before_deal": "place a bet before the deal",
    # The round: decisions.
    "not_dealt": "the cards have not been dealt yet",
    "round_over": "this round is over",
    "round_already_over": "the round is already over",
    "round_not_over": "the round is not over yet",
    "no_history": "this round kept no history: only its net is known",
    "not_your_turn": "it is not your turn",
    "other_seats_turn": "it is seat {turn}'s turn, not seat {seat}'s",
    "no_turn_to_come": "there is no turn to come in this round",
    "natural_no_decision": "a natural takes no decision",
    "turn_has_come": "seat {seat}'s turn has come: decide now",
    "no_decision_awaited": "no decision is awaited",
    "not_offered": "you cannot {action} here",
    # What a hand may do (engine.legality).
    "no_insurance_now": "insurance is not on offer now",
    "split_aces_one_card": "split aces take one card only",
    "no_surrender": "this table has no surrender",
    "surrender_first": "surrender is only allowed on the first two cards, before any other action",
    "double_first_two_cards": "you can only double on your first two cards",
    "split_first_two_cards": "you can only split on your first two cards",
    "double_balance": "your balance does not cover another bet to double",
    "split_balance": "your balance does not cover another bet to split",
    "cannot_double": "you cannot double this hand",
    "cannot_split": "you can only split two cards of the same value, up to the hand limit",
    "insurance_balance": "your balance does not cover insurance",
    "insurance_first": "first decide on insurance",
    "follow_balance": "your balance does not cover following",
    "follow_first": "first decide whether to follow",
    # A practice table.
    "bad_limits": "table limits need an even step that divides a minimum of at most the maximum",
    "bankroll_minimum": "the bankroll must be at least {chips} chips",
    "seat_numbers": "seats are numbered 1 to {seats}",
    "shared_seat": "two players cannot share a seat",
    "bot_tier": "no bot tier {tier}: choose {tiers}",
    "finish_round": "finish this round before the next deal",
    "no_round_deal": "no round is in play: place a bet and deal",
    # A live table.
    "time_zone": "the time must carry its time zone",
    "time_seconds": "the time must be a number of seconds",
    "countdowns": "each countdown is a number of seconds, up to an hour",
    "owner_seats": "an owner may hold 1 to {seats} seats under these rules",
    "bots_share_seat": "two bots cannot share a seat",
    "bots_bankroll": "the bots' bankroll must be at least {chips} chips",
    "buy_in_whole": "buy in with a whole number of chips above zero",
    "bets_in_play": "you have bets in play: cash out when the round is over",
    "guests_cannot_sit": "guests may watch and bet behind, but not sit",
    "seat_taken": "seat {seat} is taken",
    "buy_in_to_sit": "buy in with at least {chips} chips to sit",
    "buy_in_first": "buy in before you bet",
    "no_hand_for_seat": "seat {seat} has no hand in this round",
    "no_round": "no round is in play",
    "not_a_name": "that is not a player's name",
}


def refused(code: str, **params: object) -> IllegalActionError:
    """The error refusing an action for the reason ``code``, its English message made
    from the reason's template and ``params``.

    >>> error = refused("seat_taken", seat=3)
    >>> str(error), error.code, error.params
    ('seat 3 is taken', 'seat_taken', {'seat': 3})
    """
    return IllegalActionError(REFUSALS[code].format(**params), code=code, params=params)
