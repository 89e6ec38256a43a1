"""How the bot workers are doing, read from Redis for `/readyz` and `/metrics`: how many
are alive, how many jobs wait in each queue, how many failed.
How it works: docs/internals.md, `core.jobs.status`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import redis
from rq import Worker
from rq.worker import BaseWorker

from core.jobs.queues import NAMES, QUEUES, Timing, named, queue
from core.store.redises import Connections, Redises, redises_of


@dataclass(frozen=True)
class WorkStatus:
    #: Workers whose last heartbeat is within their TTL.
    workers_alive: int
    #: Jobs waiting in each queue, by queue name (`core.jobs.queues.NAMES`), in priority order.
    queued: dict[str, int]
    #: Jobs in each queue's failed registry (RQ keeps them a day).
    failed: dict[str, int]


def _alive(workers: list[BaseWorker], timing: Timing) -> int:
    since = datetime.now(UTC) - timedelta(seconds=timing.worker_ttl)
    return sum(1 for w in workers if w.last_heartbeat is not None and w.last_heartbeat >= since)


def workers_serving(connection: redis.Redis, name: str, timing: Timing | None = None) -> int:
    """The workers alive that take jobs from the queue `name` (RQ's registry of them)."""
    workers = Worker.all(queue=queue(connection, name))
    return _alive(workers, timing or Timing.from_env())


def work_status(
    connections: Connections | Sequence[redis.Redis], timing: Timing | None = None
) -> WorkStatus:
    """The workers and queues now, summed over every queue Redis (each group of workers)
    of `connections` (raises Redis errors: the caller decides what they mean)."""
    groups = (
        redises_of(connections).groups if isinstance(connections, (Redises, redis.Redis))
        else tuple(connections)
    )  # fmt: skip
    timing = timing or Timing.from_env()
    alive, queued, failed = 0, dict.fromkeys(NAMES, 0), dict.fromkeys(NAMES, 0)
    for connection in groups:
        alive += _alive(Worker.all(connection=connection), timing)
        # One round trip for every queue (the lanes of pocha-turns count as one): its
        # length, and the size of its failed registry.
        pipe = connection.pipeline(transaction=False)
        for name in QUEUES:
            found = queue(connection, name)
            pipe.llen(found.key)
            pipe.zcard(found.failed_job_registry.key)
        counts = pipe.execute()
        for i, name in enumerate(QUEUES):
            queued[named(name)] += int(counts[2 * i])
            failed[named(name)] += int(counts[2 * i + 1])
    return WorkStatus(workers_alive=alive, queued=queued, failed=failed)
