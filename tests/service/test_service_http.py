"""The real thing: `pocha serve` as a subprocess (private Redis + gunicorn), over HTTP.

A game is created and raced for over real sockets, Ctrl-C stops everything, and a second
start on the same data dir still has the game (Redis's append-only file).
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.waiting import LONG, scaled, wait_until
from tools.embedded_redis import free_port

POCHA = Path(sys.executable).with_name("pocha")


def request(
    port: int, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=scaled(60))
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        payload = None if body is None else json.dumps(body)
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else None
    finally:
        connection.close()


def wait_ready(port: int, process: subprocess.Popen[bytes]) -> None:
    def ready() -> bool:
        assert process.poll() is None, "pocha serve exited early"
        try:
            return request(port, "GET", "/readyz")[0] == 200
        except OSError:
            return False

    wait_until(ready, LONG, "pocha serve to be ready", every=0.1)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    started: list[subprocess.Popen[bytes]] = []

    def start(port: int) -> subprocess.Popen[bytes]:
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        # What `pocha serve` and its parts say, for a stop that does not end in time.
        log = (tmp_path / f"serve-{len(started)}.log").open("wb")
        process = subprocess.Popen(
            [str(POCHA), "serve", "--host", "127.0.0.1", "--port", str(port),
             "--data-dir", str(tmp_path / "data"), "--api-processes", "2"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        process.log_path = log.name  # type: ignore[attr-defined]
        started.append(process)
        wait_ready(port, process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait()


def stop(process: subprocess.Popen[bytes], port: int) -> None:
    process.send_signal(signal.SIGINT)
    try:
        assert process.wait(timeout=scaled(LONG)) == 0
    except subprocess.TimeoutExpired:
        said = Path(process.log_path).read_text(errors="replace")  # type: ignore[attr-defined]
        message = f"pocha serve did not stop in {scaled(LONG):.0f} s; it said:\n" + said[-4000:]
        raise AssertionError(message) from None
    with pytest.raises(OSError):
        request(port, "GET", "/healthz")


def test_serve_race_stop_and_restart(serve: Any, tmp_path: Path) -> None:
    port = free_port()
    process = serve(port)
    status, created = request(
        port,
        "POST",
        "/api/v1/games",
        {"players": [{"name": f"P{i}"} for i in range(4)], "rules": {"schedule": [3]}},
    )
    assert status == 201
    game_id = created["id"]
    status, view = request(port, "GET", f"/api/v1/games/{game_id}")
    assert status == 200 and view["phase"] == "bidding"
    token = created["seats"][view["turn"]]["token"]

    # Eight connections race for one bid: exactly one is applied.
    barrier = threading.Barrier(8)
    statuses: list[int] = []

    def bid(n: int) -> None:
        barrier.wait()
        statuses.append(
            request(port, "POST", f"/api/v1/games/{game_id}/bids", {"bid": n % 4}, token)[0]
        )

    threads = [threading.Thread(target=bid, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=scaled(LONG))
    assert sorted(statuses) == [200] + [409] * 7
    assert request(port, "GET", f"/api/v1/games/{game_id}")[1]["version"] == 2

    stop(process, port)
    assert (tmp_path / "data" / "redis").is_dir()

    # The games survive a restart: Redis keeps them in its append-only file.
    process = serve(port)
    status, view = request(port, "GET", f"/api/v1/games/{game_id}")
    assert status == 200 and view["version"] == 2
    stop(process, port)
