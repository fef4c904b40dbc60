# mypy: disable-error-code="import-not-found, import-untyped"
"""Speed reference: rounds per second of two pure-Python blackjack engines from PyPI.

Why: our engine's simulation speed needs an outside yardstick. This module drives
`blackjack-api` and `blackjack21` with one basic-strategy loop of our own, on the rules
closest to ours that each supports, and reports rounds/second and the mean result (the
mean is a sanity check that each adapter really plays blackjack, not a rules study).

The two libraries are benchmark-only tools, never project dependencies: install them in a
throwaway virtualenv (``pip install blackjack-api blackjack21``) and run
``python tests/benchmarks/third_party.py --rounds 200000 --seed 1``. Each library is
imported inside its adapter, so this module imports without them.

Target rules: 6 decks, dealer stands on soft 17, double any two cards, double after split,
split to 4 hands, split aces get one card, blackjack pays 3:2, no surrender, no insurance.

What each library does per round (read from its installed source):

blackjack-api 1.1.0 (``blackjack_api.blackjack.BlackJack``)
  - Shoe: ``Deck(num_decks)`` of 52*n ``Card`` objects; every card is drawn from a random
    index (``random.randint`` + ``list.pop``). The shoe is refilled only when it is empty
    (all 52*n cards minus those on the table), so it is dealt to the last card with no cut
    card. A Hi-Lo running count is updated on every draw.
  - Payout: ``win_ratio`` multiplies *every* win, not just naturals, and there is no
    natural at all: a two-card 21 is just 21 (pushes against any dealer 21; a player's
    multi-card 21 pushes against a dealer natural). With ``win_ratio=1.0`` (the only
    sensible setting) a natural pays 1:1 -- about -2.3% against the target rules.
  - No peek: the dealer's hole card is never checked; the player plays every hand and
    loses doubled and split bets in full to a dealer natural.
  - Dealer: ``hit_soft_17=False`` gives S17. ``charlie=False`` turns off the default
    five-card Charlie (which pays 1:1 for any unbusted 5-card hand).
  - Player: double on any number of cards (also after split), unlimited resplits of any
    equal-value pair (e.g. J+K), split aces may be hit and resplit, surrender any time
    before the first action, optional insurance. Our loop enforces the target limits
    (double on two cards, at most 4 hands, stand split aces at one card).
  - A hand does not end at 21; the driver must stand. The dealer always draws out its
    hand, even when every player hand has busted.

blackjack21 5.0.0 (``blackjack21.Table``)
  - Shoe: ``Deck(DEFAULT_SUITS, count=6)``, shuffled once with ``random.shuffle`` and dealt
    from the end. We pass the library's own ``shoe_reset_hook(deck, 0.75)`` so the whole
    shoe is reshuffled before a round once more than 75% is dealt (without it the shoe is
    only reshuffled, table cards included, when it runs dry mid-round).
  - Peek: if the dealer's two cards make 21 (ace or ten up), the round ends at once and
    only the original bet is lost (a player natural pushes).
  - Payout: the library only labels results (``GameResult``) and keeps the bet per hand
    (doubled on ``double_down``); money is the caller's job. We pay BLACKJACK 3:2, wins
    1:1. A two-card 21 after a split is not a natural (paid 1:1), as in casinos.
  - Dealer: ``hit_soft_17=False`` gives S17.
  - Player: double any two cards including after split, unlimited resplits of equal-value
    pairs (we stop at 4 hands), split aces get one card each and stand (no resplit),
    surrender on the first two cards (we never use it), no insurance. A hand ends on its
    own at 21 or more.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from importlib.metadata import version

HIT = "H"
STAND = "S"
DOUBLE = "D"
SPLIT = "P"
MAX_HANDS = 4
ACE = 11  # upcard and pair values use 11 for an ace


def basic_strategy(total: int, soft: bool, pair: int, up: int, can_double: bool) -> str:
    """Pick H/S/D/P from the project's chart, shared by both adapters so only engines differ.

    ``pair`` is the pair card's value (ace = 11) when a split is allowed, else 0;
    ``up`` is the dealer upcard value 2..11. D falls back to hit, soft 18's D to stand.
    """
    if pair:
        if pair in (8, ACE):
            return SPLIT
        if pair in (2, 3, 7) and up <= 7:
            return SPLIT
        if pair == 4 and up in (5, 6):
            return SPLIT
        if pair == 6 and up <= 6:
            return SPLIT
        if pair == 9 and up not in (7, 10, ACE):
            return SPLIT
        # 5,5 and 10,10 (and pairs not split here) play as their total.
    if soft:
        if total >= 19:
            return STAND
        if total == 18:
            if 3 <= up <= 6:
                return DOUBLE if can_double else STAND
            return STAND if up <= 8 else HIT
        if total == 17:
            low = 3
        elif total >= 15:
            low = 4
        elif total >= 13:
            low = 5
        else:
            return HIT  # soft 12: A,A that may not be split
        return DOUBLE if can_double and low <= up <= 6 else HIT
    if total >= 17:
        return STAND
    if total >= 13:
        return STAND if up <= 6 else HIT
    if total == 12:
        return STAND if 4 <= up <= 6 else HIT
    if total == 11:
        return DOUBLE if can_double and up <= 10 else HIT
    if total == 10:
        return DOUBLE if can_double and up <= 9 else HIT
    if total == 9:
        return DOUBLE if can_double and 3 <= up <= 6 else HIT
    return HIT


def _report(
    engine: str, dist: str, rounds: int, won: float, seconds: float, notes: str
) -> dict[str, object]:
    """Build the result record both adapters return, so their output lines match."""
    return {
        "engine": engine,
        "version": version(dist),
        "rounds": rounds,
        "mean": won / rounds if rounds else 0.0,
        "seconds": seconds,
        "rounds_per_second": rounds / seconds if seconds > 0 else 0.0,
        "notes": notes,
    }


def run_blackjack_api(rounds: int, seed: int) -> dict[str, object]:
    """Play `rounds` rounds on blackjack-api; the closest it gets is 6D S17, naturals 1:1."""
    from blackjack_api.blackjack import BlackJack

    random.seed(seed)  # the library draws every card through the `random` module
    # The constructor builds the shoe and already deals round 1 (setup, not timed).
    game = BlackJack(num_decks=6, win_ratio=1.0, hit_soft_17=False, charlie=False)
    player = game.player
    won = 0.0

    start = time.perf_counter()
    for i in range(rounds):
        if i:
            game.start_round()
            game.start_hand()
        up_value = game.dealer[0].value
        up = ACE if isinstance(up_value, tuple) else up_value
        while game.round_running:
            if not game.hand_running:
                game.start_hand()  # next hand after a split
            hands = player.hands
            hand = hands[game.curr_hand]
            cards = hand.cards
            if len(hands) > 1 and isinstance(cards[0].value, tuple):
                game.stand()  # split aces: one card only (the library would allow more)
                continue
            pair = 0
            if len(cards) == 2 and len(hands) < MAX_HANDS and hand.can_split():
                value = cards[0].value
                pair = ACE if isinstance(value, tuple) else value
            action = basic_strategy(hand.count(), hand.is_soft(), pair, up, len(cards) == 2)
            if action == HIT:
                game.hit()
            elif action == STAND:
                game.stand()
            elif action == DOUBLE:
                game.double()
            else:
                game.split()
        won += sum(game.rewards)
    seconds = time.perf_counter() - start

    notes = (
        "6 decks dealt to the last card (random-index draws, refill when empty, no cut "
        "card); S17; win_ratio=1.0 so a natural pays 1:1 and is not special (pushes any "
        "dealer 21); no peek: doubles/splits lost in full to a dealer natural, player "
        "multi-card 21 pushes a dealer natural; charlie off; our loop limits doubles to "
        "two cards, splits to 4 hands, split aces to one card"
    )
    return _report("blackjack-api", "blackjack-api", rounds, won, seconds, notes)


def run_blackjack21(rounds: int, seed: int) -> dict[str, object]:
    """Play `rounds` rounds on blackjack21, which supports the target rules (we cap at 4 hands)."""
    from blackjack21 import DEFAULT_SUITS, Deck, GameResult, GameState, Table, shoe_reset_hook
    from blackjack21.utils import calculate_hand

    # The library labels results; paying them (3:2 natural) is the caller's job.
    payout = {
        GameResult.BLACKJACK: 1.5,
        GameResult.PLAYER_WIN: 1.0,
        GameResult.DEALER_BUST: 1.0,
        GameResult.PUSH: 0.0,
        GameResult.PLAYER_BUST: -1.0,
        GameResult.DEALER_WIN: -1.0,
        GameResult.SURRENDER: -0.5,
    }
    players_turn = GameState.PLAYERS_TURN

    random.seed(seed)  # Deck shuffles with random.shuffle
    deck = Deck(DEFAULT_SUITS, count=6)
    table = Table(
        [("player", 1)],
        deck,
        hit_soft_17=False,
        on_round_reset=shoe_reset_hook(deck, 0.75),
    )
    dealer_cards = table.dealer.hand  # the same list object every round
    won = 0.0

    start = time.perf_counter()
    for _ in range(rounds):
        table.start_game()
        up = dealer_cards[0].value  # an ace is worth 11 here
        hands = table.players[0].hands  # players are rebuilt each round
        while table.state is players_turn:
            hand = table.current_hand
            assert hand is not None
            hand_total = calculate_hand(list(hand))
            n_cards = len(hand)
            pair = 0
            if n_cards == 2 and len(hands) < MAX_HANDS and hand[0].value == hand[1].value:
                pair = hand[0].value
            action = basic_strategy(hand_total.value, hand_total.is_soft, pair, up, n_cards == 2)
            if action == HIT:
                table.hit()
            elif action == STAND:
                table.stand()
            elif action == DOUBLE:
                table.double_down()
            else:
                table.split()  # split aces are stood by the library after one card
        for hand in hands:
            won += hand.bet * payout[hand.result]
    seconds = time.perf_counter() - start

    notes = (
        "6 decks, reshuffled before a round past 75% penetration (library's "
        "shoe_reset_hook); S17; dealer peeks (round ends on dealer natural, only the "
        "original bet lost); natural paid 3:2 by us from GameResult.BLACKJACK; DAS; split "
        "aces one card, no resplit of aces; our loop stops splits at 4 hands"
    )
    return _report("blackjack21", "blackjack21", rounds, won, seconds, notes)


ENGINES = {"blackjack-api": run_blackjack_api, "blackjack21": run_blackjack21}


def main(argv: list[str] | None = None) -> None:
    """Run the chosen engines and print one JSON object per engine per line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine", choices=[*ENGINES, "all"], default="all")
    args = parser.parse_args(argv)
    names = list(ENGINES) if args.engine == "all" else [args.engine]
    for name in names:
        print(json.dumps(ENGINES[name](args.rounds, args.seed)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
