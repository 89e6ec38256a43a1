"""Child processes of our own commands (Redis, gunicorn, workers, load clients): tying
them to their parent and stopping them.
How it works: docs/development.md, `tools.processes`.
"""

from __future__ import annotations

import ctypes
import signal
import subprocess
import sys
from collections.abc import Callable, Iterable
from typing import Any

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> Callable[[], None] | None:
    """A preexec_fn asking Linux to SIGTERM the child when our thread dies, so a crashed
    test run or service leaves no orphaned process behind."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)  # loaded before fork, not in the child
    except OSError:
        return None
    prctl = libc.prctl

    def preexec() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)

    return preexec


def stop_processes(processes: Iterable[subprocess.Popen[Any] | None], timeout: float) -> None:
    """SIGTERM every process still running, then wait up to `timeout` for each before
    SIGKILL. All are asked first, so they shut down side by side."""
    running = [p for p in processes if p is not None and p.poll() is None]
    for process in running:
        process.terminate()
    for process in running:
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
