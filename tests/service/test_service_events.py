"""Events as JSON and as Server-Sent Events (backlog, Last-Event-ID, live, end of game),
and the games' time to live in Redis."""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from core.store.keys import events_key
from core.store.store import GameStore
from engine.pocha.actions import action_to_wire
from service import create_app
from service.events import EXTENSION as EVENTS
from service.events import EventStreams
from tests.service.helpers import bearer, create_game, humans, move, tokens_of
from tests.waiting import LONG, scaled, wait_until

STREAM = {"Accept": "text/event-stream"}


def parse_sse(text: str) -> list[dict[str, Any]]:
    """The events of an SSE text, each with the `id` line it came with."""
    found = []
    for block in text.split("\n\n"):
        lines = dict(
            line.split(": ", 1) for line in block.splitlines() if ": " in line and line[0] != ":"
        )
        if "data" in lines:
            event = json.loads(lines["data"])
            assert int(lines["id"]) == event["seq"]
            found.append(event)
    return found


def finished_game(client: FlaskClient) -> dict[str, Any]:
    players = [{"name": f"B{i}", "bot": "random"} for i in range(3)]
    return create_game(client, players, {"schedule": [1, 2]}, seed=1)


def test_events_after(client: FlaskClient) -> None:
    created = finished_game(client)
    url = f"/api/v1/games/{created['id']}/events"
    every = client.get(url).json
    assert [e["seq"] for e in every] == list(range(1, len(every) + 1))
    assert client.get(f"{url}?after=3").json == every[3:]
    assert client.get(f"{url}?after={len(every)}").json == []
    assert client.get(f"{url}?after=-1").status_code == 422
    types = {e["type"] for e in every}
    assert types == {"hand_dealt", "bid", "card_played", "trick_won", "hand_scored", "game_over"}


def test_a_token_that_opens_nothing_is_refused_as_json_as_in_a_stream(
    client: FlaskClient,
) -> None:
    # The events are everyone's, but a token sent is checked as a view checks it: a client
    # that meant to be a seat learns that its token is wrong, whatever it accepts.
    created = create_game(client, humans(3))
    url = f"/api/v1/games/{created['id']}/events"
    every = client.get(url).json
    for token in (tokens_of(created)[1], created["host_token"]):
        assert client.get(url, headers=bearer(token)).json == every
    for authorization in ("Bearer nope", "Basic " + created["host_token"], "Bearer"):
        for accept in ({}, STREAM):
            refused = client.get(
                url, headers={"Authorization": authorization, "Accept-Language": "es", **accept}
            )
            assert (refused.status_code, refused.json["error"]) == (401, "unauthorized")
            assert refused.headers["Content-Language"] == "es"


def test_stream_of_a_finished_game_sends_the_backlog_and_ends(client: FlaskClient) -> None:
    created = finished_game(client)
    url = f"/api/v1/games/{created['id']}/events"
    response = client.get(url, headers=STREAM)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    streamed = parse_sse(response.get_data(as_text=True))
    assert streamed == client.get(url).json
    resumed = client.get(url, headers={**STREAM, "Last-Event-ID": "5"})
    assert parse_sse(resumed.get_data(as_text=True)) == streamed[5:]


def test_a_finished_stream_tells_an_eventsource_to_stop(client: FlaskClient) -> None:
    # A standard EventSource reconnects whenever a stream ends, with Last-Event-ID the last
    # event it saw. Past a finished game's last event the answer is 204, which stops it.
    created = finished_game(client)
    url = f"/api/v1/games/{created['id']}/events"
    every = client.get(url).json
    last = str(every[-1]["seq"])
    again = client.get(url, headers={**STREAM, "Last-Event-ID": last})
    assert (again.status_code, again.get_data()) == (204, b"")
    assert client.get(f"{url}?after={last}", headers=STREAM).status_code == 204
    # Polled as JSON, nothing changes: the empty list.
    assert client.get(f"{url}?after={last}").json == []
    # A game still in play keeps its stream open at its last event.
    playing = create_game(client, humans(3), {"schedule": [2]}, seed=3)
    live_url = f"/api/v1/games/{playing['id']}/events"
    count = str(len(client.get(live_url).json))
    live = client.get(live_url, headers={**STREAM, "Last-Event-ID": count}, buffered=False)
    assert live.status_code == 200
    live.close()


def test_stream_of_an_unknown_game_is_a_json_404(client: FlaskClient) -> None:
    response = client.get("/api/v1/games/nope/events", headers=STREAM)
    assert response.status_code == 404
    assert response.json["error"] == "game_not_found"


def test_stream_follows_live_moves_until_game_over(app: Flask, store: GameStore) -> None:
    client = app.test_client()
    created = create_game(client, humans(3), {"schedule": [1]}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)
    received: list[dict[str, Any]] = []
    done = threading.Event()

    def follow() -> None:
        response = app.test_client().get(
            f"/api/v1/games/{game_id}/events", headers=STREAM, buffered=False
        )
        for chunk in response.response:
            received.extend(parse_sse(chunk.decode()))
        done.set()

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    while not store.load(game_id).finished:
        game = store.load(game_id).game
        seat = game.turn
        assert seat is not None
        action = action_to_wire(game.legal_actions()[0])
        assert move(client, game_id, tokens[seat], action).status_code == 200
        time.sleep(0.01)
    assert done.wait(scaled(LONG)), "the stream did not end with the game"
    assert received == client.get(f"/api/v1/games/{game_id}/events").json
    assert received[-1]["type"] == "game_over"


def test_stream_ends_when_the_game_is_deleted(app: Flask) -> None:
    client = app.test_client()
    created = create_game(client, humans(3), {"schedule": [1]}, seed=3)
    chunks: list[bytes] = []
    streaming, done = threading.Event(), threading.Event()

    def follow() -> None:
        response = app.test_client().get(
            f"/api/v1/games/{created['id']}/events", headers=STREAM, buffered=False
        )
        for chunk in response.response:
            chunks.append(chunk)
            streaming.set()
        done.set()

    threading.Thread(target=follow, daemon=True).start()
    # The first chunk comes once the stream follows the game's changes.
    assert streaming.wait(scaled(LONG)), "the stream never started"
    url = f"/api/v1/games/{created['id']}"
    assert client.delete(url, headers=bearer(created["host_token"])).status_code == 204
    assert done.wait(scaled(LONG)), "the stream did not end with the game"
    assert client.get(url).status_code == 404


def test_idle_stream_sends_keepalives_and_ends_in_time(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "SSE_MAX_SECONDS": 1.0, "SSE_KEEPALIVE_SECONDS": 0.2})
    client = app.test_client()
    created = create_game(client, humans(3), seed=3)
    started = time.monotonic()
    text = client.get(f"/api/v1/games/{created['id']}/events", headers=STREAM).get_data(
        as_text=True
    )
    # Its second, and room for a loaded machine: far from a stream that runs on.
    assert time.monotonic() - started < 30
    assert ": keepalive" in text
    assert [e["type"] for e in parse_sse(text)] == ["hand_dealt"]


def test_a_stream_notices_its_client_closing_without_gevent(app: Flask) -> None:
    # Without gevent's loop to watch it, the client's socket is looked at on each wake-up.
    streams: EventStreams = app.extensions[EVENTS]
    game_id = create_game(app.test_client(), humans(3), seed=3)["id"]
    silent, silent_peer = socket.socketpair()
    talking, talking_peer = socket.socketpair()
    followers = [streams.hub.follow(game_id, 0, sock) for sock in (silent, talking)]
    try:
        assert not any(f.client_left() for f in followers)
        talking_peer.sendall(b"GET /")  # bytes after the request are no close
        assert not followers[1].client_left()
        silent_peer.close()
        assert followers[0].client_left()
    finally:
        for follower in followers:
            streams.hub.leave(follower)
        for sock in (silent, talking, talking_peer):
            sock.close()


def test_ttls_idle_then_finished(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "IDLE_TTL": 1000, "FINISHED_TTL": 100})
    client = app.test_client()
    store: GameStore = app.extensions["pocha"].store
    created = create_game(client, humans(3), {"schedule": [1]}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)
    assert 990 < store.ttl(game_id) <= 1000
    assert 990 < store.redis.ttl(events_key(game_id)) <= 1000
    while not store.load(game_id).finished:
        game = store.load(game_id).game
        move(client, game_id, tokens[game.turn or 0], action_to_wire(game.legal_actions()[0]))
    assert 90 < store.ttl(game_id) <= 100
    assert 90 < store.redis.ttl(events_key(game_id)) <= 100


def test_idle_games_expire(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "IDLE_TTL": 1})
    client = app.test_client()
    created = create_game(client, humans(3), seed=3)
    assert client.get(f"/api/v1/games/{created['id']}").status_code == 200
    # Redis drops the game a second after its last change: wait for that, not for luck.
    wait_until(
        lambda: client.get(f"/api/v1/games/{created['id']}").status_code == 404,
        LONG,
        "the idle game to expire",
        every=0.2,
    )
    response = client.get(f"/api/v1/games/{created['id']}")
    assert response.json["error"] == "game_not_found"


def test_a_stream_resumed_past_the_games_last_event_is_told_to_read_it_again(
    app: Flask,
) -> None:
    # A client that saw 9 events of a game that has 3 (a failover of its Redis lost the
    # rest): the stream says `reset` with the game's last event, then follows from there.
    client = app.test_client()
    created = create_game(client, humans(3), {"schedule": [2]}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)

    def play() -> None:
        view = client.get(f"/api/v1/games/{game_id}").json
        token = tokens[view["turn"]]
        mine = client.get(f"/api/v1/games/{game_id}", headers=bearer(token)).json
        assert move(client, game_id, token, mine["you"]["legal"][0]).status_code == 200

    play()
    play()
    url = f"/api/v1/games/{game_id}/events"
    assert len(client.get(url).json) == 3
    response = app.test_client().get(url, headers={**STREAM, "Last-Event-ID": "9"}, buffered=False)
    assert response.status_code == 200
    chunks = iter(response.response)
    text = ""
    while "event: reset" not in text:
        text += next(chunks).decode()
    assert 'id: 3\nevent: reset\ndata: {"last_event": 3}\n\n' in text
    threading.Timer(0.2, play).start()
    while "id: 4\n" not in text:
        text += next(chunks).decode()
    assert [e["seq"] for e in parse_sse(text.split('{"last_event": 3}\n\n', 1)[1])] == [4]
    response.close()
    # Resumed at or before the game's last event: no reset.
    plain = client.get(url, headers={**STREAM, "Last-Event-ID": "2"}, buffered=False)
    chunks = iter(plain.response)
    text = ""
    while "id: 3\n" not in text:
        text += next(chunks).decode()
    assert "reset" not in text
    plain.close()
