# C types for ai/poch/ismcts.py, compiled unchanged (pure Python mode): the tree's nodes are an
# extension type with a C count and a double sum. Every random draw is still the same call of
# the same random.Random, every reward the same double, so the search decides as the Python
# one does. docs/internals.md, "The compiled engine".
import cython

cdef class Node:
    cdef public dict children
    cdef public long long n
    cdef public double w
