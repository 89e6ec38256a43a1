"""``pocha bench engine``: how many random hands a second the fast path plays.

Each hand is complete: shuffle and deal 10 cards to each of 4 players, random
legal bids with the dealer rule, 40 random legal cards under all four
obligations, and scoring.  One process, for a fixed number of seconds.
"""

from __future__ import annotations

import random
import time

from engine.pocha.cards import SUIT_OF, cards_list
from engine.pocha.hand import HandState, deal, hand_points, play_out
from engine.pocha.rules import Rules


def play_random_hands(count: int, seed: int = 0, players: int = 4, cards: int = 10) -> int:
    """Play ``count`` random hands; returns the total points scored (a checksum)."""
    rules = Rules(players=players)
    rng = random.Random(seed)
    rand = rng.random
    shuffle = rng.shuffle
    deck = cards_list(rules.deck)
    total = 0
    dealer = 0
    for _ in range(count):
        shuffle(deck)
        hands, trump_card, _ = deal(deck, players, cards, dealer)
        state = HandState(rules, hands, SUIT_OF[trump_card], dealer, cards)
        play_out(state, rand)
        for seat in range(players):
            total += hand_points(rules, state.bids[seat], state.tricks[seat])
        dealer = (dealer + 1) % players
    return total


def run(seconds: float = 3.0, seed: int | None = None) -> list[str]:
    """Play hands for about ``seconds``; the last line is ``engine: N hands/s``."""
    seed = 0 if seed is None else seed
    play_random_hands(200, seed)  # warm up
    hands = 0
    batch = 500
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        play_random_hands(batch, seed + hands)
        hands += batch
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return [
        f"played {hands} hands of 10 cards for 4 players in {elapsed:.2f} s (one process)",
        f"engine: {hands / elapsed:.0f} hands/s",
    ]


if __name__ == "__main__":
    for line in run():
        print(line)
