"""The API's edge: CORS for browser front ends on other origins (none by default, listed
origins, or any), preflights that allow the headers a client sends, exposed ETag; and the
request body size limit."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from service import create_app
from tests.service.helpers import bearer, create_game, humans, tokens_of

FRONT = "https://cards.example"


def client_with(redis_url: str, **settings: Any) -> FlaskClient:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline", **settings})
    return app.test_client()


def preflight(client: FlaskClient, path: str, origin: str, method: str = "POST") -> Any:
    return client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": "authorization, content-type, if-match",
        },
    )


def test_no_cors_by_default(client: FlaskClient) -> None:
    created = create_game(client, humans(3))
    response = client.get(f"/api/v1/games/{created['id']}", headers={"Origin": FRONT})
    assert response.status_code == 200
    assert "Access-Control-Allow-Origin" not in response.headers
    answer = preflight(client, f"/api/v1/games/{created['id']}/plays", FRONT)
    assert "Access-Control-Allow-Origin" not in answer.headers


def test_listed_origins_may_play_from_a_browser(redis_url: str) -> None:
    client = client_with(redis_url, CORS_ORIGINS=f"{FRONT}/, https://other.example")
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    game_id, token = created["id"], tokens_of(created)[1]

    answer = preflight(client, f"/api/v1/games/{game_id}/bids", FRONT)
    assert answer.status_code == 200
    assert answer.headers["Access-Control-Allow-Origin"] == FRONT
    allowed = {h.strip().lower() for h in answer.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "if-match"} <= allowed
    assert "POST" in answer.headers["Access-Control-Allow-Methods"]
    assert int(answer.headers["Access-Control-Max-Age"]) > 0

    view = client.get(f"/api/v1/games/{game_id}", headers={"Origin": FRONT, **bearer(token)})
    assert view.headers["Access-Control-Allow-Origin"] == FRONT
    exposed = {h.strip() for h in view.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "X-Request-ID", "Retry-After", "Location"} <= exposed
    # No cookies are ever involved: credentials are not allowed.
    assert "Access-Control-Allow-Credentials" not in view.headers

    moved = client.post(
        f"/api/v1/games/{game_id}/bids",
        json={"bid": 0},
        headers={"Origin": FRONT, "If-Match": view.headers["ETag"], **bearer(token)},
    )
    assert moved.status_code == 200
    assert moved.headers["Access-Control-Allow-Origin"] == FRONT
    # Errors are readable by the page too.
    refused = client.post(
        f"/api/v1/games/{game_id}/bids", json={"bid": 0}, headers={"Origin": FRONT}
    )
    assert refused.status_code == 401
    assert refused.headers["Access-Control-Allow-Origin"] == FRONT

    # An origin not listed gets no CORS headers: its page cannot read the answer.
    stranger = client.get(f"/api/v1/games/{game_id}", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in stranger.headers


def test_listed_origins_may_use_an_account_from_a_browser(redis_url: str) -> None:
    client = client_with(redis_url, CORS_ORIGINS=FRONT)
    made = client.post(
        "/api/v1/accounts", json={"name": "Hooky", "kind": "bot"}, headers={"Origin": FRONT}
    )
    assert made.headers["Access-Control-Allow-Origin"] == FRONT
    account = f"/api/v1/accounts/{made.json['id']}"
    # Every method the API answers to, each with the account's key, passes its preflight.
    webhook = f"{account}/webhook"
    for method, path in (
        ("POST", "/api/v1/games"), ("PATCH", account), ("PUT", webhook), ("DELETE", webhook),
    ):  # fmt: skip
        answer = client.options(
            path,
            headers={
                "Origin": FRONT,
                "Access-Control-Request-Method": method,
                "Access-Control-Request-Headers": "content-type, x-pocha-account",
            },
        )
        assert answer.headers["Access-Control-Allow-Origin"] == FRONT, method
        methods = {m.strip() for m in answer.headers["Access-Control-Allow-Methods"].split(",")}
        assert method in methods, (method, methods)
        allowed = {
            h.strip().lower() for h in answer.headers["Access-Control-Allow-Headers"].split(",")
        }
        assert "x-pocha-account" in allowed, (method, allowed)
    opened = client.patch(
        account,
        json={"open_to_matches": True},
        headers={"Origin": FRONT, "X-Pocha-Account": made.json["key"]},
    )
    assert opened.status_code == 200 and opened.headers["Access-Control-Allow-Origin"] == FRONT


def test_any_origin(redis_url: str) -> None:
    client = client_with(redis_url, CORS_ORIGINS="*")
    answer = preflight(client, "/api/v1/games", "https://anywhere.example")
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    rules = client.get("/api/v1/rules", headers={"Origin": "https://anywhere.example"})
    assert rules.headers["Access-Control-Allow-Origin"] == "*"


def test_a_negative_body_deadline_fails_at_start(redis_url: str) -> None:
    # The deadline itself is gunicorn's worker's: tests/resilience/test_hostile_load.py.
    with pytest.raises(ValueError, match="POCHA_BODY_SECONDS must be 0 or more"):
        client_with(redis_url, BODY_SECONDS=-1)


def test_a_body_over_the_limit_is_413_unread(redis_url: str) -> None:
    client = client_with(redis_url, MAX_CONTENT_LENGTH=1024)
    big = {"players": [{"name": "x" * 40}] * 40}
    response = client.post("/api/v1/games", json=big)
    assert response.status_code == 413
    assert response.json["error"] == "body_too_large"
    small = client.post("/api/v1/games", json={"players": humans(3)})
    assert small.status_code == 201
    # Without a Content-Length (a chunked body), the same.
    chunked = client.post(
        "/api/v1/games",
        input_stream=io.BytesIO(json.dumps(big).encode()),
        content_type="application/json",
    )
    assert chunked.status_code == 413
    assert chunked.json["error"] == "body_too_large"
    whole = client.post(
        "/api/v1/games",
        input_stream=io.BytesIO(json.dumps({"players": humans(3)}).encode()),
        content_type="application/json",
    )
    assert whole.status_code == 201
