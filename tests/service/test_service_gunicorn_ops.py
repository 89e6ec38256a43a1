"""The API under gunicorn as shipped (two worker processes): a scrape of `/metrics`, answered
by either process, counts the requests of both (prometheus-client's multiprocess mode in a
temporary directory that gunicorn makes and removes); every log line is JSON, a request's
line carries its X-Request-ID; a chunked body (no Content-Length) is read whole, and over
the limit is 413."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.waiting import LONG, scaled, wait_until
from tools.embedded_redis import free_port
from tools.processes import die_with_parent
from tools.serve import gunicorn_command


class Server:
    def __init__(self, port: int, process: subprocess.Popen[bytes], log: Path) -> None:
        self.port, self.process, self.log = port, process, log

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=scaled(60))
        try:
            connection.request("GET", path, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.read(), response.headers
        finally:
            connection.close()

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]


@pytest.fixture
def server(redis_url: str, tmp_path: Path) -> Iterator[Server]:
    port = free_port()
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    env.update(
        {
            "REDIS_URL": redis_url,
            "POCHA_BOT_RUNNER": "inline",
            "POCHA_LOG_LEVEL": "info",
            "POCHA_MAX_BODY": "4096",
            # Where gunicorn makes its metrics directory, to see it removed.
            "TMPDIR": str(scratch),
        }
    )
    log = tmp_path / "gunicorn.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            gunicorn_command("127.0.0.1", port, processes=2),
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent(),
        )
    found = Server(port, process, log)

    def up() -> bool:
        assert process.poll() is None, log.read_text()
        try:
            return found.get("/healthz")[0] == 200
        except OSError:
            return False

    wait_until(up, LONG, "gunicorn to start", every=0.1, explain=log.read_text)
    # The metrics directory; and maybe a worker's `wgunicorn-*` file, which gunicorn
    # unlinks the moment it has made it (a busy machine may show it in between).
    made = [p.name for p in scratch.iterdir() if not p.name.startswith("wgunicorn-")]
    assert len(made) == 1 and made[0].startswith("pocha-metrics-"), made
    yield found
    process.terminate()
    assert process.wait(timeout=scaled(LONG)) == 0
    assert list(scratch.iterdir()) == [], "the metrics directory was left behind"


def healthz_count(server: Server) -> float:
    status, body, _ = server.get("/metrics")
    assert status == 200
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            labels = sample.labels
            if (
                sample.name == "pocha_http_requests_total"
                and labels.get("route") == "/healthz"
                and labels.get("status") == "200"
            ):
                return sample.value
    return 0.0


def test_metrics_and_logs_of_a_gunicorn_server(server: Server) -> None:
    before = healthz_count(server)
    sent = 0
    # Concurrent connections, so that both processes serve some (they take turns at the
    # listening socket); a few rounds in case one process took a whole round.
    for _ in range(5):
        with ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(lambda _: server.get("/healthz")[0], range(40)))
        assert statuses == [200] * 40
        sent += 40
        pids = {
            line["pid"]
            for line in server.lines()
            if line.get("logger") == "service.request" and line.get("route") == "/healthz"
        }
        if len(pids) >= 2:
            break
    assert len(pids) == 2, "one process served every request"
    # Whichever process answers the scrape counts every process's requests.
    for _ in range(4):
        assert healthz_count(server) == before + sent

    status, _, headers = server.get("/readyz", {"X-Request-ID": "gunicorn-ready-1"})
    assert status == 200 and headers["X-Request-ID"] == "gunicorn-ready-1"
    lines = server.lines()
    ready = [line for line in lines if line.get("request_id") == "gunicorn-ready-1"]
    assert [line["route"] for line in ready] == ["/readyz"]
    # gunicorn's own lines are JSON too (every line parsed above).
    assert any(line["logger"] == "gunicorn.error" for line in lines)


def post_chunked(server: Server, chunks: list[bytes]) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=scaled(60))
    try:
        connection.request(
            "POST",
            "/api/v1/games",
            body=iter(chunks),
            headers={"Content-Type": "application/json"},
            encode_chunked=True,
        )
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_chunked_bodies_are_read_whole_up_to_the_limit(server: Server) -> None:
    # Over the limit (4096 bytes here): 413, not a truncated body reported as bad JSON.
    status, body = post_chunked(
        server, [b'{"players": [', b'{"name": "x"},' * 1000, b'{"name": "y"}]}']
    )
    assert (status, body["error"]) == (413, "body_too_large")
    status, body = post_chunked(
        server, [b'{"players": [{"name": "a"}, ', b'{"name": "b"}, {"name": "c"}]}']
    )
    assert status == 201, body
