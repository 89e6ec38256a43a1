"""The Redis fixtures give a private, working server and a clean database per test."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis

from tools import embedded_redis
from tools.embedded_redis import RedisServer, free_port

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
    first, last = embedded_redis._FREE_PORT_RANGE
    ports = [free_port() for _ in range(min(300, (last - first + 1) // 2))]
    assert len(set(ports)) == len(ports)
    assert all(first <= p <= last for p in ports)
    assert [p for p in ports if low <= p <= high] == []
    # Chromium refuses to load pages from some ports (ERR_UNSAFE_PORT), the last is 10080.
    assert min(ports) > 10080
