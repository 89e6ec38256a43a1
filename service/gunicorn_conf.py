"""Gunicorn settings for the API, read from the environment; gunicorn.conf.py, the Docker
image and `pocha serve` all load them.
How it works: docs/internals.md, `service.gunicorn_conf`.
"""

from __future__ import annotations

import atexit
import gc
import glob
import os
import resource
import shutil
import tempfile
from typing import Any

from gevent import monkey
from gunicorn import glogging  # type: ignore[import-untyped]

from core import logs

# Before the app is built (below, preload_app): what it makes must be gevent's.
monkey.patch_all()


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


def _raise_open_files_limit(wanted: int) -> None:
    """Every connection is a file descriptor: lift the soft limit towards the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def on_starting(server: Any) -> None:
    # Each connection needs a descriptor, and so does each Redis connection of a process.
    _raise_open_files_limit(2 * worker_connections + 1024)
    # Files left by an earlier run in a given directory would add its counts to this one's.
    for path in glob.glob(os.path.join(os.environ["PROMETHEUS_MULTIPROC_DIR"], "*.db")):
        os.remove(path)


def pre_fork(server: Any, worker: Any) -> None:
    # What the master built (the app, preload_app) lives as long as the workers: frozen,
    # their full garbage collections skip it (measured at up to 170 ms each without, a stall
    # of every connection of the process) and its memory pages stay shared.
    gc.freeze()


def child_exit(server: Any, worker: Any) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


bind = os.environ.get("POCHA_BIND", "0.0.0.0:8000")
workers = _int("WEB_CONCURRENCY", max(2, (os.cpu_count() or 1) + 1))
worker_class = "service.gunicorn_worker.ApiWorker"
# Connections one process serves at once (gunicorn's connections do not spread evenly
# over the processes, so each can take most of them); one more waits to be accepted.
worker_connections = _int("POCHA_WORKER_CONNECTIONS", 4000)
# A process silent this long (its loop blocked) is restarted.
timeout = _int("POCHA_WORKER_TIMEOUT", 60)
graceful_timeout = 10
# An idle keep-alive connection is closed after this long, and a request's head must have
# arrived within it (a slowloris client is cut off then).
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


# Every line as JSON (core.logs), or as one human line each at `pocha serve`'s terminal
# (POCHA_LOG_FORMAT=text): gunicorn's own through this logger class, the app's (with their
# request ids) through the root logger. gunicorn's access log stays off unless
# POCHA_ACCESS_LOG asks for it: the app writes its own line per request (POCHA_REQUEST_LOG).
_log_format = os.environ.get("POCHA_LOG_FORMAT") or "json"


class PochaLogger(glogging.Logger):
    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.setFormatter(logs.formatter(_log_format))
        logs.configure(cfg.loglevel, _log_format)


logger_class = PochaLogger
