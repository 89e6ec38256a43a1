"""The worker process (`pocha worker`): an RQ worker on Pocha's queues that also keeps
watch over unfinished work.
How it works: docs/internals.md, `worker.process`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import redis
from rq import SimpleWorker, Worker
from rq.exceptions import StopRequested
from rq.utils import now
from rq.worker import BaseWorker, WorkerStatus

# The job modules are imported here, once, by the worker: its jobs (and any horse it forks)
# find them loaded.
from ai import courtesy
from core import logs
from core.config import load_config
from core.jobs import advice, analyses, matches
from core.jobs.advice import KINDS, job_taken
from core.jobs.courtesy import Board, turn_name
from core.jobs.forgotten import scrub_forgotten
from core.jobs.queues import (
    LONG_LANE,
    MATCH_LANES,
    NAMES,
    ON_DEMAND_LANES,
    SERIALIZER,
    TURN_LANES,
    Timing,
    queue,
    rq_queues,
)
from core.jobs.tasks import sweep
from core.play import turns
from core.play.turns import RUNS_END, count_unrated_games, forget_idle_accounts
from core.store.redises import (
    Connections,
    Redises,
    connect,
    queue_urls_of,
    redises_of,
    use,
    worker_options,
)

JOB_MODULES = (advice, analyses, matches, turns)

log = logging.getLogger(__name__)

#: How much lower the CPU priority of a horse thinking about a hint or an AI move is: from
#: a worker at the usual 0, the lowest there is, so it runs on what the rest leaves.
ON_DEMAND_NICENESS = 19

#: How much lower the CPU priority of a general worker is, one that takes the long lane of
#: `pocha-turns` (`core.jobs.queues.LONG_LANE`): the lowest there is, like the horses of
#: hints, so that when the cores are short its long decisions (cut by the clock, as on any
#: busy machine) and its matches give way to the quick turns of the workers reserved for
#: them, to the API and to Redis, rather than slow them down. (`pocha bench hostile
#: --scenario heavy-bots` measured an unrelated person's bot-turn p99 at 2.4x idle with 10,
#: 1.8x with 19.)
GENERAL_NICENESS = 19

#: RQ's whole maintenance (expired registry entries, dead workers' registrations, its
#: scheduler) runs this often; the watchdog, which bounds a bot's recovery, much more often.
RQ_MAINTENANCE_SECONDS = 60

#: RQ writes the worker's heartbeat several times around each job (as it takes it, after
#: it, before the next wait). One of the same length written this recently is not written
#: again: the lengths RQ gives are a minute or more, so the key cannot expire meanwhile.
HEARTBEAT_SECONDS = 1.0


class _Watchful:
    """Runs the watchdog as a worker's maintenance task, and names the job (and the request
    that queued it) in every log line written while it runs (mixed into RQ's workers)."""

    timing: Timing
    connection: redis.Redis
    #: This machine's board of quick turns (`core.jobs.courtesy`); None: none.
    board: Board | None = None
    #: The store (tasks, games) and the queues (RQ's `connection`).
    redises: Redises
    last_cleaned_at: Any
    #: RQ's: the queues in the order the next dequeue tries them.
    _ordered_queues: list[Any]
    #: RQ's: the subscription to its commands, and the thread that listens on it.
    pubsub: Any
    pubsub_thread: Any
    _rq_cleaned_at: Any = None
    #: An idle worker that loses Redis tries again with a backoff that RQ lets grow to a
    #: minute; two seconds at most brings it back soon after Redis.
    max_connection_wait_time = 2.0
    #: Set when a signal asks the worker to stop, to tell that from a loop RQ ended because
    #: of an error (see `run`).
    stopping = False
    #: RQ's: the worker's state as it last wrote it.
    _state: str
    #: When the last heartbeat was written (monotonic seconds), and the length it gave.
    _beaten: tuple[float, int] | None = None

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        # RQ sends a heartbeat outside a pipeline as three commands, a round trip of the
        # queue Redis each, three times a job: in one pipeline here, and not at all when a
        # beat of the same length was written a moment ago (`HEARTBEAT_SECONDS`).
        length = timeout or self.worker_ttl + 60  # type: ignore[attr-defined]
        at = time.monotonic()
        if pipeline is not None:
            super().heartbeat(length, pipeline)  # type: ignore[misc]
        else:
            last = self._beaten
            if last is not None and last[1] == length and at - last[0] < HEARTBEAT_SECONDS:
                return
            with self.connection.pipeline(transaction=False) as beat:
                super().heartbeat(length, beat)  # type: ignore[misc]
                beat.execute()
        self._beaten = (at, length)

    def set_state(self, state: str, pipeline: Any = None) -> None:
        # RQ sets the idle state twice between jobs, a round trip each; the second is the
        # state already written.
        if pipeline is None and state == getattr(self, "_state", None):
            return
        super().set_state(state, pipeline)  # type: ignore[misc]

    def request_stop(self, signum: int, frame: Any) -> None:
        self.stopping = True
        RUNS_END.set()  # a run of bot turns in hand ends with the turn it is on
        super().request_stop(signum, frame)  # type: ignore[misc]

    def unsubscribe(self) -> None:
        # RQ unsubscribes, then stops the thread that listens for its commands, which
        # redis-py joins without a bound; a thread that reads the unsubscribe's reply (or
        # loses Redis) first waits RQ's 60 s for a new subscription, and so does the stop.
        # Told to end first, it ends on the reply; one that does not is a daemon, left.
        listener = self.pubsub_thread
        if listener is None:
            return
        listener.stop(timeout=0)
        self.pubsub.unsubscribe()
        listener.join(timeout=1)
        self.pubsub.close()

    def execute_job(self, job: Any, queue: Any) -> Any:
        with self.job_in_hand(job), self.giving_way(job):
            return super().execute_job(job, queue)  # type: ignore[misc]

    @contextlib.contextmanager
    def giving_way(self, job: Any) -> Iterator[None]:
        """Around a job's run (and the horse it forks): a quick turn (a lane of
        `pocha-turns` but the long one) is marked busy on the machine's board; any other
        job's searches give way to the quick turns marked there."""
        board = self.board
        if board is None:
            yield
        elif job.origin in TURN_LANES:
            args = job.args
            # A turn's job is (game id, version, ...): the API marked that name when it
            # handed the turn over; any other job of the lanes goes by its own id.
            turn = turn_name(*args[:2]) if len(args) >= 2 else job.id
            with board.quick(turn):
                yield
        else:
            courtesy.wait = board.wait
            try:
                yield
            finally:
                courtesy.wait = None

    @contextlib.contextmanager
    def job_in_hand(self, job: Any) -> Iterator[None]:
        """Around a job's run: it is no longer waiting, and log lines name it."""
        # Here, in the worker, as soon as RQ has taken the job: a horse that fails to start
        # must not leave a hint or an AI move counted as waiting. A count that cannot be
        # taken off only keeps the estimate high until the job's drop time: the job runs.
        with contextlib.suppress(redis.RedisError):
            job_taken(self.connection, job)
        # Set before RQ forks a work horse, so the horse's lines carry them too.
        job_token = logs.JOB_ID.set(job.id)
        request_token = logs.REQUEST_ID.set(job.meta.get("request_id"))
        try:
            yield
        finally:
            logs.REQUEST_ID.reset(request_token)
            logs.JOB_ID.reset(job_token)

    def reorder_queues(self, reference_queue: Any) -> None:
        # The lanes of `pocha-turns`, those of `pocha-high` and those of `pocha-low`, each in
        # turn: the one just served goes after the other lanes of its queue, so each client's
        # turns (or hints, or match games) wait for at most one of every other client's; the
        # queues keep their order (turns, then hints, then matches).
        groups = (TURN_LANES, ON_DEMAND_LANES, MATCH_LANES)
        group = next((g for g in groups if reference_queue.name in g), None)
        if group is None:
            return
        order = self._ordered_queues
        lanes = [q for q in order if q.name in group]
        if len(lanes) < 2:
            return
        at = next(i for i, q in enumerate(lanes) if q.name == reference_queue.name)
        turned = iter(lanes[at + 1 :] + lanes[: at + 1])
        # The group's places in the order stay its own (hints' lanes before matches').
        self._ordered_queues = [next(turned) if q.name in group else q for q in order]

    def run_maintenance_tasks(self) -> None:
        try:
            sweep(self.redises, self.timing)
            count_unrated_games(self.redises)
            forget_idle_accounts(self.redises)
            scrub_forgotten(self.redises)
        except StopRequested:
            # SIGTERM while sweeping: RQ's handler raises this wherever the idle worker
            # is, to end its loop; swallowed, the worker would not stop.
            raise
        except Exception:
            # RQ stops a worker on any error in its loop; a failed sweep is retried at the
            # next one instead (and a Redis outage shows up in RQ's own next read).
            log.exception("the watchdog's sweep failed")
        due = self._rq_cleaned_at is None or now() - self._rq_cleaned_at > timedelta(
            seconds=RQ_MAINTENANCE_SECONDS
        )
        if due:
            super().run_maintenance_tasks()  # type: ignore[misc]
            self._rq_cleaned_at = now()
        self.last_cleaned_at = now()


class _Heartbeats(threading.Thread):
    """While a job runs in the worker's own process: renew its entry in RQ's started
    registry (and the worker's) every `job_monitoring_interval`, as RQ's worker does while
    its horse runs; and end the process if the job outlives its timeout by `grace`, which
    only a job deaf to RQ's alarm can (stuck in C code): RQ then retries it, elsewhere."""

    grace = 60.0

    def __init__(self, worker: PochaWorker, job: Any, execution: Any) -> None:
        super().__init__(name=f"heartbeats of {job.id}", daemon=True)
        self.worker = worker
        self.job = job
        self.execution = execution
        self.done = threading.Event()
        timeout = job.timeout or 0
        self.give_up_at = time.monotonic() + timeout + self.grace if timeout > 0 else None

    def run(self) -> None:
        while not self.done.wait(self.worker.job_monitoring_interval):
            if self.give_up_at is not None and time.monotonic() > self.give_up_at:
                log.error("job %s outlived its timeout; ending the worker", self.job.id)
                _flush_logs()
                os._exit(1)
            try:
                self.worker.maintain_heartbeats(self.job, self.execution)
            except redis.RedisError as exc:
                # The next beat tries again; a Redis away for longer loses the job to
                # RQ's cleanup, which is what a dead worker's job gets too.
                log.warning("job %s: heartbeat failed: %s", self.job.id, type(exc).__name__)

    def stop(self) -> None:
        self.done.set()
        if self is not threading.current_thread():
            self.join()


def resident_megabytes() -> float | None:
    """This process's resident memory, or None where /proc does not tell it."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


class PochaWorker(_Watchful, Worker):
    """The production worker: bot turns and match games in its own process, with
    heartbeats, RQ's time limit and a memory limit; hints and AI moves in a forked horse."""

    #: Past this resident memory (MB; 0: no limit) after a job, the worker is replaced.
    max_memory_mb: float = 0
    #: Set when the worker stopped to be replaced by a fresh process (see `run`).
    replace = False
    _beats: _Heartbeats | None = None

    def get_heartbeat_ttl(self, job: Any, working_time: float = 0.0) -> int:
        # Each heartbeat keeps the job in RQ's started registry this long: past it, the
        # job has lost its worker, and RQ's cleanup (in the watchdog) retries it.
        return self.timing.started_ttl

    def execute_job(self, job: Any, queue: Any) -> Any:
        with self.job_in_hand(job), self.giving_way(job):
            if job.meta.get("kind") in KINDS:
                Worker.execute_job(self, job, queue)  # RQ's: a forked horse, niced below
            else:
                execution = self.prepare_execution(job)
                beats = self._beats = _Heartbeats(self, job, execution)
                beats.start()
                try:
                    self.perform_job(job, queue, execution)
                finally:
                    beats.stop()
                    self._beats = None
                self.set_state(WorkerStatus.IDLE)
        self._check_memory()

    def handle_execution_ended(self, job: Any, queue: Any, heartbeat_ttl: int) -> None:
        # The job has returned or raised: no heartbeat may race RQ's writing of its end.
        if self._beats is not None:
            self._beats.stop()
        super().handle_execution_ended(job, queue, heartbeat_ttl)

    def _check_memory(self) -> None:
        if not self.max_memory_mb:
            return
        resident = resident_megabytes()
        if resident is not None and resident > self.max_memory_mb:
            log.warning(
                "the worker holds %.0f MB, over its %.0f MB: it is replaced by a fresh one",
                resident, self.max_memory_mb,
            )  # fmt: skip
            self.replace = True
            self._stop_requested = True

    def main_work_horse(self, job: Any, queue: Any) -> None:
        # In the forked horse of a hint or an AI move, which ends with the job. Workers of
        # both roles often share a machine's cores with each other and the API: thinking
        # for seconds, it yields the CPU to bot turns and moves, and uses what they leave.
        if job.meta.get("kind") in KINDS:
            os.nice(ON_DEMAND_NICENESS)
        super().main_work_horse(job, queue)


class PochaSimpleWorker(_Watchful, SimpleWorker):
    """Runs jobs in its own process: for tests that drive a worker in-process."""


def make_worker(
    connections: Connections,
    queues: Sequence[str] = NAMES,
    *,
    name: str | None = None,
    simple: bool = False,
    timing: Timing | None = None,
    max_memory_mb: float = 0,
) -> BaseWorker:
    """A worker on `queues` (in priority order, named as people name them; `pocha-turns`
    is all its lanes) with Pocha's timings; the production one is replaced past
    `max_memory_mb` of resident memory (0: never)."""
    timing = timing or Timing.from_env()
    redises = redises_of(connections)
    cls = PochaSimpleWorker if simple else PochaWorker
    worker = cls(
        [queue(redises.queues, q) for q in rq_queues(queues)],
        connection=redises.queues,
        name=name,
        serializer=SERIALIZER,
        job_monitoring_interval=timing.heartbeat,
        # RQ waits on the queues for worker_ttl - 15 s at a time; maintenance (the watchdog)
        # runs between two waits, so idle workers sweep every `timing.sweep` seconds.
        worker_ttl=timing.worker_ttl,
        maintenance_interval=max(1, round(timing.sweep)),
    )
    worker.timing = timing
    worker.redises = redises
    worker.board = Board.open(redises.queues)
    if isinstance(worker, PochaWorker):
        worker.max_memory_mb = max_memory_mb
    return worker


def run(
    redis_url: str | None = None,
    queues: Sequence[str] = NAMES,
    *,
    burst: bool = False,
    name: str | None = None,
    logging_level: str | None = None,
    queue_group: int | None = None,
    answer_within: float | None = None,
) -> bool:
    """Work until stopped (SIGTERM or Ctrl-C finish the job in hand first); with `burst`,
    until the queues are empty. Whether any job was done. Logs go to stderr, as JSON lines
    unless `POCHA_LOG_FORMAT` says `text`.

    RQ quits its loop on any error outside a job, such as Redis going away while a job
    runs; this process then waits for Redis and works again with a fresh RQ worker, so a
    Redis restart costs the turn in hand (RQ retries it once its heartbeats are missed),
    not the worker. `redis_url`: the store's, instead of the settings' `REDIS_URL` (the
    queues are `POCHA_QUEUE_REDIS_URL`'s, or the same). `answer_within`: seconds the store
    and this worker's queue Redis have to answer at the start (`redis.TimeoutError` or
    `redis.ConnectionError` otherwise); once the worker works, RQ's timeouts are its."""
    configured = load_config()
    if LONG_LANE in rq_queues(queues):
        os.nice(GENERAL_NICENESS)
    if logging_level is None:
        logging_level = str(configured["LOG_LEVEL"])
    logging_level = logging.getLevelName(logs.level_number(logging_level))
    logs.configure(logging_level, str(configured["LOG_FORMAT"]))
    overrides: dict[str, Any] = {"REDIS_URL": redis_url} if redis_url else {}
    if queue_group is not None:
        overrides["QUEUE_GROUP"] = queue_group
    settings = load_config(overrides)
    if answer_within is not None:
        _check_answers(settings, answer_within)
    redises = connect(settings, **worker_options())
    # The jobs this process's horses run find the store here (`core.store.redises.store_for_jobs`).
    use(redises)
    connection = redises.queues
    worked = False
    max_memory_mb = float(settings["WORKER_MAX_MEMORY_MB"])
    while True:
        worker = make_worker(redises, queues, name=name, max_memory_mb=max_memory_mb)
        try:
            worked = bool(worker.work(burst=burst, logging_level=logging_level)) or worked
        except redis.RedisError:
            # RQ's teardown could not register the worker's death: Redis is away.
            log.warning("the worker lost Redis", exc_info=True)
        if getattr(worker, "replace", False) and not getattr(worker, "stopping", False):
            _start_afresh()
        if burst or getattr(worker, "stopping", False):
            return worked
        _bury(worker)
        try:
            _wait_for_redis(connection)
        except StopRequested:
            return worked
        with contextlib.suppress(redis.RedisError):
            # The ended worker's registration, so that it is not counted as alive (and a
            # fixed --name may be used again at once).
            worker.register_death()
        log.warning("working again on Redis after the worker's loop ended")


class QueueUnanswered(Exception):
    """The worker's queue Redis, apart from the store, did not answer at its start."""

    def __init__(self, url: str, error: Exception) -> None:
        super().__init__(f"{url}: {error}")
        self.url = url
        self.error = error


def _check_answers(settings: dict[str, Any], within: float) -> None:
    """Return once the store and this worker's queue Redis have each answered a PING within
    `within` seconds: without it, a Redis that takes the connection and never answers holds
    the start for RQ's own socket timeout (minutes), then the loop of `run` waits for it."""
    probe = connect(settings, socket_connect_timeout=within, socket_timeout=within)
    try:
        probe.store.ping()
        if probe.queues is not probe.store:
            try:
                probe.queues.ping()
            except (redis.ConnectionError, redis.TimeoutError) as exc:
                raise QueueUnanswered(queue_urls_of(settings)[probe.group], exc) from exc
    finally:
        for client in {id(c): c for c in (probe.store, *probe.groups)}.values():
            client.close()


def _flush_logs() -> None:
    for handler in logging.getLogger().handlers:
        with contextlib.suppress(Exception):
            handler.flush()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()


def _start_afresh() -> None:
    """Replace this process by a fresh run of the same command (same pid, same
    arguments, memory back to a new worker's): the worker has left RQ already. Its
    sockets are not inherited (Python opens them close-on-exec)."""
    log.info("the worker starts afresh")
    _flush_logs()
    os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])


def _bury(worker: BaseWorker) -> None:
    """What RQ's teardown leaves behind when Redis is away: the work horse of a job in
    hand (killed: RQ's cleanup of abandoned jobs has it played again) and the thread that
    listens for RQ's commands (stopped: the next worker has its own)."""
    if isinstance(worker, Worker) and worker.horse_pid:
        worker.kill_horse()
        worker.wait_for_horse()
    listener = getattr(worker, "pubsub_thread", None)
    if listener is not None:
        # Bounded: redis-py's own stop waits as long as the thread's 60 s read.
        listener.stop(timeout=1)
        worker.pubsub_thread = None
    pubsub = getattr(worker, "pubsub", None)
    if pubsub is not None:
        with contextlib.suppress(redis.RedisError):
            pubsub.close()


def _wait_for_redis(connection: redis.Redis) -> None:
    """Return once Redis answers PING (SIGTERM or Ctrl-C meanwhile raise StopRequested)."""
    pause = 0.1
    while True:
        try:
            if connection.ping():
                return
        except redis.RedisError:
            pass
        time.sleep(pause)
        pause = min(pause * 2, 2.0)
