"""Bots for Poch (``engine.poch``), built as the Pocha bots of ``ai`` are.

``bot`` (the decision and the interface), ``deals`` (deals consistent with one
seat's observation, and the game to search them in), ``random_bot``,
``heuristic``, ``ismcts``, ``levels`` (the bots by name) and ``arena`` (bots
against each other on duplicate deals, chips per deal).
"""
