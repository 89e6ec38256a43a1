# C types for engine/poch/game.py, compiled unchanged (pure Python mode): Game becomes an
# extension type whose attributes are slots, each still any Python object (a stored game's
# values are the Python one's), with a __dict__ for what subclasses add (the record's
# replay). The shedding's card and seat are C ints, a search's `quiet` a C flag. Not final:
# engine.poch.record subclasses it. docs/internals.md, "The compiled engine".
import cython

cdef class Game:
    cdef public object rules, seed, chips, active, plates, pot, deal_no, dealer, phase, turn
    cdef public object hands, trump, trump_card, collected, bets, order, showdown, starter
    cdef public object direction, suit, suits_done, played, deal_results, actions, history
    cdef public object opening_events
    cdef public bint quiet
    cdef dict __dict__

    @cython.locals(seat=int)
    cpdef int _holder(self, int c) except? -1
    cpdef bint _play(self, int seat, int c, list events) except? -1
    @cython.locals(suit=int, rank=int, left=list)
    cpdef _run_suit(self, int seat, int c, list events)
