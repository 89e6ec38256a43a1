"""The rules of every game the service plays, as pure Python: no I/O. Each game has its own
folder (``engine.pocha``, ``engine.poch``) and meets the shape of ``engine.protocols``;
``engine.registry`` names them. Beside them: the errors every game raises, seeds, the
checks every client position shares, and the sentences sent to people (``engine.i18n``).
"""
