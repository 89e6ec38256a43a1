"""A rated table played to the end through the real service and `pocha worker` processes:
two people with accounts and two of our levels (their bots' turns on the workers). Once it
is over, whichever process made the last move counted it: the ladder lists all four with
changed ratings, each with one game, and a worker's sweep counts it no second time. Its
rematch is rated too, with the same accounts, and counts as their second game."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from core.play.turns import count_unrated_games
from core.store.keys import UNRATED
from service.context import EXTENSION
from tests.service.helpers import bearer, move
from tests.waiting import LONG
from tests.worker.conftest import WorkerProcesses, wait_until

FRESH_MU = 25.0
FRESH_SIGMA = 25 / 3


def sign_up(client: FlaskClient, name: str) -> dict[str, Any]:
    made = client.post("/api/v1/accounts", json={"name": name, "kind": "person"})
    assert made.status_code == 201, made.json
    return dict(made.json)


def play_to_the_end(client: FlaskClient, game_id: str, tokens: dict[int, str]) -> int:
    """The people of `tokens` (seat -> token) play their first legal action on each of their
    turns, the bots theirs on the workers, to the game's end; the people's moves."""

    def people_or_over() -> bool:
        view = client.get(f"/api/v1/games/{game_id}").json
        return bool(view["phase"] == "finished" or view["turn"] in tokens)

    moves = 0
    while True:
        wait_until(people_or_over, LONG, "the bots' turns")
        view = client.get(f"/api/v1/games/{game_id}").json
        if view["phase"] == "finished":
            return moves
        seat = view["turn"]
        mine = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[seat])).json
        assert move(client, game_id, tokens[seat], mine["you"]["legal"][0]).status_code == 200
        moves += 1


def test_a_rated_table_of_two_people_and_two_levels_reaches_the_ladder(
    client: FlaskClient, workers: WorkerProcesses
) -> None:
    workers.start()
    ana, bruno = sign_up(client, "Ana"), sign_up(client, "Bruno")
    made = client.post(
        "/api/v1/games",
        json={
            "players": [{"name": "Ana"}, {"name": "E", "bot": "easy"}, {"open": True},
                        {"name": "M", "bot": "medium"}],
            "rules": {"schedule": [2]},
            "rated": True,
        },
        headers={"X-Pocha-Account": ana["key"]},
    )  # fmt: skip
    assert made.status_code == 201, made.json
    game_id = made.json["id"]
    joined = client.post(
        f"/api/v1/tables/{made.json['table_code']}/seats",
        json={"name": "Bruno"},
        headers={"X-Pocha-Account": bruno["key"]},
    )
    assert joined.status_code == 201, joined.json
    tokens = {0: made.json["seats"][0]["token"], 2: joined.json["token"]}

    moves = play_to_the_end(client, game_id, tokens)
    view = client.get(f"/api/v1/games/{game_id}").json
    # Every bid and card of the people's seats was theirs (a hand may be dealt again).
    events = client.get(f"/api/v1/games/{game_id}/events").json
    people_moves = [
        e for e in events if e["type"] in ("bid", "card_played") and e["seat"] in tokens
    ]
    assert moves == len(people_moves) >= 2 * (1 + 2)
    assert all("by" not in e for e in people_moves)
    assert view["table"]["rated"] is True

    def ladder(kind: str) -> dict[str, Any]:
        return dict(client.get("/api/v1/ladder", query_string={"kind": kind}).json)

    # The last move may have been a bot's, on a worker: the count follows it there.
    wait_until(
        lambda: ladder("person")["total"] == 2 and ladder("bot")["total"] == 2,
        LONG,
        "the ratings to be counted",
    )
    entries = ladder("person")["entries"] + ladder("bot")["entries"]
    assert {e["id"] for e in entries} == {ana["id"], bruno["id"], "level-easy", "level-medium"}
    for entry in entries:
        assert entry["games"] == 1
        assert entry["sigma"] < FRESH_SIGMA  # every rating learned something
        assert entry["mu"] != FRESH_MU
        assert entry["rating"] == pytest.approx(entry["mu"] - 3 * entry["sigma"], abs=0.01)
    named = {e["id"]: e["name"] for e in entries}
    assert named[ana["id"]] == "Ana" and named["level-medium"] == "medium"
    # Nothing is left for the workers' sweep, and running it counts nothing twice.
    redises = client.application.extensions[EXTENSION].redises
    assert redises.store.zscore(UNRATED, game_id) is None
    assert count_unrated_games(redises) == 0
    assert {e["id"]: e["games"] for e in ladder("person")["entries"]} == {
        ana["id"]: 1, bruno["id"]: 1
    }  # fmt: skip

    # The rematch: rated, the people's seats kept for their accounts.
    again = {}
    for seat in (0, 2):
        answer = client.post(f"/api/v1/games/{game_id}/rematch", headers=bearer(tokens[seat]))
        assert answer.status_code == 201, answer.json
        again[seat] = answer.json
    next_id = again[0]["game_id"]
    assert again[2]["game_id"] == next_id
    rematch = client.get(f"/api/v1/games/{next_id}").json  # every seat taken: it started
    assert rematch["phase"] != "waiting"
    assert rematch["table"]["rated"] is True
    assert [p.get("account") for p in rematch["players"]][::2] == [ana["id"], bruno["id"]]
    play_to_the_end(client, next_id, {s: a["token"] for s, a in again.items()})

    def counted_twice() -> bool:
        entries = ladder("person")["entries"] + ladder("bot")["entries"]
        return len(entries) == 4 and all(e["games"] == 2 for e in entries)

    wait_until(counted_twice, LONG, "the rematch to be counted")
