# C types for ai/poch/deals.py, compiled unchanged (pure Python mode): the sampler is an
# extension type (its methods stay Python functions: Cython compiles no closure, here the
# greedy deal's generator, inside a cpdef method). Its shuffles and draws are the same calls
# of the same random.Random, so every deal is the Python one. docs/internals.md, "The
# compiled engine".
cdef class DealSampler:
    cdef public object k, others, capped
