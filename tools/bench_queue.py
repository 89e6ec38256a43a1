"""`pocha bench queue`: how many RQ jobs a second one queue Redis carries, and what each
costs it.
How it works: docs/performance.md, `tools.bench_queue`.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
import time
from dataclasses import dataclass
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

import redis
from rq import Worker

from core.jobs.queues import TURNS, Timing, connect
from core.jobs.tasks import RESULT_TTL, Task, _enqueue
from core.store.keys import think_key
from core.store.redises import Redises
from tools.embedded_redis import RedisServer

#: With workers taking, a producer stops queueing while the backlog is above this (so the
#: queue stays short, as a served one is) and checks it every `_CHECK_EVERY` jobs.
BACKLOG = 1_000
_CHECK_EVERY = 100


def noop(game_id: str, version: int, recovery: int = 0) -> dict[str, Any]:
    """The job: a bot turn's arguments and a result of its size, no work."""
    return {"game": game_id, "version": version, "played": None}


def _produce(url: str, index: int, stop: Event, backlog: int) -> None:
    """Queue bot-turn-shaped jobs of `noop` until `stop`, one round trip each as the
    service does, keeping the queue's backlog under `backlog`."""
    connection = connect(url)
    prefix = f"{index:02d}{os.getpid():07d}"
    sent = 0
    while not stop.is_set():
        if sent % _CHECK_EVERY == 0:
            while connection.llen(f"rq:queue:{TURNS}") > backlog and not stop.is_set():
                time.sleep(0.01)
        game_id = f"bench{prefix}{sent:012d}"
        task = Task(
            key=f"turn:{game_id}:1",
            prefix=f"turn-{game_id}-1",
            func="tools.bench_queue.noop",
            args=[game_id, 1],
            queue=TURNS,
            timeout=60,
        )
        _enqueue(connection, task, task.prefix, 0, at_front=False)
        sent += 1
    connection.close()


def _consume(url: str, fork: bool) -> None:
    """A worker on `pocha-turns` until SIGTERM (RQ's warm stop)."""
    from worker.process import make_worker

    connection = connect(url)
    worker = make_worker(connection, [TURNS], simple=not fork, timing=Timing())
    worker.work(burst=False, logging_level="WARNING")


def _cpu_seconds(pid: int) -> float:
    """CPU time of a process, its reaped children (forked horses) included, from /proc;
    0 where /proc is missing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime, stime, cutime, cstime are fields 14-17 of stat; the split starts at field 3.
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _wait_for_workers(connection: redis.Redis, count: int, timeout: float = 120) -> None:
    """Until `count` workers have registered (their imports take seconds on busy cores)."""
    deadline = time.monotonic() + timeout
    while Worker.count(connection=connection) < count:
        if time.monotonic() > deadline:
            raise RuntimeError("the workers did not start")
        time.sleep(0.1)


@dataclass
class _Reading:
    at: float
    redis_cpu: float
    memory: int
    backlog: int
    finished: int
    worker_cpu: float


def _read(connection: redis.Redis, worker_pids: list[int]) -> _Reading:
    cpu = connection.info("cpu")
    memory = connection.info("memory")
    return _Reading(
        at=time.perf_counter(),
        redis_cpu=float(cpu["used_cpu_sys"]) + float(cpu["used_cpu_user"]),
        memory=int(memory["used_memory"]),
        backlog=int(connection.llen(f"rq:queue:{TURNS}")),
        finished=int(connection.zcard(f"rq:finished:{TURNS}")),
        worker_cpu=sum(_cpu_seconds(pid) for pid in worker_pids),
    )


@dataclass
class Phase:
    """What one window measured: jobs queued and finished, and what they cost."""

    seconds: float
    queued: int
    finished: int
    redis_cpu: float
    memory: int
    worker_cpu: float

    @classmethod
    def between(cls, before: _Reading, after: _Reading) -> Phase:
        finished = after.finished - before.finished
        return cls(
            seconds=after.at - before.at,
            queued=finished + after.backlog - before.backlog,
            finished=finished,
            redis_cpu=after.redis_cpu - before.redis_cpu,
            memory=after.memory - before.memory,
            worker_cpu=after.worker_cpu - before.worker_cpu,
        )


def _window(connection: redis.Redis, seconds: float, worker_pids: list[int]) -> Phase:
    before = _read(connection, worker_pids)
    time.sleep(seconds)
    return Phase.between(before, _read(connection, worker_pids))


def _per(amount: float, count: int, scale: float = 1e6) -> str:
    return f"{amount / count * scale:.1f}" if count > 0 else "-"


def report(queueing: Phase, taking: Phase, both: Phase) -> list[str]:
    """The figures of the three windows: queueing alone, taking alone, both at once."""
    enqueue_cpu = queueing.redis_cpu / max(1, queueing.queued)
    take_cpu = taking.redis_cpu / max(1, taking.finished)
    per_job = enqueue_cpu + take_cpu
    queued_bytes = queueing.memory / max(1, queueing.queued)
    kept_bytes = queued_bytes + taking.memory / max(1, taking.finished)
    lines = [
        f"queueing alone: {queueing.queued / queueing.seconds:.0f} jobs/s queued; redis "
        f"{_per(queueing.redis_cpu, queueing.queued)} us cpu/job, {queued_bytes:.0f} bytes/job "
        "waiting",
        f"taking alone:   {taking.finished / taking.seconds:.0f} jobs/s finished; redis "
        f"{_per(taking.redis_cpu, taking.finished)} us cpu/job; workers "
        f"{_per(taking.worker_cpu, taking.finished)} us cpu/job",
        f"both at once:   {both.finished / both.seconds:.0f} jobs/s finished, "
        f"{both.queued / both.seconds:.0f} queued; redis busy {both.redis_cpu / both.seconds:.0%} "
        "of one core",
    ]
    if queueing.queued and taking.finished:
        lines.append(
            f"per job (queue + take): redis {per_job * 1e6:.1f} us cpu, so one queue Redis "
            f"at a whole core carries at most {1 / per_job:.0f} jobs/s; {kept_bytes:.0f} bytes "
            f"kept per finished job for its {RESULT_TTL} s of results"
        )
    if not taking.finished or taking.finished < taking.seconds:
        lines.append("too few jobs finished to say: give the workers longer (--seconds)")
    return lines


def run(
    seconds: float = 10.0,
    producers: int = 2,
    workers: int = 4,
    fork: bool = False,
) -> list[str]:
    """Start a Redis, then measure three windows of `seconds`: producers queueing alone,
    workers taking the backlog alone, and both at once; return the report lines. `fork`:
    the workers are `pocha worker`'s (else RQ's SimpleWorker; both run these jobs in their
    own process)."""
    context = multiprocessing.get_context("spawn")
    with (
        tempfile.TemporaryDirectory(prefix="pocha-bench-queue-") as tmp,
        RedisServer(Path(tmp) / "redis") as server,
    ):
        url = server.url
        connection = connect(url)
        running: list[multiprocessing.process.BaseProcess] = []

        def produce(backlog: int) -> Event:
            stop = context.Event()
            for i in range(producers):
                process = context.Process(target=_produce, args=(url, i, stop, backlog))
                process.start()
                running.append(process)
            return stop

        try:
            # Queueing alone: the backlog it leaves is what the workers take next.
            stop = produce(1 << 30)
            while connection.llen(f"rq:queue:{TURNS}") < 100:
                time.sleep(0.05)
            queueing = _window(connection, seconds, [])
            stop.set()
            for process in running:
                process.join(30)
            taking_processes = [
                context.Process(target=_consume, args=(url, fork)) for _ in range(workers)
            ]
            for process in taking_processes:
                process.start()
                running.append(process)
            _wait_for_workers(connection, workers)
            pids = [p.pid for p in taking_processes if p.pid is not None]
            time.sleep(1)
            taking = _window(connection, seconds, pids)
            # What is left of the first window's backlog would hold the producers back.
            connection.ltrim(f"rq:queue:{TURNS}", 0, BACKLOG // 2)
            # Both: the producers hold a backlog, so the workers never wait on an empty queue.
            stop = produce(BACKLOG)
            time.sleep(2)
            both = _window(connection, seconds, pids)
            stop.set()
        finally:
            for process in running:
                process.terminate()  # a worker's warm stop; a producer's end
            for process in running:
                process.join(15)
                if process.is_alive():
                    process.kill()
            connection.close()
    kind = "as `pocha worker` runs them" if fork else "RQ's SimpleWorker"
    return [
        f"queue: one Redis; {producers} producer and {workers} worker processes ({kind}) on "
        f"{os.cpu_count()} cores shared with whatever else runs here; bot-turn-shaped no-op "
        f"jobs on {TURNS}; windows of {seconds:g} s",
        *report(queueing, taking, both),
    ]


def _turn_worker(store_url: str, queue_url: str, fork: bool) -> None:
    """A worker on `pocha-turns` with the store and the queues on two Redises, as a
    deployment with a cluster store has them, until SIGTERM."""
    from core.config import load_config
    from core.store.redises import connect as connect_both
    from core.store.redises import use, worker_options
    from worker.process import make_worker

    settings = load_config({"REDIS_URL": store_url, "QUEUE_REDIS_URL": queue_url})
    redises = connect_both(settings, **worker_options())
    use(redises)  # where the jobs find the store
    worker = make_worker(redises, [TURNS], simple=not fork, timing=Timing())
    worker.work(burst=False, logging_level="WARNING")


def _redis_cpu(connection: redis.Redis) -> float:
    cpu = connection.info("cpu")
    return float(cpu["used_cpu_sys"]) + float(cpu["used_cpu_user"])


def run_turns(
    level: str = "heuristic",
    games: int = 40,
    seconds: float = 10.0,
    workers: int = 2,
    fork: bool = True,
) -> list[str]:
    """Real bot turns: `games` classic games of four bots of `level` play themselves on
    `workers` workers, with the store and the queues on two private Redises; over a
    window of `seconds`, after an idle one, the turns played and what each cost the store,
    the queue Redis and the workers."""
    from core.config import load_config
    from core.play.games import GameService, PlayerSpec
    from core.play.turns import RQBotRunner
    from core.store.redises import connect as connect_both
    from core.store.store import GameStore

    context = multiprocessing.get_context("spawn")
    with (
        tempfile.TemporaryDirectory(prefix="pocha-bench-turns-") as tmp,
        RedisServer(Path(tmp) / "store") as store_server,
        RedisServer(Path(tmp) / "queues") as queue_server,
    ):
        settings = load_config({"REDIS_URL": store_server.url, "QUEUE_REDIS_URL": queue_server.url})
        redises = connect_both(settings)
        taking = [
            context.Process(target=_turn_worker, args=(store_server.url, queue_server.url, fork))
            for _ in range(workers)
        ]
        try:
            for process in taking:
                process.start()
            _wait_for_workers(redises.queues, workers)
            pids = [p.pid for p in taking if p.pid is not None]
            # Idle first: what the Redises and the workers spend with no turn to play
            # (the workers' watchdog and heartbeats, Redis's own housekeeping).
            idle = _turn_window(redises, pids, min(seconds, 5.0), level)
            service = GameService(
                GameStore.from_settings(redises.store, settings), RQBotRunner(redises)
            )
            seats = [PlayerSpec(f"Bot {i + 1}", bot=level) for i in range(4)]
            for _ in range(games):
                service.create(seats, {"schedule": "classic"})
            time.sleep(2)
            busy = _turn_window(redises, pids, seconds, level)
        finally:
            for process in taking:
                process.terminate()
            for process in taking:
                process.join(15)
                if process.is_alive():
                    process.kill()
    kind = "as `pocha worker` runs them" if fork else "RQ's SimpleWorker"
    turns = busy.turns
    net = [
        (getattr(busy, name) - getattr(idle, name) / idle.seconds * busy.seconds)
        for name in ("store_cpu", "queue_cpu", "worker_cpu")
    ]
    return [
        f"bot turns: {games} classic games of four {level} bots on {workers} workers ({kind}), "
        f"the store and the queues on two Redises; {os.cpu_count()} cores shared with "
        f"whatever else runs here; {seconds:g} s measured",
        f"idle (no game): store redis {idle.store_cpu / idle.seconds:.1%} of a core, queue "
        f"redis {idle.queue_cpu / idle.seconds:.1%}, workers {idle.worker_cpu / idle.seconds:.1%}",
        f"turns: {turns / busy.seconds:.0f} turns/s ({turns} in {busy.seconds:.1f} s, "
        f"{busy.jobs} jobs)",
        f"per turn: store redis {_per(busy.store_cpu, turns)} us cpu, queue redis "
        f"{_per(busy.queue_cpu, turns)} us cpu, workers {_per(busy.worker_cpu, turns)} us cpu "
        "(thinking included)",
        f"per turn, less the idle spend: store redis {_per(net[0], turns)} us, queue redis "
        f"{_per(net[1], turns)} us, workers {_per(net[2], turns)} us",
        f"per turn, workers less the idle spend and the thinking ({_per(busy.thinking, turns)} "
        f"us): {_per(net[2] - busy.thinking, turns)} us",
        f"connections opened to the two Redises: {_per(busy.connections, turns, 1)} per turn",
    ]


@dataclass
class _TurnWindow:
    seconds: float
    #: Bot moves written, and turn jobs finished.
    turns: int
    jobs: int
    #: The bots' own think time (wall time of their decisions, as the workers record it).
    thinking: float
    store_cpu: float
    queue_cpu: float
    worker_cpu: float
    #: Connections the two Redises accepted (a forked horse would open its own).
    connections: int


def _turn_window(redises: Redises, pids: list[int], seconds: float, level: str) -> _TurnWindow:
    """Bot turns played over `seconds` by bots of `level`, and the CPU the store, the
    queue Redis and the workers spent meanwhile."""
    finished_key = f"rq:finished:{TURNS}"

    def read() -> tuple[float, int, float, float, float, int, int, float]:
        moves, thought = redises.store.hmget(think_key("turn", level), ["moves", "sum"])
        return (
            time.perf_counter(),
            int(redises.queues.zcard(finished_key)),
            _redis_cpu(redises.store),
            _redis_cpu(redises.queues),
            sum(_cpu_seconds(pid) for pid in pids),
            sum(
                int(r.info("stats")["total_connections_received"])
                for r in (redises.store, redises.queues)
            ),
            int(moves or 0),
            float(thought or 0),
        )

    before = read()
    time.sleep(seconds)
    after = read()
    return _TurnWindow(
        seconds=after[0] - before[0],
        turns=after[6] - before[6],
        jobs=after[1] - before[1],
        thinking=after[7] - before[7],
        store_cpu=after[2] - before[2],
        queue_cpu=after[3] - before[3],
        worker_cpu=after[4] - before[4],
        connections=after[5] - before[5],
    )
