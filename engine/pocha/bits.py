"""A card set's lowest card, highest card and size: the bit operations the search's hot loops
use, in one place, so that the compiled engine makes each one machine instruction
(engine/pocha/_compiled/bits.pxd) where Python calls an ``int`` method on a boxed integer.
"""

from __future__ import annotations

from engine.pocha.cards import Card, CardSet


def low_card(cards: CardSet) -> Card:
    """The lowest card of the set, or -1 for the empty set."""
    return (cards & -cards).bit_length() - 1


def high_card(cards: CardSet) -> Card:
    """The highest card of the set, or -1 for the empty set."""
    return cards.bit_length() - 1


def card_count(cards: CardSet) -> int:
    """How many cards the set holds."""
    return cards.bit_count()
