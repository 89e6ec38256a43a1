"""Waiting in tests for something another process does (a worker's move, a server that
comes back): poll a condition until it holds, and fail with what was awaited if it never
does."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_until(
    condition: Callable[[], bool], timeout: float, what: str, every: float = 0.05
) -> float:
    """Poll `condition` every `every` seconds until true; the seconds it took. Fails after
    `timeout`."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(every)
    return time.monotonic() - start
