"""The watchdog: unfinished work whose job is missing, failed, or started by a worker that
stopped beating is queued again; queued and live work is left alone; a task that keeps
losing its workers gives up (a match game is then counted as failed)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import redis
from flask.testing import FlaskClient
from rq.job import Job
from rq.utils import utcformat

from core.keys import SWEEP_LOCK, TASKS_DUE
from core.queues import HIGH, SERIALIZER, Timing, queue
from core.tasks import MAX_RECOVERIES, SweepReport, current_job_id, sweep, turn_key
from core.turns import store_for
from tests.service.helpers import create_game
from tests.worker.conftest import Drain

TIMING = Timing(stale=10, check=3, queued_check=30)
LATER = 60.0  # seconds: every task's check time has passed by then


def sweep_at(connection: redis.Redis, now: float | None = None) -> SweepReport:
    """A sweep as if at `now`, by a worker whose turn it is (the lock is free)."""
    connection.delete(SWEEP_LOCK)
    return sweep(connection, TIMING, now=now)


def bot_game(client: FlaskClient) -> tuple[str, int]:
    players = [{"name": f"B{i}", "bot": "heuristic"} for i in range(4)]
    created = create_game(client, players, {"schedule": [1]}, seed=4)
    return created["id"], created["version"]


def take_from_queue(connection: redis.Redis, job_id: str, started_ago: float) -> None:
    """As if a worker took the job and started it `started_ago` seconds ago (and has not
    written a heartbeat since)."""
    queue(connection, HIGH).remove(job_id)
    moment = utcformat(datetime.now(UTC) - timedelta(seconds=started_ago))
    connection.hset(
        Job.key_for(job_id),
        mapping={"status": "started", "started_at": moment, "last_heartbeat": moment},
    )


def test_a_turn_whose_job_is_lost_is_queued_again(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    game_id, version = bot_game(client)
    first = current_job_id(connection, turn_key(game_id, version))
    assert first == f"pocha-turn-{game_id}-{version}"
    Job.fetch(first, connection=connection, serializer=SERIALIZER).delete()
    assert sweep_at(connection).recovered == []  # not due yet
    report = sweep_at(connection, time.time() + LATER)
    assert report.recovered == [turn_key(game_id, version)]
    assert current_job_id(connection, turn_key(game_id, version)) == f"{first}-2"
    drain()
    assert store_for(connection).load(game_id).finished
    assert connection.zcard(TASKS_DUE) == 0


def test_a_turn_whose_worker_died_is_queued_again_and_a_live_one_is_not(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    game_id, version = bot_game(client)
    key = turn_key(game_id, version)
    job_id = current_job_id(connection, key)
    assert job_id is not None
    take_from_queue(connection, job_id, started_ago=1)
    # Its heartbeat is fresh: a worker is thinking; look again in `check` seconds.
    now = time.time() + 5
    assert sweep_at(connection, now).recovered == []
    assert connection.zscore(TASKS_DUE, key) == now + TIMING.check
    # No heartbeat for longer than `stale`: its worker is gone.
    report = sweep_at(connection, time.time() + TIMING.stale + 5)
    assert report.recovered == [key]
    drain()
    assert store_for(connection).load(game_id).finished


def test_queued_work_is_left_in_its_queue(client: FlaskClient, connection: redis.Redis) -> None:
    game_id, version = bot_game(client)
    now = time.time() + LATER
    report = sweep_at(connection, now)
    assert report.looked_at == 1 and report.recovered == []
    assert connection.zscore(TASKS_DUE, turn_key(game_id, version)) == now + TIMING.queued_check
    assert queue(connection, HIGH).count == 1


def test_one_sweeper_at_a_time(client: FlaskClient, connection: redis.Redis) -> None:
    bot_game(client)
    assert sweep_at(connection, time.time() + LATER).looked_at == 1
    # Another worker sweeping within the same `sweep` seconds finds the lock taken.
    assert sweep(connection, TIMING, now=time.time() + 2 * LATER).looked_at == 0


def test_a_match_game_that_keeps_losing_its_workers_is_counted_failed(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    response = client.post(
        "/api/v1/matches",
        json={"seats": ["heuristic"] * 3, "games": 2, "rules": {"schedule": [1]}, "seed": 1},
    )
    assert response.status_code == 202, response.json
    match = response.json
    key = f"match:{match['id']}:0"
    for attempt in range(MAX_RECOVERIES + 1):
        job_id = current_job_id(connection, key)
        assert job_id is not None
        take_from_queue(connection, job_id, started_ago=100)
        report = sweep_at(connection, time.time() + LATER)
        if attempt < MAX_RECOVERIES:
            assert report.recovered == [key]
        else:
            assert report.given_up == [key]
    assert current_job_id(connection, key) is None
    drain()  # game 1 is played as usual
    done = client.get(match["url"]).json
    assert (done["status"], done["done"], done["failed"]) == ("finished", 1, 1)
    lines = client.get(match["records_url"]).get_data(as_text=True).splitlines()
    assert len(lines) == 1


def test_a_turn_that_keeps_failing_is_retried_then_recovered(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    game_id, version = bot_game(client)
    key = turn_key(game_id, version)
    # The stored game is unreadable for a while (a bad deploy, a corrupt write).
    game_hash = f"pocha:game:{game_id}"
    state = connection.hget(game_hash, "state")
    assert state is not None
    connection.hset(game_hash, "state", b"{}")
    drain()
    job = Job.fetch(f"pocha-turn-{game_id}-{version}", connection=connection, serializer=SERIALIZER)
    assert job.get_status() == "failed"
    assert job.retries_left == 0  # RQ tried it three times
    assert current_job_id(connection, key) == job.id  # still pending
    connection.hset(game_hash, "state", state)
    assert sweep_at(connection, time.time() + LATER).recovered == [key]
    drain()
    assert store_for(connection).load(game_id).finished
    assert connection.zcard(TASKS_DUE) == 0
