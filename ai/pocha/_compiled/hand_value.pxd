# C types for ai/pocha/hand_value.py, compiled unchanged (pure Python mode): the estimate sums
# doubles in the same order as Python's floats, so it is the same number.
# docs/internals.md, "The compiled engine".
import cython

@cython.locals(want=cython.double, suit=int, pattern=int)
cpdef double hand_estimate(unsigned long long hand, int trump)
