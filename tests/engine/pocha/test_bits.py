"""A card set's length in bits and its size (engine.pocha.bits), and the lowest and highest
card the search takes from them, against the set's cards listed one by one; the compiled
engine's C copies are held to the same moves and playouts by
tests/engine/pocha/test_implementations.py."""

from __future__ import annotations

import random

from engine.pocha import bits
from engine.pocha.cards import BIT, NUM_CARDS, cards_list


def test_the_empty_set() -> None:
    assert bits.bit_length(0) == 0
    assert bits.bit_count(0) == 0


def test_single_cards_at_both_ends_of_the_deck() -> None:
    for card in (0, 1, NUM_CARDS - 2, NUM_CARDS - 1):
        assert bits.bit_length(BIT[card]) - 1 == card
        assert bits.bit_count(BIT[card]) == 1


def test_random_sets_agree_with_their_cards_listed() -> None:
    rng = random.Random(39)
    for _ in range(2000):
        cards = rng.getrandbits(NUM_CARDS) & rng.getrandbits(NUM_CARDS)
        listed = cards_list(cards)
        assert bits.bit_count(cards) == len(listed)
        assert bits.bit_length(cards & -cards) - 1 == (listed[0] if listed else -1)
        assert bits.bit_length(cards) - 1 == (listed[-1] if listed else -1)
