# C for engine/pocha/bits.py, which is not compiled itself: a compiled module that cimports
# this as ``bits`` (``from engine.pocha._compiled cimport bits``) and imports the Python one
# under the same name calls these inline functions for ``bits.bit_length(...)`` and
# ``bits.bit_count(...)``, GCC's builtins on the 64-bit card set, which give what Python's
# int methods give, 0 for the empty set (tests/engine/pocha/test_bits.py holds the Python ones
# to the cards listed; test_implementations.py both engines to the same moves and playouts).
# docs/internals.md, "The compiled engine".
cdef extern from *:
    int __builtin_clzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil


cdef inline int bit_length(unsigned long long cards) noexcept nogil:
    return 64 - __builtin_clzll(cards) if cards else 0


cdef inline int bit_count(unsigned long long cards) noexcept nogil:
    return __builtin_popcountll(cards)
