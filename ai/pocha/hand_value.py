"""A hand's tricks, roughly: a cheap estimate from tables of its suits.
How it works: docs/internals.md, ``ai.pocha.hand_value``.
"""

from __future__ import annotations

from engine.pocha.cards import CardSet


def _suit_values(trump: bool) -> tuple[float, ...]:
    """Expected tricks of every 10-bit pattern of one suit, a cheap estimate."""
    out = []
    for pattern in range(1024):
        length = pattern.bit_count()
        value = 0.0
        for strength in range(10):
            if not pattern >> strength & 1:
                continue
            if trump:
                value += (0.22, 0.24, 0.26, 0.28, 0.32, 0.42, 0.52, 0.65, 0.85, 1.0)[strength]
            elif strength == 9:
                value += 0.8 if length <= 4 else 0.55
            elif strength == 8:
                value += 0.45 if pattern >> 9 & 1 else (0.25 if length >= 2 else 0.1)
            elif strength == 7:
                value += 0.1
        if trump:
            value += 0.1 * max(0, length - 3)
        out.append(value)
    return tuple(out)


TRUMP_VALUES = _suit_values(True)
SIDE_VALUES = _suit_values(False)


def hand_estimate(hand: CardSet, trump: int) -> float:
    """A hand's tricks, roughly, as four players take them: its suits' table values."""
    want = 0.0
    for suit in range(4):
        pattern = hand >> (10 * suit) & 1023
        want += TRUMP_VALUES[pattern] if suit == trump else SIDE_VALUES[pattern]
    return want
