# C types for ai/pocha/ismcts.py, compiled unchanged (pure Python mode): the tree's nodes are an
# extension type, the playout and the iteration loop run on C ints, 64-bit card sets and
# doubles, calling the compiled hand state, legal cards and hand estimate directly. Every
# random draw is still the same call of the same random.Random, every reward the same double,
# so the search decides as the Python one does. docs/internals.md, "The compiled engine".
import cython
# Under other names: the .py imports HandState and DealSampler themselves, as Python names.
from engine.pocha._compiled.hand cimport HandState as CompiledHandState
from engine.pocha._compiled.deals cimport DealSampler as CompiledDealSampler
from engine.pocha._compiled.legality cimport legal_cards
from ai.pocha._compiled.hand_value cimport hand_estimate
# The .py's math.log and math.sqrt, in the UCB, become C's: the same correctly rounded
# numbers for the positive doubles they are given, without a Python call and float each.
from libc cimport math
# The .py's bits.bit_length and bits.bit_count: engine/pocha/_compiled/bits.pxd.
from engine.pocha._compiled cimport bits

cdef class Node:
    cdef public dict children
    cdef public long long n, avail
    cdef public double w, own


@cython.locals(hands=list, bids_=list, tricks=list, trump=int, montar=bint, fallar=bint,
               pisar=bint, beaters=tuple, seat=int, legal=cython.ulonglong, want=bint,
               win=int, count=int, k=int, draw=cython.double, beat=cython.ulonglong,
               under=cython.ulonglong)
cpdef void playout_greedy(CompiledHandState st, rand)

@cython.locals(want=cython.double, bid=int)
cpdef int quick_bid(CompiledHandState st)

@cython.locals(total=cython.double, it=cython.longlong, st=CompiledHandState, node=Node, child=Node,
               best_child=Node, ch=Node, node_=Node, path=list, movers=list, seat=int,
               a=int, best_a=int, best_v=cython.double, v=cython.double, acts=list,
               children=dict, untried=list, hands=list, bids=list, tricks=list,
               rewards=list, mover=int, draw=cython.double)
cpdef long long iterate(Node root, CompiledHandState base,
                        CompiledDealSampler sampler, unsigned long long own, rng,
                        list pool, list cum, list points, playout, double c, int n,
                        bint modelled, bid_model, bint whole_deck, double rivalry, int me,
                        long long max_iter, deadline, bint settle=*, dict prior=*)
