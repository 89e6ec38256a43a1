# C types for ai/poch/deals.py, compiled unchanged (pure Python mode): the sampler is an
# extension type (its methods stay Python functions: Cython compiles no closure, here the
# greedy deal's generator, inside a cpdef method). Its shuffles and draws are the same draws
# of the same random.Random (engine.draws, a C call), so every deal is the Python one.
# docs/internals.md, "The compiled engine".
# The .py's draws.shuffle and draws.randbelow: engine/_compiled/draws.pxd.
from engine._compiled cimport draws
cdef class DealSampler:
    cdef public object k, others, capped
