"""Bot think time and bot moves, kept in Redis by whoever makes a bot decide, and read back
by any API process for `/metrics`.
How it works: docs/internals.md, `core.play.bot_metrics`.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

import redis

from core.store.keys import THINK_STATS, think_key

log = logging.getLogger(__name__)

#: Upper bounds (seconds) of the think-time histogram's buckets: from the heuristic bot's
#: microseconds to the longest custom budget (5 s) and beyond.
BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, math.inf)

KINDS = ("turn", "hint", "ai_move")


def bucket_of(seconds: float) -> int:
    return next(i for i, bound in enumerate(BUCKETS) if seconds <= bound)


def record_decision(
    connection: redis.Redis, kind: str, level: str, seconds: float, *, applied: bool = False
) -> None:
    """Count one decision of `level` that took `seconds`; `applied`: a bot move was written.

    Never raises: the decision was made (and its move written) already, and losing a
    sample is better than failing the work that produced it."""
    key = think_key(kind, level)
    try:
        pipe = connection.pipeline(transaction=False)
        pipe.sadd(THINK_STATS, f"{kind}:{level}")
        pipe.hincrby(key, "count", 1)
        pipe.hincrbyfloat(key, "sum", seconds)
        pipe.hincrby(key, f"b{bucket_of(seconds)}", 1)
        if applied:
            pipe.hincrby(key, "moves", 1)
        pipe.execute()
    except redis.RedisError as exc:
        log.warning("could not record a bot's think time: %s", type(exc).__name__)


@dataclass(frozen=True)
class ThinkHistogram:
    kind: str
    level: str
    count: int
    sum: float
    moves: int
    #: (upper bound, decisions at or under it): cumulative, as Prometheus wants.
    buckets: list[tuple[float, int]]


def read_histograms(connection: redis.Redis) -> list[ThinkHistogram]:
    """Every histogram recorded so far, sorted by kind then level (two round trips)."""
    members = connection.smembers(THINK_STATS)
    names = sorted((n.decode() if isinstance(n, bytes) else n) for n in members)
    pipe = connection.pipeline(transaction=False)
    for name in names:
        kind, _, level = name.partition(":")
        pipe.hgetall(think_key(kind, level))
    found: list[ThinkHistogram] = []
    for name, raw in zip(names, pipe.execute(), strict=True):
        if not raw:
            continue
        fields = {(k.decode() if isinstance(k, bytes) else k): float(v) for k, v in raw.items()}
        kind, _, level = name.partition(":")
        running = 0
        buckets = []
        for i, bound in enumerate(BUCKETS):
            running += int(fields.get(f"b{i}", 0))
            buckets.append((bound, running))
        found.append(
            ThinkHistogram(
                kind,
                level,
                int(fields.get("count", 0)),
                fields.get("sum", 0.0),
                int(fields.get("moves", 0)),
                buckets,
            )
        )
    return found
