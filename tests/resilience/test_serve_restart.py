"""`pocha serve` stopped and started again on the same data dir: games resume.

tests/service/test_service_http.py shows a game's version surviving a restart; this one
shows play going on. `pocha serve` is stopped (Ctrl-C) while a bot is thinking: the worker
finishes that thought, hands the next bot its turn and stops; Redis keeps the queued turn
in its append-only file. (RQ's suspension, set once the thought has begun, keeps the
worker from taking that next turn before it stops, so the test does not depend on how
fast the shutdown is. A worker already waiting on its queue would not see the suspension
before taking the turn, so the first `pocha serve` runs its one general worker only.)
Started again on the same data dir, a game of people is exactly where it was, the new
workers play the bot turn left queued, and both games play to the end with whole event
logs.
"""

from __future__ import annotations

import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from rq.job import Job
from rq.suspension import resume, suspend

from core.jobs.queues import SERIALIZER
from core.jobs.tasks import current_job_id
from core.play.turns import turn_key
from tests.resilience.conftest import (
    Processes,
    call,
    check_finished,
    create,
    play_turns,
    timeless,
)
from tests.waiting import LONG, scaled, wait_until
from tools.embedded_redis import free_port

#: With this seed seat 0 (the person) deals the first hand, so the bots bid first: the
#: expert in seat 1, then the heuristic bots in seats 2 and 3.
SEED = 1


@pytest.fixture
def data() -> Iterator[Path]:
    """A data dir with a short path: `pocha serve` puts Redis on a unix socket there, which
    the test reads too, only when the socket's path fits in 100 bytes."""
    with tempfile.TemporaryDirectory(prefix="pocha-", dir="/tmp") as short:
        yield Path(short) / "data"


def test_games_resume_after_pocha_serve_restarts(data: Path, processes: Processes) -> None:
    port = free_port()
    # The Python engine, on which the expert below thinks for about a second: the run of bot
    # turns (core.play.turns) stops after the thought only if Ctrl-C reaches the worker
    # during it, and on the compiled engine 6,000 iterations of a 2-card hand take a tenth
    # of that, so the run went on to the heuristic bots' bids first.
    serve = processes.serve(port, data, options=("--turn-workers", "0"), POCHA_ENGINE="python")
    people = create(port, [None] * 3, [2, 2], seed=31)
    play_turns([port], people, moves=5)
    before = timeless(call(port, "GET", f"/api/v1/games/{people.id}").body)

    # The slowest level (about a second a decision), so that its thought is caught in hand
    # even on a loaded machine (the expert's 150 ms once slipped between two looks).
    versus = create(port, [None, "ismcts-expert", "heuristic", "heuristic"], [2], seed=SEED)
    connection = redis.Redis(unix_socket_path=str(data / "redis.sock"))

    def expert_thinking() -> bool:
        job_id = current_job_id(connection, turn_key(versus.id, 1))
        if job_id is None or not Job.exists(job_id, connection):
            return False
        job = Job.fetch(job_id, connection=connection, serializer=SERIALIZER)
        return job.get_status() == "started"

    wait_until(expert_thinking, LONG, "the expert to think about its bid")
    suspend(connection)  # no job after this thought
    connection.close()
    # Ctrl-C: gunicorn stops, the worker ends the thought in hand, then Redis stops.
    serve.send_signal(signal.SIGINT)
    assert serve.wait(timeout=scaled(LONG)) == 0, processes.log("serve")[-3000:]

    processes.serve(port, data, name="serve-again")
    assert timeless(call(port, "GET", f"/api/v1/games/{people.id}").body) == before
    # The expert's bid was written before the worker stopped; the next bot's turn waits
    # in Redis for a worker.
    view = call(port, "GET", f"/api/v1/games/{versus.id}").json
    assert (view["version"], view["turn"]) == (2, 2)
    assert view["bids"][1] is not None and view["bids"][2:] == [None, None]
    connection = redis.Redis(unix_socket_path=str(data / "redis.sock"))
    assert current_job_id(connection, turn_key(versus.id, 2)) is not None
    resume(connection)
    connection.close()
    play_turns([port], versus)
    play_turns([port], people)
    check_finished(port, people)
    check_finished(port, versus)
    # Nothing was lost: no job was abandoned, no task queued again.
    assert "lost its worker" not in processes.log("serve-again")
    assert "queued it again" not in processes.log("serve-again")
