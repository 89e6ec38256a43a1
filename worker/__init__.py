"""Background work done by RQ workers: bot turns, hints, AI moves and match games.

Jobs are plain importable functions taking plain arguments (ids, not objects)
and load what they need from Redis, so they can be retried or run elsewhere.
`worker.tasks` keeps the work that must get done and its watchdog; `worker.process`
is `pocha worker`.
"""
