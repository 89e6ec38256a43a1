"""Background jobs run by RQ workers: bot moves, arenas and long simulations.

Jobs are plain importable functions taking plain arguments (ids, not objects)
and load what they need from Redis, so they can be retried or run elsewhere.
"""
