"""Names at one table never look alike: a seat's name that looks like another seat's there
(letters of other alphabets that look like Latin ones, case, accents, spacing, characters
that draw nothing: the accounts' skeletons) is refused when the table is made and when a
seat is taken, so no one at a table can pass for someone else there; the bots the service
names itself get names that look like no one's."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from core.play.tables import bot_name, looks_like
from core.store.accounts import skeleton
from core.store.records import Seat
from tests.service.helpers import bearer

ES = {"Accept-Language": "es"}

#: Names that look like "Ana": a Cyrillic А, case, spacing (a no-break space, runs of
#: spaces), a zero-width space, a combining accent, a full-width letter.
LOOK_ALIKES = [
    "\u0410na",
    "ana",
    "ANA",
    "Ana\u00a0",
    " A na ",
    "A\u200bna",
    "A\u0301na",
    "\uff21na",
]


def waiting_table(client: FlaskClient, host: str = "Ana") -> dict[str, Any]:
    made = client.post(
        "/api/v1/games", json={"players": [{"name": host}, {"open": True}, {"open": True}]}
    )
    assert made.status_code == 201, made.json
    created: dict[str, Any] = made.json
    return created


def names_at(client: FlaskClient, game_id: str) -> list[str]:
    return [p["name"] for p in client.get(f"/api/v1/games/{game_id}").json["players"]]


def alike(names: list[str]) -> bool:
    """Whether two of these (non-empty) names look alike."""
    shown = [skeleton(n) for n in names if n]
    return len(set(shown)) < len(shown)


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_seat_is_refused_a_name_that_looks_like_one_at_the_table(
    client: FlaskClient, name: str
) -> None:
    table = waiting_table(client)
    url = f"/api/v1/tables/{table['table_code']}/seats"
    english = client.post(url, json={"name": name})
    spanish = client.post(url, json={"name": name}, headers=ES)
    for answer in (english, spanish):
        assert answer.status_code == 409, answer.json
        assert answer.json["error"] == "name_taken"
        assert "Ana" in answer.json["message"]
    assert english.headers["Content-Language"] == "en"
    assert "looks too much like" in english.json["message"]
    assert spanish.headers["Content-Language"] == "es"
    assert "se parece demasiado" in spanish.json["message"]
    # Nothing taken: the seats are still open, for a name of one's own.
    assert names_at(client, table["id"]) == ["Ana", "", ""]
    assert client.post(url, json={"name": "Ana María"}).status_code == 201
    assert client.post(url, json={"name": "Bruno"}).status_code == 201
    assert names_at(client, table["id"]) == ["Ana", "Ana María", "Bruno"]


def test_a_seat_taken_is_a_name_the_next_one_may_not_look_like(client: FlaskClient) -> None:
    table = waiting_table(client)
    url = f"/api/v1/tables/{table['table_code']}/seats"
    assert client.post(url, json={"name": "Bruno"}).status_code == 201
    # A capital I and a small l, 0 and o, look alike too.
    refused = client.post(url, json={"name": "BRUN0"})
    assert refused.status_code == 409, refused.json
    assert refused.json["error"] == "name_taken"
    assert "Bruno" in refused.json["message"]


def test_an_account_whose_name_looks_like_a_seats_is_refused_that_table(
    client: FlaskClient,
) -> None:
    made = client.post("/api/v1/accounts", json={"name": "Carmen", "kind": "person"})
    assert made.status_code == 201, made.json
    table = waiting_table(client, host="carmen")
    joined = client.post(
        f"/api/v1/tables/{table['table_code']}/seats",
        json={"name": "Whoever"},
        headers={"X-Pocha-Account": made.json["key"]},
    )
    assert joined.status_code == 409, joined.json
    assert joined.json["error"] == "name_taken"
    assert "Carmen" in joined.json["message"] and "carmen" in joined.json["message"]
    assert names_at(client, table["id"]) == ["carmen", "", ""]


def test_the_bots_the_host_seats_take_names_like_no_ones(client: FlaskClient) -> None:
    # The bots' own names are their level and seat ("Medium 2"): a person there already
    # has one of them, so the bot's is made distinct rather than refused.
    table = waiting_table(client, host="Medium 2")
    host = bearer(table["host_token"])
    given = client.post(f"/api/v1/games/{table['id']}/seats/1/bot", json={"level": "medium"},
                        headers=host)  # fmt: skip
    assert given.status_code == 200, given.json
    table2 = waiting_table(client, host="medium 3")
    started = client.post(f"/api/v1/games/{table2['id']}/start", json={"bots": "medium"},
                          headers=bearer(table2["host_token"]))  # fmt: skip
    assert started.status_code == 200, started.json
    for made in (table, table2):
        names = names_at(client, made["id"])
        assert not alike(names), names
    # Two bots of one level at one table: their seat numbers tell them apart.
    table3 = waiting_table(client, host="Ana")
    started = client.post(f"/api/v1/games/{table3['id']}/start", json={"bots": "easy"},
                          headers=bearer(table3["host_token"]))  # fmt: skip
    assert started.status_code == 200, started.json
    assert names_at(client, table3["id"]) == ["Ana", "Easy 2", "Easy 3"]


def test_a_bots_name_is_its_level_and_seat_unless_someone_there_has_it() -> None:
    # (As a challenge's and a match's levels are named, beside their accounts.)
    seats = [Seat("Medium 2"), Seat("", "medium"), Seat("medium 2 (2)"), Seat("", open=True)]
    assert bot_name("medium", 1, seats) == "Medium 2 (3)"
    assert bot_name("medium", 3, seats) == "Medium 4"
    assert bot_name("easy", 1, [Seat("Ana"), Seat("", "easy")]) == "Easy 2"
    # Names of signs alone, which the skeleton drops, are told apart as written.
    assert looks_like("...", [Seat("-")]) is None
    assert looks_like("...", [Seat("Ana"), Seat("...")]) == "..."
    assert looks_like("Ana", [Seat("", open=True), Seat("\u0410NA", "easy")]) == "\u0410NA"
