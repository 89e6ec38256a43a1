"""Whole games over HTTP with every seat a person, checked view by view against the engine."""

from __future__ import annotations

import json
import random

import pytest
from flask.testing import FlaskClient

from core.store.keys import game_key
from core.store.store import GameStore
from service.api.wire.pocha import GameViewSchema
from tests.service.helpers import create_game, humans, play_out


@pytest.mark.parametrize(
    ("players", "schedule"),
    [(3, [1, 2, 12]), (4, [1, 3, 10]), (5, [2, 8]), (8, [1, 5])],
)
def test_whole_game_every_seat_human(
    client: FlaskClient, players: int, schedule: list[int]
) -> None:
    rules = {"schedule": schedule}
    seed = 100 + players
    created = create_game(client, humans(players), rules, seed)
    assert [s["seat"] for s in created["seats"]] == list(range(players))
    assert all(len(s["token"]) >= 40 for s in created["seats"])
    replay, seen = play_out(
        client, created, {**rules, "players": players}, seed, random.Random(players)
    )
    assert replay.finished
    # Views are sent as built, not dumped through GameViewSchema: the schema must still
    # document every field (a dump through it keeps everything and changes nothing).
    schema = GameViewSchema()
    for view in seen[:: max(1, len(seen) // 50)]:
        assert schema.dump(view) == view
    final = client.get(f"/api/v1/games/{created['id']}").json
    assert final["phase"] == "finished"
    assert final["turn"] is None
    assert final["scores"] == replay.scores
    history = client.get(f"/api/v1/games/{created['id']}/history").json
    assert [h["totals"] for h in history["hands"]] == [h["totals"] for h in replay.history]
    events = client.get(f"/api/v1/games/{created['id']}/events").json
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[0]["type"] == "hand_dealt"
    assert events[-1]["type"] == "game_over"
    assert events[-1]["version"] == final["version"]


@pytest.mark.parametrize(
    ("sent", "shown"),
    [
        ("  Ana   María ", "Ana María"),
        ("Jose\u0301", "José"),  # NFC: one letter, as a person types it
        ("Ana\u0000\u200b\u202e", "Ana"),  # NUL, zero-width space, right-to-left override
        ("Ana\tLuisa\nPérez", "Ana Luisa Pérez"),
    ],
)
def test_names_are_stored_as_people_see_them(client: FlaskClient, sent: str, shown: str) -> None:
    players = [{"name": sent}, *humans(2)]
    created = client.post("/api/v1/games", json={"players": players})
    assert created.status_code == 201, created.json
    view = client.get(f"/api/v1/games/{created.json['id']}").json
    assert view["players"][0]["name"] == shown


@pytest.mark.parametrize(
    "name",
    # the last three draw nothing: Hangul fillers, the blank Braille pattern
    ["", "   ", "\u0000", "\u200b\u200c", "\u202e", "\t\n", "\u3164", "\u2800 \u2800", "\uffa0"],
)
def test_a_name_with_nothing_visible_is_refused(client: FlaskClient, name: str) -> None:
    response = client.post("/api/v1/games", json={"players": [{"name": name}, *humans(2)]})
    assert response.status_code == 422, response.json
    assert response.json["error"] == "validation_error"
    assert "players" in response.json["errors"]["json"]


@pytest.mark.parametrize("name", ["A" + " " * 40 + "B", "Ana" + "\u200b" * 38, "x" * 41])
def test_a_name_is_measured_as_sent(client: FlaskClient, name: str) -> None:
    """Over 40 characters is refused even when cleaning would shorten it, at a table's
    creation and when taking its seat."""
    response = client.post("/api/v1/games", json={"players": [{"name": name}, *humans(2)]})
    assert response.status_code == 422, response.json
    assert response.json["errors"]["json"]["players"]["0"]["name"] == [
        "Longer than maximum length 40."
    ]
    players = [{"name": "Ana"}, {"open": True}, {"open": True}]
    code = client.post("/api/v1/games", json={"players": players}).json["table_code"]
    joined = client.post(
        f"/api/v1/tables/{code}/seats", json={"name": name}, headers={"Accept-Language": "es"}
    )
    assert joined.status_code == 422, joined.json
    assert joined.json["errors"]["json"]["name"] == ["Más largo que la longitud máxima, 40."]
    fits = client.post(f"/api/v1/tables/{code}/seats", json={"name": "B" * 40})
    assert fits.status_code == 201, fits.json


def test_a_chosen_seed_is_public_in_every_view(client: FlaskClient) -> None:
    seeded = create_game(client, humans(3), {"schedule": [1]}, seed=12345)
    unseeded = client.post("/api/v1/games", json={"players": humans(3)}).json
    for created, chosen in ((seeded, True), (unseeded, False)):
        game_id = created["id"]
        assert client.get(f"/api/v1/games/{game_id}").json["seeded"] is chosen
        token = created["seats"][0]["token"]
        mine = client.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
        assert mine.json["seeded"] is chosen


def test_an_unseeded_deal_cannot_be_reconstructed(client: FlaskClient, store: GameStore) -> None:
    """Its seed comes from the OS's CSPRNG, 128 bits (no search of seeds from one's own
    cards can find it), and never leaves the store: not in views, events or the history."""
    created = client.post("/api/v1/games", json={"players": humans(3)}).json
    game_id = created["id"]
    stored = json.loads(store.redis.hget(game_key(game_id), "state"))
    seed = int(stored["seed"])
    assert seed.bit_length() > 100
    token = created["seats"][0]["token"]
    seen = [
        client.get(f"/api/v1/games/{game_id}").get_data(as_text=True),
        client.get(
            f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}
        ).get_data(as_text=True),
        client.get(f"/api/v1/games/{game_id}/events").get_data(as_text=True),
        client.get(f"/api/v1/games/{game_id}/history").get_data(as_text=True),
    ]
    for text in seen:
        assert str(seed) not in text and '"seed"' not in text
