"""Pocha's bots (``engine.pocha``): the rule-based ``heuristic``, the search (``ismcts``) and
what it reads the other seats by (``reading``, ``location``), the ``learned`` bidder, the
``levels`` by name, the ``arena`` and the ``yardstick``, the models' training, and adapters
to PettingZoo and OpenSpiel; ``kind`` gives them to ``ai.registry``.
"""

from engine.implementation import choose

# Before any module of the package is imported, so that all of them get the one chosen. The
# compiled search takes the compiled engine's hand state and deal sampler: it needs them.
choose("ai.pocha", ("hand_value", "ismcts"), needs=("engine.pocha",))
