"""The queues, how long a job may think, and the worker's timing settings.

Two queues, read by every worker in this order: `pocha-high` for what a person waits on
(bot turns, hints, stateless AI moves) and `pocha-low` for bot-vs-bot match games, so a big
match never delays a person's game by more than the one job a worker is busy with. Jobs are
stored as JSON (RQ's JSONSerializer), never pickled: their arguments are plain ids and
numbers, and nothing read back from Redis can run code. A job's timeout is the longest its
thinking budget can take on a slow machine plus a margin for loading and saving the game.
The timing settings come from the environment so a test can shorten them.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

import redis
from rq import Queue
from rq.serializers import JSONSerializer

from ai.bot import Budget
from ai.levels import LEVELS

HIGH = "pocha-high"
LOW = "pocha-low"
#: Every worker listens to these, in this order (RQ takes from the first non-empty one).
QUEUES = (HIGH, LOW)

#: The serializer of every job: JSON, so no pickle is ever loaded from Redis.
SERIALIZER = JSONSerializer

#: A slow machine still runs this many ISMCTS iterations a second (this one runs 20,000+);
#: timeouts assume it, so a budget in iterations cannot time out on a busy worker.
SLOW_ITERATIONS_PER_SECOND = 2_000
#: Loading the game, forking the work horse and writing the move, on top of the thinking.
MARGIN_SECONDS = 10

#: The most a custom budget may ask for, per decision (hints, AI moves, match seats).
MAX_ITERATIONS = 100_000
MAX_MILLISECONDS = 5_000


def thinking_seconds(budget: Budget) -> float:
    """The longest a decision within `budget` may take (0 for the bots that do not search)."""
    limits = []
    if budget.milliseconds is not None:
        limits.append(budget.milliseconds / 1000)
    if budget.iterations is not None:
        limits.append(budget.iterations / SLOW_ITERATIONS_PER_SECOND)
    return min(limits) if limits else 0.0


def job_timeout(seconds_of_thinking: float) -> int:
    """RQ's timeout (whole seconds) for a job that thinks this long at most."""
    return math.ceil(seconds_of_thinking + MARGIN_SECONDS)


#: Every level's bot turn fits in this; one constant, so scheduling a turn reads no game.
TURN_TIMEOUT = job_timeout(max(thinking_seconds(level.budget) for level in LEVELS.values()))


def _number(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError as exc:
        raise ValueError(f"{name} must be a number of seconds, not {raw!r}") from exc
    if value <= 0:
        raise ValueError(f"{name} must be positive, not {raw!r}")
    return value


@dataclass(frozen=True)
class Timing:
    """How often the workers look after unfinished work (seconds).

    A worker writes a heartbeat on the job it runs every `heartbeat`; a started job whose
    heartbeat is older than `stale` has lost its worker (SIGKILL, a dead machine). Each
    unfinished bot turn and match game is checked every `check` while it runs, and idle
    workers sweep every `sweep`. So a turn whose worker died is queued again at most
    `stale + check + sweep` after the death (15 s with the defaults).
    """

    heartbeat: int = 2
    stale: float = 10.0
    check: float = 3.0
    sweep: float = 2.0
    #: A queued job is safe in its queue; it is looked at again only this often.
    queued_check: float = 30.0
    #: A match game plays this long (wall time), then lets the queues be read again.
    match_slice: float = 2.0

    @property
    def recovery_bound(self) -> float:
        return self.stale + self.check + self.sweep

    @classmethod
    def from_env(cls) -> Timing:
        return cls(
            heartbeat=max(1, round(_number("POCHA_WORKER_HEARTBEAT", cls.heartbeat))),
            stale=_number("POCHA_WATCHDOG_STALE", cls.stale),
            check=_number("POCHA_WATCHDOG_CHECK", cls.check),
            sweep=_number("POCHA_WATCHDOG_SWEEP", cls.sweep),
            queued_check=_number("POCHA_WATCHDOG_QUEUED_CHECK", cls.queued_check),
            match_slice=_number("POCHA_MATCH_SLICE", cls.match_slice),
        )


def connect(url: str) -> redis.Redis:
    """A Redis client for RQ (bytes, not decoded: RQ expects them)."""
    return redis.Redis.from_url(url, socket_connect_timeout=5, health_check_interval=30)


def queue(connection: redis.Redis, name: str) -> Queue:
    return Queue(name, connection=connection, serializer=SERIALIZER)
