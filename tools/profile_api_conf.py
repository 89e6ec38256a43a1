"""gunicorn's settings for `pocha bench api-profile` and `pocha bench api-floor`: the shipped
ones, and a worker that runs under cProfile from its start to its exit when
POCHA_PROFILE_OUTPUT names a file, or that times its app's calls apart from the rest of its
work when POCHA_APP_CLOCK names one.
How it works: docs/performance.md, `tools.profile_api`.
"""

from __future__ import annotations

import cProfile
import os
import resource
import signal
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from service.gunicorn_conf import *  # noqa: F403

#: Where the worker writes its app clock's figures, each time it is sent SIGUSR2.
APP_CLOCK_ENV = "POCHA_APP_CLOCK"

_profiler = cProfile.Profile()


def _cpu_seconds() -> float:
    # getrusage, not the process clock of /proc: microseconds, and user and system time both.
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class AppClock:
    """The worker's app, wrapped: this process's CPU spent inside the app's calls (its answer
    made and iterated, all its waits for Redis included), and the calls made. gunicorn's
    parsing, its writes and gevent's loop between the calls are outside. The answer is read
    whole before gunicorn writes it, so this is for the floor's requests, not streams."""

    def __init__(self, app: Callable[..., Iterable[bytes]], output: str) -> None:
        self.app = app
        self.output = output
        self.seconds = 0.0
        self.calls = 0
        self.written = 0

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        began = _cpu_seconds()
        chunks = self.app(environ, start_response)
        try:
            answer = list(chunks)
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()
        self.seconds += _cpu_seconds() - began
        self.calls += 1
        return answer

    def write(self, *_: Any) -> None:
        """Write the figures so far: how many times written, CPU seconds inside the calls,
        calls, and the whole process's CPU seconds (on the same clock, so that the part
        around the calls is their difference, not two clocks' noise)."""
        self.written += 1
        Path(self.output).write_text(
            f"{self.written} {self.seconds!r} {self.calls} {_cpu_seconds()!r}"
        )


def post_worker_init(worker: Any) -> None:
    # The whole worker thread: every greenlet runs in it, gunicorn's parsing and gevent's
    # loop included.
    if os.environ.get("POCHA_PROFILE_OUTPUT"):
        _profiler.enable()
    clock_output = os.environ.get(APP_CLOCK_ENV)
    if clock_output:
        clock = AppClock(worker.wsgi, clock_output)
        worker.wsgi = clock
        signal.signal(signal.SIGUSR2, clock.write)


def worker_exit(server: Any, worker: Any) -> None:
    output = os.environ.get("POCHA_PROFILE_OUTPUT")
    if output:
        _profiler.disable()
        _profiler.dump_stats(output)
