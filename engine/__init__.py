"""The rules of every game the service plays, as pure Python: no I/O. Each game has its own
folder (``engine.pocha``, ``engine.poch``) and meets the shape of ``engine.protocols``;
``engine.registry`` names them. Beside them: the errors every game raises, seeds, the
checks every client position shares, the searches' random ``draws``, and the sentences sent to
people (``engine.i18n``).
"""

from engine.implementation import choose

# Before any module of the engine is imported, so that all of them get the one chosen.
choose("engine", ("draws",))
