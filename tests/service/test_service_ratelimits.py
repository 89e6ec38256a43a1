"""Rate limits per client address, counted in the test's real Redis: creating games, moves
(bids and cards share one budget), the AI on demand (hints and AI moves share one, in
requests and in seconds of thinking) and matches answer 429 `rate_limited` with
Retry-After once over their limit; other addresses, and other endpoints, are not
affected; X-Forwarded-For counts only behind a trusted proxy; a bad limit string stops the
app from starting. The other tests run with the limits off (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from service import create_app
from service.i18n import translate
from service.ratelimits import EXTENSION as LIMITER
from service.ratelimits import REFUSALS, Refusals, spoken_limit, storage_uri
from tests.redis_server import private_redis
from tests.service.helpers import AI_POSITION as AI_MOVE
from tests.service.helpers import (
    ANA,
    BRUNO,
    bearer,
    create_game,
    humans,
    limited_app,
    move,
    tokens_of,
)
from tools.embedded_redis import RedisServer


def new_game(client: FlaskClient, environ: dict[str, str]) -> Any:
    return client.post(
        "/api/v1/games",
        json={"players": humans(3), "rules": {"schedule": [3]}, "seed": 3},
        environ_base=environ,
    )


def assert_limited(response: Any, window: int = 60) -> None:
    assert response.status_code == 429, response.get_data(as_text=True)
    body = response.json
    assert body["error"] == "rate_limited"
    assert body["code"] == 429 and body["status"] == "Too Many Requests"
    assert "try again in" in body["message"]
    retry_after = int(response.headers["Retry-After"])
    # The seconds until the limit's window ends: never more than the window itself.
    assert 1 <= retry_after <= window
    assert f"try again in {retry_after} s." in body["message"]
    assert response.headers["X-Request-ID"]


def test_creating_games_is_limited_per_address(redis_url: str) -> None:
    client = limited_app(redis_url, RATE_LIMIT_CREATE="3/minute").test_client()
    for _ in range(3):
        assert new_game(client, ANA).status_code == 201
    assert_limited(new_game(client, ANA))
    assert_limited(new_game(client, ANA))
    # Another address has its own count, and reading is never limited.
    assert new_game(client, BRUNO).status_code == 201
    assert client.get("/api/v1/rules", environ_base=ANA).status_code == 200


def test_the_lobby_is_read_from_one_rendering_and_limited_per_address(redis_url: str) -> None:
    # A day's window, so that no window's edge falls among the test's reads.
    client = limited_app(redis_url, RATE_LIMIT_LOBBY="4/day").test_client()
    players = [{"name": "Ana"}, {"open": True}, {"open": True}]
    made = client.post(
        "/api/v1/games", json={"players": players, "listed": True}, environ_base=BRUNO
    )
    assert made.status_code == 201, made.json
    first = client.get("/api/v1/tables", environ_base=ANA)
    again = client.get("/api/v1/tables", environ_base=ANA)
    assert first.status_code == again.status_code == 200
    assert first.content_type == "application/json"
    assert [t["code"] for t in first.json] == [made.json["table_code"]]
    # One rendering serves every reader until the lobby is read again.
    assert first.get_data() == again.get_data()
    client.post(f"/api/v1/tables/{made.json['table_code']}/seats", json={"name": "Bea"})
    after = client.get("/api/v1/tables", environ_base=ANA)
    assert after.json[0]["open_seats"] == first.json[0]["open_seats"] - 1
    client.get("/api/v1/tables", environ_base=ANA)
    assert_limited(client.get("/api/v1/tables", environ_base=ANA), window=86_400)
    assert client.get("/api/v1/tables", environ_base=BRUNO).status_code == 200


def test_one_address_has_at_most_three_tables_in_the_lobby(redis_url: str) -> None:
    client = limited_app(redis_url).test_client()
    players = [{"name": "Ana"}, {"open": True}, {"open": True}]

    def table(environ: dict[str, str], listed: bool = True) -> Any:
        return client.post(
            "/api/v1/games",
            json={"players": players, "listed": listed},
            environ_base=environ,
            headers={"Accept-Language": "es"},
        )

    made = [table(ANA) for _ in range(3)]
    assert [m.status_code for m in made] == [201, 201, 201]
    refused = table(ANA)
    assert refused.status_code == 409 and refused.json["error"] == "too_many_tables"
    assert refused.json["message"].startswith("Ya tienes 3 mesas en la lista")
    # Unlisted tables, and another address's, are not counted.
    assert table(ANA, listed=False).status_code == 201
    assert table(BRUNO).status_code == 201
    # A table that starts leaves the lobby, and its place may be taken again.
    code = made[0].json["table_code"]
    for name, address in (("Bea", "192.0.2.1"), ("Cruz", "192.0.2.2")):
        joined = client.post(
            f"/api/v1/tables/{code}/seats",
            json={"name": name},
            environ_base={"REMOTE_ADDR": address},
        )
        assert joined.status_code == 201, joined.json
    assert table(ANA).status_code == 201
    assert table(ANA).status_code == 409
    codes = [t["code"] for t in client.get("/api/v1/tables", environ_base=BRUNO).json]
    assert len(codes) == 4 and code not in codes


def test_a_stranger_from_the_lobby_takes_one_seat_and_the_host_may_remove_them(
    redis_url: str,
) -> None:
    client = limited_app(redis_url).test_client()
    players = [{"name": "Ana"}, {"open": True}, {"open": True}, {"open": True}]
    listed = client.post(
        "/api/v1/games", json={"players": players, "listed": True}, environ_base=ANA
    ).json
    code, game_id = listed["table_code"], listed["id"]
    host = listed["host_token"]

    def join(environ: dict[str, str], name: str = "Sq") -> Any:
        return client.post(
            f"/api/v1/tables/{code}/seats",
            json={"name": name},
            environ_base=environ,
            headers={"Accept-Language": "es"},
        )

    first = join(BRUNO)
    assert first.status_code == 201
    again = join(BRUNO)
    assert again.status_code == 409 and again.json["error"] == "one_seat_each"
    assert again.json["message"].startswith("Ya tienes un asiento en esta mesa")
    # The squatter's seat only: the table still has two open seats for others.
    seen = client.get(f"/api/v1/games/{game_id}").json
    assert [p["open"] for p in seen["players"]] == [False, False, True, True]

    # The host removes them: the seat opens, their token stops, and they may not come back.
    seat = first.json["seat"]
    squatter = first.json["token"]
    assert (
        client.post(
            f"/api/v1/games/{game_id}/seats/{seat}/remove", headers=bearer(squatter)
        ).status_code
        == 403
    )
    removed = client.post(f"/api/v1/games/{game_id}/seats/{seat}/remove", headers=bearer(host))
    assert removed.status_code == 200, removed.json
    assert removed.json["players"][seat]["open"]
    events = client.get(f"/api/v1/games/{game_id}/events").json
    assert events[-1] == {**events[-1], "type": "seat_opened", "seat": seat, "removed": True}
    assert client.get(f"/api/v1/games/{game_id}", headers=bearer(squatter)).status_code == 401
    back = join(BRUNO)
    assert back.status_code == 403 and back.json["error"] == "removed_by_host"
    # Nobody to remove in an open seat, nor once the game has started.
    empty = client.post(f"/api/v1/games/{game_id}/seats/{seat}/remove", headers=bearer(host))
    assert empty.status_code == 409 and empty.json["error"] == "wrong_phase"
    for address in ("192.0.2.1", "192.0.2.2", "192.0.2.3"):
        # Names of their own: no two at one table look alike.
        assert join({"REMOTE_ADDR": address}, f"Sq {address[-1]}").status_code == 201
    started = client.post(f"/api/v1/games/{game_id}/seats/1/remove", headers=bearer(host))
    assert started.status_code == 409 and started.json["error"] == "wrong_phase"


def test_an_unlisted_table_seats_one_address_as_often_as_its_host_hands_out_the_code(
    redis_url: str,
) -> None:
    client = limited_app(redis_url).test_client()
    players = [{"name": "Ana"}, {"open": True}, {"open": True}]
    made = client.post("/api/v1/games", json={"players": players}, environ_base=ANA).json
    for name in ("Bea", "Cruz"):
        joined = client.post(
            f"/api/v1/tables/{made['table_code']}/seats", json={"name": name}, environ_base=ANA
        )
        assert joined.status_code == 201, joined.json


def test_a_seat_comes_and_goes_a_limited_number_of_times(redis_url: str) -> None:
    # A day's window, so that no window's edge falls inside the test.
    client = limited_app(redis_url, RATE_LIMIT_SEATS="3/day").test_client()
    created = create_game(client, humans(3), {"schedule": [3], "turn_seconds": 30}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)
    for _ in range(3):
        answer = client.post(f"/api/v1/games/{game_id}/seats/1/return", headers=bearer(tokens[1]))
        assert answer.status_code == 200, answer.json
    assert_limited(
        client.post(f"/api/v1/games/{game_id}/seats/1/leave", headers=bearer(tokens[1])),
        window=86_400,
    )
    # Per seat: another seat of the game has its own count.
    answer = client.post(f"/api/v1/games/{game_id}/seats/2/return", headers=bearer(tokens[2]))
    assert answer.status_code == 200


def test_only_who_may_change_a_seat_spends_its_changes(redis_url: str) -> None:
    # A game's id is no secret (the lobby lists it): requests that may not change a seat,
    # from anywhere, must not spend its count and lock its person out of leaving.
    client = limited_app(redis_url, RATE_LIMIT_SEATS="3/day").test_client()
    created = create_game(client, humans(3), {"schedule": [3], "turn_seconds": 30}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)
    strangers = [
        ("return", {}, 401),
        ("leave", bearer("not-a-token"), 401),
        ("leave", bearer(tokens[2]), 403),
        ("return", bearer(created["host_token"]), 403),
        ("remove", {}, 401),
        ("remove", bearer(tokens[1]), 403),
    ]
    for _ in range(2):
        for action, headers, status in strangers:
            refused = client.post(
                f"/api/v1/games/{game_id}/seats/1/{action}",
                headers={**headers, "Accept-Language": "es"},
                environ_base=BRUNO,
            )
            assert refused.status_code == status, (action, refused.json)
            assert refused.headers["Content-Language"] == "es"
    # A game that is not there is said so (docs/api.md), for each token.
    for action, token in (("return", tokens[1]), ("leave", tokens[1]), ("remove", None)):
        missing = client.post(
            f"/api/v1/games/NOSUCHGAME/seats/1/{action}", headers=bearer(token or "x")
        )
        assert missing.status_code == 404, (action, missing.json)
    for _ in range(3):
        answer = client.post(
            f"/api/v1/games/{game_id}/seats/1/return", headers=bearer(tokens[1]), environ_base=ANA
        )
        assert answer.status_code == 200, answer.json
    assert_limited(
        client.post(f"/api/v1/games/{game_id}/seats/1/leave", headers=bearer(tokens[1])),
        window=86_400,
    )


def test_the_host_and_the_seats_person_each_spend_their_own_changes(redis_url: str) -> None:
    # The host's removals, refused once the game has started, must not spend the count of
    # the seat's own comings and goings: a host could keep its person from coming back
    # or leaving. Nor may the person, coming back over and over, keep the host from
    # removing them before the start.
    client = limited_app(redis_url, RATE_LIMIT_SEATS="3/day").test_client()
    created = create_game(client, humans(3), {"schedule": [3], "turn_seconds": 30}, seed=3)
    game_id, tokens, host = created["id"], tokens_of(created), created["host_token"]
    for _ in range(3):
        refused = client.post(f"/api/v1/games/{game_id}/seats/1/remove", headers=bearer(host))
        assert refused.status_code == 409, refused.json
    assert_limited(
        client.post(f"/api/v1/games/{game_id}/seats/1/remove", headers=bearer(host)),
        window=86_400,
    )
    for action in ("return", "return", "leave"):
        answer = client.post(f"/api/v1/games/{game_id}/seats/1/{action}", headers=bearer(tokens[1]))
        assert answer.status_code == 200, (action, answer.json)
    assert_limited(
        client.post(f"/api/v1/games/{game_id}/seats/1/return", headers=bearer(tokens[1])),
        window=86_400,
    )

    made = client.post(
        "/api/v1/games", json={"players": [{"name": "Ana"}, {"open": True}, {"open": True}]}
    )
    assert made.status_code == 201, made.json
    table, host = made.json["id"], made.json["host_token"]
    joined = client.post(f"/api/v1/tables/{made.json['table_code']}/seats", json={"name": "Bea"})
    assert joined.status_code == 201, joined.json
    seat, token = joined.json["seat"], joined.json["token"]
    for _ in range(3):
        back = client.post(f"/api/v1/games/{table}/seats/{seat}/return", headers=bearer(token))
        assert back.status_code == 200, back.json
    assert_limited(
        client.post(f"/api/v1/games/{table}/seats/{seat}/return", headers=bearer(token)),
        window=86_400,
    )
    removed = client.post(f"/api/v1/games/{table}/seats/{seat}/remove", headers=bearer(host))
    assert removed.status_code == 200, removed.json


def test_a_client_refused_again_and_again_is_answered_late() -> None:
    refusals = Refusals(pause=0.5, free=3)
    now = 1_800_000_000.0
    refusals.note("seat", "game:1", now + 60, "10 per 1 minute")
    answers = [refusals.refused("seat", "game:1", now + 1) for _ in range(5)]
    assert all(a is not None and a.retry_after == 59 for a in answers)
    # The first few at once (a client that missed its Retry-After once); then late.
    assert [a.pause for a in answers if a is not None] == [0.0, 0.0, 0.0, 0.5, 0.5]
    # Each client's count is its own, and a new window starts it again.
    other = refusals.refused("seat", "game:2", now + 1)
    assert other is None
    refusals.note("seat", "game:2", now + 60, "10 per 1 minute")
    fresh = refusals.refused("seat", "game:2", now + 1)
    assert fresh is not None and fresh.pause == 0.0
    refusals.note("seat", "game:1", now + 120, "10 per 1 minute")
    again = refusals.refused("seat", "game:1", now + 61)
    assert again is not None and again.pause == 0.0


def test_a_flood_over_a_limit_is_answered_429_every_time_late_or_not(redis_url: str) -> None:
    app = limited_app(redis_url, RATE_LIMIT_SEATS="3/day", REFUSAL_PAUSE="0.01")
    refusals = app.extensions[REFUSALS]
    assert refusals.pause == 0.01  # the setting's
    client = app.test_client()
    created = create_game(client, humans(3), {"schedule": [3], "turn_seconds": 30}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)
    for _ in range(3):
        answer = client.post(f"/api/v1/games/{game_id}/seats/1/return", headers=bearer(tokens[1]))
        assert answer.status_code == 200, answer.json
    for _ in range(refusals.free + 5):
        assert_limited(
            client.post(f"/api/v1/games/{game_id}/seats/1/leave", headers=bearer(tokens[1])),
            window=86_400,
        )


def test_a_client_over_its_limit_is_refused_again_without_a_round_trip_to_redis(
    tmp_path: Path,
) -> None:
    # A Redis of its own, so that every command it runs is this app's: the session's
    # servers also serve other tests' workers, whose commands would be counted too.
    with private_redis(tmp_path) as server:
        redis_url = server.url_for_db(0)
        client = limited_app(redis_url, RATE_LIMIT_CREATE="1/day").test_client()
        assert new_game(client, ANA).status_code == 201
        assert_limited(new_game(client, ANA), window=86_400)
        counts = server.client(0)

        def commands() -> int:
            # What Redis ran, less the reading of the count itself (INFO).
            return sum(
                int(stats["calls"])
                for name, stats in counts.info("commandstats").items()
                if name != "cmdstat_info"
            )

        before = commands()
        for _ in range(20):
            assert_limited(new_game(client, ANA), window=86_400)
        assert commands() == before
        # Another address, and another limit of the same address, are counted as before.
        assert new_game(client, BRUNO).status_code == 201
        assert client.get("/api/v1/tables", environ_base=ANA).status_code == 200
        counts.close()


def test_bids_and_cards_share_one_budget(redis_url: str) -> None:
    # Move counters' windows are aligned to the clock (ai, create and the rest start theirs
    # at the first request): a day's, so that no window's edge falls inside the test.
    client = limited_app(redis_url, RATE_LIMIT_MOVES="4/day").test_client()
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)
    token = tokens[1]  # seat 1 bids first (seat 0 deals)
    statuses = []
    for action in (0, 0, "O1", "O1"):
        statuses.append(move(client, game_id, token, action).status_code)
    # Every try counts, refused ones too (out of turn, wrong phase): the budget is requests.
    assert 429 not in statuses
    assert_limited(move(client, game_id, token, 0), window=86400)
    assert_limited(move(client, game_id, tokens[2], "O2"), window=86400)
    # Reading the game is not a move.
    assert client.get(f"/api/v1/games/{game_id}", headers=bearer(token)).status_code == 200


def test_hints_and_ai_moves_share_one_budget_and_matches_have_theirs(redis_url: str) -> None:
    client = limited_app(redis_url, RATE_LIMIT_AI="2/minute", RATE_LIMIT_MATCHES="1/hour")
    client = client.test_client()
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    game_id, tokens = created["id"], tokens_of(created)
    hint = client.post(
        f"/api/v1/games/{game_id}/hint", json={"level": "easy"}, headers=bearer(tokens[1])
    )
    assert hint.status_code == 202, hint.json
    # An impossible position still spends a request of the budget.
    assert client.post("/api/v1/ai/move", json={"seat": 0}).status_code == 422
    assert_limited(client.post("/api/v1/ai/move", json={"seat": 0}))
    assert_limited(client.post(f"/api/v1/games/{game_id}/hint", json={}, headers=bearer(tokens[1])))
    match = {"seats": ["random", "random", "random"], "games": 1, "rules": {"schedule": [1]}}
    assert client.post("/api/v1/matches", json=match).status_code == 202
    assert_limited(client.post("/api/v1/matches", json=match), window=3600)


def test_hints_and_ai_moves_share_a_budget_of_thinking_time(redis_url: str) -> None:
    # Requests are counted generously here: what refuses is the thinking they order.
    client = limited_app(redis_url, RATE_LIMIT_AI="1000/minute", THINK_BUDGET=10).test_client()

    def ai_move(environ: dict[str, str], milliseconds: int) -> Any:
        body = {**AI_MOVE, "milliseconds": milliseconds}
        return client.post("/api/v1/ai/move", json=body, environ_base=environ)

    # Three moves of 3.2 s each: nearly the 10 s of thinking a minute; a fourth is refused.
    assert [ai_move(ANA, 3200).status_code for _ in range(3)] == [202] * 3
    refused = ai_move(ANA, 3200)
    assert_limited(refused)
    assert "10 s of thinking a minute" in refused.json["message"]
    # The budget comes back at 10 s a minute: a fourth 3.2 s move fits within 18 s.
    assert int(refused.headers["Retry-After"]) <= 18
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    hint = f"/api/v1/games/{created['id']}/hint"
    token = bearer(tokens_of(created)[1])
    # A hint shares the budget: one that may think a second (ismcts-expert) is refused too,
    # while one of a few milliseconds (hard) still fits in what is left.
    expert = client.post(hint, json={"level": "ismcts-expert"}, headers=token, environ_base=ANA)
    assert_limited(expert)
    hard = client.post(hint, json={"level": "hard"}, headers=token, environ_base=ANA)
    assert hard.status_code == 202, hard.json
    # Another address has a budget of its own.
    assert ai_move(BRUNO, 3200).status_code == 202


def test_a_bad_think_budget_fails_at_start(redis_url: str) -> None:
    with pytest.raises(ValueError, match="POCHA_THINK_BUDGET"):
        limited_app(redis_url, THINK_BUDGET=0)


def test_forwarded_for_counts_only_behind_a_trusted_proxy(redis_url: str) -> None:
    direct = limited_app(redis_url, RATE_LIMIT_CREATE="1/minute").test_client()
    assert new_game(direct, ANA).status_code == 201
    # Without a trusted proxy a client cannot escape its count by writing the header.
    spoofed = direct.post(
        "/api/v1/games",
        json={"players": humans(3)},
        headers={"X-Forwarded-For": "192.0.2.1"},
        environ_base=ANA,
    )
    assert_limited(spoofed)

    proxied = limited_app(redis_url, RATE_LIMIT_CREATE="1/minute", TRUSTED_PROXIES=1).test_client()
    balancer = {"REMOTE_ADDR": "10.0.0.2"}

    def via_balancer(client_address: str) -> Any:
        return proxied.post(
            "/api/v1/games",
            json={"players": humans(3)},
            headers={"X-Forwarded-For": client_address},
            environ_base=balancer,
        )

    # Behind one proxy, each client behind it has its own count.
    assert via_balancer("192.0.2.10").status_code == 201
    assert via_balancer("192.0.2.11").status_code == 201
    assert_limited(via_balancer("192.0.2.10"))


@pytest.mark.parametrize("setting", ["RATE_LIMIT_MOVES", "RATE_LIMIT_CREATE"])
def test_a_bad_limit_fails_at_start(redis_url: str, setting: str) -> None:
    with pytest.raises(ValueError, match=f"POCHA_{setting}"):
        limited_app(redis_url, **{setting: "lots per minute"})


def test_redis_away_is_503_not_500(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    # A port with no Redis: the limit cannot be counted, so it is skipped, and the request
    # fails on the store with the usual 503.
    client = limited_app("redis://127.0.0.1:1/0", REDIS_CONNECT_TIMEOUT=0.2).test_client()
    response = new_game(client, ANA)
    assert response.status_code == 503
    assert response.json["error"] == "unavailable"
    # One line about the skipped limit, not a traceback per request.
    skipped = [r for r in caplog.records if r.name == "flask-limiter"]
    assert [(r.levelname, r.exc_info) for r in skipped] == [("WARNING", None)]
    assert "Redis does not answer" in skipped[0].getMessage()


def test_limits_are_off_unless_asked(redis_url: str) -> None:
    client = create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "RATE_LIMIT_CREATE": "1/minute"}
    ).test_client()
    assert [new_game(client, ANA).status_code for _ in range(3)] == [201] * 3


def test_the_limits_storage_names_our_redis_urls() -> None:
    # `pocha serve` gives a unix socket URL; the limits library spells that scheme its way.
    assert storage_uri("unix:///data/redis.sock?db=0") == "redis+unix:///data/redis.sock?db=0"
    assert storage_uri("rediss://u:p@host:6380/2") == "rediss://u:p@host:6380/2"


def test_flask_limiters_app_wide_hooks_are_off(redis_url: str) -> None:
    # A move's limits are counted by the store's scripts, and every other limit is a
    # decorated view's, checked as it is called: flask-limiter's app-wide hooks would find
    # nothing to do, so they are taken off (the limits themselves are the tests above).
    app = limited_app(redis_url)
    limiter = app.extensions[LIMITER]
    hooks = [
        *app.before_request_funcs[None],
        *app.after_request_funcs[None],
        *app.teardown_request_funcs[None],
    ]
    assert limiter._check_request_limit not in hooks
    assert not [h for h in hooks if getattr(h, "__self__", None) is limiter]
    assert not [h for h in hooks if getattr(h, "args", None) == (limiter,)]


def test_reading_records_is_limited_per_address(redis_url: str) -> None:
    # Each read of a record plays the game again, so a flood of them is refused, per address,
    # whether the game is over or not.
    client = limited_app(redis_url, RATE_LIMIT_RECORDS="2/day").test_client()
    made = new_game(client, BRUNO)
    assert made.status_code == 201, made.json
    record = f"/api/v1/games/{made.json['id']}/record"
    for _ in range(2):
        answer = client.get(record, environ_base=ANA)
        assert answer.status_code == 409, answer.json
        assert answer.json["error"] == "game_not_over"
    assert_limited(client.get(record, environ_base=ANA), window=86_400)
    assert client.get(record, environ_base=BRUNO).status_code == 409


def test_reading_a_matchs_records_is_limited_per_address(redis_url: str) -> None:
    # A match's records are read and sent whole (megabytes for a thousand games): a client
    # reading them in a loop is refused, per address, whether the match exists or not.
    client = limited_app(redis_url, RATE_LIMIT_MATCH_RECORDS="2/day").test_client()
    records = "/api/v1/matches/nosuchmatch00000/records"
    for _ in range(2):
        answer = client.get(records, environ_base=ANA)
        assert answer.status_code == 404, answer.json
        assert answer.json["error"] == "match_not_found"
    over = client.get(records, environ_base=ANA, headers={"Accept-Language": "es"})
    assert (over.status_code, over.json["error"]) == (429, "rate_limited")
    assert "registros de partidas de las series" in over.json["message"]
    assert_limited(client.get(records, environ_base=ANA), window=86_400)
    assert client.get(records, environ_base=BRUNO).status_code == 404


def test_a_bots_webhook_is_registered_or_resumed_a_limited_number_of_times(
    redis_url: str,
) -> None:
    client = limited_app(
        redis_url, RATE_LIMIT_WEBHOOKS="3/day", BOT_ALLOW_PRIVATE="on"
    ).test_client()
    made = client.post(
        "/api/v1/accounts", json={"name": "Hookbot", "kind": "bot"}, environ_base=ANA
    ).json
    owner = {"X-Pocha-Account": made["key"]}
    path = f"/api/v1/accounts/{made['id']}/webhook"
    # Requests without the owner's key are refused and count for nothing.
    for _ in range(5):
        assert client.post(f"{path}/resume", headers={"X-Pocha-Account": "no"}).status_code == 401
    registered = client.put(path, json={"url": "http://127.0.0.1:9/move"}, headers=owner)
    assert registered.status_code == 200, registered.json
    for _ in range(2):
        assert client.post(f"{path}/resume", headers=owner).status_code == 200
    refused = client.post(f"{path}/resume", headers=owner)
    assert_limited(refused, window=86_400)
    assert "registered or resumed too often" in refused.json["message"]
    assert_limited(
        client.put(path, json={"url": "http://127.0.0.1:9/move"}, headers=owner), window=86_400
    )
    # Per bot account: another bot's count is its own.
    other = client.post(
        "/api/v1/accounts", json={"name": "Otherbot", "kind": "bot"}, environ_base=BRUNO
    ).json
    again = client.put(
        f"/api/v1/accounts/{other['id']}/webhook", json={"url": "http://127.0.0.1:9/move"},
        headers={"X-Pocha-Account": other["key"]},
    )  # fmt: skip
    assert again.status_code == 200, again.json


@pytest.mark.parametrize("proxies", [0, 1])
def test_an_ipv6_subscribers_network_is_one_client(redis_url: str, proxies: int) -> None:
    # A subscriber picks any address of its /64 at will: every address in it is one client
    # to the limits, directly or behind a trusted proxy; an IPv4-mapped address is its IPv4.
    client = limited_app(
        redis_url, RATE_LIMIT_ACCOUNTS="1/day", TRUSTED_PROXIES=proxies
    ).test_client()
    names = iter(f"Ana{letter}" for letter in "bcdefg")

    def sign_up_from(address: str) -> int:
        seen = {"environ_base": {"REMOTE_ADDR": address}}
        if proxies:
            seen = {"headers": {"X-Forwarded-For": address},
                    "environ_base": {"REMOTE_ADDR": "10.0.0.2"}}  # fmt: skip
        body = {"name": next(names), "kind": "person"}
        return int(client.post("/api/v1/accounts", json=body, **seen).status_code)  # type: ignore[arg-type]

    assert sign_up_from("2001:db8:1:2::a") == 201
    assert sign_up_from("2001:db8:1:2:ffff:ffff:ffff:fffe") == 429
    assert sign_up_from("2001:db8:1:3::a") == 201
    assert sign_up_from("::ffff:203.0.113.9") == 201
    assert sign_up_from("203.0.113.9") == 429


def test_a_refused_webhook_url_counts_against_the_bots_limit(redis_url: str) -> None:
    # Each URL is looked up in the DNS before it is refused: an owner sending names that do
    # not resolve is stopped as one registering too often.
    client = limited_app(redis_url, RATE_LIMIT_WEBHOOKS="3/day").test_client()
    made = client.post(
        "/api/v1/accounts", json={"name": "Hookbot", "kind": "bot"}, environ_base=ANA
    ).json
    owner = {"X-Pocha-Account": made["key"]}
    path = f"/api/v1/accounts/{made['id']}/webhook"
    for name in ("a", "b", "c"):
        refused = client.put(path, json={"url": f"http://{name}.invalid/move"}, headers=owner)
        assert (refused.status_code, refused.json["error"]) == (422, "webhook_refused")
    assert_limited(
        client.put(path, json={"url": "http://d.invalid/move"}, headers=owner), window=86_400
    )


def test_reading_an_accounts_games_in_play_is_limited_per_address(redis_url: str) -> None:
    client = limited_app(redis_url, RATE_LIMIT_ACCOUNT_GAMES="3/day").test_client()
    made = client.post("/api/v1/accounts", json={"name": "Ana", "kind": "person"})
    assert made.status_code == 201, made.json
    path = f"/api/v1/accounts/{made.json['id']}/games"
    key = {"X-Pocha-Account": made.json["key"]}
    for _ in range(3):
        assert client.get(path, headers=key, environ_base=ANA).status_code == 200
    assert_limited(client.get(path, headers=key, environ_base=ANA), window=86_400)
    # A wrong key counts too: the reads cost the same.
    wrong = {"X-Pocha-Account": "pa_" + "x" * 40}
    assert_limited(client.get(path, headers=wrong, environ_base=ANA), window=86_400)
    assert client.get(path, headers=key, environ_base=BRUNO).status_code == 200


def test_reading_the_account_of_a_key_is_limited_per_address(redis_url: str) -> None:
    client = limited_app(redis_url, RATE_LIMIT_OWN_ACCOUNT="3/day").test_client()
    made = client.post("/api/v1/accounts", json={"name": "Ana", "kind": "person"})
    assert made.status_code == 201, made.json
    key = {"X-Pocha-Account": made.json["key"]}
    for _ in range(3):
        assert client.get("/api/v1/account", headers=key, environ_base=ANA).status_code == 200
    refused = client.get("/api/v1/account", headers=key, environ_base=ANA)
    assert_limited(refused, window=86_400)
    assert "reading the account of a key" in refused.json["message"]
    # A wrong key counts too: no address tries keys faster than the limit.
    wrong = {"X-Pocha-Account": "pa_" + "x" * 40, "Accept-Language": "es"}
    spanish = client.get("/api/v1/account", headers=wrong, environ_base=ANA)
    assert (spanish.status_code, spanish.json["error"]) == (429, "rate_limited")
    assert "leer la cuenta de una clave" in spanish.json["message"]
    assert client.get("/api/v1/account", headers=key, environ_base=BRUNO).status_code == 200


def test_a_refusal_says_its_limit_in_the_language_asked_for(redis_url: str) -> None:
    # The limits library words a limit in English ("2 per 1 day"): a Spanish refusal said
    # "como mucho 2 per 1 day". Both ways a limit refuses: flask-limiter's (the lobby) and
    # the moves' counters.
    client = limited_app(redis_url, RATE_LIMIT_LOBBY="2/day", RATE_LIMIT_MOVES="1/day")
    client = client.test_client()
    for _ in range(2):
        assert client.get("/api/v1/tables", environ_base=ANA).status_code == 200
    english = client.get("/api/v1/tables", environ_base=ANA, headers={"Accept-Language": "en"})
    spanish = client.get("/api/v1/tables", environ_base=ANA, headers={"Accept-Language": "es"})
    assert "(at most 2 a day)" in english.json["message"], english.json
    assert "(como mucho 2 al día)" in spanish.json["message"], spanish.json
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    token = tokens_of(created)[1]
    move(client, created["id"], token, 0)
    refused = client.post(
        f"/api/v1/games/{created['id']}/bids",
        json={"bid": 0},
        headers={**bearer(token), "Accept-Language": "es"},
    )
    assert refused.status_code == 429, refused.json
    assert "(como mucho 1 al día)" in refused.json["message"], refused.json
    assert "per" not in refused.json["message"]


@pytest.mark.parametrize(
    ("limit", "english", "spanish"),
    [
        ("30/minute", "30 a minute", "30 por minuto"),
        ("300 per 1 hour", "300 an hour", "300 por hora"),
        ("5 per 2 hours", "5 every 2 hours", "5 cada 2 horas"),
        ("10/second", "10 a second", "10 por segundo"),
    ],
)
def test_a_limit_in_words(limit: str, english: str, spanish: str) -> None:
    spoken = spoken_limit(limit)
    assert spoken == english
    assert translate(spoken, "es") == spanish


def test_reading_ones_challenges_is_limited_per_address(redis_url: str) -> None:
    """`GET /api/v1/challenges` reads every challenge remembered (some hundreds): read in
    a loop, with a key or wrong keys, it is refused past its limit; making a challenge
    keeps its own count."""
    client = limited_app(redis_url, RATE_LIMIT_CHALLENGE_READS="3/day").test_client()
    made = client.post("/api/v1/accounts", json={"name": "Ana", "kind": "bot"})
    robo = client.post("/api/v1/accounts", json={"name": "Robo", "kind": "bot"})
    assert made.status_code == robo.status_code == 201
    key = {"X-Pocha-Account": made.json["key"]}
    for _ in range(2):
        assert client.get("/api/v1/challenges", headers=key, environ_base=ANA).status_code == 200
    wrong = {"X-Pocha-Account": "pa_" + "x" * 40}
    assert client.get("/api/v1/challenges", headers=wrong, environ_base=ANA).status_code == 401
    refused = client.get("/api/v1/challenges", headers=key, environ_base=ANA)
    assert_limited(refused, window=86_400)
    assert "reading your challenges" in refused.json["message"]
    spanish = client.get(
        "/api/v1/challenges", headers={**key, "Accept-Language": "es"}, environ_base=ANA
    )
    assert (spanish.status_code, spanish.json["error"]) == (429, "rate_limited")
    assert spanish.json["message"] != refused.json["message"]
    asked = {
        "rules": {"schedule": [1]},
        "opponents": [{"account": robo.json["id"]}, {"bot": "easy"}],
    }
    posted = client.post("/api/v1/challenges", json=asked, headers=key, environ_base=ANA)
    assert posted.status_code == 201, posted.json
    assert client.get("/api/v1/challenges", headers=key, environ_base=BRUNO).status_code == 200


def test_opening_an_accounts_event_stream_is_limited_per_address(redis_url: str) -> None:
    """Each stream opened first reads the account's games and challenges: opened and
    dropped in a loop, it is refused past its limit (wrong keys counted too)."""
    client = limited_app(redis_url, RATE_LIMIT_BOT_STREAMS="2/day", SSE_MAX_SECONDS=1).test_client()
    made = client.post("/api/v1/accounts", json={"name": "Ana", "kind": "bot"})
    assert made.status_code == 201
    stream = {"Accept": "text/event-stream", "X-Pocha-Account": made.json["key"]}
    opened = client.get("/api/v1/bot/events", headers=stream, environ_base=ANA, buffered=False)
    assert opened.status_code == 200
    opened.close()
    wrong = {**stream, "X-Pocha-Account": "pa_" + "x" * 40}
    assert client.get("/api/v1/bot/events", headers=wrong, environ_base=ANA).status_code == 401
    refused = client.get("/api/v1/bot/events", headers=stream, environ_base=ANA)
    assert_limited(refused, window=86_400)
    assert "opening an account's event stream" in refused.json["message"]
    spanish = client.get(
        "/api/v1/bot/events", headers={**stream, "Accept-Language": "es"}, environ_base=ANA
    )
    assert (spanish.status_code, spanish.json["error"]) == (429, "rate_limited")
    assert "abrir el flujo de eventos de una cuenta" in spanish.json["message"]
    other = client.get("/api/v1/bot/events", headers=stream, environ_base=BRUNO, buffered=False)
    assert other.status_code == 200
    other.close()
