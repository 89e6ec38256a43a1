"""What the HTTP API (`service`) and the RQ workers (`worker`) share, in three rooms: the
store (`core.store`: games in Redis, their records, scripts, keys and connections), play
(`core.play`: games, tables, bots and turns) and jobs (`core.jobs`: owed tasks, queues,
admission, advice and matches); beside them configuration (`config`), structured logs
(`logs`), where this machine is reached (`network`) and the service's errors (`errors`).

It imports the engine and the bots, never Flask, `service` or `worker`, so a job runs it
as it is and the API never loads RQ's job functions. The store imports nothing of play or
jobs (an import-linter contract).
"""
