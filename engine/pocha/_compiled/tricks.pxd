# C types for engine/pocha/tricks.py, compiled unchanged (pure Python mode).
# docs/internals.md, "The compiled engine".
import cython

@cython.locals(suit=int)
cpdef bint beats(int card, int win, int trump)
