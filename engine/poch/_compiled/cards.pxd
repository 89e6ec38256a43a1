# C types for engine/poch/cards.py, compiled unchanged (pure Python mode): a card, a suit and
# a rank are small ints. docs/internals.md, "The compiled engine".
import cython

cpdef int card(int suit, int rank)
cpdef int suit_of(int c)
cpdef int rank_of(int c)
cpdef str card_code(int c)

@cython.locals(by_rank=dict, cards=list, key=tuple)
cpdef best_set(hand, int trump)
