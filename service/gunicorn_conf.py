"""Gunicorn settings for the API, read from the environment (the root gunicorn.conf.py
loads this module, so `gunicorn service.wsgi:app` run from the repository, the Docker
image and `pocha serve` all use the same settings).

Threaded workers (`gthread`): a move spends most of its time waiting on Redis, and an
event stream holds a thread for up to a minute, so each process serves many requests at
once; several processes use every core. Measured with `pocha bench api` on 2 cores.
"""

from __future__ import annotations

import atexit
import glob
import os
import shutil
import tempfile
from typing import Any

from gunicorn import glogging  # type: ignore[import-untyped]

from core import logs
from core.logs import JsonFormatter


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip() else default


# Metrics: each worker process counts into files here and a scrape of any worker reads them
# all (prometheus-client's multiprocess mode). It must be set before the app, and so
# prometheus-client, is imported, which is now: gunicorn reads this file first. Without one
# given, a private temporary directory is made and removed on exit.
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    _own_metrics_dir = tempfile.mkdtemp(prefix="pocha-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = _own_metrics_dir
    _master = os.getpid()

    @atexit.register
    def _remove_metrics_dir() -> None:
        # Forked workers run exit handlers too: only the process that made it removes it.
        if os.getpid() == _master:
            shutil.rmtree(_own_metrics_dir, ignore_errors=True)


def on_starting(server: Any) -> None:
    # Files left by an earlier run in a given directory would add its counts to this one's.
    for path in glob.glob(os.path.join(os.environ["PROMETHEUS_MULTIPROC_DIR"], "*.db")):
        os.remove(path)


def child_exit(server: Any, worker: Any) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


bind = os.environ.get("POCHA_BIND", "0.0.0.0:8000")
workers = _int("WEB_CONCURRENCY", max(2, (os.cpu_count() or 1) + 1))
worker_class = "gthread"
threads = _int("POCHA_THREADS", 16)
# Event streams end by themselves (POCHA_SSE_MAX_SECONDS); nothing else takes long.
timeout = _int("POCHA_WORKER_TIMEOUT", 60)
graceful_timeout = 10
keepalive = 5
# Access logs cost a measurable share of a move; switch them on with POCHA_ACCESS_LOG=-.
accesslog = os.environ.get("POCHA_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("POCHA_LOG_LEVEL", "info")
# Build the app once in the master, so a bad configuration fails at start, loudly.
preload_app = True
# Gunicorn 24+ opens a control socket at a fixed path under $HOME; several servers on one
# machine (tests, `pocha bench api`, `pocha serve`) would fight over it, and we use none.
control_socket_disable = True


# Every line as JSON (core.logs): gunicorn's own through this logger class, the app's
# (with their request ids) through the root logger. gunicorn's access log stays off unless
# POCHA_ACCESS_LOG asks for it: the app writes its own line per request (POCHA_REQUEST_LOG).
class JsonLogger(glogging.Logger):
    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.setFormatter(JsonFormatter())
        logs.configure(cfg.loglevel)


logger_class = JsonLogger
