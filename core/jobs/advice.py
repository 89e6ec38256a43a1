"""AI on demand: a hint for a seat of a stored game, or a move for a position a front end
keeps itself (of any game: its `game` names it), queued on `pocha-high` once
`core.jobs.admission` lets it in, thought with the analysis on, never retried nor owed; and the
report of such a job for `GET /api/v1/jobs/{id}`, whose random id only the asker is given.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import secrets
import time
from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import redis
from rq import get_current_job
from rq.exceptions import NoSuchJobError
from rq.job import Job

from ai.bot import Budget
from ai.registry import bot_kind, decide_in, levels_of, no_such_level
from core.errors import GameNotFound
from core.jobs.admission import UNBOUNDED, Admission, left_queue
from core.jobs.queues import (
    SERIALIZER,
    Timing,
    estimated_seconds,
    job_timeout,
    queue,
    thinking_seconds,
)
from core.jobs.tasks import job_name
from core.logs import job_meta
from core.play.bot_metrics import record_decision
from core.play.bots import bot_seed
from core.play.turns import store_for
from core.store.api_keys import ApiKey
from core.store.redises import store_for_jobs
from engine.errors import InvalidStateError
from engine.i18n import _
from engine.registry import DEFAULT_GAME, kind_of
from engine.registry import KINDS as GAME_KINDS

#: The kinds of on-demand jobs: workers think about them in a niced horse, and the admission
#: counts them while they wait. A game record's analysis (`core.jobs.analyses`) is one too,
#: with reports of its own.
KINDS = ("hint", "ai_move", "analysis")
#: The kinds `GET /api/v1/jobs/{id}` reports.
ADVICE = ("hint", "ai_move")
DEFAULT_LEVEL = "hard"
#: Results wait this long for their reader; a job not started by then is dropped.
RESULT_TTL = 600
QUEUED_TTL = 600


@dataclass(frozen=True)
class Thinking:
    """How hard to think: a level by name, or a custom ISMCTS budget; `game` names whose
    levels (their budgets differ), and is not a job argument (a job knows its game)."""

    level: str | None = None
    iterations: int | None = None
    milliseconds: int | None = None
    game: str = DEFAULT_GAME

    @property
    def custom(self) -> bool:
        return self.iterations is not None or self.milliseconds is not None

    @property
    def budget(self) -> Budget:
        if self.custom:
            return Budget(self.iterations, self.milliseconds)
        budget: Budget = levels_of(self.game)[self.level or DEFAULT_LEVEL].budget
        return budget

    @property
    def label(self) -> str:
        return "ismcts" if self.custom else self.level or DEFAULT_LEVEL

    def decide_args(self) -> tuple[str, Budget | None]:
        """The `level` and `budget` arguments of `ai.bot.BotKind.decide`."""
        return ("ismcts", self.budget) if self.custom else (self.label, None)

    def to_kwargs(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "iterations": self.iterations,
            "milliseconds": self.milliseconds,
        }


class AdviceRefused(Exception):
    """The job cannot give the advice asked for; the message says why, to the client."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Asker:
    """Who asks, for the admission: the client's address (None: a tool of ours) and the
    checks of the process that takes the request."""

    address: str | None = None
    admission: Admission = UNBOUNDED
    #: The integrator's key the request carries, whose counts and budget it spends.
    key: ApiKey | None = None


def _enqueue(
    connection: redis.Redis,
    kind: str,
    func: str,
    args: tuple[Any, ...],
    thinking: Thinking,
    asker: Asker,
) -> str:
    return enqueue_on_demand(
        connection, kind, func, args, thinking.to_kwargs(), asker,
        estimated=estimated_seconds(thinking.budget), longest=thinking_seconds(thinking.budget),
    )  # fmt: skip


def enqueue_on_demand(
    connection: redis.Redis,
    kind: str,
    func: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    asker: Asker,
    *,
    estimated: float,
    longest: float,
) -> str:
    """Queue an on-demand job of `kind` on `pocha-high`, in its asker's lane, once the
    admission lets its `estimated` seconds in; it may think `longest` seconds at most. Its
    random id."""
    job_id = secrets.token_urlsafe(18)
    lane = asker.admission.admit(
        connection, job_id, estimated, asker.address, QUEUED_TTL, key=asker.key
    )
    try:
        queue(connection, lane).enqueue_call(
            func=func,
            args=args,
            kwargs=kwargs,
            timeout=job_timeout(longest),
            job_id=job_id,
            result_ttl=RESULT_TTL,
            failure_ttl=RESULT_TTL,
            ttl=QUEUED_TTL,
            meta={"kind": kind, **job_meta()},
            description=kind,
        )
    except BaseException:
        with contextlib.suppress(redis.RedisError):
            left_queue(connection, job_id)  # never queued: nothing waits
        raise
    return job_id


def ask_hint(
    connection: redis.Redis,
    game_id: str,
    seat: int,
    version: int,
    thinking: Thinking,
    asker: Asker | None = None,
) -> str:
    """Queue a hint for `seat` of the game at `version`; the job's id."""
    args = (game_id, seat, version)
    return _enqueue(connection, "hint", job_name(hint), args, thinking, asker or Asker())


def ask_move(
    connection: redis.Redis,
    position: dict[str, Any],
    thinking: Thinking,
    asker: Asker | None = None,
) -> str:
    """Queue a move for a client's position (already checked by the caller); the job's id."""
    return _enqueue(connection, "ai_move", job_name(move), (position,), thinking, asker or Asker())


def job_taken(connection: redis.Redis, job: Job) -> None:
    """A worker has taken `job` off its queue: if it is a hint or an AI move, its thinking no
    longer waits (`core.jobs.admission`)."""
    if job.meta.get("kind") in KINDS:
        left_queue(connection, job.id)


def think_hint(
    connection: redis.Redis, game_id: str, seat: int, version: int, thinking: Thinking
) -> dict[str, Any]:
    """The seat's best action at `version` of the game, with the analysis, from its own
    view only; `AdviceRefused` when the game is gone or has moved on."""
    try:
        record = store_for(connection).load(game_id)
    except GameNotFound:
        raise AdviceRefused(_("The game is gone: it was deleted or expired.")) from None
    if record.version != version or record.game.turn != seat:
        raise AdviceRefused(
            _(
                "The game has moved on since the hint was asked (version {version}, now "
                "{now}): ask again on your turn.",
                version=version,
                now=record.version,
            )
        )
    thinking = replace(thinking, game=kind_of(record.game).name)
    name, budget = _bot_of(thinking, levels_of(thinking.game))
    started = time.perf_counter()
    decision = decide_in(
        record.game, seat, name, seed=bot_seed(record.game.seed, version), budget=budget,
        analyse=True,
    )  # fmt: skip
    record_decision(connection, "hint", thinking.label, time.perf_counter() - started)
    return {
        **decision.report,
        "level": thinking.label,
        "budget": thinking.budget.to_dict(),
        "seat": seat,
        "game": game_id,
        "version": version,
    }


def _bot_of(thinking: Thinking, levels: Collection[str]) -> tuple[str, Budget | None]:
    """The bot level and budget `thinking` asks of a game whose bots have the `levels`;
    `AdviceRefused` for a level they have not."""
    name, budget = thinking.decide_args()
    if budget is None and name not in levels:
        raise AdviceRefused(no_such_level(name, levels))
    return name, budget


def think_move(
    position: dict[str, Any], thinking: Thinking, connection: redis.Redis | None = None
) -> dict[str, Any]:
    """The action of the position's seat, with the analysis; `AdviceRefused` when the
    position is impossible. The think time is recorded when `connection` is given. The
    position's `game` names its game (none, or one not played here: the default game), whose
    bots decide, in its wire form."""
    name = position.get("game", DEFAULT_GAME)
    kind = GAME_KINDS.get(name if isinstance(name, str) else DEFAULT_GAME, GAME_KINDS[DEFAULT_GAME])
    thinking = replace(thinking, game=kind.name)
    try:
        obs = kind.position_from_dict(position)
    except InvalidStateError as exc:
        raise AdviceRefused(_("The position is impossible: {why}", why=exc.message)) from None
    # Deterministic: the same position and thinking give the same answer.
    digest = hashlib.sha256(
        json.dumps([position, thinking.to_kwargs()], sort_keys=True).encode()
    ).digest()
    seed = int.from_bytes(digest[:8], "big") >> 1
    name, budget = _bot_of(thinking, levels_of(kind))
    started = time.perf_counter()
    bots = bot_kind(kind)
    decision = bots.decide(obs, name, seed=seed, budget=budget, analyse=True)
    decided, seat = bots.report(decision), obs.seat
    if connection is not None:
        record_decision(connection, "ai_move", thinking.label, time.perf_counter() - started)
    return {
        **decided,
        "level": thinking.label,
        "budget": thinking.budget.to_dict(),
        "seat": seat,
    }


# -- reports ------------------------------------------------------------------------------------

#: RQ's statuses as the API reports them.
_STATUS = {
    "queued": "queued",
    "scheduled": "queued",
    "deferred": "queued",
    "started": "started",
    "finished": "finished",
    "failed": "failed",
    "stopped": "failed",
    "canceled": "failed",
}


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


def _ms(start: datetime | None, end: datetime | None) -> float | None:
    if start is None or end is None:
        return None
    return round((end - start).total_seconds() * 1000, 1)


def is_job_id(job_id: str) -> bool:
    # ASCII only: str.isalnum() also accepts letters such as "Ç", which RQ refuses in ids.
    return 0 < len(job_id) <= 64 and all(
        ch.isascii() and (ch.isalnum() or ch in "-_") for ch in job_id
    )


def job_report(
    connection: redis.Redis,
    job_id: str,
    timing: Timing | None = None,
    kinds: tuple[str, ...] = ADVICE,
) -> dict[str, Any] | None:
    """What `GET /api/v1/jobs/{id}` shows of an advice job (or, with `kinds`, of those
    kinds of on-demand jobs); None if there is no such job (or it is of another kind)."""
    if not is_job_id(job_id):
        return None
    try:
        job = Job.fetch(job_id, connection=connection, serializer=SERIALIZER)
    except NoSuchJobError:
        return None
    kind = job.meta.get("kind")
    if kind not in kinds:
        return None
    raw_status = job.get_status(refresh=False)
    status = _STATUS.get(getattr(raw_status, "value", raw_status) or "", "queued")
    result = None
    error = None
    if status == "finished":
        result = job.return_value()
    elif status == "failed":
        error = job.meta.get("error") or _("The bot could not think about this; ask again.")
    elif status == "started":
        timing = timing or Timing.from_env()
        beat = job.last_heartbeat or job.started_at
        if beat is not None and time.time() - beat.timestamp() > timing.stale:
            status = "failed"
            error = "The worker thinking about this stopped; ask again."
    return {
        "id": job.id,
        "kind": kind,
        "status": status,
        "result": result,
        "error": error,
        "timings": {
            "enqueued_at": _iso(job.enqueued_at),
            "started_at": _iso(job.started_at),
            "ended_at": _iso(job.ended_at),
            "queued_ms": _ms(job.enqueued_at, job.started_at),
            "run_ms": _ms(job.started_at, job.ended_at),
        },
    }


def wait_for_report(
    connection: redis.Redis,
    job_id: str,
    wait: float,
    timing: Timing | None = None,
    kinds: tuple[str, ...] = ADVICE,
) -> dict[str, Any] | None:
    """The job's report once it is finished or failed, or after `wait` seconds."""
    deadline = time.monotonic() + wait
    while True:
        report = job_report(connection, job_id, timing, kinds)
        if report is None or report["status"] in ("finished", "failed"):
            return report
        left = deadline - time.monotonic()
        if left <= 0:
            return report
        if left < 1:
            time.sleep(left)  # RQ waits for results in whole seconds: the last bit here
            continue
        # Wait for the job's result, so the answer leaves the moment the job ends. A second
        # at a time, which keeps within the client's socket timeout and looks at a started
        # job's heartbeat now and then.
        Job(job_id, connection=connection, serializer=SERIALIZER).latest_result(timeout=1)


def _refused(exc: AdviceRefused) -> AdviceRefused:
    job = get_current_job()
    if job is not None:
        job.meta["error"] = exc.message
        job.save_meta()
    return exc


def hint(
    game_id: str,
    seat: int,
    version: int,
    level: str | None = None,
    iterations: int | None = None,
    milliseconds: int | None = None,
) -> dict[str, Any]:
    """The job: the seat's best action now, with the analysis, from its own view only."""
    job = get_current_job()
    if job is None:
        raise RuntimeError("hint runs as an RQ job")
    try:
        return think_hint(
            store_for_jobs(job.connection).store, game_id, seat, version,
            Thinking(level, iterations, milliseconds),
        )  # fmt: skip
    except AdviceRefused as exc:
        raise _refused(exc) from None


def move(
    position: dict[str, Any],
    level: str | None = None,
    iterations: int | None = None,
    milliseconds: int | None = None,
) -> dict[str, Any]:
    """The job: the action of the position's seat, with the analysis."""
    job = get_current_job()
    try:
        return think_move(
            position,
            Thinking(level, iterations, milliseconds),
            None if job is None else store_for_jobs(job.connection).store,
        )
    except AdviceRefused as exc:
        raise _refused(exc) from None
