"""Poch on the workers: its bots' turns are RQ jobs as Pocha's are, a hint for a Poch seat
comes from Poch's bots, and a person's clock that runs out is played by the table's
stand-in, two in a row making the seat away."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.service.helpers import bearer
from tests.waiting import LONG
from tests.worker.conftest import Drain, WorkerProcesses, wait_until


def create(client: FlaskClient, players: list[dict[str, Any]], **rules: Any) -> dict[str, Any]:
    response = client.post(
        "/api/v1/games",
        json={"game": "poch", "players": players, "rules": rules, "stand_in_level": "heuristic"},
    )
    assert response.status_code == 201, response.json
    created: dict[str, Any] = response.json
    return created


def test_bots_play_a_whole_game_on_the_workers(client: FlaskClient, drain: Drain) -> None:
    bots = [
        {"name": "R", "bot": "random"},
        {"name": "H", "bot": "heuristic"},
        {"name": "E", "bot": "easy"},
        {"name": "M", "bot": "medium"},
    ]
    created = create(client, bots, deals=2)
    drain()
    final = client.get(f"/api/v1/games/{created['id']}").json
    assert final["phase"] == "over" and final["result"] is not None, final
    assert sum(final["chips"]) + sum(final["plates"].values()) + final["pot"] == 200
    events = client.get(f"/api/v1/games/{created['id']}/events").json
    assert events[-1]["type"] == "game_over"
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


def test_a_hint_for_a_poch_seat(client: FlaskClient, drain: Drain) -> None:
    bots = [{"name": "H", "bot": "heuristic"}, {"name": "R", "bot": "random"}]
    created = create(client, [{"name": "Ana"}, *bots], deals=3)
    token = created["seats"][0]["token"]
    for _ in range(50):
        drain()
        view = client.get(f"/api/v1/games/{created['id']}", headers=bearer(token)).json
        if view["turn"] == 0:
            break
        assert view["phase"] != "over"
    asked = client.post(
        f"/api/v1/games/{created['id']}/hint", json={"level": "easy"}, headers=bearer(token)
    )
    assert asked.status_code == 202, asked.json
    drain()
    done = client.get(asked.json["url"]).json
    assert done["status"] == "finished", done
    assert done["result"]["action"] in view["you"]["legal"]
    assert done["result"]["level"] == "easy" and done["result"]["iterations"] > 0
    assert done["result"]["budget"]["iterations"] == 25  # Poch's easy, not Pocha's
    # A Pocha level Poch's bots do not have is refused at once, with a reason.
    expert = client.post(
        f"/api/v1/games/{created['id']}/hint", json={"level": "expert"}, headers=bearer(token)
    )
    assert expert.status_code == 422, expert.json
    assert expert.json["error"] == "validation_error" and "expert" in expert.json["message"]


def test_the_stand_in_plays_a_poch_turn_that_runs_out(
    client: FlaskClient, workers: WorkerProcesses
) -> None:
    workers.start()
    players = [{"name": "Ana"}, {"name": "Eva"}, {"name": "Bot", "bot": "random"}]
    created = create(client, players, deals=1, turn_seconds=1)
    game_id = created["id"]

    # Nobody moves: the stand-in decides for both people; after two misses each is away,
    # and with nobody left to play for the game waits (unless it ended first).
    def done() -> bool:
        seen = client.get(f"/api/v1/games/{game_id}").json
        return bool(seen["phase"] == "over" or all(p["away"] for p in seen["players"][:2]))

    wait_until(done, LONG, "the stand-ins to play out the people's turns")
    log = client.get(f"/api/v1/games/{game_id}/events").json
    decisions = {"bet", "hold", "raise", "pass", "start", "choose"}
    for seat in (0, 1):
        own = [e for e in log if e.get("seat") == seat and e["type"] in decisions]
        assert own and all(e.get("by") == "stand_in" for e in own), own
    aways = [e["seat"] for e in log if e["type"] == "seat_away"]
    assert set(aways) <= {0, 1}
