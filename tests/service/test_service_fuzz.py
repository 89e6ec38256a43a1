"""The whole API fuzzed from its own OpenAPI document (schemathesis): valid and invalid
requests for every operation, some against a game that is being played with its seats'
real tokens, so the deep paths (a seat's view, moves, hints) are reached and not only the
404 of an unknown id. Every response is held to all of schemathesis' checks: no 5xx, a
documented status, content type, headers and body, invalid data refused and valid data
accepted (but the refusals only the game can judge, which schemathesis.toml lists).

Then statefully: chains of calls along the document's links (a new game's id and tokens
to its view, moves, seats and hint; a job's id to following it...), each call held to the
same checks and to the stateful ones. Both again over HTTP against a service of the
module's own as `pocha serve` runs it (gunicorn, a worker), from an address of its own.

Bounded for CI (`FUZZ_EXAMPLES` per operation, a few hundred requests in all;
`STATEFUL_SCENARIOS` chains of at most `STATEFUL_STEPS` calls) and seeded, so a run is
repeatable; set POCHA_FUZZ_EXAMPLES and POCHA_FUZZ_SCENARIOS to fuzz longer locally.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hypothesis
import pytest
import requests
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import FlakyStrategyDefinition
from requests.adapters import HTTPAdapter
from schemathesis.engine.link_calibration import LinkCalibrationState
from schemathesis.generation.feedback import NO_FEEDBACK
from schemathesis.generation.modes import GenerationMode
from schemathesis.generation.stateful.state_machine import normalize_name
from schemathesis.specs.openapi.checks import ignored_auth, missing_required_header

from service import create_app
from service.openapi import COMMITTED
from tests.live import LiveService, serving
from tests.redis_server import fresh_db_url
from tests.service.helpers import humans
from tools.embedded_redis import RedisServer

FUZZ_EXAMPLES = int(os.environ.get("POCHA_FUZZ_EXAMPLES", "12"))
#: A logical DB of the session's Redis for this module alone (tests use 1; see redis_server).
FUZZ_DB = 7

schema = schemathesis.openapi.from_path(COMMITTED)


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
            # No worker runs the hints and AI moves queued here: without this, enough of
            # them would make the next one a 503 busy, which the checks call a server error.
            "THINK_WAIT_MAX": 10**9,
        }
    )


@pytest.fixture(scope="module")
def table(fuzz_app: Flask) -> Table:
    return Table(fuzz_app)


#: Which of four ways the next example is sent (see `aim`).
_turns: Iterator[int] = itertools.count()


def aim(case: Any, table: Table) -> bool:
    """Send one example in four as generated; the others at the game in play, with the
    token of the seat to act, of another seat, or none, so that generated bodies and
    headers reach the views behind the checks of ids and tokens. Whether it aimed."""
    way = next(_turns) % 4
    if way == 0 or case.path_parameters is None or "game_id" not in case.path_parameters:
        return False
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
    return True


@schema.parametrize()
@settings(
    max_examples=FUZZ_EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_holds_to_its_document(case: Any, fuzz_app: Flask, table: Table) -> None:
    aimed = aim(case, table)
    # Every check schemathesis has, "schema-valid data is accepted" too: what the document
    # calls valid is taken, but where only the game can judge (schemathesis.toml says
    # which operations, and why). An example aimed at the game in play has had its token
    # set or taken away here, which the checks of tokens cannot know: they judge the
    # examples sent as generated.
    excluded = [ignored_auth, missing_required_header] if aimed else None
    case.call_and_validate(app=fuzz_app, base_url="http://localhost", excluded_checks=excluded)


# -- the links between operations, followed (stateful) ---------------------------------

#: Scenarios (chains of calls along the document's links) and the most calls in one.
STATEFUL_SCENARIOS = int(os.environ.get("POCHA_FUZZ_SCENARIOS", "40"))
STATEFUL_STEPS = 8
#: The operations a chain may start with, from generated values alone.
CHAIN_STARTS = frozenset({"POST /api/v1/games", "POST /api/v1/matches", "POST /api/v1/ai/move"})
#: Runs of the state machine, each from its own seed, that may end early (see below).
STATEFUL_RUNS = 25


class AlwaysFollow(LinkCalibrationState):
    """Every link's values are used (schemathesis uses each with a chance of 85% at
    first, by a random draw of its own that Hypothesis does not see): the calls a link
    makes are then the same each time a scenario is replayed."""

    def use_probability(self, transition_id: str) -> float:
        return 1.0

    def is_calibrated(self, transition_id: str) -> bool:
        return True


class Followed:
    """What the scenarios did: how many ran, and each call's link (None for a call made
    from generated values alone) and status."""

    def __init__(self) -> None:
        self.scenarios = 0
        self.calls: list[tuple[str | None, str, int]] = []


@pytest.fixture(scope="module")
def followed() -> Followed:
    return Followed()


@pytest.fixture(scope="module")
def linked_calls(fuzz_app: Flask, followed: Followed) -> type[Any]:
    """Schemathesis' state machine of the document's links, calling the app in-process and
    noting what it does in `followed`."""
    # The document as the app serves it (a test holds it to the committed one), so that the
    # checks' own requests (ignored_auth's, without the token) reach the app too.
    return chains_of_links(schemathesis.openapi.from_wsgi("/api/openapi.json", fuzz_app), followed)


def chains_of_links(
    served: Any, followed: Followed, session: requests.Session | None = None
) -> type[Any]:
    """The state machine of `served`'s links, its calls made through `session` if given,
    noting what it does in `followed`."""
    machine = served.build_state_machine(feedback=NO_FEEDBACK, link_calibration=AlwaysFollow())
    # Chains start where something is made (a game, a match, an AI move's job): schemathesis
    # would also start them with a hint, a rematch or a seat at a table on made-up ids,
    # which the stateless test above sends already and which can only find nothing.
    starts = {normalize_name(f"RANDOM -> {label}") for label in CHAIN_STARTS}
    dropped = {name: None for name in machine.root_rules - starts}
    chains = type(
        "Chains",
        (machine,),
        {**dropped, "root_rules": frozenset(starts), "_root_labels": frozenset(CHAIN_STARTS)},
    )

    class LinkedCalls(chains):  # type: ignore[misc,valid-type]
        def setup(self) -> None:
            followed.scenarios += 1

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"session": session} if session is not None else {}

        def validate_response(
            self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
        ) -> None:
            # ignored_auth checks a 2xx by sending the request again without the token and
            # with a wrong one, expecting 401 or 403. After a DELETE that worked, the game
            # is gone and the truthful answer is 404: the stateless test above probes the
            # DELETE's token checks, on a game that is still there.
            excluded = [ignored_auth] if case.operation.method.upper() == "DELETE" else None
            case.validate_response(
                response,
                additional_checks=additional_checks,
                excluded_checks=excluded,
                transport_kwargs=kwargs or None,
                recorder=self.recorder,
            )

        def step(self, input: Any) -> Any:
            output = super().step(input)
            link = input.transition.id if input.transition and input.applied_parameters else None
            followed.calls.append((link, input.case.operation.label, output.response.status_code))
            return output

    return LinkedCalls


def test_linked_operations_hold_to_the_document(
    linked_calls: type[Any], followed: Followed
) -> None:
    """Chains of calls along the document's links (service/api/links.py): a new game's id
    and a seat's token handed to its view, events, moves, hint and seats, a taken seat's to
    its game, a view's ETag to a move's If-Match, a job's and a match's id to following
    them. Each call as generated or with the linked values, held to every check, the
    stateful ones too (a resource just made is found; one just deleted is gone).

    The server's answers steer what a scenario can do next (which links have values to
    follow), and the server is not a pure function of the requests (its ids, tokens and
    deals are random, and the store keeps what earlier scenarios made), so a run may meet
    a scenario that draws differently from an earlier one with the same start. Hypothesis
    then stops that run with FlakyStrategyDefinition, which is about the data drawn and
    never about a check (a failed check raises itself, or FlakyFailure, and fails the
    test). Schemathesis' own runner ends its stateful phase there; here the next run goes
    on from the next seed until the scenarios are done."""
    follow_links(linked_calls, followed)


def follow_links(linked_calls: type[Any], followed: Followed) -> None:
    """Run `linked_calls` until `STATEFUL_SCENARIOS` scenarios ran, and check they went
    somewhere (see the test above)."""
    for seed in range(STATEFUL_RUNS):
        left = STATEFUL_SCENARIOS - followed.scenarios
        if left <= 0:
            break
        run = hypothesis.seed(seed)(type("SeededLinkedCalls", (linked_calls,), {}))
        try:
            run.run(
                settings=settings(
                    max_examples=left,
                    stateful_step_count=STATEFUL_STEPS,
                    phases=[Phase.generate],
                    database=None,
                    deadline=None,
                    suppress_health_check=list(HealthCheck),
                )
            )
        except FlakyStrategyDefinition:
            continue
    assert followed.scenarios >= STATEFUL_SCENARIOS, followed.scenarios
    # The chains went through: some calls took a link's values, and some of those were
    # answered 2xx (a new game's view, its table, its score sheet...).
    linked = [(link, status) for link, _operation, status in followed.calls if link]
    assert any(status < 300 for _link, status in linked), linked


# -- the same, against the service as it runs: gunicorn, a worker, over HTTP -------------

#: Examples per operation sent to the live service (its round trips are real ones).
LIVE_EXAMPLES = int(os.environ.get("POCHA_FUZZ_LIVE_EXAMPLES", "4"))
#: Its own logical DB of the session's Redis, and its own loopback address, so that what
#: it spends of the per-address limits is nobody else's.
LIVE_DB = 9
LIVE_ADDRESS = "127.0.0.9"


class FromAddress(HTTPAdapter):
    """Requests' adapter that connects from `LIVE_ADDRESS`."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = (LIVE_ADDRESS, 0)
        super().init_poolmanager(*args, **kwargs)


@dataclass(frozen=True)
class Fuzzed:
    service: LiveService
    session: requests.Session


@pytest.fixture(scope="module")
def fuzzed(redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzzed]:
    """A service of its own for the module, as `pocha serve` runs it, with what holds a
    request open cut short (streams, long polls), and the limits per address on games,
    AI moves and matches raised so that the examples reach past them (a 429 is still a
    documented answer, and the API's tests hold the limits themselves)."""
    with (
        serving(
            fresh_db_url(redis_server, LIVE_DB),
            tmp_path_factory.mktemp("fuzzed-service"),
            POCHA_SSE_MAX_SECONDS="1",
            POCHA_SSE_KEEPALIVE_SECONDS="1",
            POCHA_JOB_WAIT_MAX="1",
            # On, as they are in service (the suite turns them off: tests/conftest.py).
            POCHA_RATE_LIMITS="on",
            POCHA_RATE_LIMIT_CREATE="600/minute",
            POCHA_RATE_LIMIT_AI="600/minute",
            POCHA_RATE_LIMIT_MATCHES="100/minute",
        ) as service,
        requests.Session() as session,
    ):
        session.mount("http://", FromAddress())
        yield Fuzzed(service, session)


@schema.parametrize()
@settings(
    max_examples=LIVE_EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_live_service_holds_to_its_document(case: Any, fuzzed: Fuzzed) -> None:
    case.call_and_validate(base_url=fuzzed.service.url, session=fuzzed.session)


def test_the_live_service_holds_to_its_links(fuzzed: Fuzzed) -> None:
    """The chains of linked calls above, over HTTP to the live service: bots think on its
    worker, jobs and matches run there."""
    served = schemathesis.openapi.from_url(f"{fuzzed.service.url}/api/openapi.json")
    followed = Followed()
    follow_links(chains_of_links(served, followed, fuzzed.session), followed)


def test_a_hint_over_the_think_budget_is_a_documented_refusal(fuzzed: Fuzzed) -> None:
    """A hint on a seat's turn with a budget the document allows (up to 100,000
    iterations) that may think longer than a minute's think budget gives is refused with
    its documented 422 over_think_budget, which only the service can judge: held to every
    check, as a valid example (schemathesis.toml lists the hint with the other such
    operations)."""
    url, session = fuzzed.service.url, fuzzed.session
    created = session.post(f"{url}/api/v1/games", json={"players": humans(3)}).json()
    turn = session.get(f"{url}/api/v1/games/{created['id']}").json()["turn"]
    token = created["seats"][turn]["token"]
    hint = schema["/api/v1/games/{game_id}/hint"]["POST"]
    answers = []

    @settings(max_examples=1, derandomize=True, database=None, deadline=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(case=hint.as_strategy(GenerationMode.POSITIVE))
    def ask(case: Any) -> None:
        case.path_parameters = {"game_id": created["id"]}
        case.headers = {"Authorization": f"Bearer {token}", "Accept-Language": "es"}
        case.body = {"iterations": 100_000}
        answers.append(case.call_and_validate(base_url=url, session=session))

    ask()
    assert [(a.status_code, a.json()["error"]) for a in answers] == [(422, "over_think_budget")]
    assert "reflexión" in answers[0].json()["message"]


# -- hostile values the document's own examples never reach ------------------------------

#: Integers at and past every boundary a parser or Redis has: 2^31, 2^53, 2^63, 2^64 and
#: Python's 4,300-digit limit for turning text into int.
BOUNDARY_INTEGERS = ["2147483648", "9007199254740993", "9223372036854775807",
                     "9223372036854775808", "18446744073709551616", "-9223372036854775809",
                     "1" + "0" * 4300, "9" * 5000]  # fmt: skip


def hostile_json() -> st.SearchStrategy[str]:
    """JSON texts of the classes that once made a 500: deep nesting, huge numbers, escaped
    lone surrogates, NaN and Infinity, placed where a body's fields would be."""
    leaf = st.one_of(
        st.sampled_from(BOUNDARY_INTEGERS),
        st.sampled_from(['"\\ud800"', '"\\udfff"', '"a\\ud83d"', '"\\u0000"', '"\\u202e"']),
        st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-0", "0.5"]),
    )
    deep = st.integers(min_value=33, max_value=5000).map(lambda n: "[" * n + "]" * n)
    field = st.sampled_from(["bid", "card", "players", "rules", "seed", "name", "level",
                             "iterations", "milliseconds", "position", "games"])  # fmt: skip
    value = st.one_of(leaf, deep)
    return st.one_of(
        deep,
        st.builds(lambda f, v: "{" + json.dumps(f) + ": " + v + "}", field, value),
        st.builds(
            lambda v: '{"players": [{"name": ' + v + '}, {"name": "B"}, {"name": "C"}]}', value
        ),
    )


HEADERS = ["If-Match", "Last-Event-ID", "Authorization", "X-Request-ID", "Accept-Language"]
header_values = st.one_of(
    st.sampled_from(BOUNDARY_INTEGERS),
    st.sampled_from(['W/"' + "9" * 5000 + '"', "Bearer " + "A" * 5000, "²", "٣", "-1", ""]),
)


def operations() -> list[tuple[str, str, list[str]]]:
    """(method, path, query parameter names) of every operation in the document."""
    document = json.loads(Path(COMMITTED).read_text())
    found = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in ("get", "post", "delete"):
                continue
            query = [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"]
            found.append((method.upper(), path, query))
    return found


def _send(table: Table, method: str, path: str, **kwargs: Any) -> None:
    url = (
        path.replace("{game_id}", table.game_id)
        .replace("{job_id}", "x" * 24)
        .replace("{match_id}", "x" * 16)
    )
    response = table.client.open(url, method=method, **kwargs)
    body = response.get_data()
    assert response.status_code < 500, (method, url, kwargs, body[:300])
    if response.status_code >= 400:
        assert json.loads(body)["error"], body[:300]


@pytest.mark.parametrize(("method", "path", "query"), operations(), ids=lambda x: str(x))
@settings(max_examples=FUZZ_EXAMPLES, derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck))  # fmt: skip
@given(body=hostile_json(), header=st.sampled_from(HEADERS), value=header_values,
       number=st.sampled_from(BOUNDARY_INTEGERS))  # fmt: skip
def test_hostile_bodies_headers_and_numbers_get_a_4xx(
    table: Table, method: str, path: str, query: list[str], body: str, header: str,
    value: str, number: str,
) -> None:  # fmt: skip
    auth = {"Authorization": f"Bearer {table.tokens[0]}"}
    if method == "POST":
        _send(table, method, path, data=body, content_type="application/json", headers=auth)
    _send(table, method, path, headers={**auth, header: value})
    _send(table, method, path, headers={header: value, "Accept": "text/event-stream"})
    for name in query:
        _send(table, method, path, query_string={name: number}, headers=auth)
