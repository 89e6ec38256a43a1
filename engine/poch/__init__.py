"""Poch, the German game of the Pochbrett, as rules only: no I/O, no service.

The rule book is docs/poch.md, The rules (its second part says how this engine models
them).  The
modules: ``cards`` (the 32-card pack and the sets), ``rules`` (the options),
``actions`` (one ``int`` per decision and its JSON form), ``game`` (the deals,
plates, betting, showdown, shedding and payout), ``observation`` (what one seat
knows) and ``errors``.
"""

from engine.poch.game import Game
from engine.poch.rules import Rules

__all__ = ["Game", "Rules"]
