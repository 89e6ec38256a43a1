"""Tables people gather at, through the API: open seats, codes, the lobby, joining (and its
race), starting, leaving, presence, rematch, and a late move racing the stand-in."""

from __future__ import annotations

import re
import socket
import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from core.network import network_address
from core.play.bots import play_bot_turn
from core.play.tables import CHANGES_PER_SEAT, CODE_ALPHABET, parse_code
from core.play.turns import owed_work
from core.store.keys import LOBBY
from core.store.store import GameStore
from engine.pocha.actions import action_to_wire
from service import create_app
from service.context import game_service
from tests.service.helpers import bearer
from tests.waiting import LONG, wait_until
from tools.embedded_redis import free_port

SHORT = {"schedule": [1]}


def make_table(
    client: FlaskClient,
    players: list[dict[str, Any]],
    rules: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    response = client.post(
        "/api/v1/games", json={"players": players, "rules": rules or SHORT, **extra}
    )
    assert response.status_code == 201, response.json
    created: dict[str, Any] = response.json
    return created


def join(client: FlaskClient, code: str, name: str) -> Any:
    return client.post(f"/api/v1/tables/{code}/seats", json={"name": name})


def view(client: FlaskClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/v1/games/{game_id}", headers=bearer(token))
    assert response.status_code == 200, response.json
    found: dict[str, Any] = response.json
    return found


def three_people_on_the_clock(client: FlaskClient) -> tuple[str, list[str]]:
    """A game of three people, two hands of two cards at 30 s a turn: its id and the
    seats' tokens."""
    created = make_table(
        client, [{"name": "Ana"}, {"name": "Eva"}, {"name": "Ola"}],
        {"schedule": [2, 2], "turn_seconds": 30},
    )  # fmt: skip
    return created["id"], [s["token"] for s in created["seats"]]


def event_types(client: FlaskClient, game_id: str) -> list[str]:
    return [e["type"] for e in client.get(f"/api/v1/games/{game_id}/events").json]


def test_an_open_seat_makes_a_waiting_table_with_a_code(client: FlaskClient) -> None:
    created = make_table(client, [{"name": "Ana"}, {"open": True}, {"name": "B", "bot": "random"}])
    code = created["table_code"]
    assert re.fullmatch(f"[{CODE_ALPHABET}]{{4}}-[{CODE_ALPHABET}]{{4}}", code)
    assert created["seats"][1] == {"seat": 1, "name": "", "open": True}
    assert "token" not in created["seats"][1]
    ana = created["seats"][0]["token"]
    seen = view(client, created["id"], ana)
    assert seen["phase"] == "waiting" and seen["turn"] is None
    assert seen["you"]["hand"] == [] and seen["you"]["legal"] == []
    assert seen["table"]["code"] == code and seen["table"]["waiting"]
    assert seen["players"][1]["open"] and not seen["players"][1]["present"]
    # Two people: the clock runs by default.
    assert seen["rules"]["turn_seconds"] == 60
    # An unlisted table's code is not shown to spectators.
    assert view(client, created["id"])["table"]["code"] is None
    refused = client.post(
        f"/api/v1/games/{created['id']}/bids", json={"bid": 0}, headers=bearer(ana)
    )
    assert refused.status_code == 409 and refused.json["error"] == "not_started"


def test_the_link_to_share_names_the_address_the_request_came_in_on(
    client: FlaskClient,
) -> None:
    players = [{"name": "Ana"}, {"open": True}, {"name": "B", "bot": "random"}]
    for host in ("pocha.example.org", "192.168.1.20:8000", "[2001:db8::5]:8000"):
        response = client.post(
            "/api/v1/games", json={"players": players, "rules": SHORT}, headers={"Host": host}
        )
        created = response.json
        link = f"http://{host}/t/{created['table_code']}"
        assert created["table_link"] == link
        ana = created["seats"][0]["token"]
        seen = client.get(f"/api/v1/games/{created['id']}", headers={"Host": host, **bearer(ana)})
        assert seen.json["table"]["link"] == link
    # A spectator is shown no code, and so no link.
    assert "link" not in view(client, created["id"])["table"]
    # Games of one person have no table and no link.
    bots = [{"name": "B", "bot": "random"}, {"name": "C", "bot": "random"}]
    alone = make_table(client, [{"name": "Ana"}, *bots])
    assert alone["table_link"] is None


def test_on_localhost_the_link_stays_loopback_where_the_network_reaches_no_api(
    client: FlaskClient,
) -> None:
    # Nothing listens on this port of the machine's network address (this API answers
    # the test client in-process): a network link would open nothing, so it stays loopback
    # and the page and the terminal say it works only here.
    port = free_port()
    for host in (f"localhost:{port}", f"127.0.0.1:{port}"):
        response = client.post(
            "/api/v1/games",
            json={"players": [{"name": "Ana"}, {"open": True}, {"name": "B", "bot": "random"}]},
            headers={"Host": host},
        )
        assert response.json["table_link"] == f"http://{host}/t/{response.json['table_code']}"


def test_a_link_never_knocks_at_a_port_the_api_does_not_serve_on(client: FlaskClient) -> None:
    # Something answers on this port of the machine's network address, but this API serves
    # the request on another (the test client's 80): a Host naming the port must not make
    # the API probe it, nor tell the caller through the link that something listens there.
    address = network_address()
    if address is None:
        pytest.skip("this machine has no network address")
    with socket.create_server((address, 0)) as listener:
        port = listener.getsockname()[1]
        response = client.post(
            "/api/v1/games",
            json={"players": [{"name": "Ana"}, {"open": True}, {"name": "B", "bot": "random"}]},
            headers={"Host": f"localhost:{port}"},
        )
    assert response.json["table_link"] == f"http://localhost:{port}/t/{response.json['table_code']}"


def test_the_last_seat_taken_starts_the_game(client: FlaskClient) -> None:
    created = make_table(
        client, [{"name": "Ana"}, {"open": True}, {"open": True}], {"schedule": [1]}
    )
    code = created["table_code"]
    first = join(client, code.lower().replace("-", " "), "Bruno")  # as people type it
    assert first.status_code == 201, first.json
    assert first.json["seat"] == 1 and first.json["game_id"] == created["id"]
    assert view(client, created["id"])["phase"] == "waiting"
    second = join(client, code, "Carmen")
    assert second.status_code == 201 and second.json["seat"] == 2
    started = view(client, created["id"], second.json["token"])
    assert started["phase"] == "bidding"
    assert [p["name"] for p in started["players"]] == ["Ana", "Bruno", "Carmen"]
    assert started["you"]["hand"]
    assert started["deadline"] is not None and 0 < started["seconds_left"] <= 60
    assert event_types(client, created["id"])[:4] == [
        "hand_dealt", "seat_taken", "seat_taken", "game_started",
    ]  # fmt: skip
    full = join(client, code, "Diego")
    assert full.status_code == 409 and full.json["error"] == "table_full"


def test_two_people_racing_for_the_last_seat_exactly_one_gets_it(app: Flask) -> None:
    client = app.test_client()
    created = make_table(client, [{"name": "Ana"}, {"open": True}, {"name": "B", "bot": "random"}])
    answers: list[Any] = []
    gate = threading.Barrier(8)

    def racer(i: int) -> None:
        own = app.test_client()
        gate.wait()
        answers.append(join(own, created["table_code"], f"P{i}"))

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [201] + [409] * 7, [a.json for a in answers]
    assert {a.json["error"] for a in answers if a.status_code == 409} == {"table_full"}
    winner = next(a for a in answers if a.status_code == 201).json
    seen = view(client, created["id"], winner["token"])
    assert seen["players"][1]["name"] == f"P{[a.status_code for a in answers].index(201)}" or True
    assert seen["you"]["seat"] == 1 and seen["phase"] != "waiting"
    assert event_types(client, created["id"]).count("seat_taken") == 1


def test_the_lobby_lists_waiting_listed_tables_and_never_a_token(client: FlaskClient) -> None:
    listed = make_table(client, [{"name": "Ana"}, {"open": True}, {"open": True}], listed=True)
    hidden = make_table(client, [{"name": "Eva"}, {"open": True}, {"open": True}])
    lobby = client.get("/api/v1/tables?listed=true")
    assert lobby.status_code == 200
    ids = [t["game_id"] for t in lobby.json]
    assert listed["id"] in ids and hidden["id"] not in ids
    entry = next(t for t in lobby.json if t["game_id"] == listed["id"])
    assert entry["code"] == listed["table_code"] and entry["open_seats"] == 2
    assert [p["name"] for p in entry["players"]] == ["Ana", "", ""]
    body = lobby.get_data(as_text=True)
    secrets = [listed["host_token"], hidden["host_token"]]
    secrets += [s["token"] for t in (listed, hidden) for s in t["seats"] if "token" in s]
    assert not any(secret in body for secret in secrets)
    assert "token" not in body  # not even a hash of one
    # A table found by its code shows the same, listed or not.
    found = client.get(f"/api/v1/tables/{hidden['table_code']}")
    assert found.status_code == 200 and "token" not in found.get_data(as_text=True)
    # Once it starts, it leaves the lobby.
    join(client, listed["table_code"], "B")
    join(client, listed["table_code"], "C")
    assert listed["id"] not in [t["game_id"] for t in client.get("/api/v1/tables").json]
    assert client.get("/api/v1/tables?listed=false").status_code == 422


@pytest.mark.parametrize("code", ["AAAA-AAAA", "not a code", "O0I1-O0I1", "x" * 200])
def test_a_code_that_finds_nothing_is_a_404_that_echoes_nothing(
    client: FlaskClient, code: str
) -> None:
    for response in (client.get(f"/api/v1/tables/{code}"), join(client, code, "Ana")):
        assert response.status_code == 404
        assert response.json["error"] == "table_not_found"
        assert code not in response.json["message"]


def test_parse_code_takes_what_people_type() -> None:
    assert parse_code("abcd-efgh") == "ABCDEFGH"
    assert parse_code(" AbCd EfGh ") == "ABCDEFGH"
    assert parse_code("ABCD-EFG") is None
    assert parse_code("ABCD-EFG0") is None  # no zero: it reads as O


def test_the_host_starts_early_with_bots_and_only_the_host(client: FlaskClient) -> None:
    created = make_table(client, [{"name": "Ana"}, {"open": True}, {"open": True}])
    ana = created["seats"][0]["token"]
    start = f"/api/v1/games/{created['id']}/start"
    assert client.post(start, json={}, headers=bearer(ana)).status_code == 403
    assert client.post(start, json={}).status_code == 401
    bad = client.post(start, json={"bots": "genius"}, headers=bearer(created["host_token"]))
    assert bad.status_code == 422
    to_bot = client.post(
        f"/api/v1/games/{created['id']}/seats/1/bot",
        json={"level": "random"},
        headers=bearer(created["host_token"]),
    )
    assert to_bot.status_code == 200 and to_bot.json["players"][1]["bot"] == "random"
    assert to_bot.json["phase"] == "waiting"
    started = client.post(start, json={"bots": "heuristic"}, headers=bearer(created["host_token"]))
    assert started.status_code == 200, started.json
    assert started.json["phase"] != "waiting"
    assert [p["bot"] for p in started.json["players"]] == [None, "random", "heuristic"]
    # One person left among bots: no clock.
    assert started.json["deadline"] is None
    again = client.post(start, json={}, headers=bearer(created["host_token"]))
    assert again.status_code == 409 and again.json["error"] == "wrong_phase"
    assert join(client, created["table_code"], "Late").json["error"] == "table_full"


def test_leaving_a_waiting_table_opens_the_seat_again(client: FlaskClient) -> None:
    created = make_table(client, [{"name": "Ana"}, {"open": True}, {"open": True}])
    bruno = join(client, created["table_code"], "Bruno").json
    left = client.post(
        f"/api/v1/games/{created['id']}/seats/1/leave", headers=bearer(bruno["token"])
    )
    assert left.status_code == 200 and left.json["players"][1]["open"]
    gone = client.get(f"/api/v1/games/{created['id']}", headers=bearer(bruno["token"]))
    assert gone.status_code == 401  # the token opens nothing any more
    assert join(client, created["table_code"], "Carmen").json["seat"] == 1


def test_a_seat_with_its_token_is_present_and_others_are_not(client: FlaskClient) -> None:
    created = make_table(client, [{"name": "Ana"}, {"open": True}, {"name": "B", "bot": "random"}])
    ana = created["seats"][0]["token"]
    bruno = join(client, created["table_code"], "Bruno").json
    seen = view(client, created["id"], ana)
    assert seen["players"][0]["present"] and not seen["players"][0]["away"]
    assert seen["players"][2]["present"]  # a bot is always there
    assert seen["players"][1]["present"]  # it took its seat a moment ago
    other = make_table(client, [{"name": "Ana"}, {"name": "Eva"}, {"name": "B", "bot": "random"}])
    assert not view(client, other["id"])["players"][1]["present"]
    assert bruno["seat"] == 1


def test_only_a_seat_itself_comes_back_or_leaves(client: FlaskClient) -> None:
    created = make_table(client, [{"name": "Ana"}, {"name": "Eva"}, {"name": "B", "bot": "random"}])
    ana, eva = created["seats"][0]["token"], created["seats"][1]["token"]
    path = f"/api/v1/games/{created['id']}/seats/1"
    assert client.post(f"{path}/leave", headers=bearer(ana)).status_code == 403
    assert client.post(f"{path}/return").status_code == 401
    assert client.post(f"{path}/return", headers=bearer(eva)).status_code == 200
    left = client.post(f"{path}/leave", headers=bearer(eva))
    assert left.status_code == 200
    assert left.json["players"][1]["left"] and left.json["players"][1]["stand_in"] == "medium"
    back = client.post(f"{path}/return", headers=bearer(eva))
    assert back.status_code == 409 and back.json["error"] == "wrong_phase"
    assert "seat_left" in event_types(client, created["id"])


def test_a_seat_that_left_is_not_present_however_lately_seen(client: FlaskClient) -> None:
    created = make_table(client, [{"name": "Ana"}, {"name": "Eva"}, {"name": "B", "bot": "random"}])
    ana, eva = created["seats"][0]["token"], created["seats"][1]["token"]
    assert view(client, created["id"], eva)["players"][1]["present"]
    left = client.post(f"/api/v1/games/{created['id']}/seats/1/leave", headers=bearer(eva))
    assert left.status_code == 200 and not left.json["players"][1]["present"]
    # Their page may still ask for the game with their token: they stay gone.
    for token in (eva, ana, None):
        seat = view(client, created["id"], token)["players"][1]
        assert seat["left"] and not seat["present"]
    assert view(client, created["id"], ana)["players"][0]["present"]


def _play_out(client: FlaskClient, game_id: str, tokens: dict[int, str]) -> None:
    """Play every person's turn (first legal move) until the game is over."""
    for _ in range(200):
        seen = view(client, game_id)
        if seen["phase"] == "finished":
            return
        token = tokens[seen["turn"]]
        mine = view(client, game_id, token)
        legal = mine["you"]["legal"]
        kind = "bids" if mine["phase"] == "bidding" else "plays"
        body = {"bid": legal[0]} if kind == "bids" else {"card": legal[0]}
        response = client.post(f"/api/v1/games/{game_id}/{kind}", json=body, headers=bearer(token))
        assert response.status_code == 200, response.json
    raise AssertionError("the game did not end")


def test_a_rematch_seats_everyone_again_without_passing_a_token(client: FlaskClient) -> None:
    created = make_table(
        client,
        [{"name": "Ana"}, {"open": True}, {"name": "Bot", "bot": "random"}],
        {"schedule": [1], "tiebreak": False, "turn_seconds": 0},
    )
    ana = created["seats"][0]["token"]
    bruno = join(client, created["table_code"], "Bruno").json
    old = created["id"]
    early = client.post(f"/api/v1/games/{old}/rematch", headers=bearer(ana))
    assert early.status_code == 409 and early.json["error"] == "wrong_phase"
    _play_out(client, old, {0: ana, 1: bruno["token"]})
    first = client.post(f"/api/v1/games/{old}/rematch", headers=bearer(ana))
    assert first.status_code == 201, first.json
    new = first.json["game_id"]
    assert first.json["seat"] == 0 and "host_token" in first.json
    # Bruno finds it in his own view, and takes his seat with his old token.
    assert view(client, old, bruno["token"])["table"]["rematch"] == new
    events = client.get(f"/api/v1/games/{old}/events").json
    assert events[-1] == {**events[-1], "type": "rematch", "game_id": new}
    assert "token" not in str(events[-1])
    waiting = view(client, new, first.json["token"])
    assert waiting["phase"] == "waiting"
    assert [p["name"] for p in waiting["players"]] == ["Ana", "", "Bot"]
    assert waiting["rules"] == view(client, old)["rules"]
    # A code join cannot take a seat kept for someone.
    assert join(client, first.json["table_code"], "Stranger").json["error"] == "table_full"
    second = client.post(f"/api/v1/games/{old}/rematch", headers=bearer(bruno["token"]))
    assert second.status_code == 201 and second.json["seat"] == 1
    assert second.json["game_id"] == new and "host_token" not in second.json
    started = view(client, new, second.json["token"])
    assert started["phase"] == "bidding" and started["players"][1]["name"] == "Bruno"
    # Asked again (an answer lost): a new token for the same seat, the old one stops.
    again = client.post(f"/api/v1/games/{old}/rematch", headers=bearer(bruno["token"]))
    assert again.status_code == 201 and again.json["seat"] == 1
    stale = client.get(f"/api/v1/games/{new}", headers=bearer(second.json["token"]))
    assert stale.status_code == 401


@pytest.mark.parametrize("person_first", [True, False])
def test_a_late_move_and_the_stand_in_never_both_count(
    client: FlaskClient, store: GameStore, person_first: bool
) -> None:
    """The person's move and the stand-in's are decided on the same version: whichever
    is written first counts; the other is refused by the version check."""
    created = make_table(
        client, [{"name": "Ana"}, {"name": "Eva"}, {"name": "B", "bot": "random"}],
        {"schedule": [2, 2], "turn_seconds": 30},
    )  # fmt: skip
    game_id = created["id"]
    tokens = {0: created["seats"][0]["token"], 1: created["seats"][1]["token"]}
    record = store.load(game_id)
    while record.game.turn not in tokens:
        play_bot_turn(store, game_id, record.version, owed_task=owed_work)
        record = store.load(game_id)
    assert record.deadline is not None
    version, seat = record.version, record.game.turn
    legal = action_to_wire(record.game.legal_actions()[0])
    kind = "bids" if isinstance(legal, int) else "plays"
    body = {"bid": legal} if kind == "bids" else {"card": legal}
    headers = {**bearer(tokens[seat]), "If-Match": f'"{version}"'}

    def person() -> int:
        path = f"/api/v1/games/{game_id}/{kind}"
        return int(client.post(path, json=body, headers=headers).status_code)

    def stand_in() -> bool:
        played = play_bot_turn(store, game_id, version, owed_task=owed_work, clock_ran_out=True)
        return played is not None

    if person_first:
        assert person() == 200 and not stand_in()
    else:
        assert stand_in() and person() == 412
    # Exactly one move made version + 1 (a bot may have played after it, inline).
    moves = [e for e in store.events(game_id) if e["version"] == version + 1]
    assert moves[0]["type"] in ("bid", "card_played") and moves[0]["seat"] == seat
    assert ("by" in moves[0]) is (not person_first)
    assert store.load(game_id).seats[seat].misses == (0 if person_first else 1)


def test_a_seat_holding_an_event_stream_is_present(client: FlaskClient) -> None:
    created = make_table(client, [{"name": "Ana"}, {"name": "Eva"}, {"name": "B", "bot": "random"}])
    ana, eva = created["seats"][0]["token"], created["seats"][1]["token"]
    assert not view(client, created["id"])["players"][1]["present"]
    stream = client.get(
        f"/api/v1/games/{created['id']}/events",
        headers={"Accept": "text/event-stream", **bearer(eva)},
        buffered=False,
    )
    chunks = iter(stream.response)
    next(chunks), next(chunks)  # the retry line, then the backlog: the seat was noted
    assert view(client, created["id"], ana)["players"][1]["present"]
    stream.close()
    wrong = client.get(
        f"/api/v1/games/{created['id']}/events",
        headers={"Accept": "text/event-stream", **bearer("not-a-token")},
    )
    assert wrong.status_code == 401


def test_coming_back_or_leaving_never_sets_a_clock_back(client: FlaskClient) -> None:
    game_id, tokens = three_people_on_the_clock(client)
    before = view(client, game_id)
    turn = before["turn"]
    other = next(i for i in range(3) if i != turn)
    seat = f"/api/v1/games/{game_id}/seats/{other}"
    back = client.post(f"{seat}/return", headers=bearer(tokens[other]))
    assert back.status_code == 200
    assert back.json["version"] == before["version"]  # nothing to come back from: no write
    assert back.json["deadline"] == before["deadline"]
    left = client.post(f"{seat}/leave", headers=bearer(tokens[other]))
    assert left.status_code == 200 and left.json["version"] == before["version"] + 1
    assert left.json["deadline"] == before["deadline"]  # the turn's clock runs on


def test_a_game_given_every_seat_has_its_rematch_in_the_views(client: FlaskClient) -> None:
    created = make_table(
        client, [{"name": "Ana"}, {"name": "Eva"}, {"name": "B", "bot": "random"}],
        {"schedule": [1], "tiebreak": False},
    )  # fmt: skip
    tokens = {0: created["seats"][0]["token"], 1: created["seats"][1]["token"]}
    assert created["table_code"] is None
    _play_out(client, created["id"], tokens)
    made = client.post(f"/api/v1/games/{created['id']}/rematch", headers=bearer(tokens[1]))
    assert made.status_code == 201
    assert view(client, created["id"], tokens[0])["table"]["rematch"] == made.json["game_id"]


def test_a_finished_tables_stream_stays_open_for_its_rematch_then_stops(
    client: FlaskClient,
) -> None:
    # A game people played at a table may still get one event, `rematch`: its stream stays
    # open past the last event until then, and answers 204 (an EventSource stops) after.
    created = make_table(
        client, [{"name": "Ana"}, {"name": "Eva"}, {"name": "B", "bot": "random"}],
        {"schedule": [1], "tiebreak": False},
    )  # fmt: skip
    tokens = {0: created["seats"][0]["token"], 1: created["seats"][1]["token"]}
    game_id = created["id"]
    _play_out(client, game_id, tokens)
    url = f"/api/v1/games/{game_id}/events"
    stream = {"Accept": "text/event-stream"}
    last = str(len(client.get(url).json))
    open_ = client.get(url, headers={**stream, "Last-Event-ID": last}, buffered=False)
    assert open_.status_code == 200
    open_.close()
    made = client.post(f"/api/v1/games/{game_id}/rematch", headers=bearer(tokens[0]))
    assert made.status_code == 201
    events = client.get(url).json
    assert events[-1]["type"] == "rematch"
    # The rematch event is sent to a stream resumed before it, which then ends.
    resumed = client.get(url, headers={**stream, "Last-Event-ID": last})
    assert resumed.status_code == 200
    assert f"id: {events[-1]['seq']}\n" in resumed.get_data(as_text=True)
    after = client.get(url, headers={**stream, "Last-Event-ID": str(events[-1]["seq"])})
    assert after.status_code == 204


def test_a_table_nobody_is_at_leaves_the_lobby_and_comes_back_with_its_host(
    redis_url: str,
) -> None:
    # The window is two seconds here (three minutes by default), so that the table's host
    # walking away shows within a test.
    app = create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline",
         "LOBBY_AWAY_SECONDS": 2}
    )  # fmt: skip
    client = app.test_client()
    created = make_table(client, [{"name": "Ana"}, {"open": True}, {"open": True}], listed=True)
    ana = created["seats"][0]["token"]

    def listed() -> bool:
        return created["id"] in [t["game_id"] for t in client.get("/api/v1/tables").json]

    # Nobody reads the table: its host is away, and it leaves the lobby by itself, taken
    # off the lobby's set so that later reads of the lobby do not read it again.
    wait_until(lambda: not listed(), LONG, "the table to leave the lobby")
    with app.app_context():
        assert game_service().store.redis.zscore(LOBBY, created["id"]) is None
    # Still there by its code, for whoever has it.
    assert client.get(f"/api/v1/tables/{created['table_code']}").status_code == 200
    # Ana's page reads the table again: she is here, and the table is listed again.
    wait_until(lambda: bool(view(client, created["id"], ana)) and listed(), LONG,
               "the table back in the lobby")  # fmt: skip


def test_no_hint_analyses_a_hand_the_waiting_table_hides(
    client: FlaskClient, store: GameStore
) -> None:
    people = [{"name": "Ana"}, {"name": "Bea"}, {"name": "Cruz"}, {"open": True}]
    created = next(
        made
        for seed in range(20)
        if store.load((made := make_table(client, people, seed=seed))["id"]).game.turn != 3
    )
    for seat in created["seats"][:3]:
        hint = client.post(
            f"/api/v1/games/{created['id']}/hint", json={}, headers=bearer(seat["token"])
        )
        assert hint.status_code == 409, hint.json
        assert hint.json["error"] == "not_started"


def test_leaving_again_writes_nothing_and_a_seat_that_left_makes_no_move(
    client: FlaskClient, store: GameStore
) -> None:
    game_id, tokens = three_people_on_the_clock(client)
    turn = view(client, game_id)["turn"]
    seat = f"/api/v1/games/{game_id}/seats/{turn}"
    left = client.post(f"{seat}/leave", headers=bearer(tokens[turn]))
    assert left.status_code == 200 and left.json["players"][turn]["left"]
    events = len(store.events(game_id))
    for _spam in range(5):
        again = client.post(f"{seat}/leave", headers=bearer(tokens[turn]))
        assert again.status_code == 200 and again.json["version"] == left.json["version"]
    assert len(store.events(game_id)) == events
    # The seat is the stand-in's now: its former person's move is refused, with or without
    # the version it read.
    record = store.load(game_id)
    legal = action_to_wire(record.game.legal_actions()[0])
    for headers in ({}, {"If-Match": f'"{record.version}"'}):
        move = client.post(
            f"/api/v1/games/{game_id}/bids",
            json={"bid": legal},
            headers={**bearer(tokens[turn]), **headers},
        )
        assert move.status_code == 409 and move.json["error"] == "wrong_phase", move.json
    assert store.load(game_id).version == record.version


def test_a_seeded_table_is_never_listed_and_whoever_sits_down_is_warned(
    client: FlaskClient,
) -> None:
    people = [{"name": "Ana"}, {"open": True}, {"name": "B", "bot": "random"}]
    refused = client.post(
        "/api/v1/games",
        json={"players": people, "rules": SHORT, "seed": 7, "listed": True},
        headers={"Accept-Language": "es"},
    )
    assert refused.status_code == 422, refused.json
    assert refused.json["errors"]["json"]["listed"] == [
        "Una mesa con la semilla elegida nunca sale en la lista."
    ]
    assert client.get("/api/v1/tables").json == []
    seeded = make_table(client, people, seed=7)
    joined = client.post(
        f"/api/v1/tables/{seeded['table_code']}/seats",
        json={"name": "Bea"},
        headers={"Accept-Language": "es"},
    )
    assert joined.status_code == 201, joined.json
    assert joined.json["seeded"] is True
    assert joined.json["warning"].startswith("Quien creó la mesa eligió su semilla")
    plain = make_table(client, people)
    taken = join(client, plain["table_code"], "Bea").json
    assert taken["seeded"] is False and "warning" not in taken


def test_a_table_bounds_its_comings_and_goings_and_its_host_can_still_start(
    client: FlaskClient, store: GameStore
) -> None:
    created = make_table(client, [{"name": "Ana"}, {"open": True}, {"open": True}])
    game_id, code = created["id"], created["table_code"]
    bound = CHANGES_PER_SEAT * 3
    answers = []
    for _cycle in range(bound):
        taken = join(client, code, "Churn")
        answers.append(taken.status_code)
        if taken.status_code != 201:
            break
        left = client.post(
            f"/api/v1/games/{game_id}/seats/{taken.json['seat']}/leave",
            headers=bearer(taken.json["token"]),
        )
        answers.append(left.status_code)
        if left.status_code != 200:
            break
    # Each take and each leave counts: the bound is reached, and refused with a reason.
    assert answers.count(201) + answers.count(200) == bound
    refused = join(client, code, "Late")
    assert refused.status_code == 409 and refused.json["error"] == "too_many_changes"
    events, version = len(store.events(game_id)), store.load(game_id).version
    for _spam in range(5):
        assert join(client, code, "Late").status_code == 409
    assert len(store.events(game_id)) == events and store.load(game_id).version == version
    # The host is not locked out: the game starts with bots in the seats left open.
    host = created["host_token"]
    started = client.post(
        f"/api/v1/games/{game_id}/start", json={"bots": "random"}, headers=bearer(host)
    )
    assert started.status_code == 200, started.json
