# C types for ai/poch/ismcts.py, compiled unchanged (pure Python mode): the tree's nodes are an
# extension type with a C count and a double sum. Every random draw is the same draw of the
# same random.Random (engine.draws, a C call), every reward the same double, so the search
# decides as the Python one does. docs/internals.md, "The compiled engine".
import cython
# The .py's draws.randbelow: engine/_compiled/draws.pxd.
from engine._compiled cimport draws

cdef class Node:
    cdef public dict children
    cdef public long long n
    cdef public double w
