"""`pocha bench move-path`: where a move's server CPU goes, function by function.
How it works: docs/performance.md, `tools.profile_moves`.
"""

from __future__ import annotations

import cProfile
import functools
import gc
import io
import json
import os
import pstats
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tools.bench_api import PLAYERS, move_request, server_env
from tools.embedded_redis import RedisServer, free_port


def _environ(method: str, path: str, body: bytes, headers: dict[str, str]) -> dict[str, Any]:
    """A WSGI environ as gunicorn hands one to the app for this request."""
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "REMOTE_PORT": "40000",
        "HTTP_HOST": "127.0.0.1",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": io.StringIO(),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if body:
        environ["CONTENT_TYPE"] = "application/json"
        environ["CONTENT_LENGTH"] = str(len(body))
    for name, value in headers.items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    return environ


def _call(app: Any, environ: dict[str, Any]) -> tuple[int, bytes]:
    """The app's answer to `environ`, read as gunicorn reads it."""
    status: list[str] = []

    def start_response(line: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        status.append(line)
        return None

    chunks = app(environ, start_response)
    try:
        body = b"".join(chunks)
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()
    return int(status[0][:3]), body


def play(app: Any, moves: int, seed: int, around: Callable[[Callable[[], Any]], Any]) -> int:
    """Play whole games of four people through `app` until `moves` moves are made; each
    move's call to the app goes through `around` (the profiler's switch). The moves made."""
    from engine.pocha.game import Game
    from engine.pocha.rules import Rules

    rng = random.Random(seed)
    made = 0
    rules = {"schedule": "classic"}
    while made < moves:
        game_seed = rng.randrange(1 << 40)
        body = json.dumps(
            {"players": [{"name": f"P{i}"} for i in range(PLAYERS)], "rules": rules,
             "seed": game_seed}
        ).encode()  # fmt: skip
        status, answer = _call(app, _environ("POST", "/api/v1/games", body, {}))
        if status != 201:
            raise RuntimeError(f"creating a game answered {status}: {answer[:200]!r}")
        created = json.loads(answer)
        replica = Game.new(Rules.from_dict({**rules, "players": PLAYERS}), game_seed)
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        while not replica.finished and made < moves:
            seat = replica.turn
            assert seat is not None
            action = rng.choice(replica.legal_actions())
            path, payload = move_request(action)
            environ = _environ(
                "POST", f"/api/v1/games/{game_id}/{path}", payload,
                {"Authorization": f"Bearer {tokens[seat]}"},
            )  # fmt: skip
            status, answer = around(functools.partial(_call, app, environ))
            if status != 200:
                raise RuntimeError(f"a move answered {status}: {answer[:200]!r}")
            replica.apply(seat, action)
            made += 1
    return made


#: The project's own code among the profile's files (`_top`'s `only`).
OURS = r"/(service|core|engine|ai)/[a-z_/]+\.py"


def _top(stats: pstats.Stats, key: str, count: int, only: str | None = None) -> list[str]:
    out = io.StringIO()
    stats.stream = out  # type: ignore[attr-defined]
    restrictions: list[str | int] = [count] if only is None else [only, count]
    stats.sort_stats(key).print_stats(*restrictions)
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
    return [line for line in lines[start:] if line.strip()]


#: What `as_worker` runs in a fresh process: gevent's patching before anything else is
#: imported, as `service.gunicorn_conf` does it before the app, then `run`.
_AS_WORKER = (
    "from gevent import monkey; monkey.patch_all(); import sys; "
    "from tools.profile_moves import run; "
    "print('\\n'.join(run(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] or None, "
    "frozen=True)))"
)


def run_as_worker(moves: int = 4000, top: int = 10, output: str | None = None) -> list[str]:
    """`run` under a gunicorn worker's conditions, in a fresh process: gevent's sockets and
    locks (monkey-patched first), the metrics in prometheus' multiprocess files and the app
    frozen out of the garbage collector's reach once built (`service.gunicorn_conf`)."""
    with tempfile.TemporaryDirectory(prefix="pocha-move-path-metrics-") as metrics:
        # This process's import path, so that the fresh one imports the same modules.
        path = os.pathsep.join(entry for entry in sys.path if entry)
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": metrics, "PYTHONPATH": path}
        command = [sys.executable, "-c", _AS_WORKER, str(moves), str(top), output or ""]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the move path as a worker failed: {done.stderr[-2000:]}")
    lines = done.stdout.splitlines()
    lines[0] = lines[0].replace(
        "(Flask app, no gunicorn)",
        "(Flask app, no gunicorn; as in a worker: gevent, metrics in files, gc frozen)",
    )
    return lines


def run(
    moves: int = 4000, top: int = 10, output: str | None = None, frozen: bool = False
) -> list[str]:
    """Play `moves` moves in this process through the app as the benched gunicorn runs it
    (`tools.bench_api.server_env`), against a private Redis, profiling only the app's
    handling of the moves; the top functions by own and by cumulative time, and the CPU
    per move without the profiler. `output`: where to write the raw profile too; `frozen`:
    freeze what exists once the app is built, as gunicorn's master does before forking."""
    with tempfile.TemporaryDirectory(prefix="pocha-move-path-") as tmp:
        base = Path(tmp)
        redis_server = RedisServer(
            base / "redis", port=free_port(), unix_socket=base / "redis.sock"
        ).start()
        saved = dict(os.environ)
        try:
            os.environ.update(server_env(redis_server.url))
            from service.app import create_app

            app = create_app()
            if frozen:
                gc.freeze()
            wsgi = app.wsgi_app
            # Warm up: scripts loaded, caches filled, code paths imported.
            play(wsgi, 400, 7, lambda call: call())
            # Unprofiled: this process's CPU a move (the app only: the engine replica and
            # the environs are timed out of it).
            spent = [0.0]

            def timed(call: Callable[[], Any]) -> Any:
                began = time.process_time()
                result = call()
                spent[0] += time.process_time() - began
                return result

            made = play(wsgi, moves, 11, timed)
            plain = spent[0] / made
            # The default (wall) clock: a CPU clock costs a system call per function
            # entry and exit, which buries the rest under the calls made most often. The
            # socket calls' time includes waiting for Redis and being preempted.
            profiler = cProfile.Profile()

            def profiled(call: Callable[[], Any]) -> Any:
                profiler.enable()
                try:
                    return call()
                finally:
                    profiler.disable()

            made = play(wsgi, moves, 13, profiled)
        finally:
            os.environ.clear()
            os.environ.update(saved)
            redis_server.stop()
    if output:
        profiler.dump_stats(output)
    stats = pstats.Stats(profiler)
    calls = stats.total_calls  # type: ignore[attr-defined]
    lines = [
        f"move path: {made} moves in-process (Flask app, no gunicorn), one private Redis; "
        f"{plain * 1e6:.0f} us of CPU a move unprofiled, {calls / made:.0f} Python calls a move",
        f"top {top} by own time (tottime; cProfile's overhead inflates the small calls):",
        *_top(stats, "tottime", top),
        f"top {top} by cumulative time:",
        *_top(stats, "cumulative", top),
        f"top {top} of the project's own functions by cumulative time:",
        *_top(stats, "cumulative", top, OURS),
    ]
    return lines
