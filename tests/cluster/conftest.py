"""The service's own tests again, with the store on a real Redis Cluster.

The session's cluster (3 primaries, 1 replica each, `tests.conftest.redis_cluster`) holds
the games; RQ's queues live on a logical DB of the session's plain Redis, named by
`POCHA_QUEUE_REDIS_URL`, as a deployment on a cluster runs them. The test modules here
import the tests of `tests/service` and `tests/worker` whose fixtures say nothing of the
Redis behind them, so the same assertions hold on both.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import core.store.redises
from core.config import load_config
from core.jobs.queues import Timing
from core.store.redises import Redises, connect
from tests.redis_server import fresh_db_url
from tools.embedded_redis import RedisServer
from worker.process import make_worker

#: The queues' logical DB on the session's plain Redis.
QUEUE_DB = 6


@pytest.fixture
def redis_url(
    redis_cluster_url: str, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> str:
    """The cluster's URL, as REDIS_URL; the queues' Redis in the environment, where apps
    and `pocha worker` processes read it."""
    monkeypatch.setenv("POCHA_QUEUE_REDIS_URL", fresh_db_url(redis_server, QUEUE_DB))
    return redis_cluster_url


@pytest.fixture
def redises(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Redises]:
    """Both roles, and this process's for the jobs an in-process worker runs."""
    found = connect(load_config({"REDIS_URL": redis_url}))
    monkeypatch.setattr(core.store.redises, "_current", found)
    yield found
    found.queues.close()
    found.store.close()


class BothRoles(Redises):
    """Both roles, answering plain Redis commands as a single Redis would: the
    single-Redis tests read games and tasks straight from their one Redis, hand it to RQ
    to read jobs (`rq:` keys, pipelines), and hand it to functions that take both roles.
    A command on an `rq:` key (or a `match` of them) goes to the queues, a pipeline too
    (RQ's); any other to the store."""

    def __getattr__(self, name: str) -> Any:
        if name == "pipeline":
            return self.queues.pipeline
        store, queues = getattr(self.store, name), getattr(self.queues, name)

        def routed(*args: Any, **kwargs: Any) -> Any:
            first = args[0] if args else kwargs.get("match", kwargs.get("name", ""))
            key = first.decode() if isinstance(first, bytes) else str(first)
            return (queues if key.startswith("rq:") else store)(*args, **kwargs)

        return routed


@pytest.fixture
def connection(redises: Redises) -> BothRoles:
    return BothRoles(redises.store, redises.queues)


@pytest.fixture
def drain(redises: Redises) -> object:
    """Run an in-process worker until every queue is empty."""

    def run() -> None:
        worker = make_worker(redises, simple=True, timing=Timing())
        worker.work(burst=True, logging_level="WARNING")

    return run
