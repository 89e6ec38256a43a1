"""Helpers behind the Redis fixtures: one private server (and, for tests that ask, one
private cluster) per test session, fresh DBs.

Tests never talk to a Redis they did not start: the session server comes from
`tools.embedded_redis.RedisServer`, the cluster from `tools.embedded_cluster.EmbeddedCluster`,
and data is flushed only on those.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.waiting import LONG, scaled
from tools import embedded_redis
from tools.embedded_cluster import EmbeddedCluster
from tools.embedded_redis import RedisServer

#: Logical DB handed to tests by `redis_url`; DB 0 stays free for direct use of the server.
TEST_DB = 1

#: A Redis answers in milliseconds; a loaded machine may take seconds (an append-only file
#: read back, a process waiting for a core).
START_TIMEOUT_SECONDS = scaled(LONG)

#: Six nodes forming a cluster on a loaded 2-core machine: a few seconds, rarely more.
CLUSTER_START_TIMEOUT_SECONDS = scaled(LONG)


@contextmanager
def private_redis(data_dir: Path) -> Iterator[RedisServer]:
    """A RedisServer on a free 127.0.0.1 port, data in `data_dir`, stopped on exit."""
    server = RedisServer(data_dir)
    server.start(timeout=START_TIMEOUT_SECONDS)
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def private_cluster(data_dir: Path) -> Iterator[EmbeddedCluster]:
    """An EmbeddedCluster (3 primaries, 1 replica each) in `data_dir`, stopped on exit."""
    cluster = EmbeddedCluster(data_dir)
    cluster.start(timeout=CLUSTER_START_TIMEOUT_SECONDS)
    try:
        yield cluster
    finally:
        cluster.stop()


def fresh_cluster_url(cluster: EmbeddedCluster) -> str:
    """FLUSHALL every primary of `cluster` and return its redis+cluster:// URL."""
    cluster.flush()
    return cluster.url


def fresh_db_url(server: RedisServer, db: int = TEST_DB) -> str:
    """FLUSHDB logical database `db` of `server` and return its URL."""
    client = server.client(db)
    try:
        client.flushdb()
    finally:
        client.close()
    return server.url_for_db(db)


def keep_the_workers_ports_apart() -> None:
    """Under pytest-xdist, give this worker a slice of its own of `free_port`'s range.
    `free_port` hands out a port that was free a moment ago, never twice in one process;
    two workers could draw the same one before either's server binds it (or while a test
    restarts a Redis on its own port), and then one server would fail to start, or a test
    would reach another worker's server. The slice is set in the environment
    (`POCHA_FREE_PORTS`), so that the tools a test starts (`pocha bench soak`, `pocha
    serve`) draw their ports from it too. Called once, before any port is drawn."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 1)
    if not worker.startswith("gw") or count < 2:
        return
    low, high = embedded_redis.free_port_range()
    share = (high - low + 1) // count
    first = low + int(worker.removeprefix("gw")) * share
    os.environ[embedded_redis.FREE_PORTS_ENV] = f"{first}-{first + share - 1}"
