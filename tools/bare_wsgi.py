"""A WSGI app that answers every request at once with a fixed JSON body: served by the API's
own gunicorn settings, it measures what gunicorn's gevent worker alone costs a request
(`pocha bench api-floor`; docs/performance.md, `tools.profile_api`). At `/redis` it first
makes one round trip to the Redis of REDIS_URL (a PING down a socket of its own), as a move
makes one, so that the worker waits once in the middle of the request as it does for a move.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

BODY = b'{"status": "ok"}'
# Content-Length first: the bench's client reads the length from a header line that ends.
HEADERS = [("Content-Length", str(len(BODY))), ("Content-Type", "application/json")]

#: The path at which a request makes its Redis round trip first.
REDIS_PATH = "/redis"

PING = b"*1\r\n$4\r\nPING\r\n"
PONG = b"+PONG\r\n"

#: This process's connection to Redis, made at the first request that needs it (after the
#: fork, so that each worker has its own).
_redis: list[socket.socket] = []


def _connect(url: str) -> socket.socket:
    """A plain socket to the Redis of `url` (unix:// or redis://, no password)."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(parts.path)
        return connection
    return socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379))


def ping() -> None:
    """One round trip to Redis: a PING out, its PONG back."""
    if not _redis:
        _redis.append(_connect(os.environ["REDIS_URL"]))
    connection = _redis[0]
    connection.sendall(PING)
    answer = b""
    while len(answer) < len(PONG):
        chunk = connection.recv(64)
        if not chunk:
            raise ConnectionError("Redis closed the connection")
        answer += chunk
    if answer != PONG:
        raise RuntimeError(f"Redis answered {answer!r} to a PING")


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    """Read the body, if any, (at `REDIS_PATH`, make one Redis round trip) and answer 200
    with `BODY`."""
    length = int(environ.get("CONTENT_LENGTH") or 0)
    if length:
        environ["wsgi.input"].read(length)
    if environ.get("PATH_INFO") == REDIS_PATH:
        ping()
    start_response("200 OK", HEADERS)
    return [BODY]
