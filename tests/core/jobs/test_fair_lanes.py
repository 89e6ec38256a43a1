"""The turns queue is shared fairly among the clients that made games: each client's turns
go to its lane of `pocha-turns`, and a worker serves the lanes in turn, so a client with
many turns queued delays another client's turn by about one of its own. The matches' queue
is shared the same way among the clients that started matches, and the queue of hints and
AI moves among the clients (addresses or keys) that ordered them, whose admission counts
what is queued ahead of each request in turn, not everyone's thinking."""

from __future__ import annotations

import os
from typing import Any

import redis
from flask.testing import FlaskClient
from rq import Worker
from rq.job import Job

from core.jobs.queues import (
    HIGH,
    LONG_LANE,
    LOW,
    MATCH_LANES,
    NAMES,
    ON_DEMAND_LANES,
    SERIALIZER,
    TURN_LANES,
    TURNS,
    TURNS_ONLY,
    Timing,
    lane_of,
    match_lane_of,
    named,
    on_demand_lane_of,
    queue,
    rq_queues,
)
from core.jobs.status import work_status
from core.play.turns import store_for
from core.store.keys import match_key
from core.store.records import client_hash
from service import create_app
from tests.service.helpers import AI_POSITION, bearer, create_game, humans, tokens_of
from tests.waiting import LONG
from tests.worker.conftest import Drain, WorkerProcesses, wait_until
from worker.process import GENERAL_NICENESS, make_worker


def test_each_maker_has_a_lane_drawn_again_every_minute() -> None:
    assert lane_of(None) == TURNS  # games nobody pays for
    now = 1_800_000_000.0
    assert lane_of("ana", now) == lane_of("ana", now + 59 - now % 60)
    assert lane_of("ana", now) in TURN_LANES[1:]
    lanes = {lane_of(f"client-{i}", now) for i in range(200)}
    assert lanes == set(TURN_LANES[1:])  # every lane but the first is used
    minutes = {lane_of("ana", now + 60 * m) for m in range(60)}
    assert len(minutes) > 1  # two makers who share a lane do not share it for ever


def test_a_worker_serves_the_lanes_in_turn(connection: redis.Redis) -> None:
    busy, other = TURN_LANES[3], TURN_LANES[7]
    for i in range(10):
        queue(connection, busy).enqueue_call("time.time", job_id=f"busy-{i}")
    queue(connection, other).enqueue_call("time.time", job_id="other")
    status = work_status(connection)
    assert status.queued[TURNS] == 11  # the lanes count as one queue
    worker = make_worker(connection, NAMES, simple=True, timing=Timing())
    worker.work(burst=True, logging_level="WARNING")
    jobs = [queue(connection, busy).fetch_job(f"busy-{i}") for i in range(10)]
    last = queue(connection, other).fetch_job("other")
    assert last is not None and all(job is not None for job in jobs)
    order = sorted([*jobs, last], key=lambda job: job.ended_at)  # type: ignore[union-attr]
    # Queued after ten of another client's, its turn is taken second, not eleventh.
    assert [job.id for job in order].index("other") <= 1  # type: ignore[union-attr]


# -- long thinking ---------------------------------------------------------------------------

QUICK = [{"name": "Ana"}, *({"name": f"M{i}", "bot": "medium"} for i in range(1, 4))]
LONG_BOTS = [{"name": f"E{i}", "bot": "expert"} for i in range(4)]
#: With this seed the bots deal and bid first, so the quick game's bots owe turns at once.
BOTS_FIRST = 7


def test_games_whose_bots_or_stand_in_think_long_take_the_long_lane(
    client: FlaskClient, connection: redis.Redis
) -> None:
    quick = create_game(client, QUICK, {"schedule": [1]}, seed=BOTS_FIRST)
    long = create_game(client, LONG_BOTS, {"schedule": [1]})
    people = client.post(
        "/api/v1/games",
        json={"players": humans(4), "rules": {"turn_seconds": 30}, "stand_in_level": "expert"},
    )
    assert people.status_code == 201, people.json
    store = store_for(connection)
    assert not store.load(quick["id"]).thinks_long
    assert store.load(long["id"]).thinks_long
    assert store.load(people.json["id"]).thinks_long  # its stand-in, when a clock runs out
    assert queue(connection, LONG_LANE).count == 1  # the long game's first turn
    assert lane_of(None, long=True) == LONG_LANE and LONG_LANE not in TURN_LANES


def test_a_worker_reserved_for_bot_turns_never_takes_a_long_decision(
    client: FlaskClient, connection: redis.Redis
) -> None:
    # The long game is made first: in one lane, its turn would be taken first.
    long = create_game(client, LONG_BOTS, {"schedule": [1]})
    quick = create_game(client, QUICK, {"schedule": [1]}, seed=BOTS_FIRST)
    store = store_for(connection)
    assert store.load(quick["id"]).bot_to_move is not None
    reserved = make_worker(connection, TURNS_ONLY, simple=True, timing=Timing())
    assert LONG_LANE not in reserved.queue_names()
    reserved.work(burst=True, logging_level="WARNING")
    assert store.load(quick["id"]).game.turn == 0  # its bots have played up to Ana
    assert store.load(long["id"]).version == 1  # untouched: it waits for a general worker
    general = make_worker(connection, NAMES, simple=True, timing=Timing())
    # After every other lane of `pocha-turns`, before the hints and the matches.
    assert general.queue_names()[len(TURN_LANES) :] == [LONG_LANE, *ON_DEMAND_LANES, *MATCH_LANES]
    general.work(burst=True, logging_level="WARNING")
    assert store.load(long["id"]).finished


def test_a_general_worker_thinks_long_at_a_lower_cpu_priority_than_a_reserved_one(
    connection: redis.Redis, workers: WorkerProcesses
) -> None:
    general = workers.start()
    reserved = workers.start("--queues", "pocha-turns")
    wait_until(lambda: Worker.count(connection=connection) == 2, LONG, "both workers")
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    assert os.getpriority(os.PRIO_PROCESS, reserved.pid) == ours
    # Linux stops at 19, the lowest priority.
    assert os.getpriority(os.PRIO_PROCESS, general.pid) == min(19, ours + GENERAL_NICENESS)


# -- matches ---------------------------------------------------------------------------------

ANA = {"REMOTE_ADDR": "203.0.113.7"}
BEA = {"REMOTE_ADDR": "198.51.100.9"}


def test_a_clients_big_match_does_not_hold_up_another_clients_match(
    redis_url: str, connection: redis.Redis, drain: Drain
) -> None:
    # Matches are queued a task per game: in one queue, a later match waited for every game
    # of the matches before it (up to POCHA_MATCH_MAX_CPU_HOURS each, 10 a day per address).
    client = create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "rq", "RATE_LIMITS": "on"}
    ).test_client()
    # Two clients whose matches' lanes differ (two clients may share one: 1 in 15).
    lanes = {match_lane_of(client_hash(who["REMOTE_ADDR"])) for who in (ANA, BEA)}
    assert len(lanes) == 2 and LOW not in lanes
    body = {"seats": ["heuristic"] * 4, "rules": {"schedule": [1]}, "seed": 3}
    big = client.post("/api/v1/matches", json={**body, "games": 12}, environ_base=ANA)
    small = client.post("/api/v1/matches", json={**body, "games": 1}, environ_base=BEA)
    assert big.status_code == small.status_code == 202, (big.json, small.json)
    drain()
    ended = {}
    for name, made in (("big", big), ("small", small)):
        fields = connection.hgetall(match_key(made.json["id"]))
        assert int(fields[b"done"]) == made.json["games"]
        ended[name] = float(fields[b"finished"])
    # Bea's one game was played after one or two of Ana's twelve, not after all of them.
    assert ended["small"] < ended["big"]


# -- hints and AI moves ----------------------------------------------------------------------


def test_each_client_orders_its_thinking_in_a_lane_of_pocha_high_all_named_so() -> None:
    assert on_demand_lane_of(None) == HIGH  # our tools' jobs
    assert on_demand_lane_of("ana") == on_demand_lane_of("ana")  # fixed, as the admission counts
    assert {on_demand_lane_of(f"client-{i}") for i in range(200)} == set(ON_DEMAND_LANES[1:])
    # People name them all `pocha-high`: a worker told to listen to it listens to each.
    assert {named(lane) for lane in ON_DEMAND_LANES} == {HIGH}
    assert rq_queues([HIGH]) == ON_DEMAND_LANES


def _on_demand_client(redis_url: str, **settings: object) -> FlaskClient:
    return create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "rq", "RATE_LIMITS": "on",
         **settings}
    ).test_client()  # fmt: skip


def _ai_move(client: FlaskClient, milliseconds: int, who: dict[str, str]) -> Any:
    body = {**AI_POSITION, "milliseconds": milliseconds}
    return client.post("/api/v1/ai/move", json=body, environ_base=who)


def _status(client: FlaskClient, answer: Any) -> str:
    return str(client.get(answer.json["url"]).json["status"])


def test_an_address_that_queues_its_whole_think_budget_does_not_hold_up_anothers_hint(
    redis_url: str, connection: redis.Redis
) -> None:
    client = _on_demand_client(redis_url)
    # Ana spends her whole think budget (30 s a minute) at once: a quick AI move, then six
    # of 4.8 s, 29 s of thinking for the one worker that will take them (none is alive yet).
    flood = [_ai_move(client, 100, ANA)] + [_ai_move(client, 4800, ANA) for _ in range(6)]
    assert [answer.status_code for answer in flood] == [202] * 7
    # Bea asks for a hint, then an AI move. Behind all of Ana's thinking, the hint would wait
    # 29 s and the move would be refused busy (30 s at most).
    created = create_game(client, humans(3), {"schedule": [3]}, seed=3)
    hint = client.post(
        f"/api/v1/games/{created['id']}/hint",
        json={"milliseconds": 1000},
        headers=bearer(tokens_of(created)[1]),
        environ_base=BEA,
    )
    move = _ai_move(client, 1000, BEA)
    assert (hint.status_code, move.status_code) == (202, 202), (hint.json, move.json)

    def lanes(answers: list[Any]) -> set[str]:
        jobs = [
            Job.fetch(a.json["id"], connection=connection, serializer=SERIALIZER) for a in answers
        ]
        return {job.origin for job in jobs}

    # Each address's jobs in a lane of its own (two addresses may share one: 1 in 15).
    anas, beas = lanes(flood), lanes([hint, move])
    assert anas == {on_demand_lane_of(client_hash(ANA["REMOTE_ADDR"]))} != beas
    assert beas == {on_demand_lane_of(client_hash(BEA["REMOTE_ADDR"]))}
    assert work_status(connection).queued[HIGH] == 9  # the lanes count as one queue
    # A worker serves the lanes in turn: its first two jobs are Bea's hint and Ana's first.
    worker = make_worker(connection, NAMES, simple=True, timing=Timing())
    worker.work(burst=True, max_jobs=2, logging_level="WARNING")
    assert _status(client, hint) == "finished"
    assert [_status(client, answer) for answer in flood] == ["finished"] + ["queued"] * 6


def test_an_address_whose_own_queue_is_too_long_is_refused_busy_and_no_other(
    redis_url: str,
) -> None:
    client = _on_demand_client(redis_url, THINK_WAIT_MAX=10)
    # Ana queues 14.8 s of thinking, three moves of 4.9 s: her fourth would wait for her own
    # three, over the 10 s bound.
    assert [_ai_move(client, 4900, ANA).status_code for _ in range(3)] == [202] * 3
    refused = _ai_move(client, 4900, ANA)
    assert (refused.status_code, refused.json["error"]) == (503, "busy")
    assert refused.headers["Retry-After"] == "5"  # 14.76 s queued ahead of it, less 10
    assert "15 s of thinking is queued" in refused.json["message"]
    # Bea's move waits for one of Ana's at most: let in.
    assert _ai_move(client, 1000, BEA).status_code == 202
