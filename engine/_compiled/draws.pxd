# C types for engine/draws.py, compiled unchanged (pure Python mode): the loops run on C
# integers and call the generator's getrandbits as random.Random's own methods do, so every
# draw is the Python one. Compiled modules cimport it (``from engine._compiled cimport
# draws``) for C calls. docs/internals.md, "The compiled engine".
import cython

@cython.locals(bits=int, j=Py_ssize_t)
cpdef Py_ssize_t randbelow(Py_ssize_t n, rng)

@cython.locals(i=Py_ssize_t, bits=int, j=Py_ssize_t)
cpdef void shuffle(list deck, rng)

# ``selected`` holds positions in a list of at most 64 cards.
@cython.locals(n=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, bits=int, result=list,
               pool=list, selected=cython.ulonglong,
               one=cython.ulonglong)
cpdef list sample(list cards, Py_ssize_t k, rng)
