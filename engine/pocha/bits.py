"""A card set's length in bits and its size, for the search's hot loops: Python's own
``int.bit_length`` and ``int.bit_count`` here, GCC's builtins in the compiled engine
(engine/pocha/_compiled/bits.pxd), where those methods would be called on boxed integers.
The highest card of a set is ``bit_length(cards) - 1``, the lowest
``bit_length(cards & -cards) - 1``.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.pocha.cards import CardSet

#: One more than the set's highest card; 0 for the empty set.
bit_length: Callable[[CardSet], int] = int.bit_length
#: How many cards the set holds.
bit_count: Callable[[CardSet], int] = int.bit_count
