"""Poch over HTTP: creation and its refusals, views (what each seat may see), the three
decision endpoints and their refusals (never a change), If-Match and Idempotency-Key,
tables, the lobby and the rematch, the score sheet and `GET /api/v1/rules`.

Whole games against an independent check of the rule book are in `test_poch_games.py`;
bots on real workers, hints and clocks in `tests/worker/test_poch_worker.py`.
"""

from __future__ import annotations

import random
from typing import Any

from flask.testing import FlaskClient

from core.store.store import GameStore
from tests.service.helpers import bearer

PEOPLE = [{"name": "Ana"}, {"name": "Bea"}, {"name": "Cris"}]
STALE = {"If-Match": '"99"'}


def create(client: FlaskClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/v1/games", json={"game": "poch", **body})
    assert response.status_code == 201, response.json
    created: dict[str, Any] = response.json
    return created


def view(client: FlaskClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/v1/games/{game_id}", headers=bearer(token)).json
    return found


def decide(
    client: FlaskClient, game_id: str, token: str, phase: str, action: Any, **headers: str
) -> Any:
    path, key = {"betting": ("bets", "bet"), "starting": ("plays", "card")}.get(
        phase, ("suits", "suit")
    )
    return client.post(
        f"/api/v1/games/{game_id}/{path}", json={key: action}, headers={**bearer(token), **headers}
    )


def play_to_the_end(client: FlaskClient, created: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    """Every person's seat decides at random among its legal actions until the game ends."""
    rng = random.Random(seed)
    tokens = [s.get("token") for s in created["seats"]]
    for _ in range(2000):
        spectator = view(client, created["id"])
        if spectator["phase"] == "over":
            return spectator
        turn = spectator["turn"]
        mine = view(client, created["id"], tokens[turn])
        response = decide(
            client, created["id"], tokens[turn], mine["phase"], rng.choice(mine["you"]["legal"])
        )
        assert response.status_code == 200, response.json
    raise AssertionError("the game did not end")


def test_a_poch_game_is_created_and_viewed(client: FlaskClient) -> None:
    created = create(client, players=PEOPLE, rules={"chips": 40, "deals": 2}, seed=5)
    assert [s["seat"] for s in created["seats"]] == [0, 1, 2]
    assert all(len(s["token"]) >= 32 for s in created["seats"])
    spectator = view(client, created["id"])
    assert spectator["game"] == "poch" and spectator["phase"] == "betting"
    assert spectator["rules"] == {
        "players": 3, "chips": 40, "ante": 1, "deals": 2, "turn_seconds": 60,
    }  # fmt: skip
    assert "you" not in spectator and "hand" not in spectator
    assert sum(spectator["hand_sizes"]) == 32
    assert sum(spectator["chips"]) + sum(spectator["plates"].values()) + spectator["pot"] == 120
    for seat, seat_info in enumerate(created["seats"]):
        mine = view(client, created["id"], seat_info["token"])
        assert mine["you"]["seat"] == seat
        assert len(mine["you"]["hand"]) == spectator["hand_sizes"][seat]
        assert bool(mine["you"]["legal"]) == (seat == spectator["turn"])
        # Nothing else differs from the spectator's view.
        same = {"players": mine["players"], "seconds_left": mine["seconds_left"]}
        assert {k: v for k, v in mine.items() if k != "you"} == spectator | same
    assert client.get(f"/api/v1/games/{created['id']}/events").json[0]["type"] == "ante"


def test_creation_refusals(client: FlaskClient) -> None:
    cases = [
        ({"game": "skat", "players": PEOPLE}, "game"),
        ({"game": "poch", "players": PEOPLE, "rules": {"montar": True}}, "rules"),
        ({"game": "poch", "players": PEOPLE, "rules": {"chips": 7}}, "rules"),
        ({"game": "poch", "players": [*PEOPLE[:2], {"name": "X", "bot": "expert"}]}, "players"),
        ({"game": "poch", "players": PEOPLE, "stand_in_level": "expert"}, "stand_in_level"),
        ({"players": PEOPLE, "rules": {"chips": 50}}, "rules"),  # Pocha has no chips
    ]
    for body, field in cases:
        response = client.post("/api/v1/games", json=body)
        assert response.status_code == 422, (body, response.json)
        assert response.json["error"] == "validation_error"
        assert field in str(response.json["errors"]), (body, response.json)


def test_decisions_and_their_refusals_change_nothing(client: FlaskClient, store: GameStore) -> None:
    created = create(client, players=PEOPLE, rules={"deals": 1}, seed=11)
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    before = view(client, game_id)
    turn = before["turn"]
    other = tokens[(turn + 1) % 3]
    url = f"/api/v1/games/{game_id}"
    mine = bearer(tokens[turn])
    refused = [
        (decide(client, game_id, other, "betting", "pass"), 409, "not_your_turn"),
        (decide(client, game_id, tokens[turn], "starting", "C7"), 409, "wrong_phase"),
        (decide(client, game_id, tokens[turn], "choosing", "H"), 409, "wrong_phase"),
        (decide(client, game_id, tokens[turn], "betting", 10_000), 422, None),
        (client.post(f"{url}/bets", json={"bet": "all"}, headers=mine), 422, "validation_error"),
        (client.post(f"{url}/bets", json={"bet": 0}, headers=mine), 422, "validation_error"),
        (client.post(f"{url}/bids", json={"bid": 1}, headers=mine), 409, "wrong_game"),
        (client.post(f"{url}/bets", json={"bet": "pass"}), 401, "unauthorized"),
        (decide(client, game_id, tokens[turn], "betting", "pass", **STALE), 412, "stale_version"),
    ]  # fmt: skip
    for response, status, code in refused:
        assert response.status_code == status, response.json
        if code is not None:
            assert response.json["error"] == code, response.json
        assert response.json["message"]
    assert view(client, game_id) | {"seconds_left": 0} == before | {"seconds_left": 0}
    assert store.version(game_id) == before["version"]
    # A decision with an Idempotency-Key is taken once.
    first = decide(client, game_id, tokens[turn], "betting", "pass", **{"Idempotency-Key": "k1"})
    again = decide(client, game_id, tokens[turn], "betting", "pass", **{"Idempotency-Key": "k1"})
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json["version"] == first.json["version"] == before["version"] + 1


def test_a_whole_game_of_people_ends_with_its_score_sheet(client: FlaskClient) -> None:
    created = create(client, players=[*PEOPLE, {"name": "Dani"}], rules={"deals": 2}, seed=3)
    final = play_to_the_end(client, created)
    assert final["result"] is not None and final["turn"] is None
    assert sum(final["chips"]) + sum(final["plates"].values()) + final["pot"] == 200
    history = client.get(f"/api/v1/games/{created['id']}/history").json
    assert history["game"] == "poch" and history["finished"]
    assert len(history["deals"]) == 2 and history["chips"] == final["chips"]
    events = client.get(f"/api/v1/games/{created['id']}/events").json
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[-1]["type"] == "game_over"


def test_bots_play_their_turns(client: FlaskClient) -> None:
    bots = [
        {"name": "R", "bot": "random"},
        {"name": "H", "bot": "heuristic"},
        {"name": "E", "bot": "easy"},
    ]
    created = create(client, players=[PEOPLE[0], *bots], rules={"deals": 2}, seed=8)
    final = play_to_the_end(client, created)
    assert final["phase"] == "over"
    everyone = created | {"seats": [created["seats"][0]]}
    assert everyone  # the bots' seats have no token: only Ana's decisions were sent


def test_a_poch_table_is_joined_started_and_rematched(client: FlaskClient) -> None:
    created = create(
        client, players=[PEOPLE[0], {"open": True}, {"open": True}, {"open": True}], listed=True,
        rules={"deals": 1, "turn_seconds": 0},
    )  # fmt: skip
    code = created["table_code"]
    lobby = client.get("/api/v1/tables?listed=true").json
    listed = next(t for t in lobby if t["game_id"] == created["id"])
    assert listed["rules"]["chips"] == 50 and "token" not in str(listed)
    joined = client.post(f"/api/v1/tables/{code}/seats", json={"name": "Bea"})
    assert joined.status_code == 201, joined.json
    waiting = view(client, created["id"], joined.json["token"])
    assert waiting["phase"] == "waiting" and waiting["you"]["hand"] == []
    assert waiting["you"]["legal"] == [] and waiting["turn"] is None
    host = bearer(created["host_token"])
    refused = client.post(
        f"/api/v1/games/{created['id']}/start", json={"bots": "expert"}, headers=host
    )
    assert refused.status_code == 422, refused.json
    started = client.post(
        f"/api/v1/games/{created['id']}/start", json={"bots": "heuristic"}, headers=host
    )
    assert started.status_code == 200, started.json
    assert started.json["game"] == "poch" and started.json["phase"] != "waiting"
    seats = [created["seats"][0], {"token": joined.json["token"]}, {}, {}]
    final = play_to_the_end(client, created | {"seats": seats})
    assert final["phase"] == "over"
    rematch = client.post(
        f"/api/v1/games/{created['id']}/rematch", headers=bearer(seats[0]["token"])
    )
    assert rematch.status_code == 201, rematch.json
    nxt = view(client, rematch.json["game_id"], rematch.json["token"])
    assert nxt["game"] == "poch" and nxt["phase"] == "waiting"
    assert nxt["rules"] == final["rules"]


def test_pocha_is_untouched_by_poch(client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json={"players": PEOPLE}).json
    pocha = view(client, created["id"], created["seats"][0]["token"])
    assert pocha["game"] == "pocha" and "refused" in pocha["you"]
    for path, body in (("bets", {"bet": "pass"}), ("suits", {"suit": "H"})):
        response = client.post(
            f"/api/v1/games/{created['id']}/{path}", json=body,
            headers=bearer(created["seats"][pocha["turn"]]["token"]),
        )  # fmt: skip
        assert response.status_code == 409 and response.json["error"] == "wrong_game"


def test_the_rules_list_both_games(client: FlaskClient) -> None:
    book = client.get("/api/v1/rules").json
    games = {g["game"]: g for g in book["games"]}
    assert set(games) == {"pocha", "poch"}
    assert [o["name"] for o in games["poch"]["options"]] == [
        "players", "chips", "ante", "deals", "turn_seconds",
    ]  # fmt: skip
    assert [lv["name"] for lv in games["poch"]["bot_levels"]] == [
        "random", "heuristic", "easy", "medium", "hard",
    ]  # fmt: skip
    assert games["pocha"]["options"] == book["options"]
