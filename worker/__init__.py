"""The RQ entry points, and nothing else: `pocha worker` (`worker.process`) and the job
functions it runs (`turns.play_turn`, `advice.hint`/`advice.move`,
`matches.play_match_game`).

Jobs are plain importable functions taking plain arguments (ids, not objects); each takes
RQ's current job and hands the work to `core`, which loads what it needs from Redis, so a
job can be retried or run on another machine. This package never imports `service`.
"""
