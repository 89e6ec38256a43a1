"""Seeds of games, for every game: drawn where none is given, and read back from storage.

A game is replayed exactly from its rules, its seed and its actions, so a seed drawn for a
person's game must be past any search: a seat must not find it from its own cards.
"""

from __future__ import annotations

import secrets
from typing import Any

#: Bits of a seed drawn when none is given: far past any search of seeds, so that a seat
#: cannot find the game's seed from its own cards and reconstruct the other hands.
SEED_BITS = 128


def new_seed() -> int:
    """A seed from the operating system's CSPRNG."""
    return secrets.randbits(SEED_BITS)


def stored_seed(stored: Any) -> int:
    """A stored seed: a whole number, or its decimal text (seeds past 53 bits)."""
    if isinstance(stored, str) and stored.isascii() and stored.isdigit() and len(stored) <= 64:
        return int(stored)
    if isinstance(stored, bool) or not isinstance(stored, int):
        raise TypeError(f"a seed is a whole number, not {stored!r}")
    return stored
