"""Hostile load on the AI on demand: a flood of long AI moves from one address does not hold
up the bots of a game (a worker reserved for bot turns plays them while the flood waits,
and the flood's thinking runs at a lower CPU priority), and the AI on demand is refused at
once, `503 busy` with Retry-After, when the thinking already queued for it would keep a
new job waiting too long for the workers that take it, serving each address's lane of it
in turn. The estimate of that queue forgets
each job as a worker takes it, or once RQ would have dropped it unstarted, and holds a
bounded number of jobs.

(The think budget per address, the other half of the admission, is tested with the other
rate limits in tests/service/test_service_ratelimits.py.)"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from rq import Worker

from core.errors import Busy
from core.jobs.admission import Admission, queued_seconds
from core.jobs.advice import QUEUED_TTL
from core.jobs.queues import JOB_SECONDS, QUEUES, TURNS_ONLY, Timing
from core.play.turns import store_for
from core.store.keys import ADVICE_QUEUED, ADVICE_QUEUED_SECONDS
from service import create_app
from tests.service.helpers import AI_POSITION as POSITION
from tests.service.helpers import bearer, create_game, humans, tokens_of
from tests.waiting import LONG
from tests.worker.conftest import Drain, WorkerProcesses, wait_until
from worker.process import ON_DEMAND_NICENESS, make_worker

FLOODER = {"REMOTE_ADDR": "203.0.113.66"}


def ai_move(client: FlaskClient, milliseconds: int) -> Any:
    return client.post(
        "/api/v1/ai/move", json={**POSITION, "milliseconds": milliseconds}, environ_base=FLOODER
    )


def test_a_flood_of_ai_moves_does_not_hold_up_the_bots_of_a_game(
    client: FlaskClient, connection: redis.Redis, workers: WorkerProcesses
) -> None:
    # `pocha serve`'s workers: a general one and one reserved for bot turns.
    workers.start()
    workers.start("--queues", "pocha-turns")
    wait_until(lambda: Worker.count(connection=connection) == 2, LONG, "both workers")
    # One address asks for far more thinking than the game needs (12 s against well under
    # one), within the queue's bound.
    flood = [ai_move(client, 2000) for _ in range(6)]
    assert [answer.status_code for answer in flood] == [202] * 6
    wait_until(
        lambda: client.get(flood[0].json["url"]).json["status"] == "started",
        LONG,
        "the general worker to take the flood's first job",
    )
    players = [{"name": f"B{i}", "bot": "heuristic"} for i in range(4)]
    game_id = create_game(client, players, {"schedule": [2, 2]}, seed=5)["id"]
    wait_until(lambda: store_for(connection).load(game_id).finished, LONG, "the bots' game")
    # Every bot turn was played while most of the flood still waited for its worker.
    statuses = [client.get(answer.json["url"]).json["status"] for answer in flood]
    assert statuses[-3:] == ["queued"] * 3, statuses


def test_on_demand_thinking_yields_the_cpu(
    client: FlaskClient, connection: redis.Redis, workers: WorkerProcesses
) -> None:
    worker = workers.start()
    job = ai_move(client, 2000).json
    wait_until(lambda: client.get(job["url"]).json["status"] == "started", LONG, "the thinking")
    children = Path(f"/proc/{worker.pid}/task/{worker.pid}/children").read_text().split()
    assert len(children) == 1, children  # the work horse
    horse = int(children[0])
    # Below the API and the workers reserved for bot turns, which run at ours (a general
    # worker, this one, runs at the lowest already: `GENERAL_NICENESS`). Linux stops at 19.
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    expected = min(19, ours + ON_DEMAND_NICENESS)
    assert os.getpriority(os.PRIO_PROCESS, horse) == expected > ours
    assert expected >= os.getpriority(os.PRIO_PROCESS, worker.pid)


def test_ai_on_demand_behind_too_long_a_queue_is_refused_busy(
    redis_url: str, connection: redis.Redis, drain: Drain
) -> None:
    client = create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "rq", "THINK_WAIT_MAX": 1}
    ).test_client()
    # No worker is alive: the queue is shared by the one that will (re)start. Each job is
    # 0.4 s of thinking (plus a job's own cost): the fourth would wait over a second.
    answers = [ai_move(client, 400) for _ in range(4)]
    assert [answer.status_code for answer in answers] == [202, 202, 202, 503]
    busy = answers[-1]
    assert busy.json["error"] == "busy" and busy.json["code"] == 503
    assert busy.headers["Retry-After"] == "1"
    assert "try again in 1 s." in busy.json["message"]
    assert queued_seconds(connection) == pytest.approx(3 * (0.4 + JOB_SECONDS))
    # Hints share the address's lane of the queue: refused too.
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    hint = client.post(
        f"/api/v1/games/{created['id']}/hint",
        json={"level": "ismcts-expert"},
        headers=bearer(tokens_of(created)[1]),
        environ_base=FLOODER,
    )
    assert (hint.status_code, hint.json["error"]) == (503, "busy")
    assert hint.headers["Retry-After"] == "1"
    # Another address's move waits for one of the flood's at most (the lanes are served in
    # turn): let in.
    other = client.post("/api/v1/ai/move", json={**POSITION, "milliseconds": 400})
    assert other.status_code == 202
    # A worker takes the four jobs: their thinking no longer waits, and the next one is in.
    drain()
    assert queued_seconds(connection) == 0
    assert ai_move(client, 400).status_code == 202


def test_the_queue_is_shared_by_the_workers_that_take_hints_and_ai_moves(
    redis_url: str, connection: redis.Redis
) -> None:
    # Two general workers and one reserved for bot turns, registered and alive (idle).
    registered = [
        make_worker(connection, queues, simple=True, timing=Timing())
        for queues in (QUEUES, QUEUES, TURNS_ONLY)
    ]
    for worker in registered:
        worker.register_birth()
    try:
        client = create_app(
            {"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "rq", "THINK_WAIT_MAX": 1}
        ).test_client()
        # 0.42 s a job over two workers: five fit in a wait of a second, the sixth does not.
        statuses = [ai_move(client, 400).status_code for _ in range(6)]
        assert statuses == [202] * 5 + [503]
    finally:
        for worker in registered:
            worker.register_death()


def test_the_estimate_forgets_jobs_rq_dropped_and_holds_a_bounded_number(
    connection: redis.Redis,
) -> None:
    admission = Admission(budget=None, max_wait=60, max_jobs=3)
    now = time.time()
    for job_id in ("a", "b", "c"):
        admission.admit(connection, job_id, 1.0, None, QUEUED_TTL, now=now)
    with pytest.raises(Busy) as refused:
        admission.admit(connection, "d", 0.01, None, QUEUED_TTL, now=now)
    assert refused.value.retry_after == 1
    # The keys go with their last entry.
    assert 0 < connection.pttl(ADVICE_QUEUED) <= QUEUED_TTL * 1000
    assert 0 < connection.pttl(ADVICE_QUEUED_SECONDS) <= QUEUED_TTL * 1000
    # Past their drop time RQ has dropped the three unstarted: they no longer count.
    admission.admit(connection, "d", 1.0, None, QUEUED_TTL, now=now + QUEUED_TTL + 1)
    assert queued_seconds(connection) == 1.0
    assert connection.zrange(ADVICE_QUEUED, 0, -1) == [b"d"]


def test_the_wait_is_what_the_lanes_in_turn_serve_before_the_job(
    connection: redis.Redis,
) -> None:
    # Each client's jobs queue in a lane of its own, served in turn: a new job waits for
    # its own lane's, and for as many of every other lane's as its own lane serves first.
    admission = Admission(budget=None, max_wait=5.25)
    ana, bea = "203.0.113.7", "198.51.100.9"
    now = time.time()

    def admit(job_id: str, seconds: float, address: str) -> None:
        nonlocal now
        now += 0.001  # in the order they came
        admission.admit(connection, job_id, seconds, address, QUEUED_TTL, now=now)

    for i, seconds in enumerate((2.0, 1.0, 1.0, 1.0, 1.0)):
        admit(f"ana-{i}", seconds, ana)  # the fifth waits 5 s, for Ana's four
    # Bea's first waits for Ana's first (2 s), not for all of her 6 s.
    admit("bea-0", 0.5, bea)
    # Ana's sixth waits for her five and Bea's one: 6.5 s, over the bound by 1.25 s.
    with pytest.raises(Busy) as refused:
        admit("ana-5", 1.0, ana)
    assert refused.value.retry_after == 2
    # Bea's second: her first (0.5 s), and Ana's first two (3 s).
    admit("bea-1", 1.0, bea)
    # Bea's third: her 1.5 s and Ana's first three (4 s), over the bound.
    with pytest.raises(Busy):
        admit("bea-2", 1.0, bea)
    assert queued_seconds(connection) == pytest.approx(7.5)
