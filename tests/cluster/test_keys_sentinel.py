"""Integrators' keys with the store named through Sentinel (`redis+sentinel://`): `pocha
keys` makes, lists and revokes a key in the primary the sentinel names; the API finds it
there, counts the key's moves and thinking per key, and refuses it once revoked."""

from __future__ import annotations

from typing import Any

from click.testing import CliRunner

from cli.main import pocha
from service import create_app
from tests.cluster.test_queue_sentinel import SERVICE, SentinelServer, queues  # noqa: F401
from tests.service.helpers import bearer, create_game, humans, tokens_of
from tests.waiting import wait_until
from tools.embedded_redis import RedisServer

ANA = {"REMOTE_ADDR": "203.0.113.7"}
BRUNO = {"REMOTE_ADDR": "198.51.100.9"}


def test_keys_through_sentinel(
    queues: tuple[RedisServer, RedisServer, SentinelServer],  # noqa: F811
) -> None:
    primary, _replica, sentinel = queues
    url = f"redis+sentinel://127.0.0.1:{sentinel.port}/{SERVICE}/0"
    runner = CliRunner()
    made = runner.invoke(pocha, ["keys", "create", "relay", "--moves", "3/day", "--redis-url", url])
    assert made.exit_code == 0, made.output
    key = made.stdout.strip()
    assert primary.client().hlen("pocha:api-keys:{api-keys}") == 1
    listed = runner.invoke(pocha, ["keys", "list", "--redis-url", url])
    assert "relay" in listed.stdout and key not in listed.output

    app = create_app({"REDIS_URL": url, "TESTING": True, "BOT_RUNNER": "inline",
                      "RATE_LIMITS": "on", "RATE_LIMIT_MOVES": "1/day"})  # fmt: skip
    client = app.test_client()
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)

    def bid(environ: dict[str, str], sent: str) -> Any:
        headers = {**bearer(tokens[2]), "X-Pocha-Key": sent}  # out of turn: 409, counted
        return client.post(
            f"/api/v1/games/{game_id}/bids", json={"bid": 0}, headers=headers, environ_base=environ
        )

    # The key's 3 a day, shared by two addresses (each address alone has 1 a day).
    assert [bid(env, key).status_code for env in (ANA, BRUNO, ANA)] == [409, 409, 409]
    refused = bid(BRUNO, key)
    assert refused.status_code == 429 and "your key" in refused.json["message"]
    assert bid(ANA, "pk_unknown").json["error"] == "unknown_key"
    revoked = runner.invoke(pocha, ["keys", "revoke", "relay", "--redis-url", url])
    assert revoked.exit_code == 0, revoked.output
    wait_until(lambda: bid(ANA, key).status_code == 401, 30, "the revoked key refused")
