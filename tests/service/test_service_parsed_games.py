"""Each process keeps the games it parsed last (`GameStore._parsed_state`). Two apps on one
Redis stand for two API processes: moves alternate between them, so each one's kept copy
keeps going out of date, and every view must still be the engine's. A refused move, which
takes the kept game to change it, must leave nothing changed behind."""

from __future__ import annotations

import random

from flask.testing import FlaskClient

from service import create_app
from tests.service.helpers import (
    bearer,
    create_game,
    engine_view,
    humans,
    move,
    replay_game,
    strip_view,
    tokens_of,
)


def _app_client(redis_url: str) -> FlaskClient:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline"})
    return app.test_client()


def test_two_processes_alternating_moves_always_see_the_stored_game(redis_url: str) -> None:
    first, second = _app_client(redis_url), _app_client(redis_url)
    rules = {"players": 4, "schedule": [3, 4, 2]}
    created = create_game(first, humans(4), rules, seed=11)
    game_id, tokens = created["id"], tokens_of(created)
    replica = replay_game(rules, 11)
    rng = random.Random(5)
    step = 0
    while not replica.finished:
        seat = replica.turn
        assert seat is not None
        action = rng.choice(replica.legal_actions())
        # Mostly alternating, sometimes the same process twice in a row.
        client = (first, second)[(step + (rng.random() < 0.25)) % 2]
        response = move(client, game_id, tokens[seat], action)
        assert response.status_code == 200, response.json
        replica.apply(seat, action)
        for reader in (first, second):
            view = reader.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[seat])).json
            assert strip_view(view) == engine_view(replica, seat)
        step += 1


def test_a_refused_move_leaves_the_kept_game_as_it_was(redis_url: str) -> None:
    client = _app_client(redis_url)
    rules = {"players": 3, "schedule": [3]}
    created = create_game(client, humans(3), rules, seed=4)
    game_id, tokens = created["id"], tokens_of(created)
    replica = replay_game(rules, 4)
    while replica.phase == "bidding":
        seat = replica.turn
        assert seat is not None
        bid = replica.legal_actions()[0]
        assert move(client, game_id, tokens[seat], bid).status_code == 200
        replica.apply(seat, bid)
    seat = replica.turn
    assert seat is not None
    hand = [c for c in engine_view(replica, seat)["you"]["hand"]]
    illegal = [c for c in hand if c not in replica.legal_actions()]
    refused = [
        move(client, game_id, tokens[(seat + 1) % 3], hand[0]),  # not that seat's turn
        move(client, game_id, tokens[seat], 9),  # a bid while playing
    ]
    if illegal:
        refused.append(move(client, game_id, tokens[seat], illegal[0]))
    assert all(400 <= r.status_code < 500 for r in refused)
    view = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[seat])).json
    assert strip_view(view) == engine_view(replica, seat)
    card = replica.legal_actions()[0]
    assert move(client, game_id, tokens[seat], card).status_code == 200
    replica.apply(seat, card)
    view = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[seat])).json
    assert strip_view(view) == engine_view(replica, seat)
