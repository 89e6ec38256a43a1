"""A bot's turn is owed from the very write that makes it owed.

The API writes a person's move (or a new game) and then hands the next bot its turn. The
record of the owed turn (the watchdog's task) is part of that write; the hand-over only
queues its first job. So an API process that dies, or a Redis that stops, between the two
leaves a task without a job, which the watchdog queues: no game waits for a bot for ever.
A bot's move that leaves another bot to play writes that turn's task held by its own job,
which plays it next (a run of turns); a try of that job takes the run up where it died.
"""

from __future__ import annotations

import time

import redis
from flask import Flask
from flask.testing import FlaskClient
from rq.job import Job

from core.jobs.queues import MAX_TURN_SLICE, SERIALIZER, TURN_LANES, TURNS, Timing, queue
from core.jobs.tasks import sweep
from core.play.bots import play_bot_turn
from core.play.turns import held_by, play_owed_turns, store_for, turn_key
from core.store.keys import task_key
from core.store.redises import store_for_jobs
from service.context import EXTENSION
from tests.service.helpers import create_game, move
from tests.worker.conftest import Drain, jobs_named

BOTS = [{"name": f"H{i}", "bot": "heuristic"} for i in range(1, 4)]
#: With this seed seat 3 deals the first hand, so the person in seat 0 bids first.
PERSON_FIRST = 5


def test_a_move_written_without_its_hand_over_gets_its_turn_played(
    app: Flask, client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    created = create_game(client, [{"name": "Ana"}, *BOTS], {"schedule": [2]}, seed=PERSON_FIRST)
    game_id = created["id"]
    store = store_for(connection)
    record = store.load(game_id)
    assert record.game.turn == 0
    # What the API writes for the person's bid, and nothing after it: the process died.
    runner = app.extensions[EXTENSION].bots
    applied = store.apply_action(
        game_id, 0, record.game.legal_actions()[0], record=record, owed_task=runner.owed_turn
    )
    version = applied.record.version
    task = connection.hgetall(task_key(turn_key(game_id, version)))
    assert task[b"pending"] == b"1" and queue(connection, TURNS).count == 0  # no job

    # The watchdog, at the task's first check, finds no job and queues one.
    report = sweep(connection, Timing(), now=time.time() + Timing().check + 1)
    assert report.recovered == [turn_key(game_id, version)]
    drain()
    assert store.load(game_id).version > version


def test_the_hand_over_queues_the_turn_written_with_the_move(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    created = create_game(client, [{"name": "Ana"}, *BOTS], {"schedule": [2]}, seed=PERSON_FIRST)
    game_id, token = created["id"], created["seats"][0]["token"]
    view = client.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    answer = move(client, game_id, token, view.json["you"]["legal"][0])
    assert answer.status_code == 200
    key = task_key(turn_key(game_id, answer.json["version"]))
    assert not connection.hexists(key, "pending")  # taken by the hand-over
    assert queue(connection, TURNS).count == 1
    drain()
    assert store_for(connection).load(game_id).game.turn == 0  # the three bots have bid


def test_one_job_plays_a_run_of_bot_turns_each_its_own_version_and_event(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    created = create_game(client, [{"name": "Ana"}, *BOTS], {"schedule": [2]}, seed=PERSON_FIRST)
    game_id, token = created["id"], created["seats"][0]["token"]
    view = client.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    version = move(client, game_id, token, view.json["you"]["legal"][0]).json["version"]
    job = Job.fetch(f"pocha-turn-{game_id}-{version}", connection, serializer=SERIALIZER)
    # The job's own work, as the worker runs it, with the longest slice a run may have: the
    # default tenth of a second of wall time can pass after one bid on a busy machine (the
    # run then hands on the rest, by design), and this test is about the run, not the slice.
    played = play_owed_turns(
        store_for_jobs(connection), game_id, version, last_try=False, job_id=job.id,
        lane=job.origin, timing=Timing(turn_slice=MAX_TURN_SLICE),
    )  # fmt: skip
    assert played["turns"] == 3
    drain()  # the queued job finds its turns played
    record = store_for(connection).load(game_id)
    assert record.game.turn == 0 and record.version == version + 3  # three bids, then Ana
    # The bids are three versions and three events, and no bid needed a job of its own.
    events = client.get(f"/api/v1/games/{game_id}/events").json
    assert [e["version"] for e in events if e["type"] == "bid"][-3:] == [
        version + 1,
        version + 2,
        version + 3,
    ]
    assert not [
        k
        for k in connection.scan_iter(match=f"rq:job:pocha-turn-{game_id}-*")
        if k.decode() != f"rq:job:{job.id}" and int(k.decode().rsplit("-", 1)[1]) > version
    ]
    # Every turn's task ended with its move; Ana's clock is not set, so nothing is owed.
    assert not list(connection.scan_iter(match=f"*turn:{{{game_id}}}:*"))


def test_a_run_that_died_is_taken_up_again_by_its_jobs_retry(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    players = [{"name": f"B{i}", "bot": "heuristic"} for i in range(4)]
    game_id = create_game(client, players, {"schedule": [2]}, seed=3)["id"]
    store = store_for(connection)
    job_id = f"pocha-turn-{game_id}-1"
    # What the run's job wrote before it died: the first move, the next turn held by it.
    applied = play_bot_turn(store, game_id, 1, owed_task=held_by(job_id))
    assert applied is not None and applied.version == 2
    assert connection.hget(task_key(turn_key(game_id, 2)), "job") == job_id.encode()
    assert not connection.hexists(task_key(turn_key(game_id, 2)), "pending")
    # Its try (here, the queued job itself) goes on from the turn it holds.
    drain()
    assert store.load(game_id).finished
    result = Job.fetch(job_id, connection, serializer=SERIALIZER).return_value()
    assert result["played"] and result["version"] == 1
    assert not Job.exists(f"pocha-turn-{game_id}-2", connection)


def test_a_run_hands_over_when_another_lanes_turn_waits(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    players = [{"name": f"B{i}", "bot": "heuristic"} for i in range(4)]
    game_id = create_game(client, players, {"schedule": [2]}, seed=3)["id"]  # lane pocha-turns
    # Another client's work, waiting in its own lane (any job will do).
    other = queue(connection, TURN_LANES[3]).enqueue_call("time.sleep", args=(0,), result_ttl=60)
    drain()
    assert store_for(connection).load(game_id).finished
    first = Job.fetch(f"pocha-turn-{game_id}-1", connection, serializer=SERIALIZER)
    # One turn, then the other lane's job, then the rest of the game as a run again.
    assert first.return_value()["turns"] == 1
    other.refresh()
    assert other.get_status() == "finished"
    second = Job.fetch(f"pocha-turn-{game_id}-2", connection, serializer=SERIALIZER)
    assert other.ended_at is not None and second.started_at is not None
    assert other.ended_at <= second.started_at
    # The rest in runs (more than one if the machine was slow), each move played once.
    runs = jobs_named(connection, f"pocha-turn-{game_id}-*")
    assert sum(job.return_value()["turns"] for job in runs) == (
        store_for(connection).load(game_id).version - 1
    )
