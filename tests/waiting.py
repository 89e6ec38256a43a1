"""Waiting in tests for something another process does (a worker's move, a server that
comes back): poll a condition until it holds, and fail with what was awaited if it never
does. Deadlines are far beyond what a loaded machine needs, so that only what never happens
fails; `POCHA_TEST_WAIT_SCALE` multiplies every one of them on a machine slower still."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

#: Every deadline of the tests is multiplied by this (`POCHA_TEST_WAIT_SCALE`, 1 if unset).
SCALE = float(os.environ.get("POCHA_TEST_WAIT_SCALE") or 1)

#: The deadline of a wait on other processes (a bot's move, a server's start or stop, a
#: failover, a game played to its end): seconds on a quiet machine become a minute on a
#: loaded one, and a wait this long fails only on what does not happen at all.
LONG = 180.0


#: `LONG` in milliseconds, for Playwright's waits on the page.
LONG_MS = int(LONG * SCALE * 1000)


def scaled(seconds: float) -> float:
    """A deadline of `seconds` on this machine (times `POCHA_TEST_WAIT_SCALE`)."""
    return seconds * SCALE


def wait_until(
    condition: Callable[[], bool],
    timeout: float,
    what: str,
    every: float = 0.05,
    explain: Callable[[], str] | None = None,
) -> float:
    """Poll `condition` every `every` seconds until true; the seconds it took. Fails after
    `scaled(timeout)` saying `what` was awaited, and what `explain` tells (a log's tail)."""
    limit = scaled(timeout)
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > limit:
            said = f"\n{explain()}" if explain is not None else ""
            raise AssertionError(f"timed out after {limit:.0f} s waiting for {what}{said}")
        time.sleep(every)
    return time.monotonic() - start
