"""What a failover of the store does to games in play, and what `POCHA_WAIT_REPLICAS`
promises.

On a private cluster of its own (3 primaries, 1 replica each, a node timeout of 1 s), with
moves answered only once a replica has them (WAIT 1): games are dealt on every primary and
played a few moves; the primary holding some of them is killed with SIGKILL (a machine
gone, no goodbye); while its replica takes over, a move is answered 200 or 503, never a
500; once it has, every game is where its last answered move left it (none lost); a move
on the promoted replica, alone with its data, is written but answered `not_replicated`;
once the old primary is back as its replica, every game plays on to its end. On one Redis
without replicas, the same setting answers each move 503 `not_replicated`, and the move
stands.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from core.store.keys import game_key
from service import create_app
from tests.redis_server import fresh_db_url, private_cluster
from tests.service.helpers import create_game, humans, move, tokens_of
from tests.waiting import LONG, scaled
from tools.embedded_cluster import EmbeddedCluster
from tools.embedded_redis import RedisServer

GAMES = 12


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[EmbeddedCluster]:
    # Formed within the session cluster's deadline: its own nodes start beside every test's.
    with private_cluster(tmp_path / "cluster") as found:
        yield found


def api(store_url: str, queue_url: str, **settings: Any) -> FlaskClient:
    config = {"REDIS_URL": store_url, "QUEUE_REDIS_URL": queue_url, "TESTING": True}
    app = create_app({**config, "BOT_RUNNER": "inline", **settings})
    return app.test_client()


def play_one(client: FlaskClient, created: dict[str, Any], rng: random.Random) -> Any:
    """One legal move of whoever's turn it is in the game; the response, or None when the
    game is over."""
    game_id = created["id"]
    response = client.get(f"/api/v1/games/{game_id}")
    if response.status_code != 200:
        return response
    view = response.json
    if view["phase"] == "finished":
        return None
    token = tokens_of(created)[view["turn"]]
    mine = client.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).json
    return move(client, game_id, token, rng.choice(mine["you"]["legal"]))


def test_a_failover_loses_no_answered_move_and_every_game_plays_on(
    cluster: EmbeddedCluster, redis_server: RedisServer
) -> None:
    client = api(cluster.url, fresh_db_url(redis_server, 7), WAIT_REPLICAS=1,
                 WAIT_TIMEOUT_MS=2000)  # fmt: skip
    rng = random.Random(5)
    games = [create_game(client, humans(3), {"schedule": [3]}, seed=s) for s in range(GAMES)]
    answered: dict[str, int] = {}
    for created in games:
        for _ in range(4):
            response = play_one(client, created, rng)
            assert response.status_code == 200, response.json
            answered[created["id"]] = response.json["version"]
    # The primary of the first game goes, with the games of its slots.
    victim = cluster.primary_for(game_key(games[0]["id"]))
    on_victim = [g for g in games if cluster.primary_for(game_key(g["id"])) is victim]
    assert 0 < len(on_victim) < GAMES  # games on it and on the others
    cluster.kill(victim)
    # While the replica takes over, a move is applied or refused as unavailable.
    response = play_one(client, on_victim[0], rng)
    assert response.status_code in (200, 503), response.json
    if response.status_code == 200:
        answered[on_victim[0]["id"]] = response.json["version"]
    cluster.wait_for_failover(victim, timeout=scaled(LONG))
    for created in games:
        view = client.get(f"/api/v1/games/{created['id']}").json
        assert view["version"] >= answered[created["id"]], created["id"]
    # The promoted replica has no replica of its own: its moves are written but answered
    # `not_replicated`, until the old primary is back as its replica.
    response = play_one(client, on_victim[0], rng)
    assert (response.status_code, response.json["error"]) == (503, "not_replicated")
    cluster.restart(victim, timeout=scaled(LONG))
    for created in games:
        while (response := play_one(client, created, rng)) is not None:
            assert response.status_code == 200, response.json
        assert client.get(f"/api/v1/games/{created['id']}").json["phase"] == "finished"


def test_without_a_replica_a_move_is_answered_not_replicated_and_stands(
    redis_server: RedisServer,
) -> None:
    url = fresh_db_url(redis_server, 7)
    client = api(url, url, WAIT_REPLICAS=1, WAIT_TIMEOUT_MS=50)
    created = create_game(client, humans(3), {"schedule": [3]}, seed=1)
    before = client.get(f"/api/v1/games/{created['id']}").json["version"]
    response = play_one(client, created, random.Random(1))
    assert response.status_code == 503
    assert response.json["error"] == "not_replicated"
    assert response.headers["Retry-After"] == "1"
    assert client.get(f"/api/v1/games/{created['id']}").json["version"] == before + 1


def test_a_change_that_writes_nothing_waits_for_no_replica(redis_server: RedisServer) -> None:
    # Without a replica every written move is `not_replicated`; a move over the rate limit
    # or on a stale version writes nothing (though it counts), and is refused as it would
    # be without the wait. The move counters' windows are aligned to the clock: a day's,
    # so that no window's edge falls among these moves.
    url = fresh_db_url(redis_server, 7)
    client = api(url, url, WAIT_REPLICAS=1, WAIT_TIMEOUT_MS=50, RATE_LIMITS="on",
                 RATE_LIMIT_MOVES="3/day")  # fmt: skip
    created = create_game(client, humans(3), {"schedule": [3]}, seed=1)
    rng = random.Random(1)
    assert play_one(client, created, rng).status_code == 503
    game_id = created["id"]
    view = client.get(f"/api/v1/games/{game_id}").json
    token = tokens_of(created)[view["turn"]]
    mine = client.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    stale = move(client, game_id, token, mine.json["you"]["legal"][0], **{"If-Match": '"1"'})
    assert (stale.status_code, stale.json["error"]) == (412, "stale_version")
    assert play_one(client, created, rng).status_code == 503
    over = play_one(client, created, rng)
    assert (over.status_code, over.json["error"]) == (429, "rate_limited")
