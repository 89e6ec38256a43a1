# C types for ai/poch/deals.py, compiled unchanged (pure Python mode): the sampler is an
# extension type, its greedy deal counts in C ints. Its shuffles and draws are the same calls
# of the same random.Random, so every deal is the Python one. docs/internals.md, "The
# compiled engine".
import cython

cdef class DealSampler:
    cdef public object k, others, capped

    @cython.locals(hands=list, cards=list, room=dict, caps=dict, fits=list, r=int, total=int,
                   pick=int)
    cpdef _greedy(self, rng)
