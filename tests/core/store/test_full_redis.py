"""A Redis out of memory (`maxmemory` with `noeviction`, as operators set it to never lose a
game): every write it refuses is a 503 `store_full` with a sentence and Retry-After, never
a 500 and never a half-written change; games can still be read and deleted, deleting gives
the space back, and `/readyz` says the store is full.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from tests.service.helpers import bearer, create_game, humans, move, tokens_of
from tools.embedded_redis import RedisServer


@pytest.fixture
def small_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(
        tmp_path, extra_args=["--maxmemory", "3mb", "--maxmemory-policy", "noeviction"]
    )
    with server:
        yield server


@pytest.fixture
def full_client(small_redis: RedisServer) -> FlaskClient:
    app: Flask = create_app({"REDIS_URL": small_redis.url, "TESTING": True, "BOT_RUNNER": "rq"})
    return app.test_client()


def assert_full(response: Any) -> None:
    assert response.status_code == 503, response.get_json()
    body = response.get_json()
    assert body["error"] == "store_full"
    assert "full" in body["message"]
    assert int(response.headers["Retry-After"]) > 0


def tighten(server: RedisServer) -> None:
    store = redis.Redis.from_url(server.url)
    used = int(store.info("memory")["used_memory"])
    store.config_set("maxmemory", used - 64 * 1024)


def test_a_full_store_refuses_writes_with_503_and_frees_space_on_delete(
    full_client: FlaskClient, small_redis: RedisServer
) -> None:
    client = full_client
    games: list[dict[str, Any]] = []
    for _ in range(5000):
        response = client.post("/api/v1/games", json={"players": humans(3)})
        if response.status_code != 201:
            assert_full(response)
            break
        games.append(response.get_json())
    else:
        pytest.fail("3 MB of Redis never filled up")
    # A refusal means the store was just over its limit; rate-limit counters expiring can
    # take it back under by a few bytes. Lower the limit a little below what is used, so
    # the store stays full until games are deleted.
    tighten(small_redis)
    assert_full(client.get("/readyz"))

    game = games[0]
    before = client.get(f"/api/v1/games/{game['id']}").get_json()
    token = tokens_of(game)[before["turn"]]
    assert_full(move(client, game["id"], token, 0))
    assert_full(client.post(f"/api/v1/games/{game['id']}/hint", json={}, headers=bearer(token)))
    # Refused means unchanged: the same version, no bid, no event.
    after = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert after["version"] == before["version"] and after["bids"] == before["bids"]
    assert len(client.get(f"/api/v1/games/{game['id']}/events").get_json()) == before["last_event"]

    # Deleting works while full, and frees what a new game needs.
    others = iter(games[1:])
    created = None
    for old in others:
        deleted = client.delete(f"/api/v1/games/{old['id']}", headers=bearer(old["host_token"]))
        assert deleted.status_code == 204
        response = client.post("/api/v1/games", json={"players": humans(3)})
        if response.status_code == 201:
            created = response.get_json()
            break
        assert_full(response)
    assert created is not None
    # With some room to spare again, the store is ready and the game plays on.
    for old in others:
        if client.get("/readyz").status_code == 200:
            break
        client.delete(f"/api/v1/games/{old['id']}", headers=bearer(old["host_token"]))
    assert client.get("/readyz").status_code == 200
    assert move(client, game["id"], token, 0).status_code == 200


def test_readyz_does_not_call_a_roomy_store_full(client: FlaskClient) -> None:
    create_game(client, humans(3), {"schedule": [1]}, seed=1)
    assert client.get("/readyz").status_code == 200
