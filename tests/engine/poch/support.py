"""Rigged Poch deals for the hand-worked tests: hands named by card codes."""

from __future__ import annotations

import pytest

from engine.poch.cards import parse_card
from engine.poch.game import Game
from engine.poch.rules import Rules

# Layout A (4 players, dealer 3, Vorhand 0): the dealer's last card D9 makes diamonds trumps.
# Sets: seat 0 three kings, seat 1 a pair of aces (no trump), seat 2 pairs of queens and
# jacks, seat 3 pairs of aces (with the trump DA) and queens.
LAYOUT_A = [
    "CK SK HK C7 C8 C9 S7 S8",
    "CA SA C10 CJ S9 S10 H7 H8",
    "CQ SQ SJ H9 H10 HJ D7 D8",
    "HQ HA DK DA DQ DJ D10 D9",
]
# Layout B: A with seat 0's HK and seat 2's H9 swapped: seat 0 only pairs (K, 9, 8, 7),
# so the best set at the table is seat 3's pair of aces, by the trump DA over seat 1's.
LAYOUT_B = [
    "CK SK H9 C7 C8 C9 S7 S8",
    "CA SA C10 CJ S9 S10 H7 H8",
    "CQ SQ SJ HK H10 HJ D7 D8",
    "HQ HA DK DA DQ DJ D10 D9",
]
# Layout C: seat 0 has three kings but neither a 7 nor an ace; seat 2 three 7s.
LAYOUT_C = [
    "CK SK HK C8 C9 H9 H10 S8",
    "CA SA C10 CJ S9 S10 H7 H8",
    "CQ SQ SJ C7 S7 HJ D7 D8",
    "HQ HA DK DA DQ DJ D10 D9",
]
# Layout N: seat s holds rank r in suit (s + r) mod 4: nobody has a set. Trumps: D7 -> D.
_LOW_TO_HIGH = ["7", "8", "9", "10", "J", "Q", "K", "A"]
_DEALT = ["8", "9", "10", "J", "Q", "K", "A", "7"]  # the 7 last: the dealer's D7 sets trumps
LAYOUT_N = [" ".join("CSHD"[(s + _LOW_TO_HIGH.index(r)) % 4] + r for r in _DEALT) for s in range(4)]


def deck_for(hands: list[str], dealer: int) -> list[int]:
    """The pack that deals ``hands`` (each seat's codes, the last one dealt last)."""
    n = len(hands)
    order = [(dealer + 1 + k) % n for k in range(n)]
    queues = {s: [parse_card(c) for c in hands[s].split()] for s in range(n)}
    assert sorted(c for q in queues.values() for c in q) == list(range(32))
    deck = []
    for i in range(32):
        deck.append(queues[order[i % n]].pop(0))
    return deck


def rigged(
    monkeypatch: pytest.MonkeyPatch,
    hands: list[str],
    dealer: int = 3,
    **options: int,
) -> Game:
    """A game whose first deal gives ``hands`` (later deals are the seed's)."""
    deck = deck_for(hands, dealer)

    # A subclass, not a patch of Game: the compiled Game is an extension type, whose methods
    # cannot be replaced.
    class Rigged(Game):
        def _shuffled_deck(self) -> list[int]:
            return list(deck) if self.deal_no == 1 else super()._shuffled_deck()

    return Rigged.new(Rules(players=len(hands), **options), seed=1, dealer=dealer)
