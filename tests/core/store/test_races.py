"""Racing requests for one turn: exactly one move is applied, every other request gets 409."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask import Flask

from core.errors import Conflict, StaleVersion
from core.store.store import GameStore
from engine.pocha.actions import action_to_wire, bid_action, bid_of, is_bid
from tests.service.helpers import create_game, humans, move, tokens_of
from tests.waiting import LONG, scaled

RACERS = 8


def race(app: Flask, game_id: str, token: str | None, actions: list[int | str]) -> list[Any]:
    """Send the actions at once, each from its own thread and client; the responses."""
    barrier = threading.Barrier(len(actions))
    responses: list[Any] = [None] * len(actions)

    def run(i: int) -> None:
        client = app.test_client()
        barrier.wait()
        responses[i] = move(client, game_id, token, actions[i])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=scaled(LONG))
    return responses


def assert_one_winner(responses: list[Any]) -> None:
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200] + [409] * (len(responses) - 1), [r.json for r in responses]
    for r in responses:
        if r.status_code == 409:
            assert r.json["error"] in ("conflict", "not_your_turn")


@pytest.mark.parametrize("trial", range(3))
def test_racing_bids_one_wins(app: Flask, store: GameStore, trial: int) -> None:
    client = app.test_client()
    created = create_game(client, humans(4), {"schedule": [5]}, seed=trial)
    game_id = created["id"]
    record = store.load(game_id)
    seat = record.game.turn
    assert seat is not None
    # Different legal bids from the same seat, all at once.
    responses = race(app, game_id, tokens_of(created)[seat], [i % 4 for i in range(RACERS)])
    assert_one_winner(responses)
    after = store.load(game_id)
    assert after.version == record.version + 1
    assert sum(b is not None for b in after.game.bids) == 1


def test_racing_cards_one_wins(app: Flask, store: GameStore) -> None:
    client = app.test_client()
    created = create_game(client, humans(4), {"schedule": [5]}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)
    for _ in range(4):
        game = store.load(game_id).game
        bid = game.legal_actions()[0]
        assert is_bid(bid)
        assert move(client, game_id, tokens[game.turn or 0], bid_of(bid)).status_code == 200
    record = store.load(game_id)
    leader = record.game.turn
    assert leader is not None and record.game.phase == "playing"
    # La mano leads: every card of its hand is legal, and they all race.
    cards = [action_to_wire(a) for a in record.game.legal_actions()]
    responses = race(app, game_id, tokens[leader], [cards[i % len(cards)] for i in range(RACERS)])
    assert_one_winner(responses)
    after = store.load(game_id)
    assert after.version == record.version + 1
    assert len(after.game.plays) == 1


def test_store_compare_and_set_refuses_the_loser(app: Flask, store: GameStore) -> None:
    created = create_game(app.test_client(), humans(3), {"schedule": [2]}, seed=1)
    game_id = created["id"]
    first, second = store.load(game_id), store.load(game_id)
    seat = first.game.turn
    assert seat is not None
    store.apply_action(game_id, seat, bid_action(0), record=first)
    # The second copy was read before the first write: its write must not land.
    with pytest.raises(Conflict):
        store.apply_action(game_id, seat, bid_action(1), record=second)
    with pytest.raises(StaleVersion):
        store.apply_action(
            game_id, (seat + 1) % 3, bid_action(1), expected_version=first.version - 1
        )
    assert store.load(game_id).version == 2
    assert [e["type"] for e in store.events(game_id)] == ["hand_dealt", "bid"]


# -- Idempotency-Key: a move retried after a lost answer is applied once -----------------


def test_a_move_sent_again_with_its_idempotency_key_is_not_applied_twice(app: Flask) -> None:
    client = app.test_client()
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)
    turn = client.get(f"/api/v1/games/{game_id}").json["turn"]
    first = move(client, game_id, tokens[turn], 0, **{"Idempotency-Key": "bid-1"})
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    again = move(client, game_id, tokens[turn], 0, **{"Idempotency-Key": "bid-1"})
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json["version"] == first.json["version"]
    bids = [e for e in client.get(f"/api/v1/games/{game_id}/events").json if e["type"] == "bid"]
    assert len(bids) == 1


def test_racing_one_idempotency_key_applies_the_move_once(app: Flask) -> None:
    client = app.test_client()
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)
    turn = client.get(f"/api/v1/games/{game_id}").json["turn"]
    barrier = threading.Barrier(RACERS)
    responses: list[Any] = [None] * RACERS

    def run(i: int) -> None:
        racer = app.test_client()
        barrier.wait()
        responses[i] = move(racer, game_id, tokens[turn], 1, **{"Idempotency-Key": "same"})

    threads = [threading.Thread(target=run, args=(i,)) for i in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=scaled(LONG))
    applied = [
        r for r in responses if r.status_code == 200 and "Idempotent-Replayed" not in r.headers
    ]
    assert len(applied) == 1, [(r.status_code, r.json) for r in responses]
    for r in responses:
        assert r.status_code in (200, 409), r.json
        if r.status_code == 409:
            assert r.json["error"] == "conflict"
    bids = [e for e in client.get(f"/api/v1/games/{game_id}/events").json if e["type"] == "bid"]
    assert len(bids) == 1


def test_a_refused_move_frees_its_idempotency_key(app: Flask) -> None:
    client = app.test_client()
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)
    turn = client.get(f"/api/v1/games/{game_id}").json["turn"]
    refused = move(client, game_id, tokens[turn], 9, **{"Idempotency-Key": "k"})
    assert refused.status_code == 422
    applied = move(client, game_id, tokens[turn], 1, **{"Idempotency-Key": "k"})
    assert applied.status_code == 200 and "Idempotent-Replayed" not in applied.headers


@pytest.mark.parametrize("key", ["", "with space", "é", "x" * 256])
def test_a_malformed_idempotency_key_is_a_400(app: Flask, key: str) -> None:
    client = app.test_client()
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    turn = client.get(f"/api/v1/games/{created['id']}").json["turn"]
    response = move(client, created["id"], tokens_of(created)[turn], 1,
                    **{"Idempotency-Key": key})  # fmt: skip
    assert response.status_code == 400, response.json
    assert response.json["error"] == "bad_request"


def test_an_idempotency_key_sent_again_with_another_move_is_refused(app: Flask) -> None:
    # Answering a retry's replay to another move would tell the client its move was
    # applied when it was not: a key reused for another move is refused, nothing applied.
    client = app.test_client()
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)
    turn = client.get(f"/api/v1/games/{game_id}").json["turn"]
    first = move(client, game_id, tokens[turn], 0, **{"Idempotency-Key": "bid-1"})
    assert first.status_code == 200
    events = client.get(f"/api/v1/games/{game_id}/events").json
    for language, words in (("en", "another move"), ("es", "otra jugada")):
        other = move(client, game_id, tokens[turn], 1,
                     **{"Idempotency-Key": "bid-1", "Accept-Language": language})  # fmt: skip
        assert other.status_code == 422, other.json
        assert other.json["error"] == "idempotency_key_reused"
        assert words in other.json["message"], other.json
        assert "Idempotent-Replayed" not in other.headers
    assert client.get(f"/api/v1/games/{game_id}/events").json == events
    # The same move under the same key is still a retry, answered with the game as it is.
    again = move(client, game_id, tokens[turn], 0, **{"Idempotency-Key": "bid-1"})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    # Keys are each seat's own: the next seat may send its move under the same one.
    nxt = client.get(f"/api/v1/games/{game_id}").json["turn"]
    taken = move(client, game_id, tokens[nxt], 0, **{"Idempotency-Key": "bid-1"})
    assert taken.status_code == 200 and "Idempotent-Replayed" not in taken.headers
    assert client.get(f"/api/v1/games/{game_id}").json["version"] == first.json["version"] + 1
