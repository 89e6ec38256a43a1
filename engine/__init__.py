"""The rules of every game the service plays, as pure Python: no I/O.

Each game lives in its own package (``engine.pocha``, ``engine.poch``) and meets the shape
of ``engine.protocols``; ``engine.registry`` names them all. Beside them: the errors every
game raises (``engine.errors``), seeds (``engine.seeds``), the checks every position a
client sends shares (``engine.positions``) and the sentences sent to people (``engine.i18n``).
"""
