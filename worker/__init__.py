"""The RQ entry point, and nothing else: `pocha worker` (`worker.process`). The job
functions it runs live in core, next to what queues them (`core.play.turns.play_turn`
and `run_out`, `core.jobs.advice.hint` and `move`, `core.jobs.matches.play_match_game`),
so that each job is queued by its function, a link the import linter sees.

Jobs are plain importable functions taking plain arguments (ids, not objects); each takes
RQ's current job and loads what it needs from Redis, so a job can be retried or run on
another machine. This package never imports `service`.
"""
