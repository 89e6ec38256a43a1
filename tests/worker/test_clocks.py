"""People's clocks with real `pocha worker` processes: a turn that runs out is played by the
stand-in, two in a row make the seat away, and no timeout is lost to a killed worker or a
restarted Redis (the timer is written with the change that starts the clock)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient
from rq import Worker

from core.jobs.queues import QUEUES, queue
from core.jobs.tasks import sweep
from core.play.turns import clock_key, turn_key
from core.store.keys import task_key
from core.store.redises import redises_of
from service import create_app
from tests.service.helpers import bearer
from tests.waiting import LONG, scaled
from tests.worker.conftest import WorkerProcesses, wait_until
from tools.embedded_redis import RedisServer, free_port

PEOPLE_AND_A_BOT = [{"name": "Ana"}, {"name": "Eva"}, {"name": "Bot", "bot": "random"}]


#: A seed whose first dealer is the bot: Ana bids first, so her clock starts with the game.
PERSON_FIRST = 0


def create(
    client: FlaskClient, seconds: int, schedule: list[int], seed: int | None = None
) -> dict[str, Any]:
    response = client.post(
        "/api/v1/games",
        json={
            "players": PEOPLE_AND_A_BOT,
            "rules": {"schedule": schedule, "turn_seconds": seconds, "tiebreak": False},
            "stand_in_level": "heuristic",
            **({} if seed is None else {"seed": seed}),
        },
    )
    assert response.status_code == 201, response.json
    created: dict[str, Any] = response.json
    return created


def events(client: FlaskClient, game_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = client.get(f"/api/v1/games/{game_id}/events").json
    return found


def stand_in_moves(client: FlaskClient, game_id: str) -> list[dict[str, Any]]:
    return [e for e in events(client, game_id) if e.get("by") == "stand_in"]


def test_the_stand_in_plays_a_turn_that_runs_out_and_two_make_the_seat_away(
    client: FlaskClient, workers: WorkerProcesses, connection: redis.Redis
) -> None:
    workers.start()
    created = create(client, 1, [2, 2])
    game_id = created["id"]
    ana, eva = (s["token"] for s in created["seats"][:2])
    # Nobody moves: every person's turn runs out; after two each, both are away.
    wait_until(
        lambda: all(p["away"] for p in client.get(f"/api/v1/games/{game_id}").json["players"][:2]),
        LONG,
        "both people to be away",
    )
    log = events(client, game_id)
    aways = [e["seat"] for e in log if e["type"] == "seat_away"]
    assert sorted(aways) == [0, 1]
    for seat in (0, 1):
        own = [e for e in log if e.get("seat") == seat and e["type"] in ("bid", "card_played")]
        assert own and all(e.get("by") == "stand_in" for e in own)
        away_at = next(e["seq"] for e in log if e["type"] == "seat_away" and e["seat"] == seat)
        assert sum(1 for e in own if e["seq"] < away_at) == 2  # two turns ran out first
    # With nobody left to play for, the game waits: no clock runs, no turn is owed.
    final = client.get(f"/api/v1/games/{game_id}", headers=bearer(ana)).json
    assert final["players"][0]["away"] and final["players"][0]["stand_in"] == "heuristic"
    assert final["deadline"] is None and final["phase"] != "finished"
    version = final["version"]
    for key in (turn_key(game_id, version), clock_key(game_id, version)):
        assert not connection.exists(task_key(key)), key
    # Eva comes back: the game goes on.
    back = client.post(f"/api/v1/games/{game_id}/seats/1/return", headers=bearer(eva))
    assert back.status_code == 200 and not back.json["players"][1]["away"]
    wait_until(
        lambda: client.get(f"/api/v1/games/{game_id}").json["version"] > version,
        LONG,
        "the game to go on",
    )


def test_a_person_who_comes_back_plays_on_with_the_clock(
    client: FlaskClient, workers: WorkerProcesses
) -> None:
    workers.start()
    created = create(client, 1, [3, 3, 3])
    game_id = created["id"]
    tokens = {0: created["seats"][0]["token"], 1: created["seats"][1]["token"]}
    wait_until(
        lambda: all(p["away"] for p in client.get(f"/api/v1/games/{game_id}").json["players"][:2]),
        LONG,
        "both people to be away",
    )
    # Seat 0 comes back: a person again, on its turn the clock runs for it and its move is
    # its own. Its clock is a second: a loaded machine may take longer to move, and the
    # stand-in then plays that turn (two such make it away again, and it comes back again);
    # it moves on a later turn.
    deadline = time.monotonic() + scaled(LONG)
    while True:
        assert time.monotonic() < deadline, "seat 0 never made a move of its own"
        seen = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[0])).json
        if seen["phase"] == "finished":
            return
        if seen["players"][0]["away"]:
            back = client.post(f"/api/v1/games/{game_id}/seats/0/return", headers=bearer(tokens[0]))
            assert back.status_code == 200, back.json
            continue
        if seen["turn"] != 0:
            time.sleep(0.02)
            continue
        assert seen["deadline"] is not None
        legal = seen["you"]["legal"][0]
        kind = "bids" if seen["phase"] == "bidding" else "plays"
        body = {"bid": legal} if kind == "bids" else {"card": legal}
        # At the version seen: a move the stand-in was first to is refused as stale.
        at = {**bearer(tokens[0]), "If-Match": f'"{seen["version"]}"'}
        moved = client.post(f"/api/v1/games/{game_id}/{kind}", json=body, headers=at)
        if moved.status_code == 200:
            break
        assert moved.status_code == 412, moved.json
    # The move it made is its own (no stand-in's mark).
    made = [
        e for e in events(client, game_id)
        if e.get("seat") == 0 and e["type"] in ("bid", "card_played")
        and e["version"] == moved.json["version"]
    ]  # fmt: skip
    assert len(made) == 1 and "by" not in made[0], made


def test_a_timeout_survives_a_killed_worker(
    client: FlaskClient, connection: redis.Redis, workers: WorkerProcesses
) -> None:
    doomed = workers.start()
    queues = redises_of(connection).queues
    wait_until(lambda: bool(Worker.all(connection=queues)), LONG, "the worker to start")
    # A person moves first, so the clock starts with the game. The worker is stopped
    # before it, then killed: it can play nothing of the game, however long the test
    # takes to get to the kill.
    os.kill(doomed.pid, signal.SIGSTOP)
    created = create(client, 5, [2, 2], seed=PERSON_FIRST)
    workers.kill_with_horse(doomed)
    game_id = created["id"]
    deadline = client.get(f"/api/v1/games/{game_id}").json["deadline"]
    assert deadline is not None
    wait_until(lambda: time.time() > deadline + 1, LONG, "the clock's deadline to pass")
    assert not stand_in_moves(client, game_id)  # nobody was there to play it
    workers.start()
    wait_until(lambda: bool(stand_in_moves(client, game_id)), LONG, "the stand-in's move")


def test_a_timeout_survives_a_redis_restart(tmp_path: Path, workers: WorkerProcesses) -> None:
    server = RedisServer(tmp_path / "redis", port=free_port(), appendonly=True)
    server.start(timeout=scaled(LONG))
    try:
        app: Flask = create_app({"REDIS_URL": server.url, "TESTING": True, "BOT_RUNNER": "rq"})
        client = app.test_client()
        workers.redis_url = server.url
        workers.start()  # it reconnects after the restart
        connection = redis.Redis.from_url(server.url)
        wait_until(lambda: bool(Worker.all(connection=connection)), LONG, "the worker to start")
        # A person moves first, so the clock starts with the game, and Redis stops at once:
        # the clock's seconds are all left for a loaded machine to get there.
        created = create(client, 5, [2, 2], seed=PERSON_FIRST)
        game_id = created["id"]
        deadline = client.get(f"/api/v1/games/{game_id}").json["deadline"]
        assert deadline is not None
        server.stop(timeout=scaled(LONG))  # SIGTERM: the append-only file is synced
        wait_until(lambda: time.time() > deadline + 1, LONG, "the clock's deadline to pass")
        server.start(timeout=scaled(LONG))
        wait_until(lambda: bool(stand_in_moves(client, game_id)), LONG, "the stand-in's move")
    finally:
        server.stop()


def test_a_clock_the_person_beat_ends_without_a_job(
    client: FlaskClient, connection: redis.Redis, drain: Any
) -> None:
    created = client.post(
        "/api/v1/games",
        json={"players": [{"name": "Ana"}, {"name": "Eva"}, {"name": "Ola"}],
              "rules": {"schedule": [2], "turn_seconds": 30}},
    ).json  # fmt: skip
    game_id = created["id"]
    seen = client.get(f"/api/v1/games/{game_id}").json
    version, turn = seen["version"], seen["turn"]
    token = created["seats"][turn]["token"]
    legal = client.get(f"/api/v1/games/{game_id}", headers=bearer(token)).json["you"]["legal"]
    moved = client.post(f"/api/v1/games/{game_id}/bids", json={"bid": legal[0]},
                        headers=bearer(token))  # fmt: skip
    assert moved.status_code == 200
    # Due now, before the next person's clock (started with the move, later) is.
    report = sweep(connection, now=seen["deadline"])
    assert clock_key(game_id, version) in report.fired
    assert not connection.exists(task_key(clock_key(game_id, version)))
    waiting = {name: queue(connection, name).job_ids for name in QUEUES}
    assert not any(waiting.values()), waiting  # no job at all
    # The clock of the next person runs, and is still owed.
    assert connection.exists(task_key(clock_key(game_id, version + 1)))
