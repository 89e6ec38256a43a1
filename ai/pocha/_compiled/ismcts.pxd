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

cdef class LeafValue:
    cdef public list weights, exact, off
    cdef public double weight, miss
    cdef public int tricks

@cython.locals(hands=list, trump=int, mine=cython.ulonglong, others=cython.ulonglong,
               h=cython.ulonglong, s=int, u=int, m=cython.ulonglong, o=cython.ulonglong,
               top=int, trump_top=int, side_top=int, trumps=int, their_trumps=int, side=int,
               voids=int, left=int, need=int, winning=int, played=int,
               w0=cython.double, w1=cython.double, w2=cython.double, w3=cython.double,
               w4=cython.double, w5=cython.double, w6=cython.double, w7=cython.double,
               w8=cython.double, w9=cython.double, w10=cython.double, w11=cython.double,
               w12=cython.double,
               f1=cython.double, f2=cython.double, f3=cython.double, f4=cython.double,
               f5=cython.double, f6=cython.double, f7=cython.double, f8=cython.double,
               f9=cython.double, f10=cython.double, f11=cython.double, f12=cython.double)
cpdef double expected_tricks(list weights, CompiledHandState st, int seat, list out=*)

@cython.locals(x=cython.double, b=int, k=int)
cpdef int leaf_cell(int left, int need, double expected)

@cython.locals(bid=int, need=int, cell=int, exact=cython.double, off=cython.double, row=list,
               score=cython.double)
cpdef double leaf_value(LeafValue leaf, CompiledHandState st, int seat, list points)


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
               rewards=list, mover=int, draw=cython.double, valued=list, lam=cython.double)
cpdef long long iterate(Node root, CompiledHandState base,
                        CompiledDealSampler sampler, unsigned long long own, rng,
                        list pool, list cum, list points, playout, double c, int n,
                        bint modelled, bid_model, bint whole_deck, double rivalry, int me,
                        long long max_iter, deadline, bint settle=*, dict prior=*,
                        LeafValue leaf=*)
