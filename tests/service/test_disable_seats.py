"""Disabling an account takes it out of its games in play: each seat it holds in a game not
finished leaves, as its person leaving would (the stand-in plays it to the end, a table
still waiting opens it again), its seat tokens move no more, and the other players' games go
on to their end, a rated one counted as leaving counts it. The set of an account's games in
play that disabling walks empties as the games end or are deleted."""

from __future__ import annotations

import random
from typing import Any

from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from cli.main import pocha
from core.store import account_seats, ratings
from core.store.store import GameStore
from service.context import EXTENSION
from tests.service.helpers import bearer
from tests.service.test_accounts import account_header, sign_up
from tests.service.test_records import play_seat_to_the_end

THREE = [{"name": "x"}, {"open": True}, {"name": "b", "bot": "easy"}]


def endpoint_of(action: Any) -> tuple[str, str]:
    return ("bids", "bid") if isinstance(action, int) else ("plays", "card")


def table_of(client: FlaskClient, host_key: str, rated: bool) -> dict[str, Any]:
    """A table of three the account with `host_key` sits at (seat 0), one seat open."""
    made = client.post(
        "/api/v1/games",
        json={"players": THREE, "rules": {"schedule": [1, 2, 3]}, "rated": rated},
        headers=account_header(host_key),
    )
    assert made.status_code == 201, made.json
    return dict(made.json)


def sit(client: FlaskClient, code: str, key: str) -> str:
    joined = client.post(
        f"/api/v1/tables/{code}/seats", json={"name": "n"}, headers=account_header(key)
    )
    assert joined.status_code == 201, joined.json
    return str(joined.json["token"])


def test_a_disabled_accounts_seats_are_played_by_the_stand_in_to_the_end(
    app: Flask, client: FlaskClient, store: GameStore
) -> None:
    ana, bruno = sign_up(client, "Ana").json, sign_up(client, "Bruno").json
    games = [table_of(client, bruno["key"], rated) for rated in (False, True)]
    tokens = [sit(client, g["table_code"], ana["key"]) for g in games]
    ids = [g["id"] for g in games]
    assert sorted(account_seats.games_of(store.redis, ana["id"])) == sorted(ids)
    # Her token opens her seat in both, as her account's.
    for game_id, token in zip(ids, tokens, strict=True):
        view = client.get(f"/api/v1/games/{game_id}", headers=bearer(token)).json
        assert view["phase"] != "finished" and view["players"][1]["account"] == ana["id"]

    left = app.extensions[EXTENSION].games.tables.disable(ana["id"])
    assert left == 2

    for game_id, token in zip(ids, tokens, strict=True):
        view = client.get(f"/api/v1/games/{game_id}").json
        assert view["players"][1]["stand_in"] == "medium", view["players"][1]
        # The seat's token opens it to look, never to move: as after leaving.
        mine = client.get(f"/api/v1/games/{game_id}", headers=bearer(token)).json
        for action in (0, "AS"):
            path, field = endpoint_of(action)
            refused = client.post(
                f"/api/v1/games/{game_id}/{path}", json={field: action}, headers=bearer(token)
            )
            assert refused.status_code == 409, refused.json
            assert refused.json["error"] == "wrong_phase", refused.json
        assert mine["you"]["seat"] == 1
        # Bruno plays on; the stand-in's moves for Ana come in as her turns do.
        last = play_seat_to_the_end(client, game_id, bruno_token(games, game_id), endpoint_of,
                                    random.Random(7))  # fmt: skip
        assert last["phase"] == "finished"
        events = client.get(f"/api/v1/games/{game_id}/events?after=0").json
        assert any(e["type"] == "seat_left" and e["seat"] == 1 for e in events)
        assert any(e.get("by") == "stand_in" and e.get("seat") == 1 for e in events)

    # The rated game counted as a game left counts: in both players' ratings.
    for account in (ana, bruno):
        rating = ratings.rating_of(store.redis, "pocha", account["id"])
        assert rating is not None and rating.games == 1
    # Both games over: neither account's set holds them.
    assert account_seats.games_of(store.redis, ana["id"]) == []
    assert account_seats.games_of(store.redis, bruno["id"]) == []


def bruno_token(games: list[dict[str, Any]], game_id: str) -> str:
    made = next(g for g in games if g["id"] == game_id)
    return str(made["seats"][0]["token"])


def test_the_operators_disable_opens_a_waiting_tables_seat_and_enabling_gives_none_back(
    client: FlaskClient, store: GameStore, redis_url: str
) -> None:
    ana, bruno = sign_up(client, "Ana").json, sign_up(client, "Bruno").json
    waiting = client.post(
        "/api/v1/games",
        json={"players": [*THREE[:2], {"open": True}]},
        headers=account_header(bruno["key"]),
    ).json
    token = sit(client, waiting["table_code"], ana["key"])
    runner = CliRunner()
    url = ["--redis-url", redis_url]
    disabled = runner.invoke(pocha, ["accounts", "disable", ana["id"], *url])
    assert disabled.exit_code == 0, disabled.output
    assert "1 of its seats" in disabled.output
    view = client.get(f"/api/v1/games/{waiting['id']}").json
    assert view["players"][1].get("account") is None
    assert view["table"]["open_seats"] == 2
    enabled = runner.invoke(pocha, ["accounts", "disable", "--enable", ana["id"], *url])
    assert enabled.exit_code == 0, enabled.output
    # The seat stays open: her old token opens nothing here.
    again = client.get(f"/api/v1/games/{waiting['id']}", headers=bearer(token))
    assert again.status_code == 401, again.json
    # A deleted game leaves every set it was in.
    assert account_seats.games_of(store.redis, bruno["id"]) == [waiting["id"]]
    deleted = client.delete(f"/api/v1/games/{waiting['id']}", headers=bearer(waiting["host_token"]))
    assert deleted.status_code == 204, deleted.data
    assert account_seats.games_of(store.redis, bruno["id"]) == []
