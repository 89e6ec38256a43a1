"""Fixtures of the worker tests: the API with the RQ bot runner on a fresh Redis DB, an
in-process worker that empties the queues, and real `pocha worker` processes.

In-process workers are RQ's SimpleWorker (no fork), run in burst mode in the test's own
thread: fast and deterministic. The subprocess workers are what production runs, started
with short watchdog timings so that recovery tests finish in seconds.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq.job import Job

from core.jobs.queues import SERIALIZER, Timing, connect
from service import create_app
from tests.waiting import LONG, scaled
from tests.waiting import wait_until as _wait_until
from tools.processes import die_with_parent
from worker.process import make_worker

POCHA = Path(sys.executable).with_name("pocha")

#: How long a running job of these tests' workers goes without a heartbeat before RQ gives
#: it up as its worker's (production's 10 s): a worker, or its heartbeat thread, can be
#: paused for seconds on a busy machine, and a live worker's job given up is run twice (a
#: retry spent, "lost its worker" logged). Only a test that kills a worker waits this long.
STALE = 10.0

#: Watchdog timings of the subprocess workers in these tests (production: see README): the
#: sweeps and checks come every second, so that what they do is seen at once.
FAST = {
    "POCHA_WORKER_HEARTBEAT": "1",
    "POCHA_WATCHDOG_STALE": str(scaled(STALE)),
    "POCHA_WATCHDOG_CHECK": "1",
    "POCHA_WATCHDOG_SWEEP": "1",
    "POCHA_WATCHDOG_QUEUED_CHECK": "5",
}


@pytest.fixture
def app(redis_url: str) -> Flask:
    return create_app({"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "rq"})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def connection(redis_url: str) -> Iterator[redis.Redis]:
    conn = connect(redis_url)
    yield conn
    conn.close()


def jobs_named(connection: redis.Redis, pattern: str) -> list[Job]:
    """The jobs RQ keeps whose ids match `pattern`, each once: SCAN may return a key more
    than once when Redis resizes its table during the scan, as a busy store does."""
    keys = connection.scan_iter(match=f"rq:job:{pattern}")
    ids = {key.decode().removeprefix("rq:job:") for key in keys}
    found = Job.fetch_many(sorted(ids), connection=connection, serializer=SERIALIZER)
    return [job for job in found if job is not None]


Drain = Callable[[], None]


@pytest.fixture
def drain(connection: redis.Redis) -> Drain:
    """Run an in-process worker until every queue is empty."""

    def run() -> None:
        worker = make_worker(connection, simple=True, timing=Timing())
        worker.work(burst=True, logging_level="WARNING")

    return run


class WorkerProcesses:
    """`pocha worker` subprocesses on the test's Redis; all killed at the end."""

    def __init__(self, redis_url: str, log_dir: Path) -> None:
        self.redis_url = redis_url
        self.log_dir = log_dir
        self.started: list[subprocess.Popen[bytes]] = []

    def start(self, *args: str, **env: str) -> subprocess.Popen[bytes]:
        log = (self.log_dir / f"worker-{len(self.started)}.log").open("wb")
        process = subprocess.Popen(
            [str(POCHA), "worker", *args],
            env={**os.environ, "REDIS_URL": self.redis_url, **FAST, **env},
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent(),  # no worker outlives a killed test run
        )
        self.started.append(process)
        return process

    def log(self, index: int) -> str:
        return (self.log_dir / f"worker-{index}.log").read_text(errors="replace")

    def kill_with_horse(self, process: subprocess.Popen[bytes]) -> None:
        """SIGKILL a worker and the work horse it forked (a dead machine takes both)."""
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
        horses = [int(p) for p in children.read_text().split()] if children.exists() else []
        process.send_signal(signal.SIGKILL)
        for pid in horses:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        process.wait(timeout=scaled(LONG))

    def stop_all(self) -> None:
        for process in self.started:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=scaled(LONG))


@pytest.fixture
def workers(redis_url: str, tmp_path: Path) -> Iterator[WorkerProcesses]:
    processes = WorkerProcesses(redis_url, tmp_path)
    yield processes
    processes.stop_all()


def wait_until(
    condition: Callable[[], bool],
    timeout: float,
    what: str,
    explain: Callable[[], str] | None = None,
) -> float:
    """`tests.waiting.wait_until`, polling faster: jobs here take milliseconds."""
    return _wait_until(condition, timeout, what, every=0.02, explain=explain)
