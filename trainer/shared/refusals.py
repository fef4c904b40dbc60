"""The engine's reasons for refusing an action, in the player's language.

The engine raises `IllegalActionError` with a reason code (an `engine.refusals.Refusal`)
and its parameters (the engine's English is for the command line); here each code has its
sentence for gettext, with the same parameters as ``%(name)s``. A test holds every code
to a sentence.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from engine.errors import IllegalActionError
from engine.refusals import Refusal
from engine.values import Action

#: Each engine reason code's sentence, its parameters those of the engine's template.
REASONS: dict[Refusal, Promise] = {
    Refusal.NOT_AN_ACTION: _("%(action)s is not an action"),
    Refusal.NO_SUCH_SEAT: _("There is no seat %(seat)s at this table"),
    Refusal.SEAT_HAS_BET: _("Seat %(seat)s already has a bet"),
    Refusal.SAME_BET_BOTH_SEATS: ngettext_lazy(
        "Both your seats carry the same bet: %(chips)s chip",
        "Both your seats carry the same bet: %(chips)s chips",
        "chips",
    ),
    Refusal.SEATS_PER_PLAYER: ngettext_lazy(
        "One player may hold at most %(seats)s seat",
        "One player may hold at most %(seats)s seats",
        "seats",
    ),
    Refusal.SEAT_NOT_YOURS: _("Seat %(seat)s is not yours"),
    Refusal.NO_PAIR_BET: _("This table has no pair side bet"),
    Refusal.NO_HISTORY_NO_PAIR_BET: _("A round without its history takes no pair bets"),
    Refusal.NO_BET_BEHIND: _("This table has no bet behind"),
    Refusal.BEHIND_OWN_SEAT: _("You cannot bet behind your own seat"),
    Refusal.BEHIND_FULL: ngettext_lazy(
        "Seat %(seat)s has %(bets)s bet behind it, the most a seat takes",
        "Seat %(seat)s has %(bets)s bets behind it, the most a seat takes",
        "bets",
    ),
    Refusal.BETS_CLOSED: _("Bets are closed for this round"),
    Refusal.BET_NOT_WHOLE: _("A bet is a whole number of chips above zero"),
    Refusal.SEAT_EMPTY: _("Seat %(seat)s has no player"),
    Refusal.OVER_BALANCE: _("That bet is more than your balance"),
    Refusal.BET_MINIMUM: _("The table minimum is %(chips)s chips"),
    Refusal.BET_MAXIMUM: _("The table maximum is %(chips)s chips"),
    Refusal.BET_STEP: _("Bets go in steps of %(chips)s chips"),
    Refusal.RAISE_BOTH_SEATS: _("Your balance does not cover raising both your seats"),
    Refusal.ALREADY_DEALT: _("The cards are already dealt"),
    Refusal.BET_BEFORE_DEAL: _("Place a bet before the deal"),
    Refusal.NOT_DEALT: _("The cards have not been dealt yet"),
    Refusal.ROUND_OVER: _("This round is over"),
    Refusal.ROUND_ALREADY_OVER: _("The round is already over"),
    Refusal.ROUND_NOT_OVER: _("The round is not over yet"),
    Refusal.NO_HISTORY: _("This round kept no history: only its net is known"),
    Refusal.NOT_YOUR_TURN: _("It is not your turn"),
    Refusal.OTHER_SEATS_TURN: _("It is seat %(turn)s's turn, not seat %(seat)s's"),
    Refusal.NO_TURN_TO_COME: _("There is no turn to come in this round"),
    Refusal.NATURAL_NO_DECISION: _("A natural takes no decision"),
    Refusal.TURN_HAS_COME: _("Seat %(seat)s's turn has come: decide now"),
    Refusal.NO_DECISION_AWAITED: _("No decision is awaited"),
    Refusal.NOT_OFFERED: _("That play is not allowed with this hand"),
    Refusal.NO_INSURANCE_NOW: _("Insurance is not on offer now"),
    Refusal.SPLIT_ACES_ONE_CARD: _("Split aces take one card only"),
    Refusal.NO_SURRENDER: _("This table has no surrender"),
    Refusal.SURRENDER_FIRST: _(
        "Surrender is only allowed on the first two cards, before any other action"
    ),
    Refusal.DOUBLE_FIRST_TWO_CARDS: _("You can only double on your first two cards"),
    Refusal.SPLIT_FIRST_TWO_CARDS: _("You can only split on your first two cards"),
    Refusal.DOUBLE_BALANCE: _("Your balance does not cover another bet to double"),
    Refusal.SPLIT_BALANCE: _("Your balance does not cover another bet to split"),
    Refusal.CANNOT_DOUBLE: _("You cannot double this hand"),
    Refusal.CANNOT_SPLIT: _("You can only split two cards of the same value, up to the hand limit"),
    Refusal.INSURANCE_BALANCE: _("Your balance does not cover insurance"),
    Refusal.INSURANCE_FIRST: _("First decide on insurance"),
    Refusal.FOLLOW_BALANCE: _("Your balance does not cover following"),
    Refusal.FOLLOW_FIRST: _("First decide whether to follow"),
    Refusal.BAD_LIMITS: _(
        "Table limits need an even step that divides a minimum of at most the maximum"
    ),
    Refusal.BANKROLL_MINIMUM: ngettext_lazy(
        "The bankroll must be at least %(chips)s chip",
        "The bankroll must be at least %(chips)s chips",
        "chips",
    ),
    Refusal.SEAT_NUMBERS: _("Seats are numbered 1 to %(seats)s"),
    Refusal.SHARED_SEAT: _("Two players cannot share a seat"),
    Refusal.BOT_TIER: _("No bot tier %(tier)s: choose %(tiers)s"),
    Refusal.FINISH_ROUND: _("Finish this round before the next deal"),
    Refusal.NO_ROUND_DEAL: _("No round is in play: place a bet and deal"),
    Refusal.TIME_ZONE: _("The time must carry its time zone"),
    Refusal.TIME_SECONDS: _("The time must be a number of seconds"),
    Refusal.COUNTDOWNS: _("Each countdown is a number of seconds, up to an hour"),
    Refusal.OWNER_SEATS: ngettext_lazy(
        "An owner may hold 1 to %(seats)s seat under these rules",
        "An owner may hold 1 to %(seats)s seats under these rules",
        "seats",
    ),
    Refusal.BOTS_SHARE_SEAT: _("Two bots cannot share a seat"),
    Refusal.BOTS_BANKROLL: ngettext_lazy(
        "The bots' bankroll must be at least %(chips)s chip",
        "The bots' bankroll must be at least %(chips)s chips",
        "chips",
    ),
    Refusal.BUY_IN_WHOLE: _("Buy in with a whole number of chips above zero"),
    Refusal.BETS_IN_PLAY: _("You have bets in play: cash out when the round is over"),
    Refusal.GUESTS_CANNOT_SIT: _("Guests may watch and bet behind, but not sit"),
    Refusal.SEAT_TAKEN: _("Seat %(seat)s is taken"),
    Refusal.BUY_IN_TO_SIT: ngettext_lazy(
        "Buy in with at least %(chips)s chip to sit",
        "Buy in with at least %(chips)s chips to sit",
        "chips",
    ),
    Refusal.BUY_IN_FIRST: _("Buy in before you bet"),
    Refusal.NO_HAND_FOR_SEAT: _("Seat %(seat)s has no hand in this round"),
    Refusal.NO_ROUND: _("No round is in play"),
    Refusal.ROUND_PAUSED: _("The round is paused by a fault: wait until it resumes"),
    Refusal.NOT_A_NAME: _("That is not a player's name"),
}

#: A play the hand in turn is not offered, by the play (the engine's ``not_offered``).
NOT_OFFERED: dict[Action, Promise] = {
    Action.HIT: _("You cannot hit here"),
    Action.STAND: _("You cannot stand here"),
    Action.DOUBLE: _("You cannot double here"),
    Action.SPLIT: _("You cannot split here"),
    Action.SURRENDER: _("You cannot surrender here"),
    Action.INSURE: _("You cannot take insurance here"),
}


def reason_text(error: IllegalActionError) -> str:
    """The engine's reason for ``error`` in the player's language, starting with a
    capital, without a full stop."""
    params = dict(error.params)
    action = str(params.get("action"))
    if error.code == Refusal.NOT_OFFERED and action in NOT_OFFERED:
        return str(NOT_OFFERED[Action(action)])
    return str(REASONS[Refusal(error.code)] % params)  # a plural picks its form by number


def refusal(error: IllegalActionError) -> str:
    """The engine's reason, in a sentence the page can show in the player's language."""
    return gettext("Not allowed: %(reason)s.") % {"reason": reason_text(error)}
