"""The bare WSGI app of `pocha bench api-floor` answers every request with its fixed body, at
its Redis path after one round trip to Redis."""

from __future__ import annotations

import io
from typing import Any

import pytest
import redis

from tools import bare_wsgi
from tools.bare_wsgi import BODY, REDIS_PATH, app


def test_it_reads_the_body_and_answers_200() -> None:
    started: list[Any] = []
    body = io.BytesIO(b'{"bid": 1}')
    environ = {"CONTENT_LENGTH": "10", "wsgi.input": body}
    answer = app(environ, lambda status, headers: started.append((status, headers)))
    assert b"".join(answer) == BODY and body.read() == b""
    status, headers = started[0]
    assert status == "200 OK" and ("Content-Length", str(len(BODY))) in headers


def test_at_its_redis_path_it_pings_the_redis_of_its_environment(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setattr(bare_wsgi, "_redis", [])
    before = _pings(redis_url)
    started: list[Any] = []
    for _ in range(3):
        environ = {"PATH_INFO": REDIS_PATH, "wsgi.input": io.BytesIO(b"")}
        answer = app(environ, lambda status, headers: started.append(status))
        assert b"".join(answer) == BODY
    assert started == ["200 OK"] * 3
    # Three round trips, down one connection kept for the process.
    assert _pings(redis_url) == before + 3 and len(bare_wsgi._redis) == 1
    bare_wsgi._redis[0].close()


def test_elsewhere_it_does_not_touch_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    monkeypatch.setattr(bare_wsgi, "_redis", [])
    answer = app({"PATH_INFO": "/bare", "wsgi.input": io.BytesIO(b"")}, lambda *_: None)
    assert b"".join(answer) == BODY and bare_wsgi._redis == []


def _pings(url: str) -> int:
    stats = redis.Redis.from_url(url).info("commandstats")
    return int(stats.get("cmdstat_ping", {}).get("calls", 0))
