"""Blocking beyond challenges, against the test's real Redis and through the app: a blocked
account takes no seat at a table its blocker made or sits at (by its code, or at a
rematch), nor the blocker one where the blocked account sits, with 403 `seat_refused` and
nothing written; racing for seats, the two never both sit. Anyone else, and anyone without
an account, sits as before; a game already under way is played out by both. A match seats
no bot at the asking of an account it blocks, and never two accounts of whom one blocks
the other; without a key, a match is nobody's. Every answer holds to the document (the
session's contract check)."""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from core.store.keys import game_key
from core.store.store import GameStore
from tests.service.helpers import bearer
from tests.service.test_accounts import account_header, sign_up
from tests.service.test_blocks import block
from tests.service.test_disable_seats import table_of
from tests.service.test_key_seats import play_both, short_table

GAMES = "/api/v1/games"
#: A table whose maker takes no seat: two seats open, a bot.
OPEN_TWO = [{"open": True}, {"open": True}, {"name": "b", "bot": "easy"}]
REFUSED = {
    "en": "Someone at this table does not play with your account.",
    "es": "Alguien en esta mesa no juega con tu cuenta.",
}
REFUSING = {
    "en": "You block an account at this table: unblock it to sit here.",
    "es": "Bloqueas una cuenta de esta mesa: desbloquéala para sentarte aquí.",
}


def account(client: FlaskClient, name: str, kind: str = "person") -> dict[str, Any]:
    made = sign_up(client, name, kind)
    assert made.status_code == 201, made.json
    return dict(made.json)


def join(client: FlaskClient, code: str, key: str | None, language: str = "en") -> Any:
    headers = {"Accept-Language": language, **(account_header(key) if key else {})}
    return client.post(f"/api/v1/tables/{code}/seats", json={"name": "Anon"}, headers=headers)


def refused(answer: Any) -> tuple[int, str]:
    return answer.status_code, answer.json["error"]


def written(store: GameStore, game_id: str) -> Any:
    return store.redis.hgetall(game_key(game_id))


def test_a_blocked_account_takes_no_seat_at_the_blockers_table(
    client: FlaskClient, store: GameStore
) -> None:
    ana, pest, bea = account(client, "Ana"), account(client, "Pest"), account(client, "Bea")
    assert block(client, ana, pest["id"]).status_code == 200
    # Ana's table, where she sits; Bea's, where Ana took a seat; one Ana made without
    # sitting at it.
    hers = table_of(client, ana["key"], rated=False)
    beas = client.post(GAMES, json={"players": OPEN_TWO}, headers=account_header(bea["key"]))
    assert beas.status_code == 201, beas.json
    assert join(client, beas.json["table_code"], ana["key"]).status_code == 201
    made = client.post(GAMES, json={"players": OPEN_TWO}, headers=account_header(ana["key"]))
    assert made.status_code == 201, made.json
    assert all(s.account is None for s in store.load(made.json["id"]).seats)
    for table in (hers, beas.json, made.json):
        before = written(store, table["id"])
        for language in ("en", "es"):
            answer = join(client, table["table_code"], pest["key"], language)
            assert refused(answer) == (403, "seat_refused"), answer.json
            # It names nobody: the table says who sits there, not who refuses.
            assert answer.json["message"] == REFUSED[language]
        assert written(store, table["id"]) == before
    # Refused too as a rated table's player, by any spelling of the code.
    rated = table_of(client, ana["key"], rated=True)
    spelled = rated["table_code"].lower().replace("-", " ")
    assert refused(join(client, spelled, pest["key"])) == (403, "seat_refused")


def test_the_blocker_takes_no_seat_where_the_blocked_account_sits(client: FlaskClient) -> None:
    ana, pest = account(client, "Ana"), account(client, "Pest")
    pests = table_of(client, pest["key"], rated=False)
    made = client.post(GAMES, json={"players": OPEN_TWO}, headers=account_header(pest["key"]))
    assert block(client, ana, "Pest").status_code == 200
    for table in (pests, made.json):
        for language in ("en", "es"):
            answer = join(client, table["table_code"], ana["key"], language)
            assert refused(answer) == (403, "seat_refused")
            assert answer.json["message"] == REFUSING[language]
    # Unblocked, she sits.
    unblocked = client.delete(f"/api/v1/account/blocks/{pest['id']}",
                              headers=account_header(ana["key"]))  # fmt: skip
    assert unblocked.status_code == 204
    assert join(client, pests["table_code"], ana["key"]).status_code == 201


def test_everyone_else_sits_as_before(client: FlaskClient, store: GameStore) -> None:
    ana, pest, bea = account(client, "Ana"), account(client, "Pest"), account(client, "Bea")
    assert block(client, ana, pest["id"]).status_code == 200
    hers = client.post(
        GAMES, json={"players": [{"name": "x"}, {"open": True}, {"open": True},
                                 {"open": True}]},
        headers=account_header(ana["key"]),
    )  # fmt: skip
    assert hers.status_code == 201, hers.json
    code = hers.json["table_code"]
    # Someone without an account (nobody can block them), and an account she does not block.
    assert join(client, code, None).status_code == 201
    assert join(client, code, bea["key"]).status_code == 201
    # The blocked account sits anywhere else: a table without accounts, and Bea's.
    anonymous = client.post(GAMES, json={"players": [{"name": "x"}, *OPEN_TWO]})
    assert join(client, anonymous.json["table_code"], pest["key"]).status_code == 201
    beas = table_of(client, bea["key"], rated=False)
    assert join(client, beas["table_code"], pest["key"]).status_code == 201
    seats = store.load(hers.json["id"]).seats
    assert [s.account for s in seats] == [ana["id"], None, bea["id"], None]


def test_a_game_under_way_is_played_out_and_its_rematch_seats_the_first_back(
    client: FlaskClient,
) -> None:
    ana, pest = account(client, "Ana"), account(client, "Pest")
    game = short_table(client, ana["key"])
    sat = join(client, game["table_code"], pest["key"])
    assert sat.status_code == 201
    # Blocking mid-game takes nobody out: both play it to its end.
    assert block(client, ana, pest["id"]).status_code == 200
    last = play_both(client, game["id"], {0: ana["key"], 1: pest["key"]})
    assert last["phase"] == "finished"
    assert not any(p.get("stand_in") or p["left"] for p in last["players"])
    # Pest is back first: the rematch is its. Ana, who blocks it, takes no seat there.
    first = client.post(f"{GAMES}/{game['id']}/rematch", headers=bearer(pest["key"]))
    assert first.status_code == 201, first.json
    for language in ("en", "es"):
        asking = {**bearer(ana["key"]), "Accept-Language": language}
        second = client.post(f"{GAMES}/{game['id']}/rematch", headers=asking)
        assert refused(second) == (403, "seat_refused")
        assert second.json["message"] == REFUSING[language]
    # The other way round: Ana back first, then Pest is refused.
    unblocked = client.delete(f"/api/v1/account/blocks/{pest['id']}",
                              headers=account_header(ana["key"]))  # fmt: skip
    assert unblocked.status_code == 204
    again = short_table(client, ana["key"])
    assert join(client, again["table_code"], pest["key"]).status_code == 201
    assert block(client, ana, pest["id"]).status_code == 200
    play_both(client, again["id"], {0: ana["key"], 1: pest["key"]})
    back = client.post(f"{GAMES}/{again['id']}/rematch", headers=bearer(ana["key"]))
    assert back.status_code == 201, back.json
    late = client.post(f"{GAMES}/{again['id']}/rematch", headers=bearer(pest["key"]))
    assert refused(late) == (403, "seat_refused")
    assert late.json["message"] == REFUSED["en"]


def test_racing_for_seats_the_blocker_and_the_blocked_never_both_sit(
    app: Flask, client: FlaskClient, store: GameStore
) -> None:
    ana, pest = account(client, "Ana"), account(client, "Pest")
    assert block(client, ana, pest["id"]).status_code == 200

    def sit(who: dict[str, Any], code: str, ready: threading.Barrier, answers: Any) -> None:
        mine = app.test_client()
        ready.wait()
        answers[who["name"]] = join(mine, code, who["key"])

    for _table in range(8):
        made = client.post(GAMES, json={"players": [{"name": "x"}, *OPEN_TWO]})
        code, answers, ready = made.json["table_code"], {}, threading.Barrier(2)
        racers = [threading.Thread(target=sit, args=(who, code, ready, answers))
                  for who in (ana, pest)]  # fmt: skip
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join()
        codes = sorted(a.status_code for a in answers.values())
        assert codes == [201, 403], {n: a.json for n, a in answers.items()}
        seated = {s.account for s in store.load(made.json["id"]).seats} - {None}
        assert len(seated) == 1


def match(client: FlaskClient, seats: list[str], key: str | None, language: str = "en") -> Any:
    headers = {"Accept-Language": language, **(account_header(key) if key else {})}
    body = {"seats": seats, "games": 1, "duplicate": False, "rules": {"schedule": [1]}}
    return client.post("/api/v1/matches", json=body, headers=headers)


def opened(client: FlaskClient, bot: dict[str, Any]) -> None:
    answer = client.patch(f"/api/v1/accounts/{bot['id']}", json={"open_to_matches": True},
                          headers=account_header(bot["key"]))  # fmt: skip
    assert answer.status_code == 200, answer.json


def test_a_match_seats_no_bot_beside_or_for_an_account_it_blocks(client: FlaskClient) -> None:
    robo, pesty = account(client, "Robo", "bot"), account(client, "Pesty", "bot")
    pest, bea = account(client, "Pest"), account(client, "Bea")
    for bot in (robo, pesty):
        opened(client, bot)
    assert block(client, robo, pest["id"]).status_code == 200
    assert block(client, robo, pesty["id"]).status_code == 200
    label, theirs = f"account:{robo['id']}", f"account:{pesty['id']}"
    said = {
        "en": "An account in this match does not play with yours.",
        "es": "Una cuenta de esta serie no juega con la tuya.",
    }
    for language in ("en", "es"):
        # The blocked account asks for Robo, beside itself or not.
        for seats in ([label, "easy", "easy"], [label, f"account:{pest['id']}", "easy"]):
            answer = match(client, seats, pest["key"], language)
            assert refused(answer) == (403, "seat_refused"), answer.json
            assert answer.json["message"] == said[language]
    # Two bots open to matches, one blocking the other, whoever asks.
    for key in (None, bea["key"]):
        answer = match(client, [label, theirs, "easy"], key)
        assert refused(answer) == (403, "seat_refused")
        assert "one blocks the other" in answer.json["message"]
    mine = match(client, [label, theirs, "easy"], robo["key"])
    assert refused(mine) == (403, "seat_refused")
    assert mine.json["message"] == (
        "You block an account in this match: unblock it to play beside it."
    )
    # Unaffected: another account's asking, or nobody's; Robo seating the bot it blocks
    # against levels; Pest's bot account beside levels.
    for seats, key in (
        ([label, "easy", "easy"], bea["key"]),
        ([label, "easy", "easy"], None),
        ([theirs, "easy", "easy"], robo["key"]),
        ([theirs, "easy", "easy"], pesty["key"]),
    ):
        answer = match(client, seats, key)
        assert answer.status_code == 202, (seats, answer.json)
        assert client.delete(answer.json["url"]).status_code == 204


def test_the_lobby_leaves_out_the_tables_an_account_would_be_refused_at(
    client: FlaskClient,
) -> None:
    """Read with an account's key, the lobby lists no table whose maker or a seated account
    blocks it, or is blocked by it: either way round the table is just not there, so
    nobody learns who blocks whom. Without a key, everyone sees every table."""
    ana, pest, bea = account(client, "Ana"), account(client, "Pest"), account(client, "Bea")
    assert block(client, ana, pest["id"]).status_code == 200
    three = [{"name": "x"}, {"open": True}, {"open": True}]

    def listed(key: str) -> str:
        made = client.post(GAMES, json={"players": three, "listed": True},
                           headers=account_header(key))  # fmt: skip
        assert made.status_code == 201, made.json
        return str(made.json["id"])

    hers, pests, beas = listed(ana["key"]), listed(bea["key"]), listed(bea["key"])
    code = client.get(f"/api/v1/games/{pests}").json["table"]["code"]
    assert join(client, code, pest["key"]).status_code == 201

    def lobby(key: str | None) -> list[str]:
        answer = client.get("/api/v1/tables", headers=account_header(key) if key else {})
        assert answer.status_code == 200, answer.json
        return [t["game_id"] for t in answer.json]

    everyone = lobby(None)
    assert {hers, pests, beas} <= set(everyone)
    assert lobby(pest["key"]) == [t for t in everyone if t != hers]
    assert lobby(ana["key"]) == [t for t in everyone if t != pests]
    assert lobby(bea["key"]) == everyone
    # Unblocked, each sees the other's table again.
    unblocked = client.delete(f"/api/v1/account/blocks/{pest['id']}",
                              headers=account_header(ana["key"]))  # fmt: skip
    assert unblocked.status_code == 204
    assert lobby(pest["key"]) == lobby(ana["key"]) == everyone
    wrong = client.get("/api/v1/tables", headers=account_header("pa_nobodys"))
    assert refused(wrong) == (401, "unknown_account")
