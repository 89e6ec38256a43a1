"""Bad input of every kind: each gets the one error shape with its machine code, never a
500, and leaves the game exactly as it was."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import marshmallow as ma
import pytest
from flask.testing import FlaskClient

from core.store.keys import game_key
from core.store.store import GameStore
from engine.pocha.cards import codes
from engine.pocha.rules import OPTIONS, Option
from service import create_app
from service.api.wire.pocha import RulesSchema
from tests.service.helpers import bearer, create_game, humans, move, tokens_of

ERROR_KEYS = {"code", "status", "error", "message"}


def assert_error(response: Any, status: int, error: str) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.get_data(True))
    body: dict[str, Any] = response.json
    assert set(body) >= ERROR_KEYS, body
    assert body["code"] == status
    assert body["error"] == error, body
    assert isinstance(body["message"], str) and body["message"]
    return body


@pytest.fixture
def game(client: FlaskClient) -> dict[str, Any]:
    # Seed 7, 4 players, first hand of 3 cards: a known table to break the rules at.
    return create_game(client, humans(4), {"schedule": [3, 3]}, seed=7)


def snapshot(store: GameStore, game_id: str) -> tuple[Any, ...]:
    record = store.load(game_id)
    return record.version, record.events, record.game.to_dict()


@pytest.fixture
def unchanged(store: GameStore, game: dict[str, Any]) -> Iterator[None]:
    before = snapshot(store, game["id"])
    yield
    assert snapshot(store, game["id"]) == before


def turn_of(client: FlaskClient, game_id: str) -> int:
    turn: int = client.get(f"/api/v1/games/{game_id}").json["turn"]
    return turn


def post(client: FlaskClient, url: str, token: str | None = None, **kwargs: Any) -> Any:
    return client.post(url, headers=bearer(token), **kwargs)


@pytest.mark.usefixtures("unchanged")
class TestBadMoves:
    def test_malformed_json(self, client: FlaskClient, game: dict[str, Any]) -> None:
        seat = turn_of(client, game["id"])
        response = post(
            client,
            f"/api/v1/games/{game['id']}/bids",
            tokens_of(game)[seat],
            data='{"bid": 1',
            content_type="application/json",
        )
        assert_error(response, 400, "bad_json")

    @pytest.mark.parametrize(
        "body",
        ['{"bid": "one", "bid": 0}', '{"bid": 0, "bid": 0}', '{"bid": 0, "x": {"a": 1, "a": 2}}'],
    )
    def test_a_name_given_twice(self, client: FlaskClient, game: dict[str, Any], body: str) -> None:
        # Which of the two a parser keeps is not JSON's to say (RFC 8259, 4): a body that
        # means different moves to different readers is refused, not read as its last.
        seat = turn_of(client, game["id"])
        response = client.post(
            f"/api/v1/games/{game['id']}/bids",
            data=body,
            content_type="application/json",
            headers={**bearer(tokens_of(game)[seat]), "Accept-Language": "es"},
        )
        refused = assert_error(response, 400, "bad_json")
        assert refused["message"].startswith("El cuerpo da el nombre "), refused
        assert refused["message"].endswith(('"bid" dos veces.', '"a" dos veces.')), refused

    def test_not_json(self, client: FlaskClient, game: dict[str, Any]) -> None:
        seat = turn_of(client, game["id"])
        response = post(
            client, f"/api/v1/games/{game['id']}/bids", tokens_of(game)[seat], data="bid=1"
        )
        assert_error(response, 415, "unsupported_media_type")

    @pytest.mark.parametrize(
        ("path", "body", "field"),
        [
            ("bids", {"bid": "1"}, "bid"),
            ("bids", {"bid": 1.5}, "bid"),
            ("bids", {"bid": True}, "bid"),
            ("bids", {"bid": None}, "bid"),
            ("bids", {}, "bid"),
            ("bids", [1], "_schema"),
            ("bids", {"bid": -1}, "bid"),
            ("bids", {"bid": 10**30}, "bid"),
            ("bids", {"bid": 1, "card": "O1"}, "card"),
            ("plays", {"card": 1}, "card"),
            ("plays", {"card": ""}, "card"),
            ("plays", {"card": "O1", "extra": True}, "extra"),
        ],
    )
    def test_invalid_fields(
        self, client: FlaskClient, game: dict[str, Any], path: str, body: Any, field: str
    ) -> None:
        seat = turn_of(client, game["id"])
        response = client.post(
            f"/api/v1/games/{game['id']}/{path}", json=body, headers=bearer(tokens_of(game)[seat])
        )
        error = assert_error(response, 422, "validation_error")
        assert field in error["errors"]["json"]

    def test_body_too_large(self, client: FlaskClient, game: dict[str, Any]) -> None:
        seat = turn_of(client, game["id"])
        response = move(client, game["id"], tokens_of(game)[seat], "O1" * 20_000)
        assert_error(response, 413, "body_too_large")

    def test_unknown_game(self, client: FlaskClient, game: dict[str, Any]) -> None:
        for game_id in ("nope", "x" * 300, "a b", "ünï"):
            assert_error(move(client, game_id, "t", 1), 404, "game_not_found")
            assert_error(client.get(f"/api/v1/games/{game_id}"), 404, "game_not_found")
            assert_error(client.get(f"/api/v1/games/{game_id}/events"), 404, "game_not_found")
            assert_error(client.get(f"/api/v1/games/{game_id}/history"), 404, "game_not_found")
            assert_error(client.delete(f"/api/v1/games/{game_id}"), 404, "game_not_found")

    def test_missing_and_bad_tokens(self, client: FlaskClient, game: dict[str, Any]) -> None:
        game_id = game["id"]
        assert_error(move(client, game_id, None, 1), 401, "unauthorized")
        wrong = "not-a-token-of-this-game"
        body = assert_error(move(client, game_id, wrong, 1), 401, "unauthorized")
        assert wrong not in str(body)
        response = client.get(f"/api/v1/games/{game_id}", headers={"Authorization": "Basic x"})
        assert_error(response, 401, "unauthorized")
        assert response.headers["WWW-Authenticate"] == "Bearer"
        assert_error(move(client, game_id, game["host_token"], 1), 403, "forbidden")
        other = create_game(client, humans(3))
        stolen = tokens_of(other)[0]
        assert_error(move(client, game_id, stolen, 1), 401, "unauthorized")

    def test_delete_needs_the_host_token(self, client: FlaskClient, game: dict[str, Any]) -> None:
        url = f"/api/v1/games/{game['id']}"
        assert_error(client.delete(url), 401, "unauthorized")
        assert_error(client.delete(url, headers=bearer(tokens_of(game)[0])), 403, "forbidden")
        assert_error(client.delete(url, headers=bearer("x" * 43)), 401, "unauthorized")

    def test_not_your_turn(self, client: FlaskClient, game: dict[str, Any]) -> None:
        seat = turn_of(client, game["id"])
        other = (seat + 1) % 4
        response = move(client, game["id"], tokens_of(game)[other], 1)
        body = assert_error(response, 409, "not_your_turn")
        assert body["rule"] == "turn"

    def test_wrong_phase(self, client: FlaskClient, game: dict[str, Any]) -> None:
        seat = turn_of(client, game["id"])
        hand = client.get(f"/api/v1/games/{game['id']}", headers=bearer(tokens_of(game)[seat]))
        card = hand.json["you"]["hand"][0]
        assert_error(move(client, game["id"], tokens_of(game)[seat], card), 409, "wrong_phase")

    def test_bid_above_hand(self, client: FlaskClient, game: dict[str, Any]) -> None:
        seat = turn_of(client, game["id"])
        body = assert_error(move(client, game["id"], tokens_of(game)[seat], 4), 422, "invalid_bid")
        assert body["rule"] == "bid_range"

    def test_a_code_that_is_no_card_is_refused_last(
        self, client: FlaskClient, game: dict[str, Any]
    ) -> None:
        """The game, the token, the version, the turn and the phase are checked before the
        card code is read, as for any move."""
        game_id, tokens = game["id"], tokens_of(game)
        seat = turn_of(client, game_id)
        assert_error(move(client, "nope", tokens[seat], "Z9"), 404, "game_not_found")
        assert_error(move(client, game_id, None, "Z9"), 401, "unauthorized")
        stale = move(client, game_id, tokens[seat], "Z9", **{"If-Match": '"999"'})
        assert_error(stale, 412, "stale_version")
        other = tokens[(seat + 1) % 4]
        assert_error(move(client, game_id, other, "Z9"), 409, "not_your_turn")
        assert_error(move(client, game_id, tokens[seat], "Z9"), 409, "wrong_phase")

    def test_stale_if_match(self, client: FlaskClient, game: dict[str, Any]) -> None:
        seat = turn_of(client, game["id"])
        token = tokens_of(game)[seat]
        stale = move(client, game["id"], token, 1, **{"If-Match": '"999"'})
        assert_error(stale, 412, "stale_version")
        assert_error(move(client, game["id"], token, 1, **{"If-Match": "abc"}), 400, "bad_request")

    def test_method_not_allowed(self, client: FlaskClient, game: dict[str, Any]) -> None:
        response = client.put(f"/api/v1/games/{game['id']}", json={})
        assert_error(response, 405, "method_not_allowed")
        assert "GET" in response.headers["Allow"]
        assert_error(client.get("/api/v1/nothing"), 404, "not_found")


def test_card_rules_are_refused_with_the_rule(
    client: FlaskClient, store: GameStore, game: dict[str, Any]
) -> None:
    game_id, tokens = game["id"], tokens_of(game)
    record = store.load(game_id)
    # The dealer is restricted: bid so the dealer's forbidden bid is in range.
    for _ in range(3):
        seat = turn_of(client, game_id)
        assert move(client, game_id, tokens[seat], 1).status_code == 200
    dealer = turn_of(client, game_id)
    assert dealer == record.game.dealer
    before = snapshot(store, game_id)
    assert_error(move(client, game_id, tokens[dealer], 0), 422, "invalid_bid")
    assert snapshot(store, game_id) == before
    assert move(client, game_id, tokens[dealer], 1).status_code == 200

    game_now = store.load(game_id).game
    leader = game_now.turn
    assert leader is not None
    # A card code that is no card, and a card the leader does not hold.
    assert_error(move(client, game_id, tokens[leader], "Z9"), 422, "invalid_card")
    held = codes(game_now.hand_of(leader))
    not_held = next(c for c in codes(game_now.rules.deck) if c not in held)
    body = assert_error(move(client, game_id, tokens[leader], not_held), 422, "illegal_move")
    assert body["rule"]
    assert snapshot(store, game_id)[0] == before[0] + 1


def test_a_seat_in_an_address_is_ascii_digits(client: FlaskClient, store: GameStore) -> None:
    # Python's int() reads any script's digits: "١" (Arabic-Indic one) or "１" (fullwidth)
    # would name seat 1 behind a proxy's or a log's back. They name no seat.
    table = client.post(
        "/api/v1/games", json={"players": [{"name": "Ana"}, {"open": True}, {"open": True}]}
    ).json
    host = bearer(table["host_token"])
    before = snapshot(store, table["id"])
    for seat in ("١", "１", "𝟏", "1١"):
        for action in ("bot", "remove", "return", "leave"):
            url = f"/api/v1/games/{table['id']}/seats/{seat}/{action}"
            response = client.post(url, json={"level": "easy"}, headers=host)
            assert_error(response, 404, "not_found")
    assert snapshot(store, table["id"]) == before
    given = client.post(
        f"/api/v1/games/{table['id']}/seats/1/bot", json={"level": "easy"}, headers=host
    )
    assert given.status_code == 200, given.json


def test_an_empty_segment_names_no_address(client: FlaskClient, store: GameStore) -> None:
    # Werkzeug merges "//" by redirecting (308, an HTML body) to the merged address: an
    # address with an empty segment, or an id holding "%2F", is no address of ours (404 in
    # JSON), on every route, whatever the method.
    game = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    token = bearer(tokens_of(game)[0])
    before = snapshot(store, game["id"])
    sample = {"seat": "1", "game_id": game["id"]}
    checked = 0
    for rule in client.application.url_map.iter_rules():
        address = rule.rule
        for argument in rule.arguments:
            address = re.sub(rf"<(?:[^<>:]+:)?{argument}>", sample.get(argument, "x"), address)
        variants = [address[:i] + "/" + address[i:] for i, c in enumerate(address) if c == "/"]
        variants += [
            address.replace(f"/{value}", f"/%2F{value}", 1)
            for value in {sample.get(argument, "x") for argument in rule.arguments}
        ]
        for url in variants:
            if url.startswith("//"):
                continue  # a scheme-relative address: the client reads a host from it
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                response = client.open(url, method=method, json={}, headers=token)
                assert response.status_code == 404, (method, url, response.status_code)
                assert response.mimetype == "application/json", (method, url)
                assert_error(response, 404, "not_found")
                checked += 1
    assert checked > 100
    assert snapshot(store, game["id"]) == before
    # The addresses themselves still answer.
    assert client.get(f"/api/v1/games/{game['id']}").status_code == 200
    assert client.get("/api/v1/rules").status_code == 200


def test_numbers_in_a_query_are_ascii(client: FlaskClient, game: dict[str, Any]) -> None:
    # int() and float() read "1_0" as 10 and any script's digits ("١", Arabic-Indic one)
    # as ours: a query's numbers are ASCII digits (a minus sign, a decimal point and an
    # exponent for a number), refused like any other bad value, in the caller's language.
    events = f"/api/v1/games/{game['id']}/events"
    addresses = {
        f"{events}?after=": "after",
        "/api/v1/ladder?offset=": "offset",
        "/api/v1/ladder?limit=": "limit",
        "/api/v1/jobs/no-such-job?wait=": "wait",
        "/api/v1/analyses/no-such-analysis?wait=": "wait",
    }
    for address, name in addresses.items():
        # Encoded as a client would: "%20" a space, "%2B" a plus ("+" is a space too).
        for value in ("1_0", "١", "１", "𝟏", "1١", "%201", "1%20", "+1", "%2B1", "1%0A", "0x1"):
            english = client.get(address + value)
            body = assert_error(english, 422, "validation_error")
            assert name in body["errors"]["query"], (address, value, body)
            spanish = client.get(address + value, headers={"Accept-Language": "es"})
            assert_error(spanish, 422, "validation_error")
            assert spanish.headers["Content-Language"] == "es"
            assert spanish.json["message"] != body["message"]
            assert spanish.json["errors"] != body["errors"], spanish.json
        for value in ("1", "2.5e-1", ".5") if name == "wait" else ("1", "10"):
            answer = client.get(address + value)
            # Taken: the events or the ladder, or no such job.
            assert answer.status_code in (200, 404), (address, value, answer.json)


def test_numbers_of_a_body_read_from_text_are_ascii(client: FlaskClient) -> None:
    # An analysis's seed is taken as text too ("7"): in ASCII digits only.
    game = {"game": "pocha", "rules": {"players": 3}, "seed": 1, "events": []}
    for seed in ("1_0", "١", " 1"):
        response = client.post("/api/v1/analyses", json={"record": game, "seed": seed})
        body = assert_error(response, 422, "validation_error")
        assert "seed" in body["errors"]["json"], body


def test_dead_redis_is_503_not_500(redis_url: str) -> None:
    app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "REDIS_CONNECT_TIMEOUT": 0.5})
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    assert_error(client.get("/readyz"), 503, "unavailable")
    assert_error(client.get("/api/v1/games/abc"), 503, "unavailable")
    response = client.post("/api/v1/games", json={"players": humans(3)})
    assert_error(response, 503, "unavailable")
    assert response.headers["Retry-After"] == "1"


def test_unexpected_errors_are_500_without_details(
    redis_url: str, client: FlaskClient, store: GameStore, game: dict[str, Any]
) -> None:
    # A stored game the engine refuses (corrupted by hand) must not leak a traceback.
    store.redis.hset(game_key(game["id"]), "state", '{"format": 1, "secret": "O1 E3"}')
    body = assert_error(client.get(f"/api/v1/games/{game['id']}"), 500, "internal_error")
    assert "secret" not in str(body) and "Traceback" not in str(body)

    def boom() -> str:
        raise RuntimeError("password=hunter2")

    app = create_app({"REDIS_URL": redis_url, "TESTING": True})
    app.add_url_rule("/boom", view_func=boom)
    body = assert_error(app.test_client().get("/boom"), 500, "internal_error")
    assert "hunter2" not in str(body)


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"players": humans(2)}, "players"),
        ({"players": humans(9)}, "players"),
        ({"players": [{"name": ""}, {"name": "b"}, {"name": "c"}]}, "players"),
        ({"players": [{"name": "a", "bot": "grandmaster"}, *humans(2)]}, "players"),
        ({"players": [{"name": "a", "token": "x"}, *humans(2)]}, "players"),
        ({"players": humans(3), "rules": {"trumps": True}}, "rules"),
        ({"players": humans(3), "rules": {"schedule": [99]}}, "rules"),
        ({"players": humans(3), "rules": {"schedule": "long"}}, "rules"),
        ({"players": humans(3), "rules": {"schedule": []}}, "rules"),
        ({"players": humans(3), "rules": {"montar": "maybe"}}, "rules"),
        ({"players": humans(3), "rules": {"penalty": 5000}}, "rules"),
        ({"players": humans(3), "rules": {"players": 4}}, "rules"),
        ({"players": humans(3), "seed": -1}, "seed"),
        ({"players": humans(3), "seed": "7"}, "seed"),
        ({"players": humans(3), "extra": 1}, "extra"),
        ({"players": "everyone"}, "players"),
        ({}, "players"),
    ],
)
def test_bad_game_creation(
    client: FlaskClient, store: GameStore, body: dict[str, Any], where: str
) -> None:
    response = client.post("/api/v1/games", json=body)
    error = assert_error(response, 422, "validation_error")
    assert where in error["errors"]["json"], error
    assert store.redis.dbsize() == 0


def _out_of_bounds(option: Option[Any]) -> list[Any]:
    """Values just outside what the engine declares the option takes."""
    if option.kind == "bool":
        return [1, "true"]
    if option.kind == "int":
        return [option.low - 1, option.high + 1, True]
    return ["".join(option.choices), [1] * (option.max_hands + 1), [], [True]]


@pytest.mark.parametrize(
    ("name", "value"),
    [(name, value) for name, option in OPTIONS.items() for value in _out_of_bounds(option)],
)
def test_the_request_schema_holds_every_declared_option_to_its_bounds(
    name: str, value: Any
) -> None:
    # The schema is generated from the engine's declarations, and refuses before the
    # engine is asked; the bounds themselves are taken as they stand.
    with pytest.raises(ma.ValidationError) as refused:
        RulesSchema().load({name: value})
    assert list(refused.value.messages) == [name]
    option = OPTIONS[name]
    edges = [option.low, option.high] if option.kind == "int" else [option.default]
    for edge in edges:
        assert RulesSchema().load({name: edge}) == {name: edge}
