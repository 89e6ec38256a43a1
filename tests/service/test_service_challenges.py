"""Challenges and an account's event stream: the pending turn said again on reconnecting,
declines, cancels and expiry told on the streams, the caps on open challenges and the rate
limit, wrong and disabled keys, a second stream replacing the first, and a seat taken with
an account's key opened by that key."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from core.store import webhooks
from core.store.accounts import set_disabled
from core.store.challenges import (
    KEEP_SECONDS,
    MOST_FROM_ONE,
    MOST_FROM_ONE_LATELY,
    MOST_MADE,
    MOST_MADE_LATELY,
    MOST_RECEIVED,
    MOST_RECEIVED_LATELY,
)
from core.store.keys import (
    account_challenges_key,
    challenges_lately_key,
    challenges_made_key,
    challenges_received_key,
)
from core.store.store import GameStore
from service import create_app
from service.context import EXTENSION
from tests.contract import Contract
from tests.service.helpers import account_game, bearer, move
from tests.waiting import LONG, scaled, wait_until

STREAM = {"Accept": "text/event-stream"}
Events = list[dict[str, Any]]


def key_of(account: dict[str, Any]) -> dict[str, str]:
    return {"X-Pocha-Account": account["key"]}


def sign_up(client: FlaskClient, name: str, kind: str = "bot") -> dict[str, Any]:
    made = client.post("/api/v1/accounts", json={"name": name, "kind": kind})
    assert made.status_code == 201, made.json
    return dict(made.json)


def challenge(
    client: FlaskClient, by: dict[str, Any], opponents: list[dict[str, str]], **body: Any
) -> Any:
    asked = {"game": "pocha", "rules": {"schedule": [1, 2]}, "opponents": opponents, **body}
    return client.post("/api/v1/challenges", json=asked, headers=key_of(by))


def against(account: str) -> list[dict[str, str]]:
    """The opponents of a challenge to one account (and a level: Pocha seats three)."""
    return [{"account": account}, {"bot": "random"}]


#: The document, which says what each event of an account's stream holds (`BotEvent`).
CONTRACT = Contract.load()


def parsed(chunk: bytes) -> Events:
    """The events of a chunk of an account's stream, each held to the document's
    `BotEvent` (no response carries them as JSON, so the tests' contract check does not)."""
    events = [
        json.loads(line.removeprefix("data: "))
        for block in chunk.decode().split("\n\n")
        for line in block.splitlines()
        if line.startswith("data: ")
    ]
    for event in events:
        assert CONTRACT.component_problems("BotEvent", event) == [], event
    return events


def read_until(app: Flask, account: dict[str, Any], enough: Callable[[Events], bool]) -> Events:
    """Read the account's stream until `enough` of its events came, or its first keepalive
    (what is pending is said before it), or its end."""
    response = app.test_client().get("/api/v1/bot/events", headers={**STREAM, **key_of(account)},
                                      buffered=False)  # fmt: skip
    assert response.status_code == 200, response.get_data()
    got: Events = []
    try:
        for chunk in response.response:
            got += parsed(chunk)
            if enough(got) or chunk.startswith(b": keepalive"):
                break
    finally:
        response.close()
    return got


class Listener:
    """An account's stream read in a thread, reconnecting, until stopped."""

    def __init__(self, app: Flask, account: dict[str, Any]) -> None:
        self.app, self.account = app, account
        self.events: Events = []
        self.stopped = threading.Event()
        self.connections = 0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopped.is_set():
            response = self.app.test_client().get(
                "/api/v1/bot/events", headers={**STREAM, **key_of(self.account)}, buffered=False
            )
            self.connections += 1
            try:
                for chunk in response.response:
                    self.events += parsed(chunk)
                    if self.stopped.is_set():
                        break
            finally:
                response.close()

    def saw(self, what: Callable[[dict[str, Any]], bool], name: str) -> None:
        wait_until(lambda: any(what(e) for e in self.events), LONG, name,
                   explain=lambda: repr(self.events))  # fmt: skip

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(scaled(LONG))


def status_is(challenge_id: str, status: str) -> Callable[[dict[str, Any]], bool]:
    return lambda e: (
        e["type"] == "challenge"
        and e["challenge"]["id"] == challenge_id
        and e["challenge"]["status"] == status
    )


@pytest.fixture
def app(redis_url: str) -> Flask:
    return create_app(
        # Streams that outlast each test (a change is never missed between two of them),
        # with a keepalive each second, which a reader may stop at.
        {"REDIS_URL": redis_url, "TESTING": True, "SSE_MAX_SECONDS": 60,
         "SSE_KEEPALIVE_SECONDS": 1, "BOT_RUNNER": "inline", "RATE_LIMITS": "off"}
    )  # fmt: skip


def test_a_reconnecting_bot_is_told_its_pending_turn_again(app: Flask, client: FlaskClient) -> None:
    ana, robo = sign_up(client, "Ana", "person"), sign_up(client, "Robo")
    made = challenge(client, ana, against(robo["id"]))
    assert made.status_code == 201, made.json
    accepted = client.post(f"/api/v1/challenges/{made.json['id']}/accept", headers=key_of(robo))
    assert accepted.status_code == 200, accepted.json
    assert accepted.json["status"] == "accepted"
    game_id = accepted.json["game_id"]
    # Ana plays with her key until it is the bot's turn (the level plays inline).
    while True:
        view = client.get(f"/api/v1/games/{game_id}", headers=bearer(ana["key"])).json
        if view["turn"] == 1:
            break
        assert view["you"]["seat"] == 0
        assert move(client, game_id, ana["key"], view["you"]["legal"][0]).status_code == 200

    def told_turn(events: Events) -> bool:
        return any(e["type"] == "your_turn" for e in events)

    first = read_until(app, robo, told_turn)
    again = read_until(app, robo, told_turn)
    for said in (first, again):
        assert [e["type"] for e in said] == ["game_started", "your_turn"], said
        assert said[1] == {"type": "your_turn", "game_id": game_id, "game": "pocha", "seat": 1,
                           "version": view["version"]}  # fmt: skip
    # The key opens the seat: its view, its move.
    mine = client.get(f"/api/v1/games/{game_id}", headers=bearer(robo["key"])).json
    assert mine["you"]["seat"] == 1
    assert move(client, game_id, robo["key"], mine["you"]["legal"][0]).status_code == 200
    # The open challenge is pending no more: it was accepted.
    assert client.get(f"/api/v1/challenges/{made.json['id']}").json["status"] == "accepted"


def test_declines_and_cancels_are_told_on_the_streams(app: Flask, client: FlaskClient) -> None:
    ana, robo = sign_up(client, "Ana", "person"), sign_up(client, "Robo")
    hers = Listener(app, ana)  # a person's account may hold a stream too
    try:
        made = challenge(client, ana, against("robo"))  # by name, any case
        assert made.status_code == 201, made.json
        first = made.json
        assert first["seats"] == [
            {"account": ana["id"], "bot": None},
            {"account": robo["id"], "bot": None},
            {"account": None, "bot": "random"},
        ]
        hers.saw(status_is(first["id"], "open"), "Ana told of her challenge")
        pending = read_until(app, robo, lambda got: bool(got))
        assert pending[0]["type"] == "challenge" and pending[0]["challenge"] == first
        url = f"/api/v1/challenges/{first['id']}"
        wrong = client.post(f"{url}/decline", headers=key_of(ana))
        assert (wrong.status_code, wrong.json["error"]) == (403, "not_in_challenge")
        declined = client.post(f"{url}/decline", headers=key_of(robo))
        assert declined.status_code == 200 and declined.json["status"] == "declined"
        hers.saw(status_is(first["id"], "declined"), "Ana told of the decline")
        late = client.post(f"{url}/accept", headers=key_of(robo))
        assert (late.status_code, late.json["error"]) == (409, "challenge_closed")

        second = challenge(client, ana, [{"account": robo["id"]}, {"bot": "easy"}]).json
        url = f"/api/v1/challenges/{second['id']}"
        hers.saw(status_is(second["id"], "open"), "Ana told of her second challenge")
        refused = client.delete(url, headers=key_of(robo))
        assert (refused.status_code, refused.json["error"]) == (403, "not_in_challenge")
        cancelled = client.delete(url, headers=key_of(ana))
        assert cancelled.status_code == 200 and cancelled.json["status"] == "cancelled"
        hers.saw(status_is(second["id"], "cancelled"), "Ana told of her cancel")
        assert client.delete(url, headers=key_of(ana)).json["error"] == "challenge_closed"
        # On connecting, only open challenges are said: none is left.
        assert not [e for e in read_until(app, robo, lambda got: False) if e["type"] == "challenge"]
    finally:
        hers.stop()
    missing = client.get("/api/v1/challenges/nope")
    assert (missing.status_code, missing.json["error"]) == (404, "challenge_not_found")


def test_an_unanswered_challenge_expires(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline",
                      "RATE_LIMITS": "off", "CHALLENGE_SECONDS": 1})  # fmt: skip
    client = app.test_client()
    ana, robo = sign_up(client, "Ana", "person"), sign_up(client, "Robo")
    made = challenge(client, ana, against(robo["id"])).json
    url = f"/api/v1/challenges/{made['id']}"
    assert made["expires"] == pytest.approx(made["created"] + 1)
    wait_until(lambda: client.get(url).json["status"] == "expired", LONG, "the expiry")
    late = client.post(f"{url}/accept", headers=key_of(robo))
    assert (late.status_code, late.json["error"]) == (409, "challenge_closed")
    # Expired, it no longer counts against the caps.
    assert challenge(client, ana, against(robo["id"])).status_code == 201


def test_open_challenges_are_capped_per_maker_and_per_challenged(client: FlaskClient) -> None:
    ana, bea, cid, robo = (sign_up(client, n) for n in ("Ana", "Bea", "Cid", "Robo"))
    makers = [sign_up(client, f"Maker{i}") for i in range(MOST_RECEIVED // MOST_FROM_ONE)]
    for _ in range(MOST_FROM_ONE):
        assert challenge(client, ana, against(robo["id"])).status_code == 201
    # One challenger holds at most its share of what may wait for Robo...
    mine = challenge(client, ana, against(robo["id"]))
    assert (mine.status_code, mine.json["error"]) == (429, "too_many_challenges")
    assert "Robo" in mine.json["message"] and int(mine.headers["Retry-After"]) >= 1
    # ...and at most MOST_MADE open in all.
    for _ in range(MOST_MADE - MOST_FROM_ONE):
        assert challenge(client, ana, against(bea["id"])).status_code == 201
    over = challenge(client, ana, against(cid["id"]))
    assert (over.status_code, over.json["error"]) == (429, "too_many_challenges")
    assert int(over.headers["Retry-After"]) >= 1
    for maker in makers[1:]:
        for _ in range(MOST_FROM_ONE):
            assert challenge(client, maker, against(robo["id"])).status_code == 201
    flood = challenge(client, cid, against(robo["id"]))
    assert (flood.status_code, flood.json["error"]) == (429, "too_many_challenges")
    assert "Robo" in flood.json["message"]
    # Others may still challenge Cid, and Cid others.
    assert challenge(client, cid, against(bea["id"])).status_code == 201


def churn(client: FlaskClient, by: dict[str, Any], target: dict[str, Any], times: int) -> None:
    """Make a challenge to `target` and cancel it, `times` over."""
    for _ in range(times):
        made = challenge(client, by, against(target["id"]))
        assert made.status_code == 201, made.json
        url = f"/api/v1/challenges/{made.json['id']}"
        assert client.delete(url, headers=key_of(by)).status_code == 200


def test_making_and_cancelling_challenges_to_one_account_is_capped(
    client: FlaskClient, store: GameStore
) -> None:
    """Cancelled challenges count while they are remembered: a challenger cannot flood an
    account's stream and set by making and cancelling over and over, within the caps on
    open ones; others still reach it, and the churner still reaches others."""
    ana, robo, bea = sign_up(client, "Ana"), sign_up(client, "Robo"), sign_up(client, "Bea")
    churn(client, ana, robo, MOST_FROM_ONE_LATELY)
    asked = {"game": "pocha", "rules": {"schedule": [1, 2]}, "opponents": against(robo["id"])}
    for language, words in (("en", "from you"), ("es", "tuyos")):
        again = client.post("/api/v1/challenges", json=asked,
                            headers={**key_of(ana), "Accept-Language": language})  # fmt: skip
        assert (again.status_code, again.json["error"]) == (429, "too_many_challenges")
        assert "Robo" in again.json["message"] and words in again.json["message"]
        assert str(MOST_FROM_ONE_LATELY) in again.json["message"]
        assert 1 <= int(again.headers["Retry-After"]) <= 3600 + 300 + 5
    # Nothing of the refused ones was kept, nor told.
    assert store.redis.zcard(account_challenges_key(robo["id"])) == MOST_FROM_ONE_LATELY
    assert challenge(client, bea, against(robo["id"])).status_code == 201
    assert challenge(client, ana, against(bea["id"])).status_code == 201


def test_challenges_an_account_received_lately_are_capped(
    client: FlaskClient, store: GameStore
) -> None:
    """However many challengers churn, an account's set of remembered challenges holds at
    most MOST_RECEIVED_LATELY from others (and what it made itself)."""
    robo = sign_up(client, "Robo")
    makers = [
        sign_up(client, f"Maker{i}") for i in range(MOST_RECEIVED_LATELY // MOST_FROM_ONE_LATELY)
    ]
    for maker in makers:
        churn(client, maker, robo, MOST_FROM_ONE_LATELY)
    late = sign_up(client, "Late")
    refused = challenge(client, late, against(robo["id"]))
    assert (refused.status_code, refused.json["error"]) == (429, "too_many_challenges")
    assert (
        "Robo" in refused.json["message"] and str(MOST_RECEIVED_LATELY) in refused.json["message"]
    )
    assert store.redis.zcard(account_challenges_key(robo["id"])) == MOST_RECEIVED_LATELY
    # Robo may still challenge, and be challenged once the oldest is forgotten (not here).
    assert challenge(client, robo, against(late["id"])).status_code == 201


def test_challenges_an_account_made_lately_are_capped(
    client: FlaskClient, store: GameStore
) -> None:
    """One account churning challenges over many targets keeps at most MOST_MADE_LATELY
    remembered."""
    ana = sign_up(client, "Ana")
    targets = [sign_up(client, f"T{i}") for i in range(MOST_MADE_LATELY // MOST_FROM_ONE_LATELY)]
    for target in targets:
        churn(client, ana, target, MOST_FROM_ONE_LATELY)
    fresh = sign_up(client, "Fresh")
    refused = client.post(
        "/api/v1/challenges",
        json={"game": "pocha", "rules": {"schedule": [1, 2]}, "opponents": against(fresh["id"])},
        headers={**key_of(ana), "Accept-Language": "es"},
    )
    assert (refused.status_code, refused.json["error"]) == (429, "too_many_challenges")
    assert str(MOST_MADE_LATELY) in refused.json["message"]
    assert store.redis.zcard(account_challenges_key(ana["id"])) == MOST_MADE_LATELY
    # Others may still challenge Ana.
    assert challenge(client, fresh, against(ana["id"])).status_code == 201


def test_an_accounts_challenge_sets_expire_with_their_last_challenge(
    client: FlaskClient, store: GameStore
) -> None:
    """Every set of an account's challenges has a TTL: an account challenged no more does
    not keep the ids of its old challenges for ever."""
    ana, robo = sign_up(client, "Ana"), sign_up(client, "Robo")
    made = challenge(client, ana, against(robo["id"])).json
    redis = store.redis
    keys = [challenges_made_key(ana["id"]), challenges_received_key(robo["id"]),
            account_challenges_key(ana["id"]), account_challenges_key(robo["id"])]  # fmt: skip
    expires, forget = made["expires"], made["expires"] + KEEP_SECONDS
    for key, until in zip(keys, [expires, expires, forget, forget], strict=True):
        assert redis.ttl(key) > 0 and redis.ttl(key) + time.time() <= until + 2, key
    lately = [challenges_lately_key(ana["id"], "made"),
              challenges_lately_key(robo["id"], "received")]  # fmt: skip
    for key in lately:
        assert redis.zcard(key) == 1, key
        assert redis.ttl(key) > 0 and redis.ttl(key) + time.time() <= forget + 2, key
    # A later challenge keeps them as long as it needs.
    later = challenge(client, ana, against(robo["id"])).json
    assert redis.ttl(keys[3]) + time.time() >= later["expires"] + KEEP_SECONDS - 2


def test_one_address_holds_a_share_of_an_accounts_waiting_challenges(redis_url: str) -> None:
    """Two accounts made at one address cannot hold every place waiting for Robo, which
    would leave nobody else a way to challenge it: the address is capped as one
    challenger, and another address still gets through."""
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline",
                      "RATE_LIMITS": "on", "RATE_LIMIT_ACCOUNTS": "100/minute"})  # fmt: skip
    griefer = app.test_client()
    griefer.environ_base["REMOTE_ADDR"] = "198.51.100.66"
    first, second = sign_up(griefer, "Grief1"), sign_up(griefer, "Grief2")
    robo = sign_up(griefer, "Robo")
    for _ in range(MOST_FROM_ONE):
        assert challenge(griefer, first, against(robo["id"])).status_code == 201
    asked = {"game": "pocha", "rules": {"schedule": [1, 2]}, "opponents": against(robo["id"])}
    other = griefer.post("/api/v1/challenges", json=asked,
                         headers={**key_of(second), "Accept-Language": "es"})  # fmt: skip
    assert (other.status_code, other.json["error"]) == (429, "too_many_challenges")
    assert int(other.headers["Retry-After"]) >= 1
    assert "Robo" in other.json["message"] and "tu dirección" in other.json["message"]
    # The griefer's second account may still challenge others.
    assert challenge(griefer, second, against(first["id"])).status_code == 201
    # Someone at another address is not shut out of Robo.
    player = app.test_client()
    player.environ_base["REMOTE_ADDR"] = "203.0.113.20"
    ana = sign_up(player, "Ana", "person")
    assert challenge(player, ana, against(robo["id"])).status_code == 201
    # Once the griefer cancels one, its address has a place again.
    listed = griefer.get("/api/v1/challenges", headers=key_of(first)).json["challenges"]
    to_robo = next(c for c in listed if c["status"] == "open"
                   and c["seats"][1]["account"] == robo["id"])  # fmt: skip
    cancelled = griefer.delete(f"/api/v1/challenges/{to_robo['id']}", headers=key_of(first))
    assert cancelled.status_code == 200
    assert challenge(griefer, second, against(robo["id"])).status_code == 201


def test_challenges_from_one_address_are_rate_limited(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline",
                      "RATE_LIMITS": "on", "RATE_LIMIT_CHALLENGES": "2/minute"})  # fmt: skip
    client = app.test_client()
    ana, robo = sign_up(client, "Ana"), sign_up(client, "Robo")
    for _ in range(2):
        assert challenge(client, ana, against(robo["id"])).status_code == 201
    over = challenge(client, ana, against(robo["id"]))
    assert (over.status_code, over.json["error"]) == (429, "rate_limited")


def test_wrong_keys_and_disabled_accounts_are_refused(app: Flask, client: FlaskClient) -> None:
    ana, robo = sign_up(client, "Ana", "person"), sign_up(client, "Robo")
    for headers, error in (({}, "account_required"),
                           ({"X-Pocha-Account": "pa_guessed"}, "unknown_account")):  # fmt: skip
        stream = client.get("/api/v1/bot/events", headers={**STREAM, **headers})
        assert (stream.status_code, stream.json["error"]) == (401, error)
        made = client.post("/api/v1/challenges", json={"opponents": against("Robo")},
                           headers=headers)  # fmt: skip
        assert (made.status_code, made.json["error"]) == (401, error)
    connection = app.extensions[EXTENSION].redises.store
    set_disabled(connection, robo["id"])
    refused = challenge(client, ana, against(robo["id"]))
    assert (refused.status_code, refused.json["error"]) == (422, "validation_error")
    assert "disabled" in refused.json["message"]
    set_disabled(connection, robo["id"], False)
    set_disabled(connection, ana["id"])
    refused = challenge(client, ana, against(robo["id"]))
    assert (refused.status_code, refused.json["error"]) == (403, "account_disabled")
    stream = client.get("/api/v1/bot/events", headers={**STREAM, **key_of(ana)})
    assert (stream.status_code, stream.json["error"]) == (403, "account_disabled")


@pytest.mark.parametrize(
    ("opponents", "rules", "error"),
    [
        ([{"account": "nobody"}], {}, "validation_error"),
        ([{"account": "Robo", "bot": "easy"}], {}, "validation_error"),
        ([{"bot": "easy"}, {"bot": "medium"}], {}, "validation_error"),
        ([{"account": "Ana"}], {}, "validation_error"),
        ([{"account": "Robo"}, {"account": "Robo"}], {}, "validation_error"),
        ([{"account": "Robo"}, {"bot": "nobody"}], {}, "validation_error"),
        (against("Robo"), {"schedule": "soon"}, "validation_error"),
        (against("Robo"), {"players": 5}, "validation_error"),
        ([{"account": "level-easy"}], {}, "validation_error"),
    ],
)
def test_bad_challenges_are_refused(
    client: FlaskClient, opponents: list[dict[str, str]], rules: dict[str, Any], error: str
) -> None:
    ana = sign_up(client, "Ana", "person")
    sign_up(client, "Robo")
    refused = challenge(client, ana, opponents, rules=rules)
    assert (refused.status_code, refused.json["error"]) == (422, error), refused.json


@pytest.mark.parametrize("game", ["pocha", "poch"])
def test_too_few_seats_are_said_of_the_opponents(client: FlaskClient, game: str) -> None:
    # The seats decide the players: the refusal names no rule the challenger did not give
    # (too many opponents are refused by the body's own bounds, 1 to 7).
    opponents, seats = [{"account": "Robo"}], 2
    ana = sign_up(client, "Ana", "person")
    sign_up(client, "Robo")
    refused = challenge(client, ana, opponents, game=game, rules={})
    assert (refused.status_code, refused.json["error"]) == (422, "validation_error")
    assert list(refused.json["errors"]["json"]) == ["opponents"]
    assert refused.json["message"].endswith(f"you and your opponents make {seats}.")
    spanish = client.post(
        "/api/v1/challenges", json={"game": game, "opponents": opponents},
        headers={**key_of(ana), "Accept-Language": "es"},
    )  # fmt: skip
    assert spanish.json["message"].endswith(f"tú y tus rivales sois {seats}.")


def test_a_level_twice_in_a_rated_challenge_is_refused(client: FlaskClient) -> None:
    ana, robo = sign_up(client, "Ana", "person"), sign_up(client, "Robo")
    twice = [{"account": robo["id"]}, {"bot": "easy"}, {"bot": "easy"}]
    refused = challenge(client, ana, twice, rated=True)
    assert (refused.status_code, refused.json["error"]) == (409, "one_seat_per_account")
    assert refused.json["message"].startswith("The bot level easy would have more than one seat")
    assert challenge(client, ana, twice, rated=False).status_code == 201


def test_a_second_stream_of_an_account_replaces_the_first(app: Flask, client: FlaskClient) -> None:
    robo = sign_up(client, "Robo")
    first = app.test_client().get("/api/v1/bot/events", headers={**STREAM, **key_of(robo)},
                                  buffered=False)  # fmt: skip
    chunks = iter(first.response)
    assert next(chunks).startswith(b"retry:")
    second = app.test_client().get("/api/v1/bot/events", headers={**STREAM, **key_of(robo)},
                                   buffered=False)  # fmt: skip
    assert second.status_code == 200
    try:
        rest = b"".join(chunks)
        assert rest.endswith(b'event: replaced\ndata: {"type": "replaced"}\n\n')
        assert rest.replace(b": keepalive\n\n", b"").count(b"\n\n") == 1
    finally:
        first.close()
        second.close()


def test_a_seat_taken_with_a_key_is_opened_by_it(app: Flask, client: FlaskClient) -> None:
    ana, bea = sign_up(client, "Ana", "person"), sign_up(client, "Bea", "person")
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "Ana"}, {"open": True}, {"name": "R", "bot": "random"}],
              "rules": {"schedule": [1]}},
        headers=key_of(ana),
    )  # fmt: skip
    assert made.status_code == 201, made.json
    joined = client.post(f"/api/v1/tables/{made.json['table_code']}/seats", json={"name": "B"},
                         headers=key_of(bea))  # fmt: skip
    assert joined.status_code == 201, joined.json
    game_id = made.json["id"]
    for account, seat in ((ana, 0), (bea, 1)):
        view = client.get(f"/api/v1/games/{game_id}", headers=bearer(account["key"])).json
        assert view["you"]["seat"] == seat
        said = read_until(app, account, lambda got: bool(got))
        assert said[0]["type"] == "game_started" and said[0]["seat"] == seat
    # A key that sits elsewhere opens no seat here.
    other = sign_up(client, "Cid", "person")
    view = client.get(f"/api/v1/games/{game_id}", headers=bearer(other["key"]))
    assert view.status_code == 401


def test_a_disabled_accounts_key_moves_no_more(app: Flask, client: FlaskClient) -> None:
    ana = sign_up(client, "Ana", "person")
    game_id = account_game(client, ana["key"])
    mine = client.get(f"/api/v1/games/{game_id}", headers=bearer(ana["key"])).json
    version = mine["version"]
    set_disabled(app.extensions[EXTENSION].redises.store, ana["id"])
    for headers in ({}, {"Idempotency-Key": "once"}):
        refused = move(client, game_id, ana["key"], mine["you"]["legal"][0], **headers)
        assert (refused.status_code, refused.json["error"]) == (403, "account_disabled")
    # Nothing changed.
    assert client.get(f"/api/v1/games/{game_id}").json["version"] == version


def test_a_paused_webhook_bot_cannot_be_challenged(app: Flask, client: FlaskClient) -> None:
    ana, hooky = sign_up(client, "Ana", "person"), sign_up(client, "Hooky")
    connection = app.extensions[EXTENSION].redises.store
    webhooks.register(connection, hooky["id"], "https://bot.example.org/pocha")
    assert webhooks.count(connection, hooky["id"], ok=False, reason="timeout", pause_after=1)
    refused = challenge(client, ana, against(hooky["id"]))
    assert (refused.status_code, refused.json["error"]) == (409, "bot_paused")
    assert "Hooky" in refused.json["message"]
    webhooks.resume(connection, hooky["id"])
    made = challenge(client, ana, against(hooky["id"]))
    assert made.status_code == 201, made.json
    # Accepted with its key, its seat is its webhook's: its turns are not said on a stream.
    accepted = client.post(f"/api/v1/challenges/{made.json['id']}/accept", headers=key_of(hooky))
    assert accepted.status_code == 200, accepted.json
    assert read_until(app, hooky, lambda got: False) == []


def test_an_accounts_key_opens_its_seat_at_the_rematch(client: FlaskClient) -> None:
    ana, bea = sign_up(client, "Ana", "person"), sign_up(client, "Bea", "person")
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "Ana"}, {"open": True}, {"name": "R", "bot": "random"}],
              "rules": {"schedule": [1], "turn_seconds": 0}},
        headers=key_of(ana),
    ).json  # fmt: skip
    code = made["table_code"]
    assert client.post(f"/api/v1/tables/{code}/seats", json={"name": "B"},
                       headers=key_of(bea)).status_code == 201  # fmt: skip
    game_id, keys = made["id"], {0: ana["key"], 1: bea["key"]}
    while (view := client.get(f"/api/v1/games/{game_id}").json)["phase"] != "finished":
        key = keys[view["turn"]]
        mine = client.get(f"/api/v1/games/{game_id}", headers=bearer(key)).json
        assert move(client, game_id, key, mine["you"]["legal"][0]).status_code == 200
    for seat, key in keys.items():
        again = client.post(f"/api/v1/games/{game_id}/rematch", headers=bearer(key))
        assert again.status_code == 201, again.json
        rematch = again.json["game_id"]
        view = client.get(f"/api/v1/games/{rematch}", headers=bearer(key)).json
        assert view["you"]["seat"] == seat


def test_an_account_lists_the_challenges_it_made_and_received(client: FlaskClient) -> None:
    ana, bea, robo = (
        sign_up(client, "Ana", "person"),
        sign_up(client, "Bea"),
        sign_up(client, "Robo"),
    )
    first = challenge(client, ana, against(robo["id"])).json
    second = challenge(client, bea, against(robo["id"])).json
    third = challenge(client, ana, against(bea["id"])).json
    assert (
        client.post(f"/api/v1/challenges/{third['id']}/decline", headers=key_of(bea)).status_code
        == 200
    )

    def listed(account: dict[str, Any]) -> list[tuple[str, str]]:
        answer = client.get("/api/v1/challenges", headers=key_of(account))
        assert answer.status_code == 200, answer.json
        return [(c["id"], c["status"]) for c in answer.json["challenges"]]

    assert listed(robo) == [(first["id"], "open"), (second["id"], "open")]
    assert listed(ana) == [(first["id"], "open"), (third["id"], "declined")]
    assert listed(bea) == [(second["id"], "open"), (third["id"], "declined")]
    for headers, error in (({}, "account_required"),
                           ({"X-Pocha-Account": "pa_guessed"}, "unknown_account")):  # fmt: skip
        refused = client.get("/api/v1/challenges", headers=headers)
        assert (refused.status_code, refused.json["error"]) == (401, error)


def test_no_account_key_is_asked_for(client: FlaskClient) -> None:
    # Without X-Pocha-Account, the answer says to send it, rather than that the key sent
    # (none) opens no account; a key that opens none is still told so.
    robo = sign_up(client, "Robo")
    made = challenge(client, sign_up(client, "Ana", "person"), against(robo["id"]))
    assert made.status_code == 201, made.json
    account, challenge_id = f"/api/v1/accounts/{robo['id']}", made.json["id"]
    hook = {"url": "https://bots.example.com/pocha"}
    requests = [
        ("GET", "/api/v1/bot/events", None),
        ("GET", "/api/v1/challenges", None),
        ("POST", "/api/v1/challenges", {"opponents": against("Robo")}),
        ("DELETE", f"/api/v1/challenges/{challenge_id}", None),
        ("POST", f"/api/v1/challenges/{challenge_id}/accept", None),
        ("POST", f"/api/v1/challenges/{challenge_id}/decline", None),
        ("PATCH", account, {"open_to_matches": True}),
        ("PUT", f"{account}/webhook", hook),
        ("GET", f"{account}/webhook", None),
        ("DELETE", f"{account}/webhook", None),
        ("POST", f"{account}/webhook/resume", None),
    ]
    for method, url, body in requests:
        for sent in ({}, {"X-Pocha-Account": " "}):
            english = client.open(url, method=method, json=body, headers=sent)
            assert (english.status_code, english.json["error"]) == (401, "account_required"), (
                method, url, english.json,
            )  # fmt: skip
            assert "X-Pocha-Account" in english.json["message"]
            assert "not the key" not in english.json["message"]
            spanish = client.open(url, method=method, json=body,
                                  headers={**sent, "Accept-Language": "es"})  # fmt: skip
            assert spanish.json["error"] == "account_required"
            assert spanish.headers["Content-Language"] == "es"
            assert "X-Pocha-Account" in spanish.json["message"]
            assert spanish.json["message"] != english.json["message"]
        guessed = client.open(url, method=method, json=body,
                              headers={"X-Pocha-Account": "pa_guessed"})  # fmt: skip
        assert (guessed.status_code, guessed.json["error"]) == (401, "unknown_account")
    assert client.get(f"/api/v1/challenges/{challenge_id}").json["status"] == "open"


def test_one_address_churning_from_several_accounts_is_capped_as_one(redis_url: str) -> None:
    """Accounts made at one address share the cap on challenges one challenger sent an
    account lately; someone at another address still gets through."""
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline",
                      "RATE_LIMITS": "on", "RATE_LIMIT_ACCOUNTS": "100/minute",
                      "RATE_LIMIT_CHALLENGES": "1000/minute"})  # fmt: skip
    griefer = app.test_client()
    griefer.environ_base["REMOTE_ADDR"] = "198.51.100.67"
    first, second = sign_up(griefer, "Grief1"), sign_up(griefer, "Grief2")
    robo = sign_up(griefer, "Robo")
    churn(griefer, first, robo, MOST_FROM_ONE_LATELY // 2)
    churn(griefer, second, robo, MOST_FROM_ONE_LATELY - MOST_FROM_ONE_LATELY // 2)
    asked = {"game": "pocha", "rules": {"schedule": [1, 2]}, "opponents": against(robo["id"])}
    refused = griefer.post("/api/v1/challenges", json=asked,
                           headers={**key_of(first), "Accept-Language": "es"})  # fmt: skip
    assert (refused.status_code, refused.json["error"]) == (429, "too_many_challenges")
    assert "Robo" in refused.json["message"] and "tu dirección" in refused.json["message"]
    player = app.test_client()
    player.environ_base["REMOTE_ADDR"] = "203.0.113.21"
    ana = sign_up(player, "Ana", "person")
    assert challenge(player, ana, against(robo["id"])).status_code == 201
