"""Keys of server-side integrators against the test's real Redis (one Redis here, the
cluster in tests/cluster): made, listed and revoked by `pocha keys`, stored only hashed; a
request carrying one is limited per key with the key's own budgets (two addresses, one key
share a count; one address, two keys do not); an unknown or revoked key is 401
`unknown_key`; the metrics count per key name; requests without a key are as before."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from cli.main import pocha
from core.jobs.admission import ThinkPurse
from core.store import api_keys
from core.store.keys import API_KEY_NAMES, API_KEYS
from core.store.store import GameStore
from service import create_app
from service.context import EXTENSION
from service.metrics import MAX_KEY_LABELS, OTHER_KEYS, ProcessMetrics
from tests.service.helpers import AI_POSITION as AI_MOVE
from tests.service.helpers import ANA, BRUNO, bearer, create_game, humans, limited_app, tokens_of
from tests.waiting import wait_until


def store_of(app: Flask) -> GameStore:
    found: GameStore = app.extensions[EXTENSION].store
    return found


def with_key(key: str) -> dict[str, str]:
    return {"X-Pocha-Key": key}


def new_game(client: FlaskClient, environ: dict[str, str], key: str | None = None) -> Any:
    return client.post(
        "/api/v1/games",
        json={"players": humans(3), "rules": {"schedule": [3]}, "seed": 3},
        environ_base=environ,
        headers=with_key(key) if key is not None else {},
    )


def assert_limited(response: Any, keyed: bool) -> None:
    assert response.status_code == 429, response.get_data(as_text=True)
    assert response.json["error"] == "rate_limited"
    said = response.json["message"].lower()
    assert ("your key" in said) is keyed and ("your address" in said) is not keyed
    assert int(response.headers["Retry-After"]) >= 1


def test_a_key_is_stored_hashed_and_never_listed(redis_url: str) -> None:
    store = store_of(limited_app(redis_url)).redis
    key, made = api_keys.create(store, "relay", moves="600/minute", think=5)
    assert key.startswith("pk_") and len(key) > 40
    stored = store.hgetall(API_KEYS)
    # Stored under its SHA-256, and nowhere in the clear.
    assert list(stored) == [hashlib.sha256(key.encode()).hexdigest().encode()]
    assert all(key.encode() not in field + value for field, value in stored.items())
    assert store.hgetall(API_KEY_NAMES) == {b"relay": made.hash.encode()}
    assert api_keys.find(store, key) == made
    assert api_keys.find(store, key + "x") is None
    (listed,) = api_keys.listed(store)
    assert (listed.name, listed.moves, listed.ai, listed.think) == ("relay", "600/minute", None, 5)
    with pytest.raises(api_keys.KeyRefused, match="already"):
        api_keys.create(store, "relay")
    for name in ("Relay", "1st", "a" * 33, "re lay", ""):
        with pytest.raises(api_keys.KeyRefused, match="name"):
            api_keys.create(store, name)
    with pytest.raises(api_keys.KeyRefused, match="--moves"):
        api_keys.create(store, "other", moves="lots")
    with pytest.raises(api_keys.KeyRefused, match="--think"):
        api_keys.create(store, "other", think=0)
    assert api_keys.revoke(store, "relay")
    assert api_keys.find(store, key) is None and api_keys.listed(store) == []
    assert not api_keys.revoke(store, "relay")
    assert store.hgetall(API_KEYS) == {} and store.hgetall(API_KEY_NAMES) == {}


def test_pocha_keys_makes_lists_and_revokes_keys(redis_url: str) -> None:
    runner = CliRunner()
    url = ["--redis-url", redis_url]
    made = runner.invoke(
        pocha, ["keys", "create", "relay", "--moves", "900/minute", "--think", "12", *url]
    )
    assert made.exit_code == 0, made.output
    key = made.stdout.strip()
    assert key.startswith("pk_") and "shown once" in made.stderr
    listed = runner.invoke(pocha, ["keys", "list", *url])
    assert listed.exit_code == 0, listed.output
    assert "relay" in listed.stdout and "900/minute" in listed.stdout and "12" in listed.stdout
    assert key not in listed.output
    assert hashlib.sha256(key.encode()).hexdigest() not in listed.output
    again = runner.invoke(pocha, ["keys", "create", "relay", *url])
    assert again.exit_code == 1 and "already" in again.output
    bad = runner.invoke(pocha, ["keys", "create", "other", "--ai", "often", *url])
    assert bad.exit_code == 1 and "--ai" in bad.output
    revoked = runner.invoke(pocha, ["keys", "revoke", "relay", *url])
    assert revoked.exit_code == 0 and "revoked" in revoked.stdout
    assert runner.invoke(pocha, ["keys", "list", *url]).stdout.strip() == "no keys"
    gone = runner.invoke(pocha, ["keys", "revoke", "relay", *url])
    assert gone.exit_code == 1 and "no key named" in gone.output


def test_a_key_is_counted_for_itself_not_per_address(redis_url: str) -> None:
    app = limited_app(redis_url, RATE_LIMIT_CREATE="2/minute")
    client = app.test_client()
    relay, _ = api_keys.create(store_of(app).redis, "relay")
    other, _ = api_keys.create(store_of(app).redis, "other")
    # Two addresses, one key: one count.
    assert new_game(client, ANA, relay).status_code == 201
    assert new_game(client, BRUNO, relay).status_code == 201
    assert_limited(new_game(client, ANA, relay), keyed=True)
    # ...refused again from the process's memory, for the key, at any address.
    assert_limited(new_game(client, BRUNO, relay), keyed=True)
    # One address, two keys: two counts; and the address's own count is untouched.
    assert new_game(client, ANA, other).status_code == 201
    assert new_game(client, ANA).status_code == 201
    assert new_game(client, ANA).status_code == 201
    assert_limited(new_game(client, ANA), keyed=False)
    # A game made with a key spends that key's think budget.
    made = new_game(client, BRUNO, other)
    assert store_of(app).load(made.json["id"]).payer == "key:other"


def test_a_keys_own_move_limit(redis_url: str) -> None:
    # Move counters' windows are aligned to the clock: a day's, so that no edge falls inside.
    app = limited_app(redis_url, RATE_LIMIT_MOVES="2/day")
    client = app.test_client()
    relay, _ = api_keys.create(store_of(app).redis, "relay", moves="5/day")
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)

    def bid(environ: dict[str, str], key: str | None) -> Any:
        # Out of turn (seat 1 bids first): refused, and counted all the same.
        headers = {**bearer(tokens[2]), **(with_key(key) if key else {})}
        return client.post(
            f"/api/v1/games/{game_id}/bids", json={"bid": 0}, headers=headers, environ_base=environ
        )

    statuses = [bid(env, relay).status_code for env in (ANA, BRUNO, ANA, BRUNO, ANA)]
    assert statuses == [409] * 5
    assert_limited(bid(BRUNO, relay), keyed=True)
    assert [bid(ANA, None).status_code for _ in range(2)] == [409, 409]
    assert_limited(bid(ANA, None), keyed=False)


def test_poch_moves_are_limited_like_pochas(redis_url: str) -> None:
    app = limited_app(redis_url, RATE_LIMIT_MOVES="2/day")
    client = app.test_client()
    created = client.post("/api/v1/games", json={"game": "poch", "players": humans(3)}).json
    token = bearer(tokens_of(created)[0])
    path = f"/api/v1/games/{created['id']}"
    assert client.post(f"{path}/suits", json={"suit": "H"}, headers=token).status_code != 429
    assert client.post(f"{path}/bets", json={"bet": "pass"}, headers=token).status_code != 429
    assert_limited(client.post(f"{path}/bets", json={"bet": "pass"}, headers=token), keyed=False)


def test_a_keys_own_ai_limit_and_think_budget(redis_url: str) -> None:
    app = limited_app(redis_url, RATE_LIMIT_AI="1/minute", THINK_BUDGET=10)
    client = app.test_client()
    store = store_of(app).redis
    relay, _ = api_keys.create(store, "relay", ai="3/minute")
    thrifty, _ = api_keys.create(store, "thrifty", ai="100/minute", think=4)

    def ai_move(environ: dict[str, str], key: str | None, milliseconds: int = 5) -> Any:
        return client.post(
            "/api/v1/ai/move",
            json={**AI_MOVE, "milliseconds": milliseconds},
            environ_base=environ,
            headers=with_key(key) if key is not None else {},
        )

    assert [ai_move(env, relay).status_code for env in (ANA, BRUNO, ANA)] == [202] * 3
    assert_limited(ai_move(BRUNO, relay), keyed=True)
    assert ai_move(ANA, None).status_code == 202
    assert_limited(ai_move(ANA, None), keyed=False)
    # The key's think budget (4 s a minute), not the address's (10 s): one move that may
    # think 3.2 s fits, a second does not, from any address.
    assert ai_move(BRUNO, thrifty, 3200).status_code == 202
    refused = ai_move(ANA, thrifty, 3200)
    assert_limited(refused, keyed=True)
    assert "4 s of thinking a minute" in refused.json["message"]
    # One that may think longer than the key's whole minute is refused for good (the
    # address's 10 s would have let it in).
    over = ai_move(ANA, thrifty, 4500)
    assert (over.status_code, over.json["error"]) == (422, "over_think_budget"), over.json
    assert "more than your key may spend in a minute" in over.json["message"]
    # The bots of a key's games spend the key's budget too, while the key lives.
    purse = ThinkPurse(store, budget=10, keys=store)
    assert purse.budget_of("key:thrifty") == 4
    assert purse.budget_of("key:relay") == 10  # no budget of its own: the service's
    assert purse.budget_of("0123456789abcdef01234567") == 10
    api_keys.revoke(store, "thrifty")
    assert purse.budget_of("key:thrifty", now=10**9) == 10


def test_an_unknown_or_revoked_key_is_refused_401(redis_url: str) -> None:
    app = limited_app(redis_url)
    client = app.test_client()
    relay, _ = api_keys.create(store_of(app).redis, "relay")
    assert new_game(client, ANA, relay).status_code == 201
    for sent in ("pk_" + "x" * 43, "", "nonsense"):
        refused = new_game(client, ANA, sent)
        assert refused.status_code == 401, refused.json
        assert refused.json["error"] == "unknown_key"
        assert "X-Pocha-Key" in refused.json["message"]
    # A game's seat token and a key travel together; an unknown key refuses the move.
    created = new_game(client, BRUNO).json
    headers = {**bearer(tokens_of(created)[1]), **with_key("pk_unknown")}
    move = client.post(f"/api/v1/games/{created['id']}/bids", json={"bid": 0}, headers=headers)
    assert move.status_code == 401 and move.json["error"] == "unknown_key"
    # Where no limit is per client, the header is not looked at.
    assert client.get("/api/v1/rules", headers=with_key("pk_unknown")).status_code == 200
    api_keys.revoke(store_of(app).redis, "relay")
    # Every process refuses a revoked key once it stops trusting what it found (seconds).
    wait_until(lambda: new_game(client, ANA, relay).status_code == 401, 30, "the revoked key")
    assert new_game(client, ANA).status_code == 201


def test_the_limits_off_still_refuse_unknown_keys_and_count_per_key(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline"})
    client = app.test_client()
    relay, _ = api_keys.create(store_of(app).redis, "relay")
    assert [new_game(client, ANA, relay).status_code for _ in range(2)] == [201, 201]
    assert new_game(client, ANA, "pk_guessed-" + "y" * 40).status_code == 401
    assert new_game(client, ANA).status_code == 201
    scrape = client.get("/metrics").get_data(as_text=True)
    assert 'pocha_key_requests_total{key="relay",status="201"} 2.0' in scrape
    assert "pocha_key_refused_total 1.0" in scrape
    # Only the names of keys found are labels: never what a client sent.
    labels = [line for line in scrape.splitlines() if line.startswith("pocha_key_requests")]
    assert labels == ['pocha_key_requests_total{key="relay",status="201"} 2.0']


def test_the_key_labels_of_a_process_are_bounded() -> None:
    metrics = ProcessMetrics()
    names = [f"k{i}" for i in range(MAX_KEY_LABELS + 5)]
    labels = {metrics.key_label(name) for name in names}
    assert len(labels) == MAX_KEY_LABELS + 1 and OTHER_KEYS in labels
    assert metrics.key_label("k0") == "k0"
