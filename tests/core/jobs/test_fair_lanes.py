"""The turns queue is shared fairly among the clients that made games: each client's turns
go to its lane of `pocha-turns`, and a worker serves the lanes in turn, so a client with
many turns queued delays another client's turn by about one of its own."""

from __future__ import annotations

import redis

from core.jobs.queues import NAMES, TURN_LANES, TURNS, Timing, lane_of, queue
from core.jobs.status import work_status
from worker.process import make_worker


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
