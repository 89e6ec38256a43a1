"""gunicorn's settings for `pocha bench api-profile`: the shipped ones, and a worker that runs
under cProfile from its start to its exit when POCHA_PROFILE_OUTPUT names a file.
How it works: docs/performance.md, `tools.profile_api`.
"""

from __future__ import annotations

import cProfile
import os
from typing import Any

from service.gunicorn_conf import *  # noqa: F403

_profiler = cProfile.Profile()


def post_worker_init(worker: Any) -> None:
    # The whole worker thread: every greenlet runs in it, gunicorn's parsing and gevent's
    # loop included.
    if os.environ.get("POCHA_PROFILE_OUTPUT"):
        _profiler.enable()


def worker_exit(server: Any, worker: Any) -> None:
    output = os.environ.get("POCHA_PROFILE_OUTPUT")
    if output:
        _profiler.disable()
        _profiler.dump_stats(output)
