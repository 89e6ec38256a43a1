# C types for engine/pocha/hand.py, compiled unchanged (pure Python mode): HandState becomes
# an extension type whose numbers are C ints (seats, cards, counts: small) and whose card sets
# are unsigned 64-bit (40-bit masks); its hands, bids and tricks stay Python lists, so callers
# see the same objects. Not final: tests subclass it. docs/internals.md, "The compiled engine".
import cython
from engine.pocha._compiled.legality cimport legal_cards
# The .py's bits.bit_length and bits.bit_count: engine/pocha/_compiled/bits.pxd.
from engine.pocha._compiled cimport bits

cdef class HandState:
    cdef public int n, trump, cards, dealer, bid_sum, turn, lead, win, winner, in_trick
    cdef public int leader, tricks_left
    cdef public bint montar, fallar, pisar, restrict, bidding
    cdef public list hands, bids, tricks

    cpdef HandState copy(self)
    cpdef int forbidden_bid(self)
    @cython.locals(forbidden=int, b=int)
    cpdef list legal_bids(self)
    @cython.locals(forbidden=int, b=int, m=cython.ulonglong)
    cpdef list legal_actions(self)
    cpdef unsigned long long legal_mask(self)
    cpdef void apply_action(self, int action)
    @cython.locals(seat=int)
    cpdef void apply_bid(self, int bid)
    @cython.locals(seat=int, suit=int, winner=int, hand=cython.ulonglong, bit=cython.ulonglong)
    cpdef int apply_card(self, int card)


@cython.locals(count=int, k=int)
cpdef int random_card(unsigned long long mask, rand)

@cython.locals(hands=list, bids=list, trump=int, montar=bint, fallar=bint, pisar=bint,
               legal=cython.ulonglong, count=int, k=int)
cpdef void play_out(HandState state, rand=*)

@cython.locals(hands=list, mano=int, dealt=Py_ssize_t, k=Py_ssize_t, i=Py_ssize_t,
               m=cython.ulonglong, bit=cython.ulonglong)
cpdef tuple deal(deck, int players, int cards, int dealer)
