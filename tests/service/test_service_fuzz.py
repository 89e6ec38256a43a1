"""The whole API fuzzed from its own OpenAPI document (schemathesis): valid and invalid
requests for every operation, some against a game that is being played with its seats'
real tokens, so the deep paths (a seat's view, moves, hints) are reached and not only the
404 of an unknown id. Every response must be no 5xx and match the document: a documented
status, content type, headers and body schema.

Bounded for CI (`FUZZ_EXAMPLES` per operation, a few hundred requests in all) and
derandomized, so a run is repeatable; set POCHA_FUZZ_EXAMPLES to fuzz longer locally.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from service import create_app
from service.openapi import COMMITTED
from tests.redis_server import fresh_db_url
from tests.service.helpers import humans
from tools.embedded_redis import RedisServer

FUZZ_EXAMPLES = int(os.environ.get("POCHA_FUZZ_EXAMPLES", "12"))
#: A logical DB of the session's Redis for this module alone (tests use 1; see redis_server).
FUZZ_DB = 7

schema = schemathesis.openapi.from_path(COMMITTED)

#: What every response is held to. Not schemathesis' "schema-valid data is accepted": a
#: request can fit the schema and still be refused for what it means (an impossible
#: position, a level and a budget at once), with a documented 422.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


class Table:
    """A game in play and its secrets, shared by every example of the module."""

    def __init__(self, app: Flask) -> None:
        client = app.test_client()
        players = [*humans(3), {"name": "Bot", "bot": "heuristic"}]
        created = client.post(
            "/api/v1/games", json={"players": players, "rules": {"schedule": [2, 3, 4]}, "seed": 5}
        ).json
        self.game_id: str = created["id"]
        self.tokens: list[str] = [s["token"] for s in created["seats"] if "token" in s]
        self.host_token: str = created["host_token"]
        self.client = client

    def advance(self) -> None:
        """Play one legal move of the seat to act, so that examples meet every phase of the
        game (bidding, playing, the next hand, the end) and not only its first turn."""
        token = self.token_to_act()
        view = self.client.get(
            f"/api/v1/games/{self.game_id}", headers={"Authorization": f"Bearer {token}"}
        ).json
        if view["phase"] == "finished" or view["turn"] != view["you"]["seat"]:
            return
        action = view["you"]["legal"][0]
        kind, body = (
            ("bids", {"bid": action}) if isinstance(action, int) else ("plays", {"card": action})
        )
        response = self.client.post(
            f"/api/v1/games/{self.game_id}/{kind}",
            json=body,
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 200, response.json

    def token_to_act(self) -> str:
        """The token of the seat whose turn it is (any seat's once the game is over)."""
        turn = self.client.get(f"/api/v1/games/{self.game_id}").json["turn"]
        return self.tokens[turn] if turn is not None and turn < len(self.tokens) else self.tokens[0]


@pytest.fixture(scope="module")
def fuzz_app(redis_server: RedisServer) -> Flask:
    return create_app(
        {
            "REDIS_URL": fresh_db_url(redis_server, FUZZ_DB),
            "TESTING": True,
            "BOT_RUNNER": "inline",
            # Nothing may hold an example for long: streams and long polls end at once.
            "SSE_MAX_SECONDS": 0.2,
            "SSE_KEEPALIVE_SECONDS": 0.1,
            "JOB_WAIT_MAX": 0.1,
        }
    )


@pytest.fixture(scope="module")
def table(fuzz_app: Flask) -> Table:
    return Table(fuzz_app)


#: Which of four ways the next example is sent (see `aim`).
_turns: Iterator[int] = itertools.count()


def aim(case: Any, table: Table) -> None:
    """Send one example in four as generated; the others at the game in play, with the
    token of the seat to act, of another seat, or none, so that generated bodies and
    headers reach the views behind the checks of ids and tokens."""
    way = next(_turns) % 4
    if way == 0 or case.path_parameters is None or "game_id" not in case.path_parameters:
        return
    case.path_parameters["game_id"] = table.game_id
    headers = dict(case.headers or {})
    if way == 1:
        table.advance()
        # Without If-Match, a well-formed bid or card of the seat to act is played.
        headers["Authorization"] = f"Bearer {table.token_to_act()}"
        headers.pop("If-Match", None)
    elif way == 2:
        headers["Authorization"] = f"Bearer {table.tokens[1]}"
    else:
        headers.pop("Authorization", None)
    case.headers = headers


@schema.parametrize()
@settings(
    max_examples=FUZZ_EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_holds_to_its_document(case: Any, fuzz_app: Flask, table: Table) -> None:
    aim(case, table)
    case.call_and_validate(app=fuzz_app, checks=CHECKS)
