"""Fixtures of the resilience tests: the processes production runs, started for one test.

`processes` starts gunicorn (the shipped settings, one worker process each, so a test can
run two side by side), `pocha worker` (with the short watchdog timings of the worker
tests) and `pocha serve`, each in its own session with its output in a log file, and
kills them all when the test ends. The helpers speak plain HTTP (http.client) so that a
test sees exactly the status, headers and bytes a client would, and drive a person's seat
the way a front end does: poll its view until it is its turn, then post one of its legal
moves with If-Match.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.waiting import LONG, scaled, wait_until
from tests.worker.conftest import FAST
from tools.embedded_redis import free_port
from tools.serve import gunicorn_command
from tools.soak import EventLog, view_body

POCHA = Path(sys.executable).with_name("pocha")


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes
    headers: dict[str, str]

    @property
    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


def call(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    headers: dict[str, str] | None = None,
    timeout: float | None = None,
) -> Reply:
    """One request on a new connection; raises OSError when nothing listens. `timeout`: the
    seconds a loaded machine may take to answer (a minute unless told)."""
    seconds = scaled(60) if timeout is None else timeout
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=seconds)
    try:
        sent = {"Content-Type": "application/json", **(headers or {})}
        if token:
            sent["Authorization"] = f"Bearer {token}"
        connection.request(method, path, None if body is None else json.dumps(body), sent)
        response = connection.getresponse()
        return Reply(response.status, response.read(), dict(response.getheaders()))
    finally:
        connection.close()


def ready(port: int) -> bool:
    try:
        return call(port, "GET", "/readyz", timeout=scaled(10)).status == 200
    except OSError:
        return False


class Processes:
    """Real processes of one test, each in its own session, all killed at the end."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.started: list[tuple[str, subprocess.Popen[bytes]]] = []

    def _start(
        self, name: str, command: list[str], env: dict[str, str], ignore_sigint: bool = False
    ) -> subprocess.Popen[bytes]:
        with (self.log_dir / f"{name}.log").open("ab") as log:
            # Its own session, so that gunicorn's workers and RQ's work horses go with it.
            process = subprocess.Popen(
                command,
                env={**os.environ, **env},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                # As a shell starts a command with `&`: SIGINT ignored.
                preexec_fn=_ignore_sigint if ignore_sigint else None,
            )
        self.started.append((name, process))
        return process

    def log(self, name: str) -> str:
        return (self.log_dir / f"{name}.log").read_text(errors="replace")

    def api(self, redis_url: str, name: str = "api", **env: str) -> int:
        """gunicorn with one worker process on a free port, once it is ready; the port."""
        port = free_port()
        process = self._start(
            name,
            gunicorn_command("127.0.0.1", port, processes=1),
            {"REDIS_URL": redis_url, "POCHA_BOT_RUNNER": "rq", **env},
        )
        self._wait(port, process, name)
        return port

    def worker(self, redis_url: str, name: str = "worker", **env: str) -> subprocess.Popen[bytes]:
        return self._start(name, [str(POCHA), "worker"], {"REDIS_URL": redis_url, **FAST, **env})

    def serve(
        self,
        port: int,
        data_dir: Path,
        name: str = "serve",
        *,
        wait: bool = True,
        ignore_sigint: bool = False,
        options: Sequence[str] = (),
        **more_env: str,
    ) -> subprocess.Popen[bytes]:
        """`pocha serve` on `port` with its data in `data_dir` (and more `options`, and
        `more_env` in its environment), once it is ready (unless not `wait`); `ignore_sigint`
        starts it as a shell's `&` does."""
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"} | more_env
        process = self._start(
            name,
            [str(POCHA), "serve", "--host", "127.0.0.1", "--port", str(port),
             "--data-dir", str(data_dir), "--api-processes", "1", *options],
            env,
            ignore_sigint,
        )  # fmt: skip
        if wait:
            self._wait(port, process, name)
        return process

    def _wait(self, port: int, process: subprocess.Popen[bytes], name: str) -> None:
        def up() -> bool:
            if process.poll() is not None:
                raise AssertionError(f"{name} exited:\n{self.log(name)[-3000:]}")
            return ready(port)

        wait_until(up, LONG, f"{name} to start", explain=lambda: self.log(name)[-3000:])

    def kill_all(self) -> None:
        for _, process in self.started:
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=scaled(LONG))


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Processes]:
    started = Processes(tmp_path)
    yield started
    started.kill_all()


# -- games over HTTP --------------------------------------------------------------------


@dataclass
class Table:
    """A game created over HTTP: its id, seed, rules and the people's tokens by seat."""

    id: str
    seed: int
    rules: dict[str, Any]
    players: int
    tokens: dict[int, str]

    def log(self, port: int) -> EventLog:
        """The game's whole event log, checked against an engine replica."""
        reply = call(port, "GET", f"/api/v1/games/{self.id}/events")
        assert reply.status == 200, reply.body
        log = EventLog(self.rules, self.players, self.seed)
        for event in reply.json:
            log.add(event)
        return log


def create(port: int, bots: list[str | None], schedule: list[int], seed: int) -> Table:
    """A game whose seats are people (None) or bots (a level), in order."""
    players = [
        {"name": f"P{i}"} if level is None else {"name": f"B{i}", "bot": level}
        for i, level in enumerate(bots)
    ]
    # No clock: these games wait for their people whatever the test does meanwhile.
    rules = {"schedule": schedule, "turn_seconds": 0}
    reply = call(port, "POST", "/api/v1/games", {"players": players, "rules": rules, "seed": seed})
    assert reply.status == 201, reply.body
    created = reply.json
    tokens = {s["seat"]: s["token"] for s in created["seats"] if "token" in s}
    return Table(created["id"], seed, rules, len(bots), tokens)


def play_turns(
    ports: list[int], table: Table, moves: int | None = None, timeout: float = LONG
) -> int:
    """Play the people's seats, `moves` moves (None: to the end), each on the next port
    of `ports` in turn; waits for the bots in between, `timeout` seconds at most in all
    (scaled). The moves made."""
    made = 0
    deadline = time.monotonic() + scaled(timeout)
    while moves is None or made < moves:
        port = ports[made % len(ports)]
        view = call(port, "GET", f"/api/v1/games/{table.id}").json
        if view["phase"] == "finished":
            break
        seat = view["turn"]
        if seat not in table.tokens:
            assert time.monotonic() < deadline, f"the bots did not play in {timeout} s"
            time.sleep(0.05)
            continue
        mine = call(port, "GET", f"/api/v1/games/{table.id}", token=table.tokens[seat]).json
        if mine["turn"] != seat:
            continue  # a bot moved in between: look again
        reply = post_move(port, table.id, table.tokens[seat], mine, mine["you"]["legal"][0])
        assert reply.status == 200, reply.body
        made += 1
    return made


def post_move(port: int, game_id: str, token: str, view: dict[str, Any], action: Any) -> Reply:
    """The seat whose `view` this is bids (int) or plays (card code) `action`, with
    If-Match on the view's version."""
    path, body = ("bids", {"bid": action}) if isinstance(action, int) else (
        "plays", {"card": action}
    )  # fmt: skip
    return call(
        port,
        "POST",
        f"/api/v1/games/{game_id}/{path}",
        body,
        token=token,
        headers={"If-Match": f'"{view["version"]}"'},
    )


def check_finished(port: int, table: Table) -> EventLog:
    """The game is over, its log is whole and its final view is the replica's."""
    log = table.log(port)
    assert log.replica.finished and log.settled
    view = call(port, "GET", f"/api/v1/games/{table.id}").json
    assert view["version"] == log.version
    assert view_body(view) == log.view(None)
    return log


def timeless(body: bytes) -> bytes:
    """A reply's body less what changes with the time alone: in a view, the seconds left
    on the clock and who is present; any other reply as it is."""
    data = json.loads(body)
    if not isinstance(data, dict) or "seconds_left" not in data:
        return body
    data.pop("seconds_left")
    for player in data["players"]:
        player.pop("present", None)
    return json.dumps(data, sort_keys=True).encode()
