"""Games with bots: the inline runner plays their turns until a person must act, from
the bot's own observation, reproducibly; a game of bots only plays itself to the end."""

from __future__ import annotations

from flask.testing import FlaskClient

from core.play.bots import bot_seed
from core.store.store import GameStore
from tests.service.helpers import bearer, create_game, move

BOTS = [{"name": f"Bot{i}", "bot": "heuristic"} for i in range(1, 4)]


def test_human_against_three_heuristic_bots(client: FlaskClient, store: GameStore) -> None:
    created = create_game(client, [{"name": "Ana"}, *BOTS], {"schedule": [1, 2, 3, 10]}, seed=4)
    token = created["seats"][0]["token"]
    assert [("token" in s, s.get("bot")) for s in created["seats"]] == [
        (True, None),
        *[(False, "heuristic")] * 3,
    ]
    game_id = created["id"]
    moves = 0
    view = client.get(f"/api/v1/games/{game_id}", headers=bearer(token)).json
    while view["phase"] != "finished":
        # Whenever a person is asked, it is that person's turn: bots never wait.
        assert view["turn"] == 0
        response = move(client, game_id, token, view["you"]["legal"][0])
        assert response.status_code == 200, response.json
        view = response.json
        moves += 1
    assert moves == 4 + (1 + 2 + 3 + 10)
    events = client.get(f"/api/v1/games/{game_id}/events").json
    assert events[-1]["type"] == "game_over"
    bot_moves = [e for e in events if e["type"] in ("bid", "card_played") and e["seat"] != 0]
    assert len(bot_moves) == 3 * moves
    assert store.load(game_id).finished


def test_all_bot_game_finishes_on_its_own(client: FlaskClient) -> None:
    players = [
        {"name": f"B{i}", "bot": level} for i, level in enumerate(["random", "heuristic"] * 2)
    ]
    created = create_game(client, players, {"schedule": [1, 3, 10, 2]}, seed=9)
    assert all("token" not in s for s in created["seats"])
    view = client.get(f"/api/v1/games/{created['id']}").json
    assert view["phase"] == "finished"
    assert created["version"] == view["version"]
    assert view["hand_number"] >= 4
    history = client.get(f"/api/v1/games/{created['id']}/history").json
    assert [h["cards"] for h in history["hands"]][:4] == [1, 3, 10, 2]

    # Bot decisions are seeded from the game's seed and version: the same game again.
    again = create_game(client, players, {"schedule": [1, 3, 10, 2]}, seed=9)
    events = client.get(f"/api/v1/games/{created['id']}/events").json
    events_again = client.get(f"/api/v1/games/{again['id']}/events").json
    assert events == events_again


def test_bot_seeds_differ_by_turn() -> None:
    seeds = {bot_seed(7, version) for version in range(1, 200)}
    assert len(seeds) == 199
    assert bot_seed(7, 3) == bot_seed(7, 3)
