"""A bot's turn is owed from the very write that makes it owed.

The API writes a person's move (or a new game) and then hands the next bot its turn. The
record of the owed turn (the watchdog's task) is part of that write; the hand-over only
queues its first job. So an API process that dies, or a Redis that stops, between the two
leaves a task without a job, which the watchdog queues: no game waits for a bot for ever.
"""

from __future__ import annotations

import time

import redis
from flask import Flask
from flask.testing import FlaskClient

from core.jobs.queues import TURNS, Timing, queue
from core.jobs.tasks import sweep, turn_key
from core.play.turns import store_for
from core.store.keys import task_key
from service.context import EXTENSION
from tests.service.helpers import create_game, move
from tests.worker.conftest import Drain

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
