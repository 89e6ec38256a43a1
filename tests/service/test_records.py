"""Game records over HTTP (`GET /api/v1/games/{id}/record`, docs/records.md): refused with
409 `game_not_over` in the caller's language while the game runs; once it is over, a record
of Pocha and one of Poch, each played to the end through the service by a person, bots and a
stand-in (for a person who left), hold to the JSON Schema the service serves and say exactly
what the game's events, score sheet and views said. That schema, served at
`GET /api/v1/schemas/game-record.json` from the package, is the committed
openapi/game-record.schema.json byte for byte, revalidated by its ETag."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema
from flask.testing import FlaskClient

from tests.records import poch_recorded, poch_said
from tests.service.helpers import bearer

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "openapi" / "game-record.schema.json"
SCHEMA_URL = "/api/v1/schemas/game-record.json"
GAMES = "/api/v1/games"


def served_schema(client: FlaskClient) -> dict[str, Any]:
    """The record's JSON Schema as the service answers it."""
    response = client.get(SCHEMA_URL)
    assert response.status_code == 200, response.data[:300]
    assert response.mimetype == "application/schema+json"
    schema: dict[str, Any] = json.loads(response.data)
    return schema


def validator(client: FlaskClient) -> jsonschema.Draft202012Validator:
    schema = served_schema(client)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


def assert_valid(client: FlaskClient, record: dict[str, Any]) -> None:
    found = validator(client).iter_errors(record)
    errors = [f"/{'/'.join(map(str, e.path))}: {e.message}" for e in found]
    assert not errors, errors[:5]


def create(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(GAMES, json=body)
    assert response.status_code == 201, response.json
    created: dict[str, Any] = response.json
    return created


def leave(client: FlaskClient, game_id: str, seat: int, token: str) -> None:
    left = client.post(f"{GAMES}/{game_id}/seats/{seat}/leave", headers=bearer(token))
    assert left.status_code == 200, left.json


def play_seat_to_the_end(
    client: FlaskClient, game_id: str, token: str, endpoint_of: Any, rng: random.Random
) -> dict[str, Any]:
    """Seat 0's person makes a random legal decision each turn until the game is over (the
    bots and the stand-in play inline); the final view."""
    for _ in range(3_000):
        view: dict[str, Any] = client.get(f"{GAMES}/{game_id}", headers=bearer(token)).json
        if view["turn"] is None:
            return view
        assert view["turn"] == 0, view
        action = rng.choice(view["you"]["legal"])
        endpoint, key = endpoint_of(action)
        moved = client.post(f"{GAMES}/{game_id}/{endpoint}", json={key: action},
                            headers=bearer(token))  # fmt: skip
        assert moved.status_code == 200, moved.json
    raise AssertionError("the game did not end")


def test_the_service_serves_the_record_schema_committed(client: FlaskClient) -> None:
    response = client.get(SCHEMA_URL)
    assert response.status_code == 200
    assert response.mimetype == "application/schema+json"
    assert response.data == SCHEMA_PATH.read_bytes()
    assert json.loads(response.data) == json.loads(SCHEMA_PATH.read_text())
    assert json.loads(response.data)["$id"] == "urn:pocha:game-record:1"
    # Like the page's catalogues: revalidated every time, cheaply by its ETag.
    assert response.headers["Cache-Control"] == "no-cache"
    etag = response.headers["ETag"]
    again = client.get(SCHEMA_URL, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    stale = client.get(SCHEMA_URL, headers={"If-None-Match": '"an-older-schema"'})
    assert stale.status_code == 200 and stale.data == response.data


def test_a_game_not_over_has_no_record_yet_in_either_language(client: FlaskClient) -> None:
    players = [{"name": "Ana"}, {"name": "B", "bot": "easy"}, {"name": "C", "bot": "easy"}]
    created = create(client, {"players": players})
    url = f"{GAMES}/{created['id']}/record"
    english = client.get(url, headers={"Accept-Language": "en"})
    assert english.status_code == 409 and english.json["error"] == "game_not_over"
    assert english.json["message"].startswith("The game is not over")
    spanish = client.get(url, headers={"Accept-Language": "es"})
    assert spanish.status_code == 409 and spanish.json["error"] == "game_not_over"
    assert spanish.json["message"].startswith("La partida no ha terminado: su registro")
    missing = client.get(f"{GAMES}/nosuchgame0000000/record")
    assert missing.status_code == 404 and missing.json["error"] == "game_not_found"


def play_pocha(client: FlaskClient) -> tuple[str, dict[str, Any]]:
    """A game of Pocha played to the end: Ana (at random), Bea, who leaves at once so that
    the stand-in plays her seat, and a bot. Its id and Ana's last view."""
    players = [{"name": "Ana"}, {"name": "Bea"}, {"name": "Bot", "bot": "easy"}]
    rules = {"schedule": [1, 2, 3], "turn_seconds": 0}
    created = create(client, {"players": players, "rules": rules, "stand_in_level": "heuristic"})
    game_id = created["id"]
    tokens = [s.get("token") for s in created["seats"]]
    leave(client, game_id, 1, tokens[1])
    final = play_seat_to_the_end(
        client, game_id, tokens[0],
        lambda a: ("bids", "bid") if isinstance(a, int) else ("plays", "card"),
        random.Random(3),
    )  # fmt: skip
    return game_id, final


def play_poch(client: FlaskClient) -> tuple[str, dict[str, Any]]:
    """A game of Poch played to the end: Ana (at random), Bea, who leaves at once, and two
    bots. Its id and Ana's last view."""
    players = [
        {"name": "Ana"}, {"name": "Bea"},
        {"name": "Rand", "bot": "random"}, {"name": "Heur", "bot": "heuristic"},
    ]  # fmt: skip
    rules = {"deals": 4, "turn_seconds": 0}
    created = create(
        client,
        {"game": "poch", "players": players, "rules": rules, "stand_in_level": "random"},
    )
    game_id = created["id"]
    tokens = [s.get("token") for s in created["seats"]]
    leave(client, game_id, 1, tokens[1])

    def endpoint_of(action: Any) -> tuple[str, str]:
        if action in ("pass", "hold") or isinstance(action, int):
            return "bets", "bet"
        return ("suits", "suit") if action in ("C", "S", "H", "D") else ("plays", "card")

    final = play_seat_to_the_end(client, game_id, tokens[0], endpoint_of, random.Random(5))
    return game_id, final


def test_a_pocha_record_says_what_the_game_said(client: FlaskClient) -> None:
    game_id, final = play_pocha(client)
    response = client.get(f"{GAMES}/{game_id}/record")
    assert response.status_code == 200, response.json
    record = response.json
    assert_valid(client, record)
    assert record["format"] == 1 and record["game"] == "pocha" and record["id"] == game_id
    assert record["players"] == [
        {"seat": 0, "name": "Ana", "level": None},
        {"seat": 1, "name": "Bea", "level": None},
        {"seat": 2, "name": "Bot", "level": "easy"},
    ]
    assert record["stand_in_level"] == "heuristic"
    assert record["rules"]["schedule"] == [1, 2, 3] and record["rules"]["players"] == 3
    assert record["scores"] == final["scores"]

    sheet = client.get(f"{GAMES}/{game_id}/history").json
    assert record["winners"] == sheet["winners"]
    assert len(record["deals"]) == len(sheet["hands"]) >= 3
    for deal, hand in zip(record["deals"], sheet["hands"], strict=True):
        assert deal["number"] == hand["hand_number"] and deal["cards"] == hand["cards"]
        assert deal["dealer"] == hand["dealer"] and deal["trump"] == hand["trump"]
        assert deal["hands"] == hand["hands"]
        assert deal["tricks_won"] == hand["tricks"] and deal["points"] == hand["points"]
        assert deal["scores"] == hand["totals"]
        by_seat = {b["seat"]: b["bid"] for b in deal["bids"]}
        assert [by_seat[s] for s in range(3)] == hand["bids"]
        assert len(deal["tricks"]) == deal["cards"]
        for trick in deal["tricks"]:
            assert len(trick["cards"]) == 3
            # Every card played came from its seat's hand as dealt.
            assert all(c["card"] in deal["hands"][c["seat"]] for c in trick["cards"])

    events = client.get(f"{GAMES}/{game_id}/events").json
    decisions = [e for e in events if e["type"] in ("bid", "card_played")]
    recorded = [
        (b["seat"], "bid", b["bid"], b.get("stand_in", False))
        for deal in record["deals"]
        for b in deal["bids"]
    ]
    cards = [
        (c["seat"], "card", c["card"], c.get("stand_in", False))
        for deal in record["deals"]
        for t in deal["tricks"]
        for c in t["cards"]
    ]
    said = [
        (e["seat"], "bid" if e["type"] == "bid" else "card", e.get("bid", e.get("card")),
         e.get("by") == "stand_in")
        for e in decisions
    ]  # fmt: skip
    assert sorted(recorded + cards, key=str) == sorted(said, key=str)
    # In order: the cards as the events played them, each trick won as the events said.
    assert cards == [s for s in said if s[1] == "card"]
    winners = [e["seat"] for e in events if e["type"] == "trick_won"]
    assert [t["winner"] for d in record["deals"] for t in d["tricks"]] == winners
    # Bea's turns were the stand-in's, and only hers.
    flagged = {s[0] for s in said if s[3]}
    assert flagged == {1}


def test_a_poch_record_says_what_the_game_said(client: FlaskClient) -> None:
    game_id, final = play_poch(client)
    response = client.get(f"{GAMES}/{game_id}/record", headers={"Accept-Language": "es"})
    assert response.status_code == 200, response.json
    record = response.json
    assert_valid(client, record)
    assert record["game"] == "poch" and record["rules"]["deals"] == 4
    assert [p["level"] for p in record["players"]] == [None, None, "random", "heuristic"]
    assert record["scores"] == final["result"]["chips"]
    assert record["winners"] == final["result"]["winners"]

    sheet = client.get(f"{GAMES}/{game_id}/history").json
    assert [(d["number"], d["winner"], d["paid"]) for d in record["deals"]] == [
        (d["deal"], d["winner"], d["paid"]) for d in sheet["deals"]
    ]
    assert record["deals"][-1]["chips"] == final["result"]["chips"]
    for deal in record["deals"]:
        # The whole pack is dealt among the seats in play, the dealer's last card is trumps.
        dealt = [c for seat in deal["order"] for c in deal["hands"][seat]]
        assert len(dealt) == len(set(dealt)) == 32
        assert deal["trump"]["card"] in deal["hands"][deal["dealer"]]
        assert deal["trump"]["card"][0] == deal["trump"]["suit"]
        plays = [s for s in deal["shedding"] if s["type"] == "play"]
        assert all(p["card"] in deal["hands"][p["seat"]] for p in plays)
        # The winner played every card they were dealt.
        out = [p["card"] for p in plays if p["seat"] == deal["winner"]]
        assert sorted(out) == sorted(deal["hands"][deal["winner"]])
        assert len(deal["betting"]) == len(deal["order"])

    events = client.get(f"{GAMES}/{game_id}/events").json
    said = poch_said(events)
    assert poch_recorded(record["deals"]) == said
    assert {s[1] for s in said if s[3]} == {1}
    collected = [(e["seat"], e["plate"], e["chips"]) for e in events if e["type"] == "collect"]
    assert [(c["seat"], c["plate"], c["chips"]) for d in record["deals"] for c in d["collected"]] \
        == collected  # fmt: skip
