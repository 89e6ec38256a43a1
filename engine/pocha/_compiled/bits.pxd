# C for engine/pocha/bits.py, which is not compiled itself: a compiled module that cimports
# this as ``bits`` (``from engine.pocha._compiled cimport bits``) and imports the Python one
# under the same name calls these inline functions for ``bits.low_card(...)`` and the others,
# GCC's builtins on the 64-bit card set; they give what the Python ones give, -1 for the
# empty set (tests/engine/pocha/test_bits.py for the Python ones; test_implementations.py holds
# both engines to the same moves and playouts). docs/internals.md, "The compiled engine".
cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil


cdef inline int low_card(unsigned long long cards) noexcept nogil:
    return __builtin_ctzll(cards) if cards else -1


cdef inline int high_card(unsigned long long cards) noexcept nogil:
    return 63 - __builtin_clzll(cards) if cards else -1


cdef inline int card_count(unsigned long long cards) noexcept nogil:
    return __builtin_popcountll(cards)
