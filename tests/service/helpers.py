"""Helpers of the service tests: create games, act as a seat, replay a game in the engine."""

from __future__ import annotations

import random
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from core.play.games import view_of
from engine.pocha.actions import action_to_wire
from engine.pocha.game import Game
from engine.pocha.rules import Rules
from service import create_app
from tests.waiting import LONG, scaled, wait_until
from tools.soak import VIEW_ONLY

#: Two callers from addresses of their own (documentation ranges).
ANA = {"REMOTE_ADDR": "203.0.113.7"}
BRUNO = {"REMOTE_ADDR": "198.51.100.9"}


def limited_app(redis_url: str, **settings: Any) -> Flask:
    """The app on `redis_url` with its rate limits on (and `settings`), bots inline."""
    return create_app(
        {
            "REDIS_URL": redis_url,
            "TESTING": True,
            "BOT_RUNNER": "inline",
            "RATE_LIMITS": "on",
            **settings,
        }
    )


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def create_game(
    client: FlaskClient,
    players: list[dict[str, Any]],
    rules: dict[str, Any] | None = None,
    seed: int | None = 7,
) -> dict[str, Any]:
    body: dict[str, Any] = {"players": players}
    if rules is not None:
        body["rules"] = rules
    if seed is not None:
        body["seed"] = seed
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 201, response.json
    created: dict[str, Any] = response.json
    assert response.headers["Location"] == f"/api/v1/games/{created['id']}"
    return created


def account_game(client: FlaskClient, key: str) -> str:
    """A game of one hand made with an account's `key`, the account in seat 0 beside two
    random bots, once it is the account's turn: its id."""
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "Ana"}, {"name": "R", "bot": "random"},
                          {"name": "S", "bot": "random"}], "rules": {"schedule": [1]}},
        headers={"X-Pocha-Account": key},
    )  # fmt: skip
    assert made.status_code == 201, made.json
    game_id: str = made.json["id"]
    wait_until(
        lambda: client.get(f"/api/v1/games/{game_id}").json["turn"] == 0,
        scaled(LONG), "the account's turn",
    )  # fmt: skip
    return game_id


def humans(n: int) -> list[dict[str, Any]]:
    return [{"name": f"P{i}"} for i in range(n)]


def tokens_of(created: dict[str, Any]) -> list[str | None]:
    return [seat.get("token") for seat in created["seats"]]


def engine_view(game: Game, seat: int | None) -> dict[str, Any]:
    """What the API's view of the replayed `game` must equal, less the record's keys."""
    return _clockless(view_of(game, seat))


def strip_view(view: dict[str, Any]) -> dict[str, Any]:
    return _clockless({k: v for k, v in view.items() if k not in VIEW_ONLY})


def _clockless(view: dict[str, Any]) -> dict[str, Any]:
    """A view less its clock setting: a game made with two people or more gets the default
    `turn_seconds`, which the replayed game (made from the rules as given) has not."""
    rules = {k: v for k, v in view["rules"].items() if k != "turn_seconds"}
    return {**view, "rules": rules}


def move(
    client: FlaskClient, game_id: str, token: str | None, action: int | str, **headers: str
) -> Any:
    """POST a bid (int) or a card (code), as the API takes them, as the token's seat; the
    response. (An engine action goes as `action_to_wire(action)`.)"""
    if isinstance(action, int):
        path, body = "bids", {"bid": action}
    else:
        path, body = "plays", {"card": action}
    return client.post(
        f"/api/v1/games/{game_id}/{path}", json=body, headers={**bearer(token), **headers}
    )


def replay_game(created_rules: dict[str, Any], seed: int) -> Game:
    return Game.new(Rules.from_dict(created_rules), seed)


def play_out(
    client: FlaskClient,
    created: dict[str, Any],
    rules: dict[str, Any],
    seed: int,
    rng: random.Random,
    check_every_seat: bool = True,
) -> tuple[Game, list[dict[str, Any]]]:
    """Play the game to its end over HTTP, every seat a person choosing at random among
    its legal actions, checking each response (and every seat's view) against the same
    game replayed in the engine. Returns the replayed game and every response seen."""
    tokens = tokens_of(created)
    game_id = created["id"]
    replay = replay_game(rules, seed)
    seen: list[dict[str, Any]] = []
    version = created["version"]
    while True:
        spectator = client.get(f"/api/v1/games/{game_id}").json
        seen.append(spectator)
        assert strip_view(spectator) == engine_view(replay, None)
        assert spectator["version"] == version
        if check_every_seat:
            for seat, token in enumerate(tokens):
                view = client.get(f"/api/v1/games/{game_id}", headers=bearer(token)).json
                seen.append(view)
                assert strip_view(view) == engine_view(replay, seat)
        if replay.finished:
            return replay, seen
        seat = spectator["turn"]
        legal = replay.legal_actions()
        action = rng.choice(list(legal))
        replay.apply(seat, action)
        response = move(client, game_id, tokens[seat], action_to_wire(action))
        assert response.status_code == 200, response.json
        version += 1
        assert response.json["version"] == version
        assert response.headers["ETag"] == f'"{version}"'
        assert strip_view(response.json) == engine_view(replay, seat)
        seen.append(response.json)


#: A Pocha position that `POST /api/v1/ai/move` accepts: seat 0's, with three cards.
AI_POSITION: dict[str, Any] = {
    "rules": {"players": 4},
    "seat": 0,
    "hand": ["O1", "O4", "C3"],
    "trump": {"card": "E7", "holder": None},
    "dealer": 3,
    "bids": [1, 0, 1, 0],
    "plays": [],
}
