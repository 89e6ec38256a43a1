"""Poch's bots (``engine.poch``): ``deals`` (deals consistent with one seat's observation,
and the game to search them in), ``heuristic``, ``ismcts``, ``levels`` (the bots by name),
``arena`` (one-deal games on duplicate deals, chips per deal) and ``kind`` (Poch's bots in
``ai.registry``).
"""
