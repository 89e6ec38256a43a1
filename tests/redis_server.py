"""Helpers behind the Redis fixtures: one private server per test session, fresh DBs.

Tests never talk to a Redis they did not start: the session server comes from
`tools.embedded_redis.RedisServer`, and databases are flushed only on that server.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tools.embedded_redis import RedisServer

#: Logical DB handed to tests by `redis_url`; DB 0 stays free for direct use of the server.
TEST_DB = 1

START_TIMEOUT_SECONDS = 10.0


@contextmanager
def private_redis(data_dir: Path) -> Iterator[RedisServer]:
    """A RedisServer on a free 127.0.0.1 port, data in `data_dir`, stopped on exit."""
    server = RedisServer(data_dir)
    server.start(timeout=START_TIMEOUT_SECONDS)
    try:
        yield server
    finally:
        server.stop()


def fresh_db_url(server: RedisServer, db: int = TEST_DB) -> str:
    """FLUSHDB logical database `db` of `server` and return its URL."""
    client = server.client(db)
    try:
        client.flushdb()
    finally:
        client.close()
    return server.url_for_db(db)
