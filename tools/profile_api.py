"""`pocha bench api-profile`: where the API's CPU goes for a move and the view read after it,
function by function, in a real gunicorn process (gevent worker, HTTP parsing and all).
How it works: docs/performance.md, `tools.profile_api`.
"""

from __future__ import annotations

import contextlib
import json
import os
import pstats
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tools.bare_wsgi import REDIS_PATH
from tools.bench_api import (
    PLAYERS,
    _Connection,
    _cpu_seconds,
    _wait_ready,
    move_request,
    server_env,
)
from tools.embedded_redis import RedisServer, free_port
from tools.processes import stop_processes
from tools.profile_moves import _top

#: Set for the profiled gunicorn: where its worker writes its profile when it exits.
OUTPUT_ENV = "POCHA_PROFILE_OUTPUT"
#: Set for the floor's API: where its worker writes its app clock when sent SIGUSR2
#: (`tools.profile_api_conf.AppClock`).
APP_CLOCK_ENV = "POCHA_APP_CLOCK"


def _play(port: int, moves: int, seed: int, views: bool) -> tuple[int, int]:
    """Whole games of four people, one request at a time down one connection: each move,
    then (with `views`) the mover's view read again, as the page does after its events.
    (moves made, requests sent)."""
    from engine.pocha.game import Game
    from engine.pocha.rules import Rules

    rng = random.Random(seed)
    connection = _Connection(port)
    json_type = "Content-Type: application/json\r\n"
    rules = {"schedule": "classic"}
    made = sent = 0
    while made < moves:
        game_seed = rng.randrange(1 << 40)
        body = json.dumps(
            {"players": [{"name": f"P{i}"} for i in range(PLAYERS)], "rules": rules,
             "seed": game_seed}
        )  # fmt: skip
        status, answer = connection.request("POST", "/api/v1/games", body.encode(), json_type)
        sent += 1
        if status != 201:
            raise RuntimeError(f"creating a game answered {status}: {answer[:200]!r}")
        created = json.loads(answer)
        replica = Game.new(Rules.from_dict({**rules, "players": PLAYERS}), game_seed)
        auth = [f"Authorization: Bearer {seat['token']}\r\n" for seat in created["seats"]]
        game_id = created["id"]
        while not replica.finished and made < moves:
            seat = replica.turn
            assert seat is not None
            action = rng.choice(replica.legal_actions())
            path, payload = move_request(action)
            status, answer = connection.request(
                "POST", f"/api/v1/games/{game_id}/{path}", payload, json_type + auth[seat]
            )
            sent += 1
            if status != 200:
                raise RuntimeError(f"a move answered {status}: {answer[:200]!r}")
            replica.apply(seat, action)
            made += 1
            if views:
                status, answer = connection.request(
                    "GET", f"/api/v1/games/{game_id}", b"", auth[seat]
                )
                sent += 1
                if status != 200:
                    raise RuntimeError(f"a view answered {status}: {answer[:200]!r}")
    connection.close()
    return made, sent


def _worker_pid(master: int) -> int:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    if len(children) != 1:
        raise RuntimeError(f"expected one gunicorn worker, found {children}")
    return int(children[0])


def _serve(
    base: Path, env: dict[str, str], profile: str | None, app: str = "service.wsgi:app"
) -> tuple[subprocess.Popen[bytes], int]:
    """gunicorn with the shipped settings and one worker serving `app`, profiled when
    `profile` names the file its worker writes on exit."""
    port = free_port()
    command = [
        sys.executable, "-m", "gunicorn", "--config", "python:tools.profile_api_conf",
        "--bind", f"127.0.0.1:{port}", "--workers", "1", app,
    ]  # fmt: skip
    log = (base / f"gunicorn-{port}.log").open("wb")
    process = subprocess.Popen(
        command, env={**env, OUTPUT_ENV: profile or ""}, stdout=log, stderr=log
    )
    # Any path is the bare app's; the API's readiness is its own.
    _wait_ready(port, process, path="/readyz" if app == "service.wsgi:app" else "/bare")
    return process, port


@contextlib.contextmanager
def _private_redis(prefix: str) -> Iterator[tuple[Path, dict[str, str]]]:
    """A scratch folder and a private Redis in it (unix socket); the API's environment for it."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        base = Path(tmp)
        redis_server = RedisServer(
            base / "redis", port=free_port(), unix_socket=base / "redis.sock"
        ).start()
        try:
            yield base, server_env(redis_server.url)
        finally:
            redis_server.stop()


def _moves_cpu(port: int, worker: int, moves: int, views: bool) -> tuple[int, int, float]:
    """300 moves of warm-up, then `moves` timed: (moves made, requests sent, the worker's CPU
    seconds a move)."""
    _play(port, 300, 7, views)
    before = _cpu_seconds(worker)
    made, sent = _play(port, moves, 11, views)
    return made, sent, (_cpu_seconds(worker) - before) / made


def run(
    moves: int = 3000, top: int = 10, views: bool = True, output: str | None = None
) -> list[str]:
    """Play `moves` moves (and, with `views`, a view read after each) against one gunicorn
    worker process: first unprofiled, for its CPU a request from /proc, then again in a
    worker profiled from its start to its exit; the top functions by own and cumulative
    time. `output`: where to write the raw profile too (pstats)."""
    with _private_redis("pocha-api-profile-") as (base, env):
        api, port = _serve(base, env, None)
        try:
            made, sent, plain = _moves_cpu(port, _worker_pid(api.pid), moves, views)
        finally:
            stop_processes([api], 15)
        profile = str(base / "worker.prof")
        api, port = _serve(base, env, profile)
        try:
            _play(port, moves, 13, views)
        finally:
            stop_processes([api], 15)
        deadline = time.monotonic() + 10
        while not os.path.exists(profile) and time.monotonic() < deadline:
            time.sleep(0.1)
        stats = pstats.Stats(profile)
        if output:
            stats.dump_stats(output)
    calls: Any = stats.total_calls  # type: ignore[attr-defined]
    what = "a move and its view read" if views else "a move"
    return [
        f"api profile: {made} moves{' and as many view reads' if views else ''} down one "
        f"connection to one gunicorn worker (gevent), one private Redis; unprofiled, "
        f"{plain * 1e6:.0f} us of the worker's CPU for {what} ({sent / made:.2f} requests a "
        f"move, games' creation included); profiled: {calls / made:.0f} Python calls for {what}",
        f"top {top} by own time (tottime; wall clock: the event loop's own time is mostly "
        "waiting for the next request):",
        *_top(stats, "tottime", top),
        f"top {top} by cumulative time:",
        *_top(stats, "cumulative", top),
    ]


def _requests_cpu(port: int, worker: int, path: str, count: int) -> float:
    """The worker's CPU a request (us) for `count` GETs of `path` down one connection."""
    connection = _Connection(port)
    for _ in range(min(300, count)):
        connection.request("GET", path)
    before = _cpu_seconds(worker)
    for _ in range(count):
        status, _answer = connection.request("GET", path)
        if status != 200:
            raise RuntimeError(f"GET {path} answered {status}")
    connection.close()
    return (_cpu_seconds(worker) - before) / count * 1e6


def _app_clock(worker: int, output: Path) -> tuple[float, int, float]:
    """The worker's app clock (`tools.profile_api_conf.AppClock`), asked for by SIGUSR2 and
    read once it is written: (CPU seconds inside the app's calls, calls, the worker's CPU
    seconds). The worker's own getrusage, in microseconds: /proc's clock ticks (10 ms) over
    a few moves could make the part around the calls come out below zero."""
    written = int(output.read_text().split()[0]) if output.exists() else 0
    os.kill(worker, signal.SIGUSR2)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        figures = output.read_text().split() if output.exists() else []
        if figures and int(figures[0]) > written:
            return float(figures[1]), int(figures[2]), float(figures[3])
        time.sleep(0.01)
    raise RuntimeError("the worker did not write its app clock")


def floor(requests: int = 5000, moves: int = 2000) -> list[str]:
    """What a request costs one gunicorn worker (the shipped settings) at each layer, down one
    connection: a bare WSGI app (`tools.bare_wsgi`: gunicorn and gevent alone), the same
    making one Redis round trip per request, the API's `GET /healthz` (Flask and the API's
    hooks for a trivial request) and a move, the move's split into what the worker spent
    inside the app's calls and around them (`tools.profile_api_conf.AppClock`)."""
    with _private_redis("pocha-api-floor-") as (base, env):
        bare, port = _serve(base, env, None, "tools.bare_wsgi:app")
        try:
            bare_worker = _worker_pid(bare.pid)
            alone = _requests_cpu(port, bare_worker, "/bare", requests)
            waiting = _requests_cpu(port, bare_worker, REDIS_PATH, requests)
        finally:
            stop_processes([bare], 15)
        clock = base / "app-clock"
        api, port = _serve(base, {**env, APP_CLOCK_ENV: str(clock)}, None)
        try:
            worker = _worker_pid(api.pid)
            trivial = _requests_cpu(port, worker, "/healthz", requests)
            _play(port, 300, 7, False)
            app_before, calls_before, before = _app_clock(worker, clock)
            made, _sent = _play(port, moves, 11, False)
            app_after, calls_after, after = _app_clock(worker, clock)
            move = (after - before) / made
            # The app clock's figures include games' creation, as the worker's do.
            inside = (app_after - app_before) / made
        finally:
            stop_processes([api], 15)
    return [
        f"api floor: one gunicorn worker (the shipped settings, gevent), one connection; "
        f"the worker's CPU a request, {requests} requests each, {made} moves",
        f"a bare WSGI app (gunicorn and gevent alone): {alone:.0f} us",
        f"the same, making one Redis round trip first (a PING, as a move makes one round "
        f"trip): {waiting:.0f} us",
        f"the API's GET /healthz (and Flask, the API's hooks): {trivial:.0f} us",
        f"a move (games' creation included): {move * 1e6:.0f} us",
        f"of which inside the app's calls (Flask, the API, its Redis round trip; "
        f"{(calls_after - calls_before) / made:.2f} calls a move): {inside * 1e6:.0f} us",
        f"of which around them (gunicorn's parsing and writes, gevent's loop): "
        f"{(move - inside) * 1e6:.0f} us",
    ]
