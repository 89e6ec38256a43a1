"""How the bot workers are doing, read from Redis for `/readyz` and `/metrics`: how many
are alive, how many jobs wait in each queue, how many failed.

A worker is alive while its RQ key exists: every worker refreshes it with its heartbeat
and it expires `worker_ttl` seconds after a worker dies, however it died. RQ's registry of
worker names keeps a SIGKILLed worker's name until someone cleans it up, so counting names
(`Worker.count`) would call a dead worker alive. Everything is read in two round trips and
written never (RQ's own `count` helpers clean registries up as they count).
"""

from __future__ import annotations

from dataclasses import dataclass

import redis
from rq import Worker

from core.queues import QUEUES, queue


@dataclass(frozen=True)
class WorkStatus:
    #: Workers whose heartbeat key is still there.
    workers_alive: int
    #: Jobs waiting in each queue, by queue name, in priority order.
    queued: dict[str, int]
    #: Jobs in each queue's failed registry (RQ keeps them a day).
    failed: dict[str, int]


def work_status(connection: redis.Redis) -> WorkStatus:
    """The workers and queues now (raises Redis errors: the caller decides what they mean)."""
    keys = Worker.all_keys(connection=connection)
    queues = [queue(connection, name) for name in QUEUES]
    pipe = connection.pipeline(transaction=False)
    for key in keys:
        pipe.exists(key)
    for q in queues:
        pipe.llen(q.key)
        pipe.zcard(q.failed_job_registry.key)
    replies = pipe.execute()
    alive = sum(1 for found in replies[: len(keys)] if found)
    counts = replies[len(keys) :]
    return WorkStatus(
        workers_alive=alive,
        queued={q.name: int(counts[2 * i]) for i, q in enumerate(queues)},
        failed={q.name: int(counts[2 * i + 1]) for i, q in enumerate(queues)},
    )
