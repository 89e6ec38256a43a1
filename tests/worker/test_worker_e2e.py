"""The real thing: `pocha worker` processes (forked work horses, heartbeats, the
watchdog) playing bots for the API. A person plays three bots to the end; a worker killed
with SIGKILL in the middle of a thought loses nothing (RQ's started registry gives the job
up once its heartbeats stop and RQ retries it: another worker plays the turn); a running
match delays a bot turn by one slice at most, in RQ's own times of the jobs; `--burst` and
`--queues` do what they say (a worker may be reserved for bot turns; a queue that does not
exist is refused)."""

from __future__ import annotations

import os
import signal
import subprocess

import redis
from flask.testing import FlaskClient
from rq.job import Job

from core.jobs.queues import HIGH, SERIALIZER
from core.jobs.status import work_status
from core.jobs.tasks import TURN_RETRIES, current_job_id
from core.play.turns import store_for, turn_key
from engine.pocha.observation import observe
from tests.service.helpers import bearer, create_game, move
from tests.waiting import LONG, scaled
from tests.worker.conftest import POCHA, WorkerProcesses, jobs_named, wait_until


def human_turn_or_over(client: FlaskClient, game_id: str, token: str) -> bool:
    view = client.get(f"/api/v1/games/{game_id}", headers=bearer(token)).json
    return bool(view["phase"] == "finished" or view["turn"] == 0)


def test_pocha_worker_plays_three_bots_against_a_person(
    client: FlaskClient, workers: WorkerProcesses
) -> None:
    workers.start()
    bots = [
        {"name": "E", "bot": "easy"},
        {"name": "M", "bot": "medium"},
        {"name": "H", "bot": "heuristic"},
    ]
    created = create_game(client, [{"name": "Ana"}, *bots], {"schedule": [2, 3]}, seed=21)
    game_id, token = created["id"], created["seats"][0]["token"]
    moves = 0
    while True:
        wait_until(lambda: human_turn_or_over(client, game_id, token), LONG, "the bots")
        view = client.get(f"/api/v1/games/{game_id}", headers=bearer(token)).json
        if view["phase"] == "finished":
            break
        assert move(client, game_id, token, view["you"]["legal"][0]).status_code == 200
        moves += 1
    assert moves == (1 + 2) + (1 + 3)  # a bid and the cards of each hand
    events = client.get(f"/api/v1/games/{game_id}/events").json
    assert events[-1]["type"] == "game_over"


def test_a_worker_killed_mid_thought_loses_no_turn(
    client: FlaskClient, connection: redis.Redis, workers: WorkerProcesses
) -> None:
    first = workers.start()
    # A bot that thinks up to a second, so the kill lands mid-thought even on a busy
    # machine (expert's 30 to 60 ms on five cards can end before the signal arrives).
    players = [{"name": "X", "bot": "ismcts-expert"}] + [
        {"name": f"H{i}", "bot": "heuristic"} for i in range(3)
    ]
    created = create_game(client, players, {"schedule": [5]}, seed=13)
    game_id = created["id"]
    store = store_for(connection)
    thinking: dict[str, object] = {}

    def expert_thinking() -> bool:
        record = store.load(game_id)
        # The expert's turn, with a choice to think about (a forced card takes no time).
        if record.bot_to_move != 0 or len(observe(record.game, 0).legal_actions) < 2:
            return False
        job_id = current_job_id(connection, turn_key(game_id, record.version))
        if job_id is None or not Job.exists(job_id, connection):
            return False
        job = Job.fetch(job_id, connection=connection, serializer=SERIALIZER)
        if job.get_status() != "started":
            return False
        thinking.update(version=record.version, job=job_id)
        return True

    def frozen_mid_thought() -> bool:
        # Stopped before it is looked at, the worker is killed as it was seen: looked at
        # running, its thought (tens of ms on the compiled engine) could end before the kill.
        os.kill(first.pid, signal.SIGSTOP)
        if expert_thinking():
            return True
        os.kill(first.pid, signal.SIGCONT)
        return False

    wait_until(frozen_mid_thought, LONG, "the expert bot to start thinking")
    workers.kill_with_horse(first)
    version = thinking["version"]
    assert store.load(game_id).version == version  # the thought died with its worker

    workers.start()
    # Stale heartbeat, next sweep, then a new worker's start-up and the thought.
    wait_until(lambda: store.load(game_id).version > version, LONG, "the turn played again")
    # RQ retried the same job (the turn's task needed no recovery), and it played the turn.
    retried = Job.fetch(str(thinking["job"]), connection=connection, serializer=SERIALIZER)
    wait_until(lambda: retried.get_status() == "finished", LONG, "the retried job to end")
    assert retried.retries_left == TURN_RETRIES - 1
    assert retried.return_value(refresh=True)["played"] is True
    # Who found the job abandoned is not asserted: the new worker's watchdog (which logs
    # "lost its worker") or, while the killed worker's sweep lock has not lapsed yet, RQ's
    # own maintenance at the new worker's start; either retries the same job.
    assert "queued it again" not in workers.log(1)
    wait_until(lambda: store.load(game_id).finished, LONG, "the game to end")


def test_a_running_match_delays_a_bot_turn_by_one_slice_at_most(
    client: FlaskClient, connection: redis.Redis, workers: WorkerProcesses
) -> None:
    slice_seconds = 0.5
    workers.start(POCHA_MATCH_SLICE=str(slice_seconds))
    match = client.post(
        "/api/v1/matches",
        json={"seats": ["medium"] * 4, "games": 40, "rules": {"schedule": [3, 3]}, "seed": 2},
    ).json
    wait_until(lambda: client.get(match["url"]).json["done"] >= 1, LONG, "the match to start")
    bots = [{"name": f"E{i}", "bot": "easy"} for i in range(3)]
    created = create_game(client, [{"name": "Ana"}, *bots], {"schedule": [2]}, seed=4)
    game_id, token = created["id"], created["seats"][0]["token"]
    turns: dict[str, Job] = {}
    while True:
        wait_until(lambda: human_turn_or_over(client, game_id, token), LONG, "the bots")
        view = client.get(f"/api/v1/games/{game_id}", headers=bearer(token)).json
        # Read now, while RQ keeps them: the bots' turns played so far and the slices.
        played = [f"pocha-turn-{game_id}-{v}" for v in range(1, view["version"] + 1)]
        turns.update((job.id, job) for job in jobs(connection, played) if job.id not in turns)
        slices = jobs_named(connection, f"pocha-match-{match['id']}-*")
        for turn in turns.values():
            # Measured in RQ's own times, not the test's: the slice in hand when the turn
            # was queued, and none after it (a loaded machine makes slices no longer).
            waited_for = [
                piece.id for piece in slices
                if piece.started_at is not None and piece.started_at < turn.started_at
                and (piece.ended_at is None or piece.ended_at > turn.enqueued_at)
            ]  # fmt: skip
            assert len(waited_for) <= 1, (turn.id, waited_for)
        if view["phase"] == "finished":
            break
        assert move(client, game_id, token, view["you"]["legal"][0]).status_code == 200
    # The bots' moves, in runs of turns (each job named by the version it began at).
    ran = jobs(connection, list(turns))
    wait_until(
        lambda: all(job.get_status(refresh=True) == "finished" for job in ran),
        LONG,
        "the last run of turns to end",
    )
    events = client.get(f"/api/v1/games/{game_id}/events").json
    bot_moves = [e for e in events if e["type"] in ("bid", "card_played") and e["seat"] != 0]
    assert len(bot_moves) >= 3 + 3 * 2  # every bot's bid and cards at least
    assert sum(job.return_value(refresh=True)["turns"] for job in ran) == len(bot_moves)
    report = client.get(match["url"]).json
    assert report["status"] == "running"  # the match was busy all along


def jobs(connection: redis.Redis, ids: list[str]) -> list[Job]:
    """The jobs of `ids` that RQ still keeps."""
    found = Job.fetch_many(ids, connection=connection, serializer=SERIALIZER)
    return [job for job in found if job is not None]


def test_pocha_worker_burst_and_queues(
    client: FlaskClient, connection: redis.Redis, workers: WorkerProcesses
) -> None:
    position = {
        "seat": 0,
        "hand": ["O1", "O4", "C3"],
        "trump": {"card": "E7", "holder": None},
        "dealer": 3,
        "bids": [1, 0, 1, 0],
        "level": "easy",
    }
    job = client.post("/api/v1/ai/move", json=position).json
    low_only = workers.start("--burst", "--queues", "pocha-low")
    assert low_only.wait(timeout=scaled(LONG)) == 0
    assert work_status(connection).queued[HIGH] == 1  # not its queue
    turns_only = workers.start("--burst", "--queues", "pocha-turns")
    assert turns_only.wait(timeout=scaled(LONG)) == 0
    assert work_status(connection).queued[HIGH] == 1  # reserved for bot turns
    # A queue no job is ever put on is refused rather than waited on for ever.
    typo = workers.start("--burst", "--queues", "pocha-turns,pocha-hihg")
    assert typo.wait(timeout=scaled(LONG)) == 2
    assert "unknown queue 'pocha-hihg'" in workers.log(2)
    every = workers.start("--burst")
    assert every.wait(timeout=scaled(LONG)) == 0
    assert client.get(job["url"]).json["status"] == "finished"
    help_text = subprocess.run(
        [str(POCHA), "worker", "--help"],
        capture_output=True,
        text=True,
        timeout=scaled(LONG),
    ).stdout
    assert "--burst" in help_text and "REDIS_URL" in help_text
    # The two roles, named in the help.
    assert "pocha worker --queues pocha-turns" in help_text and "reserved" in help_text
