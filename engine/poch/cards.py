"""Poch's 32-card pack, its card codes and the sets of the betting.
How it works: docs/poch.md, ``engine.poch.cards``.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import InvalidCardError
from engine.i18n import _

Card = int
SUITS = ("C", "S", "H", "D")
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
NUM_CARDS = 32
SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)


def card(suit: int, rank: int) -> Card:
    return suit * 8 + rank


def suit_of(c: Card) -> int:
    return c // 8


def rank_of(c: Card) -> int:
    return c % 8


def card_code(c: Card) -> str:
    return SUITS[suit_of(c)] + RANKS[rank_of(c)]


def parse_card(code: object) -> Card:
    """The card of a code such as ``"HA"``; ``InvalidCardError`` if it is none."""
    if isinstance(code, str) and len(code) >= 2 and code[0] in SUITS and code[1:] in RANKS:
        return card(SUITS.index(code[0]), RANKS.index(code[1:]))
    raise InvalidCardError(
        _(
            "{value} is not a Poch card (a suit C S H D and a rank 7-10 J Q K A)",
            value=repr(code),
        )
    )


def codes(cards: Iterable[Card]) -> list[str]:
    return [card_code(c) for c in sorted(cards)]


def parse_suit(code: object) -> int:
    if isinstance(code, str) and code in SUITS:
        return SUITS.index(code)
    raise InvalidCardError(_("{value} is not a suit (C, S, H or D)", value=repr(code)))


# A set's key: (size, rank, holds the trump card of that rank).  Sets compare by size,
# then rank; only two pairs can share size and rank, and then exactly one holds the
# trump card of the rank (there are four cards of a rank), so the keys of different
# players never tie.
SetKey = tuple[int, int, bool]


def best_set(hand: Iterable[Card], trump: int) -> tuple[SetKey, list[Card]] | None:
    """A hand's highest set and its cards, or None if the hand has no set."""
    by_rank: dict[int, list[Card]] = {}
    for c in hand:
        by_rank.setdefault(rank_of(c), []).append(c)
    best: tuple[SetKey, list[Card]] | None = None
    for rank, cards in by_rank.items():
        if len(cards) < 2:
            continue
        key = (len(cards), rank, card(trump, rank) in cards)
        if best is None or key > best[0]:
            best = (key, sorted(cards))
    return best
