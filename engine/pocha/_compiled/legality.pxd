# C types for engine/pocha/legality.py, compiled unchanged (pure Python mode): a card set is a
# 40-bit mask, so an unsigned 64-bit integer holds it exactly. docs/internals.md, "The
# compiled engine".
import cython

@cython.locals(follow=cython.ulonglong, higher=cython.ulonglong, trumps=cython.ulonglong)
cpdef unsigned long long legal_cards(unsigned long long hand, int lead, int win, int trump,
                                     bint montar, bint fallar, bint pisar)
