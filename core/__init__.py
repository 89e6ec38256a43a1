"""What the HTTP API (`service`) and the RQ workers (`worker`) share, in three rooms:
the store (`core.store`), play (`core.play`) and jobs (`core.jobs`), beside
configuration, logs, the network and the service's errors. It never imports Flask.
How it works: docs/internals.md, `core`.
"""
