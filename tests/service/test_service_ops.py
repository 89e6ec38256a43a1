"""What operators get: a request id on every response and log line, JSON log lines that
never hold a seat token (nor do error bodies), `/metrics` by route and status with the
cluster's figures from Redis, and `/readyz` with the workers and the queues."""

from __future__ import annotations

import functools
import io
import itertools
import json
import logging
import operator
import secrets
import sys
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families
from rq.job import Job

from core import logs
from core.jobs.queues import JOB_SECONDS, SERIALIZER, SLOW_ITERATIONS_PER_SECOND, Timing, connect
from core.logs import JsonFormatter
from service import create_app
from tests.service.helpers import bearer, create_game, humans, move, tokens_of
from worker.process import make_worker

# -- request ids and log lines ------------------------------------------------------------------


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """Every log record of the test, at every level, written as the service writes it."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    before = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(before)


def lines_of(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]


def test_every_response_has_a_request_id(client: FlaskClient) -> None:
    made = client.get("/healthz").headers["X-Request-ID"]
    assert len(made) == 32 and int(made, 16) >= 0
    assert client.get("/healthz").headers["X-Request-ID"] != made
    given = "lb-4f1c2a9e.77:eu-west"
    assert client.get("/healthz", headers={"X-Request-ID": given}).headers["X-Request-ID"] == given
    # An id that could smuggle text into the logs is replaced, not echoed.
    for bad in ("two words", "x" * 200, "a\tb", "<script>"):
        answer = client.get("/healthz", headers={"X-Request-ID": bad}).headers["X-Request-ID"]
        assert answer != bad and len(answer) == 32
    # Errors, even for unknown paths, carry one too.
    assert client.get("/nowhere").headers["X-Request-ID"]


def test_a_request_refused_before_its_limit_keeps_its_id(
    client: FlaskClient, json_lines: io.StringIO
) -> None:
    """The hooks that refuse a request before its rate limit counts it (a seat change's or
    a hint's token, an unknown X-Pocha-Key) run after the request is given its id: the
    caller's id comes back, and its line carries it."""
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    game_id = created["id"]
    refusals = {
        "req-seat-1": (f"/api/v1/games/{game_id}/seats/1/leave", bearer("not-a-token")),
        "req-hint-1": (f"/api/v1/games/{game_id}/hint", bearer("not-a-token")),
        "req-key-1": (f"/api/v1/games/{game_id}/bids", {"X-Pocha-Key": "not-a-key"}),
    }
    for given, (path, headers) in refusals.items():
        answer = client.post(path, json={}, headers={**headers, "X-Request-ID": given})
        assert answer.status_code == 401, (given, answer.json)
        assert answer.headers["X-Request-ID"] == given
    lines = [line for line in lines_of(json_lines) if line["logger"] == "service.request"]
    assert {line.get("request_id") for line in lines} >= set(refusals)


def test_a_new_request_id_is_a_random_uuid() -> None:
    made = [logs.new_request_id() for _ in range(200)]
    for text in made:
        found = uuid.UUID(hex=text)
        assert found.hex == text
        assert (found.version, found.variant) == (4, uuid.RFC_4122)
    assert len(set(made)) == len(made)
    # Every bit but the version's and the variant's varies.
    varying = functools.reduce(
        operator.or_, (int(a, 16) ^ int(b, 16) for a, b in itertools.pairwise(made))
    )
    assert varying == (1 << 128) - 1 & ~(0xF000 << 64) & ~(0xC000 << 48)


def test_each_request_writes_one_json_line_with_its_id(
    client: FlaskClient, json_lines: io.StringIO
) -> None:
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    game_id = created["id"]
    response = client.get(f"/api/v1/games/{game_id}", headers={"X-Request-ID": "req-view-1"})
    assert response.status_code == 200
    client.get("/nowhere/at/all", headers={"X-Request-ID": "req-404"})
    lines = [line for line in lines_of(json_lines) if line["logger"] == "service.request"]
    view = next(line for line in lines if line.get("request_id") == "req-view-1")
    assert view["message"] == "request"
    assert view["level"] == "info"
    assert view["method"] == "GET"
    assert view["route"] == "/api/v1/games/<game_id>"
    assert view["status"] == 200
    assert view["game"] == game_id
    assert view["duration_ms"] >= 0
    assert view["time"].endswith("+00:00")
    missing = next(line for line in lines if line.get("request_id") == "req-404")
    # The raw path of an unknown address is never written: it could be anything.
    assert missing["route"] == "unmatched" and "nowhere" not in json.dumps(missing)
    # Between requests no line carries an id.
    logging.getLogger("service.test").warning("between requests")
    assert "request_id" not in lines_of(json_lines)[-1]


def test_a_job_carries_the_request_id_that_queued_it(client: FlaskClient, redis_url: str) -> None:
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    token = tokens_of(created)[1]
    response = client.post(
        f"/api/v1/games/{created['id']}/hint",
        json={"level": "easy"},
        headers={"X-Request-ID": "req-hint-9", **bearer(token)},
    )
    assert response.status_code == 202
    job = Job.fetch(response.json["id"], connection=connect(redis_url), serializer=SERIALIZER)
    assert job.meta["request_id"] == "req-hint-9"
    assert logs.REQUEST_ID.get() is None


def test_at_a_terminal_a_warning_is_one_human_line() -> None:
    """`pocha serve` at a terminal: the children's lines in text form, an exception's last
    line in place of its traceback, no escape sequence or line break from the message."""
    record = logging.LogRecord(
        "worker.process",
        logging.WARNING,
        __file__,
        1,
        "the worker lost \x1b[32mRedis\x1b[0m\nagain",
        (),
        None,
    )
    try:
        raise ConnectionError("Error 111 connecting")
    except ConnectionError:
        record.exc_info = sys.exc_info()
    line = logs.formatter("text").format(record)
    assert "\n" not in line and "\x1b" not in line, line
    said = "the worker lost Redis again (ConnectionError: Error 111 connecting)"
    assert line.endswith(f" warning worker.process: {said}"), line
    with pytest.raises(ValueError, match="json or text"):
        logs.formatter("xml")


# -- no token in any log line or error body -------------------------------------------------------


def test_no_token_in_any_log_line_or_error_body(
    redis_url: str, json_lines: io.StringIO, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    app = create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline", "RATE_LIMITS": "on"}
    )
    client = app.test_client()
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)
    host = created["host_token"]
    stranger = secrets.token_urlsafe(32)  # shaped like a token, opens nothing
    other = create_game(client, humans(3), seed=4)
    secrets_sent = [*[t for t in tokens if t], host, stranger, other["host_token"]]
    url = f"/api/v1/games/{game_id}"
    bodies: list[str] = []

    def send(
        method: str, path: str, token: str | None = None, headers: Any = None, **kwargs: Any
    ) -> None:
        response = client.open(path, method=method, headers=headers or bearer(token), **kwargs)
        bodies.append(response.get_data(as_text=True))

    for token in [*tokens, host, stranger, other["host_token"]]:
        send("GET", url, token)
        send("GET", f"{url}/events", token)
        send("GET", f"{url}/history", token)
        send("POST", f"{url}/bids", token, json={"bid": 99})  # out of range or not yours
        send("POST", f"{url}/plays", token, json={"card": "O1"})  # wrong phase
        send("POST", f"{url}/plays", token, json={"card": token})  # a card that is no card
        send("POST", f"{url}/hint", token, json={"level": token})  # a level that is none
        send("DELETE", url.replace(game_id, "x" + game_id[1:]), token)
    for token in secrets_sent:
        # A token where the id goes, in a header where it does not belong, in a query.
        send("GET", f"/api/v1/games/{token}")
        send("GET", f"/api/v1/games/{token}/history", token)
        send("GET", f"/api/v1/jobs/{token}")
        send("GET", f"/api/v1/matches/{token}/records")
        send("POST", f"{url}/bids", json={"bid": 0}, headers={"Authorization": token})
        send("POST", f"{url}/bids", json={"bid": 0}, headers={"If-Match": token})
        send("GET", f"{url}/events?after={token}")
        send("POST", "/api/v1/ai/move", json={"seat": 0, "hand": [token]})
        send("GET", "/metrics")
    send("DELETE", url, tokens[0])  # a seat cannot delete
    send("DELETE", url, host)
    # Redis away: 503s and their warnings, with the same tokens.
    down = create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "REDIS_CONNECT_TIMEOUT": 0.2})
    for token in secrets_sent[:2]:
        response = down.test_client().get(url, headers=bearer(token))
        assert response.status_code == 503
        bodies.append(response.get_data(as_text=True))

    written = json_lines.getvalue()
    records = "\n".join(
        f"{r.getMessage()} {r.exc_text or ''} {json.dumps(r.__dict__, default=str)}"
        for r in caplog.records
    )
    assert written.count("\n") > 100  # the lines were written, at every level
    for secret in secrets_sent:
        assert secret not in written
        assert secret not in records
        for body in bodies:
            assert secret not in body, body


# -- metrics ---------------------------------------------------------------------------------------


def scrape(client: FlaskClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain")
    found: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(response.get_data(as_text=True)):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def sample(found: dict[Any, float], name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_count_requests_by_route_and_status(client: FlaskClient) -> None:
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)
    for _ in range(3):
        client.get(f"/api/v1/games/{game_id}")
    client.get("/api/v1/games/NoSuchGame000000")
    client.get("/no/such/path")
    assert move(client, game_id, tokens[1], 0).status_code == 200
    assert move(client, game_id, tokens[1], 0).status_code == 409  # not its turn now
    found = scrape(client)
    view = {"method": "GET", "route": "/api/v1/games/<game_id>"}
    assert sample(found, "pocha_http_requests_total", **view, status="200") == 3
    assert sample(found, "pocha_http_requests_total", **view, status="404") == 1
    assert (
        sample(found, "pocha_http_requests_total", method="GET", route="unmatched", status="404")
        == 1
    )
    assert sample(found, "pocha_http_request_duration_seconds_count", **view, status="200") == 3
    assert sample(found, "pocha_http_request_duration_seconds_sum", **view, status="200") > 0
    bids = {"method": "POST", "route": "/api/v1/games/<game_id>/bids"}
    assert sample(found, "pocha_http_requests_total", **bids, status="409") == 1
    assert sample(found, "pocha_moves_applied_total", action="bid") == 1
    assert sample(found, "pocha_redis_up") == 1
    # Labels are routes, never raw paths: no game id appears in the whole scrape.
    assert game_id not in client.get("/metrics").get_data(as_text=True)


def test_invented_methods_do_not_grow_the_metrics(client: FlaskClient) -> None:
    for i in range(300):
        client.open("/healthz", method=f"X{i}")
    text = client.get("/metrics").get_data(as_text=True)
    assert "X1" not in text and "X299" not in text
    found = scrape(client)
    assert (
        sample(found, "pocha_http_requests_total", method="other", route="unmatched", status="405")
        == 300
    )
    series = [line for line in text.splitlines() if line.startswith("pocha_http_requests_total")]
    assert len(series) < 10, series


def test_metrics_of_the_bots_workers_and_queues(client: FlaskClient, redis_url: str) -> None:
    # Inline bots think in the request: their decisions are recorded in Redis as the
    # workers' are.
    players = [{"name": "Ana"}, {"name": "B", "bot": "heuristic"}, {"name": "C", "bot": "easy"}]
    created = create_game(client, players, {"schedule": [3]}, seed=3)
    view = client.get(f"/api/v1/games/{created['id']}", headers=bearer(tokens_of(created)[0])).json
    assert (
        move(client, created["id"], tokens_of(created)[0], view["you"]["legal"][0]).status_code
        == 200
    )
    # A hint waits in the queue (no worker runs here); another fails in a worker because
    # its game is deleted before it runs.
    connection = connect(redis_url)
    worker = make_worker(connection, simple=True, timing=Timing())
    worker.register_birth()
    try:
        other = create_game(client, humans(3), {"schedule": [3]}, seed=3)
        token = tokens_of(other)[1]
        hint = f"/api/v1/games/{other['id']}/hint"
        assert client.post(hint, json={"level": "easy"}, headers=bearer(token)).status_code == 202
        found = scrape(client)
        assert sample(found, "pocha_workers_alive") == 1
        assert sample(found, "pocha_queue_depth", queue="pocha-turns") == 0
        assert sample(found, "pocha_queue_depth", queue="pocha-high") == 1
        # The hint's estimated thinking: easy, 8 iterations on a slow machine, and a job.
        waiting = sample(found, "pocha_ai_queued_seconds")
        assert waiting == pytest.approx(8 / SLOW_ITERATIONS_PER_SECOND + JOB_SECONDS)
        assert sample(found, "pocha_queue_depth", queue="pocha-low") == 0
        ready = client.get("/readyz").json
        assert ready == {
            "status": "ok",
            "redis": "ok",
            "workers": 1,
            "queues": {"pocha-turns": 0, "pocha-high": 1, "pocha-low": 0},
        }
    finally:
        worker.register_death()
    client.delete(f"/api/v1/games/{other['id']}", headers=bearer(other["host_token"]))
    make_worker(connection, simple=True, timing=Timing()).work(burst=True, logging_level="ERROR")
    found = scrape(client)
    assert sample(found, "pocha_workers_alive") == 0
    assert sample(found, "pocha_queue_depth", queue="pocha-high") == 0
    assert sample(found, "pocha_jobs_failed", queue="pocha-high") == 1
    assert sample(found, "pocha_ai_queued_seconds") == 0
    turns = {
        level: sample(found, "pocha_bot_think_seconds_count", kind="turn", level=level)
        for level in ("heuristic", "easy")
    }
    assert turns["heuristic"] >= 1 and turns["easy"] >= 1
    assert sample(found, "pocha_bot_moves_applied_total", level="heuristic") == turns["heuristic"]
    assert (
        sample(found, "pocha_bot_think_seconds_bucket", kind="turn", level="easy", le="+Inf")
        == turns["easy"]
    )


def test_redis_away(redis_url: str) -> None:
    client = create_app(
        {"REDIS_URL": "redis://127.0.0.1:1/0", "REDIS_CONNECT_TIMEOUT": 0.2}
    ).test_client()
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert ready.json["error"] == "unavailable"
    # The scrape still answers, saying Redis is away, with the process's own figures.
    found = scrape(client)
    assert sample(found, "pocha_redis_up") == 0
    assert (
        sample(found, "pocha_http_requests_total", method="GET", route="/readyz", status="503") == 1
    )


def test_readyz_without_workers(client: FlaskClient, app: Flask, redis_url: str) -> None:
    redis.Redis.from_url(redis_url).flushdb()
    assert client.get("/readyz").json == {
        "status": "ok",
        "redis": "ok",
        "workers": 0,
        "queues": {"pocha-turns": 0, "pocha-high": 0, "pocha-low": 0},
    }
