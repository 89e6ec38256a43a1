"""Pocha's bots (``engine.pocha``): the rule-based ``heuristic``, the search (``ismcts``) and
what it reads the other seats by (``reading``, ``location``), the ``learned`` bidder, the
``levels`` by name, the ``arena`` and the ``yardstick``, the models' training, and adapters
to PettingZoo and OpenSpiel; ``kind`` gives them to ``ai.registry``.
"""
