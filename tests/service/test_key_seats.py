"""An account's key replaced takes the seat tokens handed out under the key before with it,
against the test's real Redis and through the app: a thief who took a seat with a stolen
key, and its token, moves no more once the owner (over HTTP) or the operator (`pocha
accounts rotate-key`) replaces the key, while the new key opens the seat to look, move,
leave and come back, and the game goes on for the others to its end; finished games are
left as they are, and a finished game's token takes no seat at its rematch. A seat taken
with the new key keeps its token. Seating and disabling (or replacing the key) at the same
moment, run in the order that lost a seat before: the seating reads the account after
noting its seat, and hands it over (or makes its token anew) itself."""

from __future__ import annotations

import random
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from cli.main import pocha
from core.errors import AccountDisabled, UnknownAccount
from core.play.games import PlayerSpec
from core.store import account_seats, accounts
from core.store.keys import game_key
from core.store.store import GameStore
from service.context import EXTENSION
from tests.service.helpers import bearer
from tests.service.test_accounts import account_header, sign_up
from tests.service.test_disable_seats import endpoint_of, sit, table_of
from tests.service.test_records import play_seat_to_the_end

GAMES = "/api/v1/games"
#: Bruno's seat, a seat open for Ana (or whoever holds her key), a bot: one hand.
ONE_HAND = [{"name": "x"}, {"open": True}, {"name": "b", "bot": "easy"}]


def refused(answer: Any) -> tuple[int, str]:
    return answer.status_code, answer.json["error"]


def short_table(client: FlaskClient, host_key: str) -> dict[str, Any]:
    """A table of one hand the account with `host_key` sits at (seat 0), seat 1 open."""
    made = client.post(
        GAMES, json={"players": ONE_HAND, "rules": {"schedule": [1]}},
        headers=account_header(host_key),
    )  # fmt: skip
    assert made.status_code == 201, made.json
    return dict(made.json)


def play_both(client: FlaskClient, game_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Each person's seat makes its first legal decision with its token (or key) until the
    game is over (the bot plays inline); the spectator's last view."""
    for _turn in range(500):
        view: dict[str, Any] = client.get(f"{GAMES}/{game_id}").json
        if view["turn"] is None:
            return view
        token = tokens[view["turn"]]
        mine = client.get(f"{GAMES}/{game_id}", headers=bearer(token)).json
        path, field = endpoint_of(mine["you"]["legal"][0])
        moved = client.post(f"{GAMES}/{game_id}/{path}", json={field: mine["you"]["legal"][0]},
                            headers=bearer(token))  # fmt: skip
        assert moved.status_code == 200, moved.json
    raise AssertionError("the game did not end")


def replaced_key(client: FlaskClient, redis_url: str, account: dict[str, Any], by: str) -> str:
    """The account's new key, asked for by its owner over HTTP or by the operator."""
    if by == "owner":
        answer = client.post(f"/api/v1/accounts/{account['id']}/key",
                             headers=account_header(account["key"]))  # fmt: skip
        assert answer.status_code == 200, answer.json
        return str(answer.json["key"])
    rotated = CliRunner().invoke(
        pocha, ["accounts", "rotate-key", account["id"], "--redis-url", redis_url]
    )
    assert rotated.exit_code == 0, rotated.output
    return rotated.stdout.strip()


@pytest.mark.parametrize("by", ["owner", "operator"])
def test_a_seat_token_taken_with_a_stolen_key_opens_nothing_once_the_key_is_replaced(
    client: FlaskClient, store: GameStore, redis_url: str, by: str
) -> None:
    ana, bruno = sign_up(client, "Ana").json, sign_up(client, "Bruno").json
    # A thief holding Ana's key takes the open seat of Bruno's table: the token is theirs.
    game = table_of(client, bruno["key"], rated=False)
    game_id, stolen = game["id"], sit(client, game["table_code"], ana["key"])
    # A game the thief played out before the key was replaced, and its token.
    over = short_table(client, bruno["key"])
    over_token = sit(client, over["table_code"], ana["key"])
    last = play_both(client, over["id"], {0: over["seats"][0]["token"], 1: over_token})
    assert last["phase"] == "finished"
    over_meta = store.redis.hget(game_key(over["id"]), "meta")
    assert account_seats.games_of(store.redis, ana["id"]) == [game_id]
    seen = client.get(f"{GAMES}/{game_id}", headers=bearer(stolen)).json
    assert seen["you"]["seat"] == 1

    fresh = replaced_key(client, redis_url, ana, by)

    # The thief's token opens nothing, as any unknown token: to look, move, leave, return.
    assert refused(client.get(f"{GAMES}/{game_id}", headers=bearer(stolen))) == (
        401, "unauthorized",
    )  # fmt: skip
    for action in (0, "AS"):
        path, field = endpoint_of(action)
        tried = client.post(f"{GAMES}/{game_id}/{path}", json={field: action},
                            headers=bearer(stolen))  # fmt: skip
        assert refused(tried) == (401, "unauthorized")
    for way in ("leave", "return"):
        tried = client.post(f"{GAMES}/{game_id}/seats/1/{way}", headers=bearer(stolen))
        assert refused(tried) == (401, "unauthorized")
    # Nobody's token for the seat was made: its key is the new one's, the seat Ana's.
    seat = store.load(game_id).seats[1]
    assert seat.account == ana["id"] and seat.key_hash == accounts.hash_key(fresh)
    assert not seat.left

    # The new key opens her seat: she comes back and leaves nothing; Bruno plays on, to
    # the end, Ana with her new key.
    mine = client.get(f"{GAMES}/{game_id}", headers=bearer(fresh))
    assert mine.status_code == 200 and mine.json["you"]["seat"] == 1
    back = client.post(f"{GAMES}/{game_id}/seats/1/return", headers=bearer(fresh))
    assert back.status_code == 200, back.json
    final = play_both(client, game_id, {0: game["seats"][0]["token"], 1: fresh})
    assert final["phase"] == "finished"
    assert not any(p.get("stand_in") for p in final["players"][:2])
    assert account_seats.games_of(store.redis, ana["id"]) == []

    # The finished game is as it was: its token still shows the seat it played.
    assert store.redis.hget(game_key(over["id"]), "meta") == over_meta
    looked = client.get(f"{GAMES}/{over['id']}", headers=bearer(over_token))
    assert looked.status_code == 200 and looked.json["you"]["seat"] == 1
    # But it takes no seat at the rematch: that is for the account's key now.
    tried = client.post(f"{GAMES}/{over['id']}/rematch", headers=bearer(over_token))
    assert refused(tried) == (401, "unauthorized")
    assert "replaced" in tried.json["message"]
    spanish = client.post(f"{GAMES}/{over['id']}/rematch",
                          headers={**bearer(over_token), "Accept-Language": "es"})  # fmt: skip
    assert refused(spanish) == (401, "unauthorized") and "clave" in spanish.json["message"]
    rematch = client.post(f"{GAMES}/{over['id']}/rematch", headers=bearer(fresh))
    assert rematch.status_code == 201, rematch.json
    again = client.get(f"{GAMES}/{rematch.json['game_id']}", headers=bearer(rematch.json["token"]))
    assert again.status_code == 200 and again.json["you"]["seat"] == rematch.json["seat"]
    assert store.load(rematch.json["game_id"]).seats[rematch.json["seat"]].key_hash == (
        accounts.hash_key(fresh)
    )


def test_a_seat_taken_with_the_new_key_keeps_its_token(
    app: Flask, client: FlaskClient, store: GameStore
) -> None:
    ana, bruno = sign_up(client, "Ana").json, sign_up(client, "Bruno").json
    tables = app.extensions[EXTENSION].games.tables
    before = table_of(client, bruno["key"], rated=False)
    old_token = sit(client, before["table_code"], ana["key"])
    made = tables.replace_key(ana["id"], ana["key"])
    assert made is not None
    after = table_of(client, bruno["key"], rated=False)
    new_token = sit(client, after["table_code"], made.key)
    # A walk for the same key (another replacement's, late) changes neither table now.
    assert tables.drop_seat_tokens(ana["id"], accounts.hash_key(made.key)) == 0
    assert client.get(f"{GAMES}/{after['id']}", headers=bearer(new_token)).json["you"]["seat"] == 1
    tried = client.get(f"{GAMES}/{before['id']}", headers=bearer(old_token))
    assert refused(tried) == (401, "unauthorized")
    # The key before is refused as keys are.
    by_old_key = client.get(f"{GAMES}/{before['id']}", headers=bearer(ana["key"]))
    assert refused(by_old_key) == (401, "unknown_account")
    # The new key gives up the seat the old token opened: the stand-in plays it now.
    left = client.post(f"{GAMES}/{before['id']}/seats/1/leave", headers=bearer(made.key))
    assert left.status_code == 200, left.json
    assert left.json["players"][1]["stand_in"] == "medium", left.json["players"][1]


def test_a_seat_taken_by_a_look_from_before_a_disable_is_handed_to_the_stand_in(
    app: Flask, client: FlaskClient, store: GameStore
) -> None:
    ana, bruno = sign_up(client, "Ana").json, sign_up(client, "Bruno").json
    service = app.extensions[EXTENSION].games
    game = table_of(client, bruno["key"], rated=False)
    # The join's look at Ana's key, then the disable and its walk (no seat of hers yet),
    # then the join's write: the order in which a seat was missed.
    looked = accounts.find(store.redis, ana["key"])
    assert looked is not None and not looked.disabled
    assert service.tables.disable(ana["id"]) == 0
    with pytest.raises(AccountDisabled):
        service.tables.join(game["table_code"], "n", account=looked)
    view = client.get(f"{GAMES}/{game['id']}").json
    assert view["phase"] != "waiting" and view["players"][1]["account"] == ana["id"]
    assert view["players"][1]["stand_in"] == "medium", view["players"][1]
    # The game goes on: Bruno plays to the end, the stand-in in Ana's seat.
    final = play_seat_to_the_end(client, game["id"], game["seats"][0]["token"], endpoint_of,
                                 random.Random(3))  # fmt: skip
    assert final["phase"] == "finished"

    # The same for a game made with the look from before: her seat goes to the stand-in.
    players = [PlayerSpec("Ana"), PlayerSpec("Bruno"), PlayerSpec("b", "easy")]
    with pytest.raises(AccountDisabled):
        service.create(players, {"schedule": [1]}, account=looked)
    (made,) = account_seats.games_of(store.redis, ana["id"])
    seats = client.get(f"{GAMES}/{made}").json["players"]
    assert seats[0]["account"] == ana["id"] and seats[0]["stand_in"] == "medium", seats[0]
    # A disable that comes after the seat is noted finds it (as test_disable_seats shows).
    accounts.set_disabled(store.redis, ana["id"], False)
    waiting = client.post(GAMES, json={"players": [*ONE_HAND[:2], {"open": True}]},
                          headers=account_header(bruno["key"])).json  # fmt: skip
    sit(client, waiting["table_code"], ana["key"])
    # Her seat left already in the game made: only the waiting table's seat leaves now.
    assert service.tables.disable(ana["id"]) == 1
    opened = client.get(f"{GAMES}/{waiting['id']}").json
    assert opened["table"]["open_seats"] == 2


def test_a_seat_taken_by_a_look_from_before_a_new_key_gets_no_token_of_the_key_before(
    app: Flask, client: FlaskClient, store: GameStore
) -> None:
    ana, bruno = sign_up(client, "Ana").json, sign_up(client, "Bruno").json
    tables = app.extensions[EXTENSION].games.tables
    game = table_of(client, bruno["key"], rated=False)
    # The join's look at the key, then the key replaced and its walk (no seat yet), then
    # the join's write.
    looked = accounts.find(store.redis, ana["key"])
    assert looked is not None
    made = tables.replace_key(ana["id"])
    assert made is not None
    with pytest.raises(UnknownAccount):
        tables.join(game["table_code"], "n", account=looked)
    # The seat is Ana's, under her new key, which opens it; no token of the key before
    # was answered, and the one made opens nothing.
    seat = store.load(game["id"]).seats[1]
    assert seat.account == ana["id"] and seat.key_hash == accounts.hash_key(made.key)
    mine = client.get(f"{GAMES}/{game['id']}", headers=bearer(made.key))
    assert mine.status_code == 200 and mine.json["you"]["seat"] == 1
    final = play_both(client, game["id"], {0: game["seats"][0]["token"], 1: made.key})
    assert final["phase"] == "finished"


def test_a_rematchs_seat_kept_for_an_account_is_the_one_its_key_takes_by_the_code(
    client: FlaskClient, store: GameStore
) -> None:
    """An account sits once at a table: at a rematch, the seat kept for it is the one its
    key takes through the table's code (not another), the seat's old token then opens the
    same seat, and once the game has started a seat asked for again with the key is the
    409 that says the account sits there (its key opens that seat), not a full table."""
    ana = sign_up(client, "Ana").json
    over = short_table(client, ana["key"])
    bea = client.post(f"/api/v1/tables/{over['table_code']}/seats", json={"name": "Bea"}).json
    tokens = {0: over["seats"][0]["token"], 1: bea["token"]}
    assert play_both(client, over["id"], tokens)["phase"] == "finished"
    asked = client.post(f"{GAMES}/{over['id']}/rematch", headers=bearer(bea["token"]))
    assert asked.status_code == 201, asked.json
    code = asked.json["table_code"]

    taken = client.post(
        f"/api/v1/tables/{code}/seats", json={"name": "Ana"}, headers=account_header(ana["key"])
    )
    assert taken.status_code == 201, taken.json
    assert (taken.json["game_id"], taken.json["seat"]) == (asked.json["game_id"], 0)
    seat = store.load(asked.json["game_id"]).seats[0]
    assert seat.account == ana["id"] and not seat.open
    old = client.post(f"{GAMES}/{over['id']}/rematch", headers=bearer(tokens[0]))
    assert old.status_code == 201 and old.json["seat"] == 0, old.json

    started = client.get(f"{GAMES}/{asked.json['game_id']}").json
    assert started["phase"] != "waiting"
    again = client.post(
        f"/api/v1/tables/{code}/seats", json={"name": "Ana"}, headers=account_header(ana["key"])
    )
    assert refused(again) == (409, "one_seat_per_account")


def test_a_key_of_an_account_without_a_seat_here_is_told_so(client: FlaskClient) -> None:
    """An account's key for a game it holds no seat in is refused with the same code as a
    stranger's token, and a sentence that says the account has no seat here, not that a
    token is wrong."""
    bruno, ana = sign_up(client, "Bruno").json, sign_up(client, "Ana").json
    game = f"{GAMES}/{short_table(client, bruno['key'])['id']}"
    for lang, sentence in [
        ("en", "Your account holds no seat in this game."),
        ("es", "Tu cuenta no tiene ningún asiento en esta partida."),
    ]:
        headers = {**bearer(ana["key"]), "Accept-Language": lang}
        look = client.get(game, headers=headers)
        bid = client.post(f"{game}/bids", json={"bid": 0}, headers=headers)
        for answer in (look, bid):
            assert refused(answer) == (401, "unauthorized"), answer.json
            assert answer.json["message"] == sentence
    # A token that opens nothing is still told that it does not.
    stranger = client.get(game, headers=bearer("not-a-token"))
    assert refused(stranger) == (401, "unauthorized")
    assert stranger.json["message"] == "This token does not belong to a seat of this game."
