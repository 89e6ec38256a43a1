"""The queues, how long a job may think, and the worker's timing settings.
How it works: docs/internals.md, `core.jobs.queues`.
"""

from __future__ import annotations

import hashlib
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass

import redis
from rq import Queue
from rq.serializers import JSONSerializer

from ai.bot import SLOW_ITERATIONS_PER_SECOND as SLOW_ITERATIONS_PER_SECOND
from ai.bot import Budget, thinking_seconds
from ai.registry import LEVELS
from core.store.redises import Connections, redises_of
from engine.i18n import _

TURNS = "pocha-turns"
HIGH = "pocha-high"
LOW = "pocha-low"
#: The queues by the names people use (settings, metrics, `/readyz`), in priority order.
NAMES = (TURNS, HIGH, LOW)
#: The lanes of `pocha-turns`: the first for games nobody pays for (tools, tests with the
#: rate limits off), the others shared out among the clients that made games.
LANES = 16
TURN_LANES = (TURNS, *(f"{TURNS}-{i}" for i in range(1, LANES)))
#: The lane of the turns of games whose bots (or stand-in) think long a decision
#: (`core.store.records.LONG_THINKING`): only general workers take it, after the other
#: lanes, so a worker reserved for bot turns is never inside a long decision when a quick
#: turn comes. A run there hands over to any turn waiting, so the long games take it in
#: turn, a decision each.
LONG_LANE = f"{TURNS}-long"
#: Every RQ queue of `pocha-turns`.
TURN_QUEUES = (*TURN_LANES, LONG_LANE)
#: The lanes of `pocha-high`, as the turns' are: the first for the jobs of our tools (no
#: address, no key), the others shared out among the clients that order hints and AI moves,
#: so that one client's thinking (up to its whole think budget queued at once) never waits
#: all ahead of another's.
ON_DEMAND_LANES = (HIGH, *(f"{HIGH}-{i}" for i in range(1, LANES)))
#: The lanes of `pocha-low`, as the turns' are: the first for matches nobody pays for, the
#: others shared out among the clients that started matches, so that one client's games
#: (a task each, up to `POCHA_MATCH_MAX_GAMES` a match) never queue all ahead of another's.
MATCH_LANES = (LOW, *(f"{LOW}-{i}" for i in range(1, LANES)))
#: The RQ queues a general worker listens to, in this order (RQ takes from the first
#: non-empty one; the lanes of a queue among themselves in turn).
QUEUES = (*TURN_LANES, LONG_LANE, *ON_DEMAND_LANES, *MATCH_LANES)
#: What a worker reserved for people's games listens to (as people name it).
TURNS_ONLY = (TURNS,)
#: How often a maker's lane is drawn again (seconds).
LANE_SECONDS = 60


def lane_of(payer: str | None, now: float | None = None, long: bool = False) -> str:
    """The lane of `pocha-turns` for the turns of games `payer` made (`StoredGame.payer`);
    `long`: of a game whose bots think long (`StoredGame.thinks_long`)."""
    if long:
        return LONG_LANE
    if payer is None:
        return TURNS
    draw = int(time.time() if now is None else now) // LANE_SECONDS
    digest = hashlib.blake2b(f"{payer}:{draw}".encode(), digest_size=4).digest()
    return TURN_LANES[1 + int.from_bytes(digest, "big") % (LANES - 1)]


def _client_lane(lanes: tuple[str, ...], client: str | None) -> str:
    """The lane of `client` among `lanes`, always the same: the first for nobody."""
    if client is None:
        return lanes[0]
    digest = hashlib.blake2b(client.encode(), digest_size=4).digest()
    return lanes[1 + int.from_bytes(digest, "big") % (LANES - 1)]


def match_lane_of(client: str | None) -> str:
    """The lane of `pocha-low` for the games of the matches `client` starts (a client hash
    or a key's payer): one lane for a whole match, its continuations included, so the
    same for all of a client's matches."""
    return _client_lane(MATCH_LANES, client)


def on_demand_lane_of(payer: str | None) -> str:
    """The lane of `pocha-high` for the hints, AI moves and analyses `payer` orders (a
    client hash or a key's payer, whose think budget they spend; None: our tools). Always
    the same, so the admission counts a client's jobs queued in it (`core.jobs.admission`)."""
    return _client_lane(ON_DEMAND_LANES, payer)


def named(queue_name: str) -> str:
    """The name people use for an RQ queue: `pocha-turns` for each of its lanes, and
    `pocha-high` and `pocha-low` for each of their own."""
    if queue_name in TURN_QUEUES:
        return TURNS
    if queue_name in ON_DEMAND_LANES:
        return HIGH
    return LOW if queue_name in MATCH_LANES else queue_name


def rq_queues(names: Sequence[str]) -> tuple[str, ...]:
    """The RQ queues of queues named as people name them, in order, each once:
    `pocha-turns` is all its lanes, and the long lane too for a general worker (one that
    takes hints or matches as well), which takes it after the other lanes; `pocha-high` and
    `pocha-low` are all their lanes."""
    general = any(name != TURNS for name in names)
    turns = (*TURN_LANES, LONG_LANE) if general else TURN_LANES
    expanded = {TURNS: turns, HIGH: ON_DEMAND_LANES, LOW: MATCH_LANES}
    lanes = (lane for name in names for lane in expanded.get(name, (name,)))
    return tuple(dict.fromkeys(lanes))


#: The serializer of every job: JSON, so no pickle is ever loaded from Redis.
SERIALIZER = JSONSerializer

#: Loading the game and writing the move, on top of the thinking.
MARGIN_SECONDS = 10

#: The most a custom budget may ask for, per decision (hints, AI moves, match seats).
MAX_ITERATIONS = 100_000
MAX_MILLISECONDS = 5_000


#: What a job costs a worker beyond its thinking: taking it, forking the work horse of a
#: hint or an AI move, loading and saving (10-20 ms measured by `pocha bench bots`).
JOB_SECONDS = 0.02


def estimated_seconds(budget: Budget) -> float:
    """How long a job thinking within `budget` may keep a worker, for the AI on demand's
    admission (`core.jobs.admission`)."""
    return thinking_seconds(budget) + JOB_SECONDS


def job_timeout(seconds_of_thinking: float) -> int:
    """RQ's timeout (whole seconds) for a job that thinks this long at most."""
    return math.ceil(seconds_of_thinking + MARGIN_SECONDS)


#: The longest a run of bot turns (`core.play.turns.play_owed_turns`) may go on starting turns
#: (seconds): `Timing.turn_slice` is held to it, so the timeout below always covers a run.
MAX_TURN_SLICE = 2.0

#: Every level's bot turn, in every game, fits in this, after a run's slice of other turns;
#: one constant, so scheduling a turn reads no game.
TURN_TIMEOUT = job_timeout(
    MAX_TURN_SLICE
    + max(thinking_seconds(level.budget) for levels in LEVELS.values() for level in levels.values())
)


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

    A worker writes a heartbeat on the job it runs every `heartbeat`; a started job with no
    heartbeat for `stale` has lost its worker (SIGKILL, a dead machine): its entry in RQ's
    started registry expires, and the watchdog, which idle workers run every `sweep`
    seconds, has RQ retry the job (or fail it, with no retry left). So a turn whose worker
    died is queued again at most `recovery_bound` after the death (12 s with the defaults).
    Each unfinished bot turn and match game is also checked every `check` while its job
    runs (a job RQ failed for good is queued again then, as a recovery) and every
    `queued_check` while its job waits in a queue.
    """

    heartbeat: int = 2
    stale: float = 10.0
    check: float = 3.0
    #: Also how late a person's clock may end (a timer falls due between two sweeps).
    sweep: float = 1.0
    #: A queued job is safe in its queue; it is looked at again only this often.
    queued_check: float = 30.0
    #: A match game plays this long (wall time), then lets the queues be read again.
    match_slice: float = 2.0
    #: A run of bot turns in one game starts turns for this long (wall time), then queues
    #: the rest as a new job, so other games' turns wait for one slice at most (held to
    #: `MAX_TURN_SLICE`).
    turn_slice: float = 0.1

    @property
    def started_ttl(self) -> int:
        """How long a job's entry in RQ's started registry outlives its last heartbeat.
        RQ scores the entries in whole seconds, so one more second makes sure a job is
        never given up before `stale` seconds without a heartbeat."""
        return math.ceil(self.stale) + 1

    @property
    def recovery_bound(self) -> float:
        """The longest from a worker's death to its job being queued again by RQ."""
        return self.started_ttl + self.sweep

    @property
    def worker_ttl(self) -> int:
        """RQ's `worker_ttl` of our workers: an idle worker waits on the queues this less
        15 s at a time (RQ's rule), so it runs its maintenance (the watchdog) and writes
        its heartbeat every `sweep` seconds; a worker with no heartbeat for this long is
        dead."""
        return math.ceil(self.sweep) + 15

    @classmethod
    def from_env(cls) -> Timing:
        return cls(
            heartbeat=max(1, round(_number("POCHA_WORKER_HEARTBEAT", cls.heartbeat))),
            stale=_number("POCHA_WATCHDOG_STALE", cls.stale),
            check=_number("POCHA_WATCHDOG_CHECK", cls.check),
            sweep=_number("POCHA_WATCHDOG_SWEEP", cls.sweep),
            queued_check=_number("POCHA_WATCHDOG_QUEUED_CHECK", cls.queued_check),
            match_slice=_number("POCHA_MATCH_SLICE", cls.match_slice),
            turn_slice=min(MAX_TURN_SLICE, _number("POCHA_TURN_SLICE", cls.turn_slice)),
        )


def check_queues(names: Sequence[str]) -> None:
    """Refuse a worker's queue list that names a queue no job is ever put on (a typo would
    leave the worker waiting for ever) or names none."""
    if not names:
        raise ValueError(_("name at least one queue"))
    unknown = [name for name in names if name not in NAMES and name not in QUEUES]
    if unknown:
        raise ValueError(
            _(
                "unknown queue {queue}; the queues are {queues}",
                queue=repr(unknown[0]),
                queues=", ".join(NAMES),
            )
        )


def connect(url: str) -> redis.Redis:
    """A Redis client for RQ (bytes, not decoded: RQ expects them)."""
    return redis.Redis.from_url(url, socket_connect_timeout=5, health_check_interval=30)


def queue(connections: Connections, name: str) -> Queue:
    """The RQ queue `name`, on the queue Redis of `connections`."""
    return Queue(name, connection=redises_of(connections).queues, serializer=SERIALIZER)
