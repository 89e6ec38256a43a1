"""Work that must get done, whatever happens to the workers: bot turns and match games.
A task has a stable key and one current RQ job; the watchdog (`sweep`) queues it again
when its job is lost.
How it works: docs/internals.md, `core.jobs.tasks`.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

import orjson
import redis
from rq import Callback, Retry
from rq.exceptions import InvalidJobOperation, NoSuchJobError, StopRequested
from rq.job import Job, JobStatus

from core.jobs.queues import QUEUES, SERIALIZER, Timing, queue
from core.logs import job_meta
from core.store.keys import task_key
from core.store.records import OwedTask
from core.store.redises import Connections, Redises, redises_of, store_for_jobs

log = logging.getLogger(__name__)

#: RQ retries a failed or timed-out bot turn this often; the last try plays the fallback bot.
TURN_RETRIES = 2
#: After this many recoveries a task gives up (a match game is recorded as failed).
MAX_RECOVERIES = 5
#: How many overdue tasks one sweep looks at.
SWEEP_BATCH = 200
#: Due sets read per round trip by a sweep of a cluster (one per hash slot in all).
DUE_SETS_PER_TRIP = 2048
#: A task nobody finishes is forgotten after this long (its game or match is long gone).
TASK_TTL = 7 * 24 * 3600
#: Results of task jobs are read by nobody but the watchdog (seconds after the job ends)
#: and people debugging; every bot turn's is kept this long on the queue Redis, whose
#: memory grows with it (see docs/capacity.md).
RESULT_TTL = 60
FAILURE_TTL = 24 * 3600


def text(raw: bytes | str) -> str:
    """A Redis reply as text (the client is not decoding: RQ needs bytes)."""
    return raw.decode() if isinstance(raw, bytes) else raw


def job_id_for(prefix: str, seq: int) -> str:
    """The first job of a task has the task's own id; later ones count on from 2."""
    return prefix if seq == 1 else f"{prefix}-{seq}"


#: Jobs and give-ups by the names that records written by earlier versions of the service
#: still hold (an upgrade finds them in Redis), and the names they run under now.
_RENAMED = {
    "worker.turns.play_turn": "core.play.turns.play_turn",
    "worker.turns.run_out": "core.play.turns.run_out",
    "worker.matches.play_match_game": "core.jobs.matches.play_match_game",
}


@dataclass(frozen=True)
class Task:
    """What a task runs: the recipe of each of its jobs."""

    key: str
    #: RQ job ids of the task are this, then this-2, this-3...
    prefix: str
    func: str
    args: Sequence[Any]
    queue: str
    timeout: int
    retries: int = 2
    #: Continuations of long work go to the front of their queue, so started match games
    #: finish before new ones start (progress moves, memory stays small).
    at_front: bool = False
    #: Called with the task's key when it has been recovered too often.
    give_up: str | None = None
    #: A clock's end: its first job is queued by the watchdog when the task falls due,
    #: not by whoever wrote it (see `owed_task_of`).
    timer: bool = False
    #: A timer's condition: (hash key, field, value). When it falls due and the field no
    #: longer holds the value (the game moved on: the person played in time), the timer
    #: ends without a job.
    only_if: tuple[str, str, str] | None = None
    kwargs: dict[str, Any] = field(default_factory=dict)

    def to_fields(self) -> dict[str, str]:
        # orjson: a person's timed move writes its clock's task, and the json module's
        # layers in Python cost several times what the encoding does. Its JSON is the
        # same but for the spaces after commas (and UTF-8 where json escapes), which
        # every reader (`from_fields`, json.loads) takes alike.
        return {
            "prefix": self.prefix,
            "func": self.func,
            "args": orjson.dumps(list(self.args)).decode(),
            "queue": self.queue,
            "timeout": str(self.timeout),
            "retries": str(self.retries),
            "at_front": "1" if self.at_front else "",
            "give_up": self.give_up or "",
            "timer": "1" if self.timer else "",
            "only_if": orjson.dumps(list(self.only_if)).decode() if self.only_if else "",
        }

    @classmethod
    def from_fields(cls, key: str, fields: dict[Any, Any]) -> Task:
        f = {text(k): text(v) for k, v in fields.items()}
        return cls(
            key=key,
            prefix=f["prefix"],
            func=_RENAMED.get(f["func"], f["func"]),
            args=json.loads(f["args"]),
            queue=f["queue"],
            timeout=int(f["timeout"]),
            retries=int(f["retries"]),
            at_front=bool(f["at_front"]),
            give_up=_RENAMED.get(f["give_up"], f["give_up"]) or None,
            timer=bool(f.get("timer")),
            only_if=tuple(json.loads(f["only_if"])) if f.get("only_if") else None,
        )


# Create the task unless it exists. KEYS: task hash, due set. ARGV: key, first job id,
# check time, TTL, then the recipe as field/value pairs. Returns 1 if created.
_CREATE_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  -- Registered with the move that made it (see `owed_task_of`), its first job not queued yet:
  -- this caller queues it. Taking the flag makes that happen once.
  if redis.call('HDEL', KEYS[1], 'pending') == 1 then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], 'job', ARGV[2], 'seq', 1, 'recoveries', 0, unpack(ARGV, 5))
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
"""

# Move the task on to its next job, if its current job is still the one the caller saw.
# KEYS: task hash, due set. ARGV: key, expected job id, check time, recovery (0/1), TTL.
# Returns {seq, recoveries} or nil if the task is gone or has moved on.
_NEXT_LUA = """
local current = redis.call('HGET', KEYS[1], 'job')
if not current or current ~= ARGV[2] then return nil end
redis.call('HDEL', KEYS[1], 'pending')
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
local recoveries = redis.call('HINCRBY', KEYS[1], 'recoveries', tonumber(ARGV[4]))
local prefix = redis.call('HGET', KEYS[1], 'prefix')
redis.call('HSET', KEYS[1], 'job', prefix .. '-' .. seq)
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return {seq, recoveries}
"""

# Note the task's job as seen lost, if it is still the task's job (a task that ended
# meanwhile must not come back as a stray hash). KEYS: task hash. ARGV: job id.
_LOST_LUA = """
if redis.call('HGET', KEYS[1], 'job') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'lost', ARGV[1])
end
return 0
"""


def _enqueue(
    connection: redis.Redis,
    task: Task,
    job_id: str,
    recovery: int,
    *,
    at_front: bool,
    pipeline: redis.client.Pipeline | None = None,
) -> Job:
    # Given no pipeline, RQ writes the queue's name and then the job in two round trips of
    # the queue Redis; in a pipeline of our own they are one.
    own = connection.pipeline() if pipeline is None else None
    job = queue(connection, task.queue).enqueue_call(
        func=task.func,
        args=tuple(task.args),
        kwargs={**task.kwargs, "recovery": recovery},
        timeout=task.timeout,
        job_id=job_id,
        result_ttl=RESULT_TTL,
        failure_ttl=FAILURE_TTL,
        retry=Retry(max=task.retries) if task.retries else None,
        on_failure=Callback(job_failed),
        at_front=at_front,
        description=task.key,
        # The request (or the job) that led to this one, for the worker's log lines; and
        # the task, for `job_failed`.
        meta={**job_meta(), "task": task.key},
        pipeline=pipeline if own is None else own,
    )
    if own is not None:
        own.execute()
    return job


def submit(connections: Connections, task: Task, timing: Timing | None = None) -> bool:
    """Make the task and queue its first job; False if the task already exists."""
    r = redises_of(connections)
    timing = timing or Timing.from_env()
    job_id = job_id_for(task.prefix, 1)
    recipe = [x for pair in task.to_fields().items() for x in pair]
    created = r.store.eval(
        _CREATE_LUA,
        2,
        task_key(task.key),
        r.due_key(task.key),
        task.key,
        job_id,
        time.time() + timing.check,
        TASK_TTL,
        *recipe,
    )
    if not created:
        return False
    # If this process dies right here, the watchdog finds the job missing and queues it.
    _enqueue(r.queues_for(task.key), task, job_id, 0, at_front=False)
    return True


def owed_task_of(task: Task, timing: Timing | None = None, due: float | None = None) -> OwedTask:
    """The task as a `OwedTask` of the store: written with the move that makes it owed, with
    its first job not queued yet (`pending`). The writer then calls `submit`, which queues
    that job; if the writer never does (it died, Redis went away), the watchdog finds the
    job missing at the task's first check and queues one. A timer's first check is when it
    falls `due`: nobody submits it, and the watchdog queues its first job then."""
    if due is None:
        # Only then: a person's clock (every timed move owes one) reads no setting.
        due = time.time() + (timing or Timing.from_env()).check
    fields = {"job": job_id_for(task.prefix, 1), "seq": "1", "recoveries": "0", "pending": "1"}
    fields.update(task.to_fields())
    return OwedTask(
        hash_key=task_key(task.key), fields=fields, ttl=TASK_TTL, member=task.key, score=due
    )


def submit_new(
    connections: Connections, tasks: Sequence[Task], timing: Timing | None = None
) -> None:
    """Make many tasks known to be new (a match's games) and queue their first jobs, in a
    few round trips: the tasks first, then their jobs (should the jobs not be queued, the
    watchdog finds them missing at the tasks' first check)."""
    r = redises_of(connections)
    timing = timing or Timing.from_env()
    check = time.time() + timing.check
    for start in range(0, len(tasks), 200):
        batch = tasks[start : start + 200]
        pipe = r.store.pipeline(transaction=False)
        for task in batch:
            fields: dict[str | bytes, str | int] = {
                "job": job_id_for(task.prefix, 1), "seq": 1, "recoveries": 0,
            }  # fmt: skip
            fields.update(task.to_fields())
            pipe.hset(task_key(task.key), mapping=fields)  # type: ignore[arg-type]
            pipe.expire(task_key(task.key), TASK_TTL)
            pipe.zadd(r.due_key(task.key), {task.key: check})
        pipe.execute()
        by_group: dict[int, list[Task]] = {}
        for task in batch:
            by_group.setdefault(r.group_of(task.key), []).append(task)
        for group, group_tasks in by_group.items():
            queues = r.groups[group]
            jobs = queues.pipeline(transaction=True)
            jobs.multi()  # RQ's enqueue into a caller's pipeline wants it in MULTI already
            for task in group_tasks:
                job_id = job_id_for(task.prefix, 1)
                _enqueue(queues, task, job_id, 0, at_front=False, pipeline=jobs)
            jobs.execute()


def resubmit(
    connections: Connections,
    key: str,
    current_job: str,
    *,
    recovery: bool,
    timing: Timing | None = None,
) -> str | None:
    """Queue the task's next job, if `current_job` is still its job; the new job's id."""
    r = redises_of(connections)
    timing = timing or Timing.from_env()
    moved = r.store.eval(
        _NEXT_LUA,
        2,
        task_key(key),
        r.due_key(key),
        key,
        current_job,
        time.time() + timing.check,
        1 if recovery else 0,
        TASK_TTL,
    )
    if not moved:
        return None
    seq, recoveries = int(moved[0]), int(moved[1])
    fields = r.store.hgetall(task_key(key))
    if not fields:
        return None
    task = Task.from_fields(key, fields)
    job_id = job_id_for(task.prefix, seq)
    _enqueue(r.queues_for(key), task, job_id, recoveries, at_front=task.at_front)
    return job_id


# Make the task's next job a timer due at ARGV[3], if its current job is still the one the
# caller saw. KEYS: task hash, due set. ARGV: key, expected job id, due time, TTL. 1 if so.
_LATER_LUA = """
local current = redis.call('HGET', KEYS[1], 'job')
if not current or current ~= ARGV[2] then return 0 end
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
local prefix = redis.call('HGET', KEYS[1], 'prefix')
redis.call('HSET', KEYS[1], 'job', prefix .. '-' .. seq, 'pending', 1, 'timer', 1)
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
"""


def resubmit_at(connections: Connections, key: str, current_job: str, due: float) -> bool:
    """Queue the task's next job at `due` rather than now (the watchdog queues it then, as
    a clock's end), if `current_job` is still its job: work that waits on others, such as a
    match game played at a table, looks again later without holding a worker meanwhile."""
    r = redises_of(connections)
    return bool(
        r.store.eval(_LATER_LUA, 2, task_key(key), r.due_key(key), key, current_job, due, TASK_TTL)
    )


def finish(connections: Connections, key: str) -> None:
    """The task is done: forget it and take it off the due set."""
    r = redises_of(connections)
    pipe = r.store.pipeline(transaction=True)  # one hash slot: the task's
    pipe.delete(task_key(key))
    pipe.zrem(r.due_key(key), key)
    pipe.execute()


def current_job_id(connections: Connections, key: str) -> str | None:
    raw = redises_of(connections).store.hget(task_key(key), "job")
    return None if raw is None else text(raw)


# -- the watchdog -------------------------------------------------------------------------


def job_failed(job: Job, connection: redis.Redis, *exc_info: Any) -> None:
    """RQ's `on_failure` of every task job, called by the worker after a failed try and by
    the started registry's cleanup for a try whose worker died. RQ may still retry the job;
    if it does not, the watchdog should queue the task again at its next sweep rather than
    at a check set long ago (a job seen waiting in its queue is looked at again only after
    `Timing.queued_check`)."""
    key = job.meta.get("task")
    if key:
        r = store_for_jobs(connection)
        soon = time.time() + Timing.from_env().check
        r.store.zadd(r.due_key(key), {key: soon}, xx=True, lt=True)


@dataclass
class SweepReport:
    """What one sweep did, for logs and tests."""

    #: Jobs whose worker died, handed to RQ's started-registry cleanup (retried or failed).
    abandoned: list[str] = field(default_factory=list)
    looked_at: int = 0
    #: Timers that fell due and had their first job queued.
    fired: list[str] = field(default_factory=list)
    recovered: list[str] = field(default_factory=list)
    #: Tasks whose job read taken off its queue but not started, to be looked at again.
    looking_again: list[str] = field(default_factory=list)
    given_up: list[str] = field(default_factory=list)


def sweep(
    connections: Connections, timing: Timing | None = None, now: float | None = None
) -> SweepReport:
    """Hand the jobs whose worker died to RQ, then look at every task whose check time has
    passed and queue again what has no live job (`now`, the time to act as if it were, is
    for tests)."""
    r = redises_of(connections)
    timing = timing or Timing.from_env()
    report = SweepReport()
    # One sweeper at a time; the lock expires by itself if its holder dies.
    if not r.store.set(r.sweep_lock(), "1", nx=True, px=max(1, int(timing.sweep * 1000))):
        return report
    now = time.time() if now is None else now
    _clean_started(r.queues, now, report)
    keys = _due(r, now)
    if not keys:
        return report
    pipe = r.store.pipeline(transaction=False)
    for key in keys:
        pipe.hmget(task_key(key), ["job", "recoveries", "timer", "lost"])
    tasks = pipe.execute()
    jobs = _fetch_jobs(r.queues, [None if job is None else text(job) for job, *_ in tasks])
    # Read after the jobs: a job that ends in between reads started and is in no registry
    # any more, but its task has ended or moved on with it, so queueing it again does nothing.
    running = _running_job_ids(r.queues) if any(_is_started(job) for job in jobs) else set()
    for key, (job_raw, recoveries_raw, timer, lost), job in zip(keys, tasks, jobs, strict=True):
        report.looked_at += 1
        if job_raw is None:
            # Finished (or expired) since it was listed.
            r.store.zrem(r.due_key(key), key)
            continue
        if timer and job is None and _fire(r, key, text(job_raw), timing, now):
            report.fired.append(key)
            continue
        try:
            status = _status(r.queues, job, running)
            recoveries = int(recoveries_raw or 0)
            lost_job = None if lost is None else text(lost)
            _look_after(r, key, text(job_raw), recoveries, status, lost_job, timing, now, report)
        except (redis.RedisError, StopRequested):
            raise  # Redis's trouble is the worker's; a stop asked for ends the sweep
        except Exception:
            # One bad task must not stop the watchdog (nor, through RQ, the worker).
            log.exception("task %s: the watchdog could not look after it", key)
            _check_at(r, key, now + timing.queued_check)
    return report


def _due(r: Redises, now: float) -> list[str]:
    """The keys of (at most `SWEEP_BATCH`) tasks whose check time has passed. On a cluster
    every hash slot's due set is read, a few thousand per round trip (grouped by node)."""
    sets = r.due_keys()
    if len(sets) == 1:
        due: list[Any] = r.store.zrangebyscore(sets[0], "-inf", now, 0, SWEEP_BATCH)
        return [text(k) for k in due]
    keys: list[str] = []
    for start in range(0, len(sets), DUE_SETS_PER_TRIP):
        pipe = r.store.pipeline(transaction=False)
        for name in sets[start : start + DUE_SETS_PER_TRIP]:
            pipe.zrangebyscore(name, "-inf", now, 0, SWEEP_BATCH)
        for found in pipe.execute():
            keys.extend(text(k) for k in found)
        if len(keys) >= SWEEP_BATCH:
            return keys[:SWEEP_BATCH]
    return keys


def _check_at(r: Redises, key: str, when: float, **options: bool) -> None:
    """Look at the task again at `when` (`options`: ZADD's, such as xx and lt)."""
    r.store.zadd(r.due_key(key), {key: when}, **options)


def _fire(r: Redises, key: str, job_id: str, timing: Timing, now: float) -> bool:
    """Queue a timer's first job, now that it is due; False if it was queued already (then
    it is looked after like any task's job)."""
    if not r.store.hdel(task_key(key), "pending"):
        return False
    fields = r.store.hgetall(task_key(key))
    if not fields:
        return True  # finished meanwhile
    task = Task.from_fields(key, fields)
    if task.only_if is not None:
        hash_key, name, value = task.only_if
        current = r.store.hget(hash_key, name)
        if current is None or text(current) != value:
            finish(r, key)  # moot: most timers end so, the person played in time
            return True
    _check_at(r, key, now + timing.check)
    # At the front: it is late already, by the time between two sweeps.
    _enqueue(r.queues_for(key), task, job_id, 0, at_front=True)
    return True


def _clean_started(connection: redis.Redis, now: float, report: SweepReport) -> None:
    """RQ's own handling of abandoned jobs, for each of our queues, at every sweep: RQ's
    maintenance does it once a minute, too seldom for a person waiting on a bot. A job's
    entry in the started registry expires when its worker stops renewing it."""
    # First, in one round trip, which registries hold an expired entry at all (most
    # sweeps find none, in any of the queues and lanes).
    registries = [queue(connection, name).started_job_registry for name in QUEUES]
    pipe = connection.pipeline(transaction=False)
    for registry in registries:
        pipe.zcount(registry.key, 0, now)
    counts = pipe.execute()
    for name, registry, count in zip(QUEUES, registries, counts, strict=True):
        if not count:
            continue
        expired = registry.get_expired_job_ids(now)
        if not expired:
            continue
        # The cleanup also drops entries left by jobs that have ended; only a job still
        # started has lost its worker.
        abandoned = [job.id for job in _fetch_jobs(connection, expired) if _is_started(job)]
        for job_id in abandoned:
            log.warning("job %s lost its worker; RQ retries it or fails it", job_id)
        try:
            registry.cleanup(timestamp=now)
        except (redis.RedisError, StopRequested):
            raise
        except Exception:
            # The tasks are still looked after below, and the next sweep tries again.
            log.exception("RQ's cleanup of the started jobs of %s failed", name)
            continue
        report.abandoned.extend(abandoned)


def _fetch_jobs(connection: redis.Redis, job_ids: Sequence[str | None]) -> list[Job | None]:
    """The jobs (None where there is no job), in one round trip."""
    wanted = [job_id for job_id in job_ids if job_id is not None]
    try:
        fetched = iter(Job.fetch_many(wanted, connection=connection, serializer=SERIALIZER))
        return [None if job_id is None else next(fetched) for job_id in job_ids]
    except (NoSuchJobError, ValueError):
        pass  # a job RQ cannot read: then one at a time, and that one is as good as missing
    found: list[Job | None] = []
    for job_id in job_ids:
        try:
            found.append(
                None
                if job_id is None
                else Job.fetch(job_id, connection=connection, serializer=SERIALIZER)
            )
        except (NoSuchJobError, ValueError):
            found.append(None)
    return found


#: A job in one of these is waiting for a worker in RQ (a retry may be scheduled).
_WAITING = ("queued", "scheduled", "deferred")
#: Taken off its queue and never started: lost, or in a worker's hands for an instant.
_TAKEN_UNSTARTED = "queued, but in no queue"


def _look_again(r: Redises, key: str, job_id: str, timing: Timing, now: float) -> None:
    """A job that reads taken and unstarted is most likely in a worker's hands, between
    the worker taking it off its queue and marking it started (a few milliseconds), so it
    is only noted, and looked at again at the next sweep: still unstarted then, it is lost.
    Queueing it at once would have the task done twice whenever a sweep falls in between."""
    log.info("task %s: job %s is taken but not started; looking again", key, job_id)
    r.store.eval(_LOST_LUA, 1, task_key(key), job_id)
    _check_at(r, key, now + timing.sweep)


def _look_after(
    r: Redises,
    key: str,
    job_id: str,
    recoveries: int,
    status: str,
    lost_job: str | None,
    timing: Timing,
    now: float,
    report: SweepReport,
) -> None:
    """What the watchdog does with a task whose current job reads `status`; `lost_job` is
    the job an earlier sweep found taken and unstarted (`_look_again`), if any."""
    if status == _TAKEN_UNSTARTED and lost_job != job_id:
        _look_again(r, key, job_id, timing, now)
        report.looking_again.append(key)
        return
    if lost_job is not None:
        r.store.hdel(task_key(key), "lost")
    if status == "started":
        # A worker has it; if that worker dies, RQ's started registry notices (`_clean_started`).
        _check_at(r, key, now + timing.check)
        return
    if status in _WAITING:
        _check_at(r, key, now + timing.queued_check)
        return
    # Missing, queued in no queue, started with no worker, failed for good, stopped, or
    # finished while still the task's current job: nobody is doing this task any more.
    if recoveries >= MAX_RECOVERIES:
        _give_up(r, key)
        report.given_up.append(key)
        return
    # A job read just as it ended its task reads finished, or started but in no registry;
    # then the task has moved on, nothing is queued, and there is nothing to warn of.
    queued = resubmit(r, key, job_id, recovery=True, timing=timing)
    if queued:
        log.warning("task %s: job %s is %s; queued it again as %s", key, job_id, status, queued)
        report.recovered.append(key)


def _status(connection: redis.Redis, job: Job | None, running: set[str]) -> str:
    """The job's status as far as the watchdog is concerned: RQ's, or why it is lost.

    A worker takes a job off its queue and then, in another round trip, marks it started:
    when Redis stops (or the worker dies) between the two, the job reads `queued` for ever
    but is in no queue, and nobody would do it. So a `queued` job is looked for in its
    queue, and its status read again after that: only a job still `queued` then and absent
    from its queue is lost. A worker caught between its two round trips looks lost too,
    for an instant, so the sweep looks again before it queues such a job (`_look_again`).
    A started job is RQ's to look after through its started registry (`running`, the ids
    there), as long as it is in it."""
    if job is None:
        return "missing"
    status = _text_of(job.get_status(refresh=False))
    if status == "started" and job.id not in running:
        return "started, but in no started registry"
    if status != "queued" or queue(connection, job.origin).get_job_position(job.id) is not None:
        return status
    try:
        status = _text_of(job.get_status(refresh=True))
    except InvalidJobOperation:
        return "missing"  # gone meanwhile
    return _TAKEN_UNSTARTED if status == "queued" else status


def _is_started(job: Job | None) -> TypeGuard[Job]:
    return job is not None and _text_of(job.get_status(refresh=False)) == "started"


def _running_job_ids(connection: redis.Redis) -> set[str]:
    """The ids of the jobs in our queues' started registries."""
    registries = [queue(connection, name).started_job_registry for name in QUEUES]
    pipe = connection.pipeline(transaction=False)
    for registry in registries:
        pipe.zrange(registry.key, 0, -1)
    return {
        registry.parse_job_id(member)
        for registry, members in zip(registries, pipe.execute(), strict=True)
        for member in members
    }


def _text_of(status: JobStatus | str | None) -> str:
    return str(getattr(status, "value", status))


def job_name(func: Callable[..., Any]) -> str:
    """The name RQ and a task's record know the job function `func` by."""
    return f"{func.__module__}.{func.__qualname__}"


#: The give-up handlers (`Task.give_up`) by name, as `give_up_by` registers them.
_GIVE_UPS: dict[str, Callable[[Redises, str], None]] = {}


def give_up_by(handler: Callable[[Redises, str], None]) -> str:
    """Register `handler` as a task's give-up (called by the watchdog when it stops trying
    the task) and return the name a task's record keeps it by."""
    name = job_name(handler)
    _GIVE_UPS[name] = handler
    return name


def _give_up(r: Redises, key: str) -> None:
    raw = r.store.hget(task_key(key), "give_up")
    log.error("task %s: recovered %d times; giving up", key, MAX_RECOVERIES)
    if raw:
        handler = _GIVE_UPS.get(text(raw))
        if handler is None:
            log.error("task %s: no give-up %s is loaded here", key, text(raw))
        else:
            handler(r, key)
    finish(r, key)
