# C types for engine/pocha/deals.py, compiled unchanged (pure Python mode): the sampler is an
# extension type, its greedy deal, the shuffle and the sample run on C ints and 64-bit card
# sets; the shuffle and the sample draw the same getrandbits as random.Random's, so every
# deal is the Python one. docs/internals.md, "The compiled engine".
import cython
# The .py's bits_of.bit_length: engine/pocha/_compiled/bits.pxd.
from engine.pocha._compiled cimport bits as bits_of

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


@cython.locals(i=Py_ssize_t, bits=int, j=Py_ssize_t)
cpdef void shuffle(list deck, rng)

# ``selected`` holds positions in a list of cards, so fewer than 64.
@cython.locals(n=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, bits=int, result=list,
               pool=list, selected=cython.ulonglong,
               one=cython.ulonglong)
cpdef list sample(list cards, Py_ssize_t k, rng)
