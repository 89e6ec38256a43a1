"""A real `pocha worker` as operators see it: its log lines are JSON, those written while a
job runs name the job and the request that led to it (a person's move, then each bot turn
that follows), the bots' think time it records is in the API's `/metrics`, and `/readyz`
stops counting a worker killed with SIGKILL within its worker TTL; a worker grown past its
memory limit starts afresh after its job; a job running in the worker's own process stops
at its timeout, and outlives a dead worker's delay by its heartbeats."""

from __future__ import annotations

import json

import pytest
import redis
from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families
from rq import Worker

from core.jobs.queues import LOW, Timing, queue
from core.play.turns import store_for
from tests.service.helpers import bearer, create_game
from tests.waiting import LONG, scaled
from tests.worker.conftest import FAST, WorkerProcesses, wait_until


def test_worker_logs_are_json_with_job_and_request_ids(
    client: FlaskClient, workers: WorkerProcesses
) -> None:
    players = [{"name": "Ana"}, {"name": "B", "bot": "heuristic"}, {"name": "C", "bot": "easy"}]
    response = client.post(
        "/api/v1/games",
        json={"players": players, "rules": {"schedule": [2]}, "seed": 4},
        headers={"X-Request-ID": "req-create-77"},
    )
    assert response.status_code == 201
    created = response.json
    # Seat 1 (a bot) bids first: its turn was queued by the creating request.
    process = workers.start("--burst")
    assert process.wait(timeout=scaled(LONG)) == 0
    view = client.get(
        f"/api/v1/games/{created['id']}", headers=bearer(created["seats"][0]["token"])
    )
    assert view.json["turn"] == 0  # both bots have bid

    lines = [json.loads(line) for line in workers.log(0).splitlines() if line.strip()]
    assert lines and all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    during_jobs = [line for line in lines if "job_id" in line]
    # Both bots' bids are one run of turns, played by the job the creating request queued.
    assert {line["job_id"] for line in during_jobs} == {f"pocha-turn-{created['id']}-1"}
    assert {line.get("request_id") for line in during_jobs} == {"req-create-77"}

    scrape = client.get("/metrics").get_data(as_text=True)
    counts = {
        s.labels["level"]: s.value
        for family in text_string_to_metric_families(scrape)
        for s in family.samples
        if s.name == "pocha_bot_think_seconds_count" and s.labels.get("kind") == "turn"
    }
    assert counts == {"heuristic": 1, "easy": 1}


def test_a_killed_worker_stops_counting_within_its_worker_ttl(
    client: FlaskClient,
    connection: redis.Redis,
    workers: WorkerProcesses,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The API reads the workers' timings from the same settings as they do.
    monkeypatch.setenv("POCHA_WATCHDOG_SWEEP", FAST["POCHA_WATCHDOG_SWEEP"])
    ttl = Timing.from_env().worker_ttl

    def ready_workers() -> int:
        answer = client.get("/readyz")
        assert answer.status_code == 200, answer.json
        return int(answer.json["workers"])

    doomed = workers.start()
    workers.start()
    wait_until(lambda: ready_workers() == 2, LONG, "two workers")
    workers.kill_with_horse(doomed)
    # Its ttl and room for a loaded machine, yet well before its registration lapses.
    wait_until(lambda: ready_workers() == 1, ttl + 30, "the killed worker to stop counting")
    # RQ still has its registration (its key outlives it by a minute): counting those, as
    # `Worker.count` does, would call it alive.
    assert Worker.count(connection=connection) == 2


def test_a_worker_past_its_memory_limit_starts_afresh_after_its_job(
    client: FlaskClient, connection: redis.Redis, workers: WorkerProcesses
) -> None:
    # Any worker holds more than a megabyte: each one goes past the limit at its first job.
    process = workers.start(POCHA_WORKER_MAX_MEMORY_MB="1")
    players = [{"name": f"B{i}", "bot": "heuristic"} for i in range(4)]
    store = store_for(connection)
    for seed in (3, 4):
        game_id = create_game(client, players, {"schedule": [2]}, seed=seed)["id"]
        wait_until(lambda g=game_id: store.load(g).finished, LONG, "the bots' game")
    # The same process each time (nothing has to restart it), run afresh from its command.
    wait_until(
        lambda: workers.log(0).count("the worker starts afresh") >= 2, LONG, "a second start"
    )
    assert "over its 1 MB: it is replaced by a fresh one" in workers.log(0)
    assert process.poll() is None


def test_a_job_past_its_timeout_is_stopped_and_its_worker_goes_on(
    client: FlaskClient, connection: redis.Redis, workers: WorkerProcesses
) -> None:
    process = workers.start()
    # A job that would run a minute, run by the worker itself (no horse to kill): RQ's
    # alarm stops it at its timeout, inside the job.
    job = queue(connection, LOW).enqueue_call("time.sleep", args=(60,), timeout=1, result_ttl=60)
    wait_until(lambda: job.get_status(refresh=True) == "failed", LONG, "the job to be stopped")
    result = job.latest_result()
    assert result is not None and "JobTimeoutException" in str(result.exc_string)
    players = [{"name": f"B{i}", "bot": "heuristic"} for i in range(4)]
    game_id = create_game(client, players, {"schedule": [1]}, seed=3)["id"]
    wait_until(lambda: store_for(connection).load(game_id).finished, LONG, "the bots' game")
    assert process.poll() is None


def test_a_job_longer_than_stale_keeps_its_worker_by_its_heartbeats(
    connection: redis.Redis, workers: WorkerProcesses
) -> None:
    workers.start()
    workers.start()  # idle while the other runs the job: it sweeps every second
    wait_until(lambda: Worker.count(connection=connection) == 2, LONG, "both workers")
    # Past the moment RQ's cleanup would give it up with no heartbeat (its entry in the
    # started registry lapses), by three of the idle worker's sweeps: renewed every second
    # by the worker's heartbeat thread, it is not given up.
    lapses = Timing(stale=float(FAST["POCHA_WATCHDOG_STALE"])).started_ttl
    seconds = lapses + 3 * float(FAST["POCHA_WATCHDOG_SWEEP"])
    job = queue(connection, LOW).enqueue_call("time.sleep", args=(seconds,), result_ttl=60)
    wait_until(lambda: job.get_status(refresh=True) == "finished", LONG, "the long job")
    assert not any("lost its worker" in workers.log(i) for i in (0, 1))
