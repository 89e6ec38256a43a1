"""Who wins a trick: the one definition of one card beating another.
How it works: docs/internals.md, ``engine.pocha.tricks``.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.pocha.cards import ABOVE, NUM_CARDS, SUIT_MASK, SUIT_OF, Card, CardSet


def beats(card: Card, win: Card, trump: int) -> bool:
    """Whether ``card`` takes the trick from ``win``, the card winning it so far."""
    suit = SUIT_OF[card]
    if suit == SUIT_OF[win]:
        return card > win
    return suit == trump


#: BEATERS[trump][win]: the cards that take the trick from ``win`` with ``trump`` as trump.
BEATERS: tuple[tuple[CardSet, ...], ...] = tuple(
    tuple(
        ABOVE[win] | (SUIT_MASK[trump] if SUIT_OF[win] != trump else 0) for win in range(NUM_CARDS)
    )
    for trump in range(4)
)


def winning_play(trick: Sequence[tuple[int, Card]], trump: int) -> tuple[int, Card]:
    """The (seat, card) winning a non-empty trick so far, its plays in order."""
    seat, win = trick[0]
    for who, card in trick[1:]:
        if beats(card, win, trump):
            seat, win = who, card
    return seat, win


def trick_winner(trick: Sequence[tuple[int, Card]], trump: int) -> int:
    """The seat that wins (or is winning) a non-empty trick."""
    return winning_play(trick, trump)[0]
