# C types for engine/pocha/deals.py, compiled unchanged (pure Python mode): the sampler is an
# extension type, its greedy deal runs on C ints and 64-bit card sets and draws through the
# compiled engine.draws, a C call; every deal is the Python one. docs/internals.md, "The
# compiled engine".
import cython
# The .py's draws.shuffle and draws.sample: engine/_compiled/draws.pxd.
from engine._compiled cimport draws

cdef class DealSampler:
    cdef public int observer
    cdef public unsigned long long pool_mask
    cdef public list present, pool, need, absent, others
    cdef public bint free

    @cython.locals(hands=list, pool=list, deck=list, i=Py_ssize_t, s=int, k=int, c=int,
                   bit=cython.ulonglong,
                   m=cython.ulonglong, avail=cython.ulonglong, possible=cython.ulonglong,
                   ok=bint, cards=list)
    cpdef list sample(self, unsigned long long own, rng)

