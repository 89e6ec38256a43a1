"""The bidding order and the dealer rule, in one place.
How it works: docs/internals.md, ``engine.pocha.bidding``.
"""

from __future__ import annotations


def mano_of(dealer: int, players: int) -> int:
    """La mano: the seat after the dealer, who bids first and leads the first trick."""
    return (dealer + 1) % players


def bidding_order(dealer: int, players: int) -> list[int]:
    """The seats in the order they bid: from la mano round to the dealer."""
    return [(dealer + 1 + i) % players for i in range(players)]


def dealer_forbidden_bid(cards: int, others_bid: int) -> int:
    """The bid the dealer may not make when the others have bid ``others_bid`` tricks
    in all: the one that makes the bids add up to ``cards``, or -1 when no bid from 0
    to ``cards`` would."""
    forbidden = cards - others_bid
    return forbidden if 0 <= forbidden <= cards else -1
