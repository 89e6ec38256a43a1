"""The thinking of a game's bots is paid for by whoever made the game: with the rate limits
on, its bots and its stand-in spend the maker's think budget (the one that hints and AI
moves spend), a challenge's game its challenger's, and a webhook bot's calls spend it by
their wall time; the fallback level (the stand-in, for a webhook's seat) plays once it is
spent, and the levels that think longest are refused in games of people. One hint or AI move
never orders more thinking than the budget gives in a minute: it would be let in as a burst
each time the budget drained."""

from __future__ import annotations

import time
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from core.jobs.admission import WINDOW, ThinkPurse
from core.jobs.queues import HIGH
from core.jobs.status import work_status
from core.store.keys import think_key, think_limit_key
from core.store.records import client_hash
from service import create_app
from tests.service.helpers import AI_POSITION, bearer, create_game, humans, move, tokens_of
from tests.worker.conftest import Drain, wait_until
from tests.worker.webhook_server import WebhookBot, webhook_bot

ANA = {"REMOTE_ADDR": "203.0.113.7"}
MASTERS = [{"name": f"Master {i}", "bot": "master"} for i in (1, 2, 3)]


@pytest.fixture
def app(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> Flask:
    # The webhooks of the tests' bots are on loopback.
    monkeypatch.setenv("POCHA_BOT_ALLOW_PRIVATE", "1")
    return create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "rq", "RATE_LIMITS": "on"}
    )


def decisions(connection: redis.Redis, level: str) -> int:
    return int(connection.hget(think_key("turn", level), "count") or 0)


def new_game(client: FlaskClient, **extra: Any) -> Any:
    return client.post(
        "/api/v1/games",
        json={
            "players": [{"name": "Ana"}, *MASTERS],
            "rules": {"schedule": [3]},
            "seed": 1,
            **extra,
        },
        environ_base=ANA,
    )


#: Seconds of thinking that leave a budget of 30 s a minute spent for 19 minutes (it drains
#: 20 minutes on), however slowly a busy machine gets through a test: 31 s would leave it
#: spent for 2 s only.
SPENT = 600


def test_a_games_bots_spend_its_makers_think_budget(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    before = time.time()
    made = new_game(client)
    assert made.status_code == 201, made.json
    drain()  # seed 1: seat 0 deals, so the three masters bid before Ana
    assert decisions(connection, "master") == 3
    cell = connection.get(think_limit_key(client_hash(ANA["REMOTE_ADDR"])))
    # Some of the minute is spent: the cell drains after the moment of the spending, which
    # came after `before` (compared with then, not now: a busy machine may take longer
    # than the few milliseconds spent to get here).
    assert cell is not None and float(cell) > before


def test_once_the_budget_is_spent_the_fallback_level_plays(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    payer = client_hash(ANA["REMOTE_ADDR"])
    ThinkPurse(connection, budget=30).spend(payer, SPENT)
    assert not ThinkPurse(connection, budget=30).may_think(payer)
    made = new_game(client)
    assert made.status_code == 201, made.json
    drain()
    view = client.get(f"/api/v1/games/{made.json['id']}").json
    assert view["turn"] == 0  # the game goes on: the bots have played up to Ana
    assert decisions(connection, "master") == 0
    assert decisions(connection, "heuristic") == 3
    # Another address's game is not affected.
    other = client.post(
        "/api/v1/games",
        json={"players": [{"name": "Bea"}, *MASTERS], "rules": {"schedule": [3]}, "seed": 1},
        environ_base={"REMOTE_ADDR": "198.51.100.9"},
    )
    assert other.status_code == 201
    drain()
    assert decisions(connection, "master") == 3


def test_the_budget_comes_back_with_time(connection: redis.Redis) -> None:
    purse = ThinkPurse(connection, budget=30)
    now = time.time()
    purse.spend("someone", 31, now=now)
    assert not purse.may_think("someone", now=now)
    # 31 s of thinking at 30 s a minute drains 62 s after `now`: 2 s later it may again.
    assert purse.may_think("someone", now=now + 62 - WINDOW + 0.01)


def test_games_of_people_take_no_level_that_thinks_longer_than_a_public_game_may(
    client: FlaskClient,
) -> None:
    heavy = client.post(
        "/api/v1/games",
        json={"players": [{"name": "Ana"}, *[{"name": "X", "bot": "ismcts-expert"}] * 3]},
        environ_base=ANA,
        headers={"Accept-Language": "es"},
    )
    assert heavy.status_code == 422, heavy.json
    assert heavy.json["error"] == "validation_error"
    assert set(heavy.json["errors"]["json"]["players"]) == {"1", "2", "3"}
    assert heavy.json["message"].startswith("El nivel ismcts-expert")
    stand_in = client.post(
        "/api/v1/games",
        json={
            "players": [{"name": "Ana"}, {"name": "Bea"}, {"name": "Cruz"}],
            "rules": {"turn_seconds": 1},
            "stand_in_level": "ismcts-expert",
        },
        environ_base=ANA,
    )
    assert stand_in.status_code == 422
    assert "stand_in_level" in stand_in.json["errors"]["json"]
    assert new_game(client).status_code == 201  # master thinks at most 150 ms a decision


def test_a_challenges_game_spends_its_challengers_think_budget(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    # Without a payer, a challenge's game would think for free: an address that has spent
    # its budget could go on ordering games of searching bots, one challenge to an account
    # of its own after another, and never be held to the fallback level.
    bea_address = {"REMOTE_ADDR": "198.51.100.9"}
    ana = client.post("/api/v1/accounts", json={"name": "Ana", "kind": "person"},
                      environ_base=ANA).json  # fmt: skip
    bea = client.post("/api/v1/accounts", json={"name": "Bea", "kind": "person"},
                      environ_base=bea_address).json  # fmt: skip
    ThinkPurse(connection, budget=30).spend(client_hash(ANA["REMOTE_ADDR"]), SPENT)
    made = client.post(
        "/api/v1/challenges",
        json={"game": "pocha", "rules": {"schedule": [3]},
              "opponents": [{"account": bea["id"]}, {"bot": "master"}, {"bot": "master"}]},
        headers={"X-Pocha-Account": ana["key"]}, environ_base=ANA,
    )  # fmt: skip
    assert made.status_code == 201, made.json
    accepted = client.post(
        f"/api/v1/challenges/{made.json['id']}/accept",
        headers={"X-Pocha-Account": bea["key"]},
        environ_base=bea_address,
    )
    assert accepted.status_code == 200, accepted.json
    game_id = accepted.json["game_id"]
    keys = {0: ana["key"], 1: bea["key"]}
    # Ana and Bea play their turns until the two masters have each decided once.
    while decisions(connection, "master") + decisions(connection, "heuristic") < 2:
        drain()
        view = client.get(f"/api/v1/games/{game_id}").json
        assert view["turn"] is not None, view  # not over before the masters decided
        if view["turn"] in keys:
            key = keys[view["turn"]]
            mine = client.get(f"/api/v1/games/{game_id}", headers=bearer(key)).json
            played = move(client, game_id, key, mine["you"]["legal"][0])
            assert played.status_code == 200, played.json
    assert decisions(connection, "master") == 0
    assert decisions(connection, "heuristic") >= 2


OWNER = {"REMOTE_ADDR": "198.51.100.10"}


def _hooked_challenge(client: FlaskClient, bot: WebhookBot) -> tuple[str, str, dict[str, Any]]:
    """Ana (at ANA) challenges a webhook bot account (made at OWNER), which accepts: the
    game's id, Ana's key and the bot's account. The bot's seat is 1, after Ana's."""
    ana = client.post("/api/v1/accounts", json={"name": "Ana", "kind": "person"},
                      environ_base=ANA).json  # fmt: skip
    hooky = client.post("/api/v1/accounts", json={"name": "Hooky", "kind": "bot"},
                        environ_base=OWNER).json  # fmt: skip
    hooked = client.put(
        f"/api/v1/accounts/{hooky['id']}/webhook", json={"url": bot.url},
        headers={"X-Pocha-Account": hooky["key"]}, environ_base=OWNER,
    )  # fmt: skip
    assert hooked.status_code == 200, hooked.json
    bot.secret = hooked.json["secret"]
    made = client.post(
        "/api/v1/challenges",
        json={"game": "pocha", "rules": {"schedule": [3]},
              "opponents": [{"account": hooky["id"]}, {"bot": "random"}]},
        headers={"X-Pocha-Account": ana["key"]}, environ_base=ANA,
    )  # fmt: skip
    assert made.status_code == 201, made.json
    accepted = client.post(
        f"/api/v1/challenges/{made.json['id']}/accept",
        headers={"X-Pocha-Account": hooky["key"]},
        environ_base=OWNER,
    )
    assert accepted.status_code == 200, accepted.json
    return accepted.json["game_id"], ana["key"], hooky


def _bot_seat_moves(client: FlaskClient, game_id: str, ana_key: str, drain: Drain) -> list[Any]:
    """Play Ana's turns until the bot's seat (1) has moved: its moves' events."""
    while True:
        drain()
        events = client.get(f"/api/v1/games/{game_id}/events?after=0").json
        moved = [e for e in events if e.get("seat") == 1 and e["type"] in ("bid", "card_played")]
        if moved:
            return moved
        view = client.get(f"/api/v1/games/{game_id}", headers=bearer(ana_key)).json
        assert view["turn"] == 0, view  # the bots have played up to Ana
        assert move(client, game_id, ana_key, view["you"]["legal"][0]).status_code == 200


def test_a_webhooks_calls_spend_the_games_payers_think_budget(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    # A webhook's call holds a worker of the turns' long lane as long as the bot takes to
    # answer, up to its deadline: that time is thinking the game ordered, as its levels' is.
    with webhook_bot() as bot:
        game_id, ana_key, _hooky = _hooked_challenge(client, bot)
        began = time.time()
        moved = _bot_seat_moves(client, game_id, ana_key, drain)
        assert len(bot.calls) == len(moved) and all("by" not in e for e in moved)
    # The cell's time moved past `began` by the calls' wall time (at 30 s a minute, twice it).
    cell = connection.get(think_limit_key(client_hash(ANA["REMOTE_ADDR"])))
    assert cell is not None and float(cell) > began


def test_once_the_payers_budget_is_spent_the_stand_in_plays_a_webhooks_seat(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    # Without this, one address could keep every general worker waiting on a webhook of its
    # own that answers just within its deadline, in game after game, for free.
    with webhook_bot() as bot:
        game_id, ana_key, hooky = _hooked_challenge(client, bot)
        ThinkPurse(connection, budget=30).spend(client_hash(ANA["REMOTE_ADDR"]), SPENT)
        moved = _bot_seat_moves(client, game_id, ana_key, drain)
        assert bot.calls == []
        assert all(e.get("by") == "stand_in" for e in moved), moved
    # Not the bot's failure: nothing is counted against its webhook.
    hook = client.get(f"/api/v1/accounts/{hooky['id']}/webhook",
                      headers={"X-Pocha-Account": hooky["key"]}).json  # fmt: skip
    assert (hook["failures"], hook["paused"]) == (0, False), hook


def test_no_request_orders_more_thinking_than_its_budget_gives_in_a_minute(
    redis_url: str, connection: redis.Redis, drain: Drain
) -> None:
    # A budget of 2 s a minute, so that the request that takes all of it thinks 2 s only.
    client = create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "rq", "RATE_LIMITS": "on",
         "THINK_BUDGET": 2}
    ).test_client()  # fmt: skip
    cell = think_limit_key(client_hash(ANA["REMOTE_ADDR"]))

    def ai_move(milliseconds: int, language: str = "en") -> Any:
        return client.post(
            "/api/v1/ai/move",
            json={**AI_POSITION, "milliseconds": milliseconds},
            environ_base=ANA,
            headers={"Accept-Language": language},
        )

    # 2 s of thinking and a job's 0.02 s, over the 2 s a minute: refused for good, not
    # "try again", in the caller's language, and nothing is spent or queued.
    english, spanish = ai_move(2000), ai_move(2000, "es")
    for refused in (english, spanish):
        assert refused.status_code == 422, refused.json
        assert refused.json["error"] == "over_think_budget"
        assert "Retry-After" not in refused.headers
    assert "may take 2.02 s of thinking" in english.json["message"]
    assert "(2 s)" in english.json["message"]
    assert "puede llevar 2.02 s de reflexión" in spanish.json["message"], spanish.json
    assert connection.get(cell) is None
    assert work_status(connection).queued[HIGH] == 0
    # A hint of a search budget far over it (100,000 iterations: 50 s on a slow machine),
    # too: the burst that let one address hold a worker 50 s of every 100.
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    hint = client.post(
        f"/api/v1/games/{created['id']}/hint",
        json={"iterations": 100_000},
        headers=bearer(tokens_of(created)[1]),
        environ_base=ANA,
    )
    assert (hint.status_code, hint.json["error"]) == (422, "over_think_budget"), hint.json
    assert connection.get(cell) is None
    # What fits the budget is let in as before, the whole minute's budget at once, and a
    # worker answers it.
    whole = ai_move(1980)
    assert whole.status_code == 202, whole.json
    # With the budget spent, a request that fits it waits for it to come back (unless 57 s
    # went by since); one over it is still refused for good.
    assert ai_move(1900).status_code == 429
    assert ai_move(2000).status_code == 422
    drain()
    wait_until(
        lambda: client.get(whole.json["url"]).json["status"] == "finished", 30, "the AI move"
    )
