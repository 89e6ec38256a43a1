"""The Redis fixtures give a private, working server and a clean database per test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from tests.waiting import LONG, scaled
from tools.embedded_redis import (
    FREE_PORTS_ENV,
    RedisServer,
    RedisServerError,
    free_port,
    free_port_range,
)

ROOT = Path(__file__).resolve().parents[2]

EPHEMERAL = Path("/proc/sys/net/ipv4/ip_local_port_range")


def test_set_get_round_trip(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        assert client.set("pocha:probe", "as de oros")
        assert client.get("pocha:probe") == "as de oros"
    finally:
        client.close()


def test_server_is_the_one_we_started(redis_server: RedisServer) -> None:
    assert redis_server.host == "127.0.0.1"
    assert redis_server.url == f"redis://127.0.0.1:{redis_server.port}/0"
    assert redis_server.process.poll() is None
    client = redis.Redis.from_url(redis_server.url, decode_responses=True)
    try:
        assert client.config_get("port") == {"port": str(redis_server.port)}
        assert client.config_get("save") == {"save": ""}
        assert client.info("server")["process_id"] == redis_server.process.pid
    finally:
        client.close()


def test_each_test_gets_an_empty_db(redis_url: str) -> None:
    # Runs after test_set_get_round_trip wrote to the same DB: FLUSHDB must have cleared it.
    client = redis.Redis.from_url(redis_url)
    try:
        assert client.dbsize() == 0
        client.set("pocha:leftover", "1")
    finally:
        client.close()


def test_unix_socket_server_start_stop(tmp_path: Path) -> None:
    # Short path: unix socket paths are limited to ~100 bytes.
    server = RedisServer(tmp_path / "data", unix_socket=tmp_path / "r.sock")
    with server:
        assert server.url == f"unix://{tmp_path / 'r.sock'}?db=0"
        client = server.client()
        try:
            assert client.ping()
            assert client.config_get("port") == {"port": "0"}
        finally:
            client.close()
        process = server.process
    assert process.poll() is not None
    assert not server.running


@pytest.mark.skipif(not EPHEMERAL.exists(), reason="no Linux ephemeral port range to read")
def test_free_ports_are_outside_the_ephemeral_range_and_not_handed_out_twice() -> None:
    # An outgoing connection takes its local port from the ephemeral range, so a port from
    # there could be taken between the check and the server's bind.
    low, high = map(int, EPHEMERAL.read_text().split())
    # 300, or half of this xdist worker's own slice of the range if that is fewer
    # (tests.redis_server.keep_the_workers_ports_apart).
    first, last = free_port_range()
    ports = [free_port() for _ in range(min(300, (last - first + 1) // 2))]
    assert len(set(ports)) == len(ports)
    assert all(first <= p <= last for p in ports)
    assert [p for p in ports if low <= p <= high] == []
    # Chromium refuses to load pages from some ports (ERR_UNSAFE_PORT), the last is 10080.
    assert min(ports) > 10080


def _drawn_by_a_tool(env: dict[str, str], count: int) -> list[int]:
    """`count` ports a process of its own draws with `free_port`, as a tool a test starts."""
    drawn = subprocess.run(
        [sys.executable, "-c",
         "from tools.embedded_redis import free_port\n"
         f"print(*(free_port() for _ in range({count})))"],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=scaled(LONG), check=False,
    )  # fmt: skip
    assert drawn.returncode == 0, drawn.stderr
    return [int(port) for port in drawn.stdout.split()]


def test_the_tools_a_test_starts_draw_their_ports_from_its_slice() -> None:
    # `pocha bench soak` and `pocha serve` draw ports of their own: from this test
    # process's slice of the range (under pytest-xdist), which they inherit.
    first, last = free_port_range()
    assert all(first <= port <= last for port in _drawn_by_a_tool(dict(os.environ), 20))
    # And from the ports named, whatever they are.
    port = free_port()
    assert set(_drawn_by_a_tool({**os.environ, FREE_PORTS_ENV: f"{port}-{port}"}, 1)) == {port}


@pytest.mark.parametrize("ports", ["10200", "10300-10200", "80-90", "10100-12000", "a-b"])
def test_ports_outside_the_range_or_not_a_range_are_refused(
    ports: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(FREE_PORTS_ENV, ports)
    with pytest.raises(
        RedisServerError,
        match=f"POCHA_FREE_PORTS must be LOW-HIGH within 10100-11999, not '{ports}'",
    ):
        free_port()
