"""The searches' random draws, written out: ``random.Random``'s own ``shuffle``, ``sample``
and ``randrange`` of one bound, drawing the same ``getrandbits`` in the same order, so the
same results from the same generator (tests/engine/test_draws.py holds each to
``random``'s). Written out so that the compiled engine runs them as C rather than
``random``'s Python (a ``_randbelow`` call a draw); faster in Python too. Both games' deal
samplers and searches draw through them. Another kind of generator draws its own way.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def randbelow(n: int, rng: random.Random) -> int:
    """``rng.randrange(n)`` for ``n`` > 0."""
    if type(rng) is not random.Random:
        return rng.randrange(n)
    if n <= 0:
        raise ValueError("empty range for randrange()")
    # random.Random._randbelow(n)
    bits = n.bit_length()
    j = rng.getrandbits(bits)
    while j >= n:
        j = rng.getrandbits(bits)
    return j


def shuffle(deck: list[T], rng: random.Random) -> None:
    """``rng.shuffle(deck)``."""
    if type(rng) is not random.Random:
        rng.shuffle(deck)
        return
    getrandbits = rng.getrandbits
    i = len(deck) - 1
    bits = len(deck).bit_length()
    while i > 0:
        # random.Random._randbelow(i + 1): ``bits`` is (i + 1).bit_length(), which falls by
        # one as i + 1 passes a power of two.
        if i + 1 < 1 << (bits - 1):
            bits -= 1
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]
        i -= 1


def sample(cards: list[T], k: int, rng: random.Random) -> list[T]:
    """``rng.sample(cards, k)`` of at most 64 cards."""
    if type(rng) is not random.Random:
        return rng.sample(cards, k)
    getrandbits = rng.getrandbits
    n = len(cards)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    if n > 64:
        return rng.sample(cards, k)
    result = cards[:k]
    # random.Random.sample's choice between its two ways: a pool when n is at most its
    # setsize, 21, or 21 + 4 ** ceil(log4(3k)) >= 85 past 5 draws; at most 64 cards, past 5
    # draws it is always the pool.
    if n <= 21 or k > 5:
        pool = cards[:]
        bits = n.bit_length()
        for i in range(k):
            # random.Random._randbelow(n - i); ``bits`` is (n - i).bit_length(), which falls
            # by one as n - i passes a power of two.
            if n - i < 1 << (bits - 1):
                bits -= 1
            j = getrandbits(bits)
            while j >= n - i:
                j = getrandbits(bits)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        selected = 0
        one = 1
        bits = n.bit_length()
        for i in range(k):
            j = getrandbits(bits)
            while j >= n or selected >> j & 1:
                j = getrandbits(bits)
            selected |= one << j
            result[i] = cards[j]
    return result
