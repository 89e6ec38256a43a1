"""Poch, the German game of the Pochbrett, as rules only: no I/O, no service. The rule book
is docs/poch.md; the modules: ``cards``, ``rules``, ``actions``, ``game`` (deals, plates,
betting, showdown, shedding, payout), ``observation``, a client's ``position``, ``errors``
and ``kind`` (Poch in ``engine.registry``).
"""

from engine.implementation import choose

# Before any other import, so that all of them get the implementation chosen.
choose("engine.poch", ("cards", "game"))

from engine.poch.game import Game
from engine.poch.observation import Observation, observe
from engine.poch.rules import Rules

__all__ = ["Game", "Observation", "Rules", "observe"]
