"""An account's games in play (`GET /api/v1/accounts/{id}/games`), against the test's real
Redis: with the account's own key, its games not finished of both games, newest first, each
with its seat, whose turn it is, the players and where to open it, and the key opens each
listed seat; finished, deleted and expired games are not listed and drop out of the
account's set; the answer is bounded; the refusals, in the caller's language."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from core.store import account_seats, accounts
from core.store.keys import game_key
from core.store.store import GameStore
from service.api.accounts import GAMES_LISTED
from tests.service.helpers import account_game, bearer, move
from tests.waiting import LONG, wait_until

BOTS = [{"name": "R", "bot": "random"}, {"name": "S", "bot": "random"}]


def sign_up(client: FlaskClient, name: str) -> dict[str, Any]:
    made = client.post("/api/v1/accounts", json={"name": name, "kind": "person"})
    assert made.status_code == 201, made.json
    return dict(made.json)


def games_of(client: FlaskClient, account: dict[str, Any], **headers: str) -> Any:
    return client.get(
        f"/api/v1/accounts/{account['id']}/games",
        headers={"X-Pocha-Account": account["key"], **headers},
    )


def listed(client: FlaskClient, account: dict[str, Any]) -> list[dict[str, Any]]:
    answer = games_of(client, account)
    assert answer.status_code == 200, answer.json
    return list(answer.json["games"])


def make(client: FlaskClient, key: str, body: dict[str, Any]) -> dict[str, Any]:
    made = client.post("/api/v1/games", json=body, headers={"X-Pocha-Account": key})
    assert made.status_code == 201, made.json
    return dict(made.json)


def test_the_games_in_play_of_both_games_newest_first_each_opened_by_the_key(
    client: FlaskClient,
) -> None:
    ana, bea = sign_up(client, "Ana"), sign_up(client, "Bea")
    pocha = account_game(client, ana["key"])
    poch = make(client, ana["key"], {"game": "poch", "players": [{"name": "Ana"}, *BOTS]})
    # A table waiting for someone, Ana its maker; and a game of Bea's, not Ana's.
    table = make(client, ana["key"], {"players": [{"name": "Ana"}, {"open": True}, BOTS[0]]})
    account_game(client, bea["key"])

    games = listed(client, ana)
    assert [g["game_id"] for g in games] == [table["id"], poch["id"], pocha]
    by_id = {g["game_id"]: g for g in games}
    assert by_id[pocha]["game"] == "pocha" and by_id[poch["id"]]["game"] == "poch"
    assert by_id[pocha]["players"] == ["Ana", "R", "S"]
    assert by_id[table["id"]]["players"] == ["Ana", None, "R"]
    assert by_id[table["id"]]["waiting"] is True and by_id[table["id"]]["your_turn"] is False
    assert by_id[pocha]["your_turn"] is True and by_id[pocha]["waiting"] is False
    for game in games:
        assert game["seat"] == 0 and game["left"] is False
        assert game["page"] == f"/play/{game['game_id']}"
        assert game["created"] <= game["last_seen"]
        # The account's key opens the seat listed, and its turn is as the list says.
        view = client.get(game["view"], headers=bearer(ana["key"]))
        assert view.status_code == 200, view.json
        assert view.json["you"]["seat"] == game["seat"]
        assert (view.json["turn"] == game["seat"] and not game["waiting"]) == game["your_turn"]
    # Bea's game is hers alone, under her account's name.
    assert [g["players"][0] for g in listed(client, bea)] == ["Bea"]


def test_games_over_gone_or_expired_are_not_listed_and_leave_the_accounts_set(
    client: FlaskClient, store: GameStore
) -> None:
    ana = sign_up(client, "Ana")
    finished = account_game(client, ana["key"])
    deleted = make(client, ana["key"], {"players": [{"name": "Ana"}, *BOTS]})
    expired = account_game(client, ana["key"])
    kept = account_game(client, ana["key"])
    left = make(client, ana["key"], {"players": [{"name": "Ana"}, *BOTS]})

    # Played out: the account's bid and card each hand (a tie adds a tiebreak hand).
    def seen() -> Any:
        return client.get(f"/api/v1/games/{finished}", headers=bearer(ana["key"])).json

    while seen()["phase"] != "finished":
        wait_until(lambda: seen()["phase"] == "finished" or seen()["turn"] == 0, LONG, "Ana's turn")
        if seen()["turn"] == 0:
            legal = seen()["you"]["legal"][0]
            assert move(client, finished, ana["key"], legal).status_code == 200
    gone = client.delete(f"/api/v1/games/{deleted['id']}", headers=bearer(deleted["host_token"]))
    assert gone.status_code == 204
    # Expired as Redis expires a game: its hash is gone, the account's set still names it.
    store.redis.delete(game_key(expired))
    assert expired in account_seats.games_of(store.redis, ana["id"])
    # A seat left: the stand-in plays it to the end; the game is still the account's.
    token = left["seats"][0]["token"]
    assert client.post(f"/api/v1/games/{left['id']}/seats/0/leave",
                       headers=bearer(token)).status_code == 200  # fmt: skip

    games = listed(client, ana)
    assert [g["game_id"] for g in games] == [left["id"], kept]
    assert [(g["left"], g["your_turn"]) for g in games] == [(True, False), (False, True)]
    assert account_seats.games_of(store.redis, ana["id"]) == [kept, left["id"]]


def test_the_list_is_bounded_newest_first(client: FlaskClient, store: GameStore) -> None:
    ana = sign_up(client, "Ana")
    made = [
        make(client, ana["key"], {"players": [{"name": "Ana"}, *BOTS],
                                  "rules": {"schedule": [1]}})["id"]
        for _ in range(GAMES_LISTED + 2)
    ]  # fmt: skip
    # The newest expired: the list reaches past it for the next ones.
    store.redis.delete(game_key(made[-1]))
    games = listed(client, ana)
    assert [g["game_id"] for g in games] == made[-2::-1][:GAMES_LISTED]
    assert made[0] not in {g["game_id"] for g in games}


def test_only_the_accounts_own_enabled_key_lists_its_games(
    client: FlaskClient, store: GameStore
) -> None:
    ana, bea = sign_up(client, "Ana"), sign_up(client, "Bea")
    account_game(client, ana["key"])
    path = f"/api/v1/accounts/{ana['id']}/games"

    def refused(answer: Any) -> tuple[int, str]:
        return answer.status_code, answer.json["error"]

    assert refused(client.get(path)) == (401, "account_required")
    assert refused(client.get(path, headers={"X-Pocha-Account": "pa_guessed"})) == (
        401, "unknown_account",
    )  # fmt: skip
    assert refused(games_of(client, {**bea, "id": ana["id"]})) == (403, "not_your_account")
    assert refused(games_of(client, {**ana, "id": "nobody"})) == (404, "account_not_found")
    spanish = client.get(path, headers={"Accept-Language": "es"})
    assert spanish.json["message"].startswith("Hace falta la clave de tu cuenta")
    accounts.set_disabled(store.redis, ana["id"])
    assert refused(games_of(client, ana)) == (403, "account_disabled")
