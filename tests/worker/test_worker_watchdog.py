"""The watchdog: a job whose worker stopped beating is retried by RQ (its started registry,
cleaned at every sweep); unfinished work whose job is missing or failed for good is
queued again; queued and live work is left alone; a task that keeps losing its workers
gives up (a match game is then counted as failed)."""

from __future__ import annotations

import time
from dataclasses import replace

import redis
from flask.testing import FlaskClient
from rq import Queue
from rq.job import Job

from core.jobs.matches import check_match, count_ended, create_match, game_task_key
from core.jobs.queues import LOW, SERIALIZER, TURNS, Timing, queue
from core.jobs.tasks import (
    MAX_RECOVERIES,
    TURN_RETRIES,
    SweepReport,
    _look_again,
    current_job_id,
    finish,
    job_id_for,
    sweep,
)
from core.play.turns import store_for, turn_key
from core.store.keys import SWEEP_LOCK, TASKS_DUE, game_key, task_key
from core.store.redises import redises_of
from tests.service.helpers import create_game
from tests.worker.conftest import Drain
from worker.process import make_worker

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


def taken_by_a_dying_worker(connection: redis.Redis, job_id: str) -> None:
    """A production worker takes the job off its queue and its work horse starts it; then
    both die, and write no heartbeat again."""
    job = Job.fetch(job_id, connection=connection, serializer=SERIALIZER)
    assert queue(connection, job.origin).remove(job) == 1
    worker = make_worker(connection, [job.origin], timing=TIMING)
    worker.prepare_execution(job)  # the worker: the job's entry in RQ's started registry
    worker.prepare_job_execution(job)  # its horse: the job is started


def a_turn_taken_off_its_queue(
    client: FlaskClient, connection: redis.Redis
) -> tuple[str, str, Job]:
    """A bot game's first turn (its game id, task key and job), whose job a worker has
    taken off its queue and not marked started yet: the job reads `queued`, but no queue
    holds it."""
    game_id, version = bot_game(client)
    key = turn_key(game_id, version)
    taken = Queue.dequeue_any(
        [queue(connection, TURNS)], None, connection=connection, serializer=SERIALIZER
    )
    assert taken is not None
    job = taken[0]
    assert job.id == current_job_id(connection, key) and job.get_status() == "queued"
    return game_id, key, job


def test_a_turn_whose_job_is_lost_is_queued_again(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    made = time.time()
    game_id, version = bot_game(client)
    first = current_job_id(connection, turn_key(game_id, version))
    assert first == f"pocha-turn-{game_id}-{version}"
    Job.fetch(first, connection=connection, serializer=SERIALIZER).delete()
    # Not due yet: its first look is a check's time after the game was made, and a sweep
    # before it does nothing (swept as if then, since a loaded machine may take longer
    # than the check to get here).
    due = connection.zscore(TASKS_DUE, turn_key(game_id, version))
    assert due is not None and due >= made + Timing.from_env().check
    assert sweep_at(connection, due - 0.5).recovered == []
    report = sweep_at(connection, time.time() + LATER)
    assert report.recovered == [turn_key(game_id, version)]
    assert current_job_id(connection, turn_key(game_id, version)) == f"{first}-2"
    drain()
    assert store_for(connection).load(game_id).finished
    assert connection.zcard(TASKS_DUE) == 0


def test_a_turn_owed_under_the_job_name_of_an_earlier_version_is_played(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    # An upgrade finds records that name the turn job where it lived before (worker.turns).
    game_id, version = bot_game(client)
    key = turn_key(game_id, version)
    connection.hset(task_key(key), "func", "worker.turns.play_turn")
    lost = current_job_id(connection, key)
    Job.fetch(lost, connection=connection, serializer=SERIALIZER).delete()
    assert sweep_at(connection, time.time() + LATER).recovered == [key]
    job = Job.fetch(current_job_id(connection, key), connection=connection, serializer=SERIALIZER)
    assert job.func_name == "core.play.turns.play_turn"
    drain()
    assert store_for(connection).load(game_id).finished


def test_a_turn_whose_worker_died_is_retried_by_rq_and_a_live_one_is_not(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    game_id, version = bot_game(client)
    key = turn_key(game_id, version)
    job_id = current_job_id(connection, key)
    assert job_id is not None
    taken_by_a_dying_worker(connection, job_id)
    # Its last heartbeat is recent: a worker is thinking; look again in `check` seconds.
    # Swept as if 5 s after that heartbeat, however long a loaded machine took to get here.
    beat = Job.fetch(job_id, connection=connection, serializer=SERIALIZER).last_heartbeat
    assert beat is not None
    now = beat.timestamp() + 5
    report = sweep_at(connection, now)
    assert report.abandoned == [] and report.recovered == []
    assert connection.zscore(TASKS_DUE, key) == now + TIMING.check
    # No heartbeat for longer than `stale`: RQ's started registry gives the job up and RQ
    # retries it, the same job with one retry less; the task needs no recovery.
    report = sweep_at(connection, time.time() + TIMING.stale + 5)
    assert report.abandoned == [job_id] and report.recovered == []
    job = Job.fetch(job_id, connection=connection, serializer=SERIALIZER)
    assert job.get_status() == "queued" and job.retries_left == TURN_RETRIES - 1
    assert queue(connection, TURNS).get_job_position(job_id) is not None
    assert current_job_id(connection, key) == job_id
    drain()
    assert store_for(connection).load(game_id).finished
    assert connection.zcard(TASKS_DUE) == 0


def test_a_turn_taken_off_its_queue_by_a_worker_that_never_started_it_is_queued_again(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    # Redis stops (or the worker dies) before the worker marks the job started.
    game_id, key, job = a_turn_taken_off_its_queue(client, connection)
    # A worker may be between taking it and starting it: the first look only notes it.
    later = time.time() + LATER
    report = sweep_at(connection, later)
    assert report.looking_again == [key] and report.recovered == []
    assert connection.zscore(TASKS_DUE, key) == later + TIMING.sweep
    assert current_job_id(connection, key) == job.id
    assert connection.hget(task_key(key), "lost") == job.id.encode()
    report = sweep_at(connection, later + TIMING.sweep)
    assert report.recovered == [key] and report.looking_again == []
    assert current_job_id(connection, key) == f"{job.id}-2"
    drain()
    assert store_for(connection).load(game_id).finished
    assert connection.zcard(TASKS_DUE) == 0


def test_a_turn_that_a_worker_starts_between_two_looks_is_not_queued_again(
    client: FlaskClient, connection: redis.Redis
) -> None:
    _, key, job = a_turn_taken_off_its_queue(client, connection)
    later = time.time() + LATER
    assert sweep_at(connection, later).looking_again == [key]
    # The worker was only slow: it starts the job before the next sweep.
    worker = make_worker(connection, [job.origin], timing=TIMING)
    worker.prepare_execution(job)
    worker.prepare_job_execution(job)
    report = sweep_at(connection, later + TIMING.sweep)
    assert report.recovered == [] and report.looking_again == []
    assert current_job_id(connection, key) == job.id
    assert connection.hget(task_key(key), "lost") is None


def test_a_task_that_ends_as_its_job_is_noted_lost_leaves_nothing_behind(
    client: FlaskClient, connection: redis.Redis
) -> None:
    _, key, job = a_turn_taken_off_its_queue(client, connection)
    finish(connection, key)  # the worker ended the task between the sweep's two reads
    _look_again(redises_of(connection), key, job.id, TIMING, time.time())
    assert not connection.exists(task_key(key))


def test_a_started_turn_that_rq_has_no_record_of_running_is_queued_again(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    game_id, version = bot_game(client)
    key = turn_key(game_id, version)
    job = Job.fetch(current_job_id(connection, key) or "", connection=connection,
                    serializer=SERIALIZER)  # fmt: skip
    # Marked started by a work horse, but its worker never entered it in RQ's started
    # registry, so RQ's cleanup would never notice it had stopped.
    queue(connection, TURNS).remove(job)
    make_worker(connection, timing=TIMING).prepare_job_execution(job)
    assert job.get_status() == "started"
    report = sweep_at(connection, time.time() + LATER)
    assert report.abandoned == [] and report.recovered == [key]
    drain()
    assert store_for(connection).load(game_id).finished
    assert connection.zcard(TASKS_DUE) == 0


def test_queued_work_is_left_in_its_queue(client: FlaskClient, connection: redis.Redis) -> None:
    game_id, version = bot_game(client)
    now = time.time() + LATER
    report = sweep_at(connection, now)
    assert report.looked_at == 1 and report.recovered == []
    assert connection.zscore(TASKS_DUE, turn_key(game_id, version)) == now + TIMING.queued_check
    assert queue(connection, TURNS).count == 1


def test_one_sweeper_at_a_time(client: FlaskClient, connection: redis.Redis) -> None:
    bot_game(client)
    # The lock lasts `sweep` seconds of Redis's own clock: an hour's, so that a busy machine
    # cannot let it lapse before the second sweep.
    hourly = replace(TIMING, sweep=3600.0)
    connection.delete(SWEEP_LOCK)
    assert sweep(connection, hourly, now=time.time() + LATER).looked_at == 1
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
    key = game_task_key(match["id"], 0)
    tries = []
    while (job_id := current_job_id(connection, key)) is not None:
        assert len(tries) < 50, tries
        taken_by_a_dying_worker(connection, job_id)
        tries.append(job_id)
        report = sweep_at(connection, time.time() + LATER)
        assert report.abandoned == [job_id]
    # RQ tried each job three times (its two retries), the watchdog queued the game again
    # as a new job MAX_RECOVERIES times, then gave it up.
    jobs = [job_id_for(f"pocha-match-{match['id']}-0", n) for n in range(1, MAX_RECOVERIES + 2)]
    assert tries == [job for job in jobs for _ in range(3)]
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
    game_hash = game_key(game_id)
    state = connection.hget(game_hash, "state")
    assert state is not None
    connection.hset(game_hash, "state", b"{}")
    # Seen waiting in its queue, the task would be looked at again only in `queued_check`.
    sweep_at(connection, time.time() + LATER)
    assert connection.zscore(TASKS_DUE, key) > time.time() + LATER
    drain()
    job = Job.fetch(f"pocha-turn-{game_id}-{version}", connection=connection, serializer=SERIALIZER)
    assert job.get_status() == "failed"
    assert job.retries_left == 0  # RQ tried it three times
    assert current_job_id(connection, key) == job.id  # still pending
    # Its failure (RQ's `on_failure`) brought the task's next check forward.
    due = connection.zscore(TASKS_DUE, key)
    assert due is not None and due <= time.time() + Timing.from_env().check
    # Not due yet: failures are paced. Swept as if just before the check, since a loaded
    # machine may take longer than the check to get here after the failure.
    assert sweep_at(connection, due - 0.5).recovered == []
    connection.hset(game_hash, "state", state)
    assert sweep_at(connection, time.time() + LATER).recovered == [key]
    drain()
    assert store_for(connection).load(game_id).finished
    assert connection.zcard(TASKS_DUE) == 0


def test_a_match_game_that_ends_as_its_worker_dies_still_starts_the_next(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    # An account seated with duplicate deals: each deal's rotations follow one another,
    # each game that ends starting the next.
    account = client.post("/api/v1/accounts", json={"name": "Hooky", "kind": "bot"}).json
    seats = [f"account:{account['id']}", "heuristic", "heuristic"]
    spec = check_match(seats, 3, {"schedule": [1]}, 1, True)
    match_id = create_match(connection, spec)
    first = game_task_key(match_id, 0)
    assert queue(connection, LOW).remove(current_job_id(connection, first) or "") == 1
    # Game 0 is counted ended, with game 1's task made in the same script; then the worker
    # dies before it queues game 1's job.
    following = count_ended(connection, spec, match_id, 0, None)
    assert following is not None and following.key == game_task_key(match_id, 1)
    finish(connection, first)
    assert queue(connection, LOW).count == 0
    # At the task's first check the watchdog finds its job missing and queues it.
    report = sweep_at(connection, time.time() + LATER)
    assert report.recovered == [following.key]
    drain()
    done = client.get(f"/api/v1/matches/{match_id}").json
    assert (done["status"], done["done"], done["failed"]) == ("finished", 2, 1), done
