"""Poch's bots (``engine.poch``): ``deals`` (deals consistent with one seat's observation,
and the game to search them in), ``heuristic``, ``ismcts``, ``levels`` (the bots by name),
``arena`` (one-deal games on duplicate deals, chips per deal) and ``kind`` (Poch's bots in
``ai.registry``).
"""

from engine.implementation import choose

# Before any module of the package is imported, so that all of them get the one chosen. The
# compiled search plays the compiled engine's games: it needs them.
choose("ai.poch", ("heuristic", "deals", "ismcts"), needs=("engine", "engine.poch"))
