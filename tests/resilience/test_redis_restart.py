"""Redis stopped and started again, with append-only persistence, under a live service.

A private Redis with `appendonly yes` in a temporary dir serves gunicorn and a `pocha
worker`. Three games are in play: a person against three bots, four people, and four bots
playing by themselves (mid-thought when Redis goes). Redis gets SIGTERM (it fsyncs its
append-only file and exits); while it is away every request that needs it is answered
`503` with the machine code `unavailable` and a Retry-After, quickly, never `500`, and
`/healthz` still answers. Redis is started again on the same dir and port: every game is
exactly where it was, the same worker process reconnects and plays the bots again, and all
three games play to the end with whole event logs.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import redis
from rq import Worker

from tests.resilience.conftest import (
    Processes,
    Table,
    call,
    check_finished,
    create,
    play_turns,
    ready,
    timeless,
)
from tests.waiting import LONG, scaled, wait_until
from tools.embedded_redis import RedisServer, free_port

#: An answer while Redis is away must come at least this fast (connect timeout: 2 s, and
#: room for a loaded machine, more on a slower one): far from a request that hangs on the
#: missing Redis.
PROMPT_SECONDS = scaled(15.0)

#: What a worker logs when it finds Redis away: RQ's retry of its wait on the queues (or of
#: its pubsub thread), or the end of RQ's loop that the worker starts again.
LOST_REDIS = ("could not connect to Redis instance", "the worker lost Redis")


def _snapshot(port: int, table: Table) -> list[bytes]:
    """The game's spectator view and every person's view, as bytes, less what changes
    with the time alone (the seconds left on the clock, who is present)."""
    views = [call(port, "GET", f"/api/v1/games/{table.id}")]
    views += [
        call(port, "GET", f"/api/v1/games/{table.id}", token=token)
        for token in table.tokens.values()
    ]
    assert all(v.status == 200 for v in views), [(v.status, v.body) for v in views]
    return [timeless(v.body) for v in views]


def _unavailable(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    headers: dict[str, str] | None = None,
) -> None:
    began = time.monotonic()
    reply = call(port, method, path, body, token, headers)
    took = time.monotonic() - began
    assert reply.status == 503, (method, path, reply.status, reply.body)
    assert reply.json["error"] == "unavailable", reply.body
    assert reply.headers.get("Retry-After"), reply.headers
    assert took < PROMPT_SECONDS, (method, path, took)


def test_games_continue_after_redis_restarts(tmp_path: Path, processes: Processes) -> None:
    server = RedisServer(tmp_path / "redis", port=free_port(), appendonly=True)
    server.start(timeout=scaled(LONG))
    try:
        api = processes.api(server.url)
        worker = processes.worker(server.url)
        watcher = server.client()
        wait_until(lambda: Worker.count(connection=watcher) == 1, LONG, "the worker")

        versus_bots = create(api, [None, "heuristic", "easy", "heuristic"], [3, 3], seed=5)
        people = create(api, [None, None, None, None], [2, 2], seed=6)
        bots_only = create(api, ["easy", "heuristic", "easy", "heuristic"], [4] * 8, seed=7)
        play_turns([api], versus_bots, moves=3)
        play_turns([api], people, moves=5)
        wait_until(
            lambda: call(api, "GET", f"/api/v1/games/{bots_only.id}").json["version"] > 10,
            LONG,
            "the bots-only game to be under way",
        )
        wait_until(
            lambda: call(api, "GET", f"/api/v1/games/{versus_bots.id}").json["turn"] == 0,
            LONG,
            "the bots to hand the turn back to the person",
        )
        before = {t.id: _snapshot(api, t) for t in (versus_bots, people)}
        people_view = call(api, "GET", f"/api/v1/games/{people.id}").json
        on_turn = people.tokens[people_view["turn"]]
        watcher.close()

        # SIGTERM: Redis fsyncs the append-only file and exits.
        server.stop(timeout=scaled(LONG))
        assert not server.running

        for table in (versus_bots, people, bots_only):
            for path in ("", "/events", "/history"):
                _unavailable(api, "GET", f"/api/v1/games/{table.id}{path}")
            _unavailable(api, "GET", f"/api/v1/games/{table.id}", token=on_turn)
        _unavailable(
            api, "GET", f"/api/v1/games/{people.id}/events",
            headers={"Accept": "text/event-stream"},
        )  # fmt: skip
        _unavailable(api, "POST", f"/api/v1/games/{people.id}/bids", {"bid": 0}, token=on_turn)
        _unavailable(api, "POST", f"/api/v1/games/{people.id}/plays", {"card": "O1"}, token=on_turn)
        _unavailable(api, "POST", "/api/v1/games", {"players": [{"name": n} for n in "ABC"]})
        _unavailable(api, "GET", "/readyz")
        assert call(api, "GET", "/healthz").status == 200
        # The worker has seen Redis go (the restart is then one it comes back from).
        wait_until(
            lambda: any(said in processes.log("worker") for said in LOST_REDIS),
            LONG,
            "the worker to notice that Redis is away",
            explain=lambda: processes.log("worker")[-3000:],
        )

        # The same dir and port: the append-only file is read back.
        server.start(timeout=scaled(LONG))
        wait_until(lambda: ready(api), LONG, "the API to be ready again")
        for table in (versus_bots, people):
            assert _snapshot(api, table) == before[table.id]  # exactly where it was

        # The same worker reconnects: it is the only one, and the bots play on.
        play_turns([api], versus_bots)
        play_turns([api], people)
        wait_until(
            lambda: call(api, "GET", f"/api/v1/games/{bots_only.id}").json["phase"] == "finished",
            LONG,
            "the bots-only game to end",
        )
        for table in (versus_bots, people, bots_only):
            check_finished(api, table)
        # One process all along; its ended RQ worker unregistered, its new one alive.
        assert worker.poll() is None, processes.log("worker")[-3000:]
        with redis.Redis.from_url(server.url) as client:
            wait_until(lambda: Worker.count(connection=client) == 1, LONG, "one worker")
        assert "Traceback" not in processes.log("api"), processes.log("api")[-3000:]
    finally:
        server.stop()
