"""The engine's reasons for refusing an action, in the player's language.

The engine raises `IllegalActionError` with a reason code and its parameters
(`engine.refusals.REFUSALS`, English for the command line); here each code has its
sentence for gettext, with the same parameters as ``%(name)s``. A code without a sentence
here (one a later engine adds) is shown in the engine's English rather than not at all.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from engine.errors import IllegalActionError

#: Each engine reason code's sentence, its parameters those of the engine's template.
REASONS: dict[str, Promise] = {
    "not_an_action": _("%(action)s is not an action"),
    "no_such_seat": _("There is no seat %(seat)s at this table"),
    "seat_has_bet": _("Seat %(seat)s already has a bet"),
    "same_bet_both_seats": ngettext_lazy(
        "Both your seats carry the same bet: %(chips)s chip",
        "Both your seats carry the same bet: %(chips)s chips",
        "chips",
    ),
    "seats_per_player": ngettext_lazy(
        "One player may hold at most %(seats)s seat",
        "One player may hold at most %(seats)s seats",
        "seats",
    ),
    "seat_not_yours": _("Seat %(seat)s is not yours"),
    "no_pair_bet": _("This table has no pair side bet"),
    "no_history_no_pair_bet": _("A round without its history takes no pair bets"),
    "no_bet_behind": _("This table has no bet behind"),
    "behind_own_seat": _("You cannot bet behind your own seat"),
    "bets_closed": _("Bets are closed for this round"),
    "bet_not_whole": _("A bet is a whole number of chips above zero"),
    "seat_empty": _("Seat %(seat)s has no player"),
    "over_balance": _("That bet is more than your balance"),
    "bet_minimum": _("The table minimum is %(chips)s chips"),
    "bet_maximum": _("The table maximum is %(chips)s chips"),
    "bet_step": _("Bets go in steps of %(chips)s chips"),
    "raise_both_seats": _("Your balance does not cover raising both your seats"),
    "already_dealt": _("The cards are already dealt"),
    "bet_before_deal": _("Place a bet before the deal"),
    "not_dealt": _("The cards have not been dealt yet"),
    "round_over": _("This round is over"),
    "round_already_over": _("The round is already over"),
    "round_not_over": _("The round is not over yet"),
    "no_history": _("This round kept no history: only its net is known"),
    "not_your_turn": _("It is not your turn"),
    "other_seats_turn": _("It is seat %(turn)s's turn, not seat %(seat)s's"),
    "no_turn_to_come": _("There is no turn to come in this round"),
    "natural_no_decision": _("A natural takes no decision"),
    "turn_has_come": _("Seat %(seat)s's turn has come: decide now"),
    "no_decision_awaited": _("No decision is awaited"),
    "not_offered": _("That play is not allowed with this hand"),
    "no_insurance_now": _("Insurance is not on offer now"),
    "split_aces_one_card": _("Split aces take one card only"),
    "no_surrender": _("This table has no surrender"),
    "surrender_first": _(
        "Surrender is only allowed on the first two cards, before any other action"
    ),
    "double_first_two_cards": _("You can only double on your first two cards"),
    "split_first_two_cards": _("You can only split on your first two cards"),
    "double_balance": _("Your balance does not cover another bet to double"),
    "split_balance": _("Your balance does not cover another bet to split"),
    "cannot_double": _("You cannot double this hand"),
    "cannot_split": _("You can only split two cards of the same value, up to the hand limit"),
    "insurance_balance": _("Your balance does not cover insurance"),
    "insurance_first": _("First decide on insurance"),
    "follow_balance": _("Your balance does not cover following"),
    "follow_first": _("First decide whether to follow"),
    "bad_limits": _("Table limits need an even step that divides a minimum of at most the maximum"),
    "bankroll_minimum": ngettext_lazy(
        "The bankroll must be at least %(chips)s chip",
        "The bankroll must be at least %(chips)s chips",
        "chips",
    ),
    "seat_numbers": _("Seats are numbered 1 to %(seats)s"),
    "shared_seat": _("Two players cannot share a seat"),
    "bot_tier": _("No bot tier %(tier)s: choose %(tiers)s"),
    "finish_round": _("Finish this round before the next deal"),
    "no_round_deal": _("No round is in play: place a bet and deal"),
    "time_zone": _("The time must carry its time zone"),
    "time_seconds": _("The time must be a number of seconds"),
    "countdowns": _("Each countdown is a number of seconds, up to an hour"),
    "owner_seats": ngettext_lazy(
        "An owner may hold 1 to %(seats)s seat under these rules",
        "An owner may hold 1 to %(seats)s seats under these rules",
        "seats",
    ),
    "bots_share_seat": _("Two bots cannot share a seat"),
    "bots_bankroll": ngettext_lazy(
        "The bots' bankroll must be at least %(chips)s chip",
        "The bots' bankroll must be at least %(chips)s chips",
        "chips",
    ),
    "buy_in_whole": _("Buy in with a whole number of chips above zero"),
    "bets_in_play": _("You have bets in play: cash out when the round is over"),
    "guests_cannot_sit": _("Guests may watch and bet behind, but not sit"),
    "seat_taken": _("Seat %(seat)s is taken"),
    "buy_in_to_sit": ngettext_lazy(
        "Buy in with at least %(chips)s chip to sit",
        "Buy in with at least %(chips)s chips to sit",
        "chips",
    ),
    "buy_in_first": _("Buy in before you bet"),
    "no_hand_for_seat": _("Seat %(seat)s has no hand in this round"),
    "no_round": _("No round is in play"),
    "not_a_name": _("That is not a player's name"),
}

#: A play the hand in turn is not offered, by the play (the engine's ``not_offered``).
NOT_OFFERED: dict[str, Promise] = {
    "hit": _("You cannot hit here"),
    "stand": _("You cannot stand here"),
    "double": _("You cannot double here"),
    "split": _("You cannot split here"),
    "surrender": _("You cannot surrender here"),
    "insure": _("You cannot take insurance here"),
}


def reason_text(error: IllegalActionError) -> str:
    """The engine's reason for ``error`` in the player's language (its English if the
    code is one this app does not know), starting with a capital, without a full stop."""
    params = dict(error.params)
    if error.code == "not_offered" and str(params.get("action")) in NOT_OFFERED:
        return str(NOT_OFFERED[str(params["action"])])
    sentence = REASONS.get(error.code)
    if sentence is None:
        english = str(error)
        return english[:1].upper() + english[1:]
    return str(sentence % params)  # a plural sentence picks its form from its number


def refusal(error: IllegalActionError) -> str:
    """The engine's reason, in a sentence the page can show in the player's language."""
    return gettext("Not allowed: %(reason)s.") % {"reason": reason_text(error)}
