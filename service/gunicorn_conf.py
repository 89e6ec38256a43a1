"""Gunicorn settings for the API, read from the environment (the root gunicorn.conf.py
loads this module, so `gunicorn service.wsgi:app` run from the repository, the Docker
image and `pocha serve` all use the same settings).

Threaded workers (`gthread`): a move spends most of its time waiting on Redis, and an
event stream holds a thread for up to a minute, so each process serves many requests at
once; several processes use every core. Measured with `pocha bench api` on 2 cores.
"""

from __future__ import annotations

import os


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip() else default


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
