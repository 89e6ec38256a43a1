"""Poch, the German game of the Pochbrett, as rules only: no I/O, no service.

The rule book is docs/poch.md (its second part says how this engine models it). The
modules: ``cards`` (the 32-card pack and the sets), ``rules`` (the options), ``actions``
(one ``int`` per decision and its JSON form), ``game`` (the deals, plates, betting,
showdown, shedding and payout), ``observation`` (what one seat knows), ``position`` (a
client's position checked), ``errors`` and ``kind`` (Poch in ``engine.registry``).
"""

from engine.poch.game import Game
from engine.poch.observation import Observation, observe
from engine.poch.rules import Rules

__all__ = ["Game", "Observation", "Rules", "observe"]
