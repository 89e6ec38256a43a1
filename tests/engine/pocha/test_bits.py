"""A card set's lowest card, highest card and size (engine.pocha.bits) against its cards
listed one by one; the compiled engine's C copies are held to the same moves and playouts by
tests/engine/pocha/test_implementations.py."""

from __future__ import annotations

import random

from engine.pocha import bits
from engine.pocha.cards import BIT, NUM_CARDS, cards_list


def test_the_empty_set_has_no_card() -> None:
    assert bits.low_card(0) == -1
    assert bits.high_card(0) == -1
    assert bits.card_count(0) == 0


def test_single_cards_at_both_ends_of_the_deck() -> None:
    for card in (0, 1, NUM_CARDS - 2, NUM_CARDS - 1):
        assert bits.low_card(BIT[card]) == card
        assert bits.high_card(BIT[card]) == card
        assert bits.card_count(BIT[card]) == 1


def test_random_sets_agree_with_their_cards_listed() -> None:
    rng = random.Random(39)
    for _ in range(2000):
        cards = rng.getrandbits(NUM_CARDS) & rng.getrandbits(NUM_CARDS)
        listed = cards_list(cards)
        assert bits.card_count(cards) == len(listed)
        assert bits.low_card(cards) == (listed[0] if listed else -1)
        assert bits.high_card(cards) == (listed[-1] if listed else -1)
