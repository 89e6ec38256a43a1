"""`pocha bench soak`: many whole games at once against the real stack, every event checked.
How it works: docs/performance.md, `tools.soak`.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import random
import subprocess
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnProcess
from pathlib import Path
from typing import Any

from tools.embedded_redis import RedisServer, free_port
from tools.processes import die_with_parent, stop_processes
from tools.serve import gunicorn_command, worker_command

#: The person sits here; the bots take the other seats in the order given.
HUMAN_SEAT = 0
#: gunicorn closes a keep-alive connection idle this long (gunicorn_conf.keepalive = 5 s);
#: a connection idle for nearly as long is replaced before use, rather than raced.
IDLE_RECONNECT = 4.0
#: Views and moves, not event streams: a request that takes longer than this has failed.
REQUEST_TIMEOUT = 30.0

# View keys that come from the stored game's record, not from the game (`core.play.games.view_of`).
VIEW_ONLY = (
    "id", "version", "last_event", "seeded", "players", "table", "deadline", "seconds_left"
)  # fmt: skip


@dataclass(frozen=True)
class SoakSpec:
    """What to play: how many games, who sits where, the rules."""

    games: int = 200
    bots: tuple[str, ...] = ("heuristic", "easy", "heuristic")
    schedule: str | tuple[int, ...] = (2, 3)
    seed: int = 1
    #: Seconds the person thinks before each move (0: as fast as the service answers).
    think: float = 0.0
    #: A game with no new event for this long is stuck: a lost move.
    stall: float = 120.0

    @property
    def players(self) -> int:
        return 1 + len(self.bots)

    def rules(self) -> dict[str, Any]:
        schedule = self.schedule if isinstance(self.schedule, str) else list(self.schedule)
        return {"schedule": schedule}


@dataclass
class GameReport:
    """What one client thread saw of its game."""

    game: str = ""
    finished: bool = False
    human_moves: int = 0
    bot_moves: int = 0
    events: int = 0
    errors: list[str] = field(default_factory=list)
    #: Breaches of the event log's order: gaps, moves twice or out of turn, wrong events.
    violations: list[str] = field(default_factory=list)
    server_errors: int = 0
    requests: int = 0
    reconnects: int = 0
    move_latencies: list[float] = field(default_factory=list)
    bot_latencies: list[float] = field(default_factory=list)
    waits: list[float] = field(default_factory=list)


class _Failed(Exception):
    """The game cannot go on: the reason is recorded in the report already."""


class _Http:
    """One keep-alive connection to the API, counting requests and 5xx answers."""

    def __init__(self, port: int, report: GameReport) -> None:
        self.port = port
        self.report = report
        self._connection: http.client.HTTPConnection | None = None
        self._used = 0.0

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any, bool]:
        """Status, decoded JSON body, and whether the request had to be sent twice."""
        payload = None if body is None else json.dumps(body)
        sent = {"Content-Type": "application/json", **(headers or {})}
        for attempt in (1, 2):
            if self._connection is None or time.monotonic() - self._used > IDLE_RECONNECT:
                self.close()
                self._connection = http.client.HTTPConnection(
                    "127.0.0.1", self.port, timeout=REQUEST_TIMEOUT
                )
            try:
                self._connection.request(method, path, payload, sent)
                response = self._connection.getresponse()
                raw = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # The server closed the kept-alive connection as this request went out.
                # Sending it again is safe: moves carry If-Match, so a second copy of one
                # that was applied is refused with 412, never applied twice.
                self.close()
                if attempt == 2:
                    raise
                continue
            self._used = time.monotonic()
            if response.will_close:
                self.close()
            self.report.requests += 1
            if response.status >= 500:
                self.report.server_errors += 1
            return response.status, json.loads(raw) if raw else None, attempt == 2
        raise AssertionError("unreachable")


def stream_events(lines: Iterable[bytes]) -> Iterator[dict[str, Any] | None]:
    """The events of a Server-Sent Events stream's `lines`, each once the blank line after
    its data ends it, and None for every other line: a reader sees each line go by, and
    so may watch its clock while only keepalives come."""
    data: list[bytes] = []
    for line in lines:
        line = line.rstrip(b"\r\n")
        if line.startswith(b"data:"):
            data.append(line[5:].lstrip(b" "))
            yield None
        elif not line and data:
            event = json.loads(b"\n".join(data))
            data = []
            yield event
        else:
            yield None


def _events(
    port: int, game_id: str, report: GameReport, stall: float, after: int = 0
) -> Iterator[tuple[float, dict[str, Any]]]:
    """The game's events as they arrive (arrival time, event), over Server-Sent Events,
    resuming with Last-Event-ID whenever a stream ends; raises `_Failed` when no event
    comes for `stall` seconds."""
    last_event_at = time.monotonic()
    # Keepalives come every 15 s: a read that waits longer means a dead connection.
    read_timeout = min(stall, 20.0)
    while True:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=read_timeout)
        try:
            connection.request(
                "GET",
                f"/api/v1/games/{game_id}/events",
                headers={"Accept": "text/event-stream", "Last-Event-ID": str(after)},
            )
            response = connection.getresponse()
            report.requests += 1
            if response.status != 200:
                if response.status >= 500:
                    report.server_errors += 1
                report.errors.append(f"event stream: HTTP {response.status}")
                raise _Failed
            for event in stream_events(response):
                if event is not None:
                    last_event_at = time.monotonic()
                    after = int(event["seq"])
                    yield last_event_at, event
                if time.monotonic() - last_event_at > stall:
                    break
        except (OSError, http.client.HTTPException):
            # A read timeout or a dropped stream: reconnect below, from the last seq.
            pass
        finally:
            connection.close()
        if time.monotonic() - last_event_at > stall:
            report.errors.append(f"no event for {stall:g} s after seq {after}: the game is stuck")
            raise _Failed
        report.reconnects += 1


def _strip(data: dict[str, Any], keys: Sequence[str]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in keys}


def _clockless(view: dict[str, Any]) -> dict[str, Any]:
    """A view less its clock setting: the service gives a game of two people or more the
    default `turn_seconds`, which a replica made from the rules as sent has not; the
    clock is the service's, not the cards'."""
    rules = {k: v for k, v in view["rules"].items() if k != "turn_seconds"}
    return {**view, "rules": rules}


def _history(game: Any) -> list[dict[str, Any]]:
    """The score sheet of a game as the API's history gives it."""
    from engine.pocha.observation import observe

    history: list[dict[str, Any]] = observe(game, None).to_dict()["history"]
    return history


def _plain(event: dict[str, Any]) -> dict[str, Any]:
    """An engine event as it reads once stored (JSON: tuples become lists)."""
    loaded: dict[str, Any] = json.loads(json.dumps(event))
    return loaded


class LogViolation(Exception):
    """An event that breaks the game's log: a gap, a move twice or out of turn, an event
    the engine would not have made."""


class EventLog:
    """A game's events checked one by one, as they arrive, against an engine replica
    made from the same rules and seed (so it deals the same cards).

    `add` takes the next event and raises `LogViolation` unless its `seq` follows the last,
    a bid or card comes after every consequence of the move before it, raises the version
    by exactly one and is accepted by the replica (a turn played twice, or out of turn, is
    refused), and every other event (trick won, hand scored, next deal, game over) is the
    one the replica produced for that move, at its version."""

    def __init__(self, rules: dict[str, Any], players: int, seed: int) -> None:
        from engine.pocha.game import Game
        from engine.pocha.rules import Rules

        self.replica = Game.new(Rules.from_dict({**rules, "players": players}), seed)
        self.events: list[dict[str, Any]] = []
        # What the replica produced for the last move and has not arrived yet; first the
        # deal of the first hand, at version 1.
        self.expected: deque[dict[str, Any]] = deque([_plain(self.replica.hand_dealt_event())])
        self.version = 1

    @property
    def settled(self) -> bool:
        """Every consequence of the last move has arrived: the replica is the game now."""
        return not self.expected

    def add(self, event: dict[str, Any]) -> int | None:
        """Check and apply the next event; the seat that moved, if it is a move."""
        from engine.errors import GameError
        from engine.pocha.actions import action_from_wire

        seq = event.get("seq")
        if seq != len(self.events) + 1:
            raise LogViolation(f"seq {seq} after {len(self.events)}")
        self.events.append(event)
        body = _strip(event, ("seq", "version"))
        if event.get("type") not in ("bid", "card_played"):
            want = self.expected.popleft() if self.expected else None
            if body != want or event.get("version") != self.version:
                raise LogViolation(
                    f"seq {seq}: {body} at version {event.get('version')} where {want} at "
                    f"version {self.version} was due"
                )
            return None
        if self.expected:
            raise LogViolation(f"seq {seq}: a move before {self.expected[0]['type']}")
        if event.get("version") != self.version + 1:
            raise LogViolation(f"seq {seq}: version {event.get('version')} after {self.version}")
        seat = event["seat"]
        move = event["bid"] if event["type"] == "bid" else event["card"]
        try:
            produced = [_plain(e) for e in self.replica.apply(seat, action_from_wire(move))]
        except GameError as exc:
            # A turn played twice, or a move nobody could make: the log is wrong.
            raise LogViolation(f"seq {seq}: the engine refuses it: {exc}") from exc
        if produced[0] != body:
            raise LogViolation(f"seq {seq}: {body} where {produced[0]} was made")
        self.expected.extend(produced[1:])
        self.version += 1
        return int(seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        """The view the API must give of the replica, less the keys of the record."""
        from core.play.games import view_of

        return _clockless(view_of(self.replica, seat))


def view_body(view: dict[str, Any]) -> dict[str, Any]:
    """An API view less the keys of the record: what `EventLog.view` must equal."""
    return _clockless(_strip(view, VIEW_ONLY))


def play_one(port: int, spec: SoakSpec, index: int) -> GameReport:
    """Create game `index`, play its person's seat to the end, check every event."""
    report = GameReport()
    rng = random.Random(f"pocha-soak:{spec.seed}:{index}")
    seed = rng.randrange(1 << 40)
    api = _Http(port, report)
    players = [{"name": "You"}] + [
        {"name": f"{level.title()} {i}", "bot": level} for i, level in enumerate(spec.bots, 1)
    ]
    try:
        status, created, _ = api.request(
            "POST", "/api/v1/games", {"players": players, "rules": spec.rules(), "seed": seed}
        )
        if status != 201:
            report.errors.append(f"create: HTTP {status} {created}")
            return report
        game_id = report.game = created["id"]
        auth = {"Authorization": f"Bearer {created['seats'][HUMAN_SEAT]['token']}"}
        log = EventLog(spec.rules(), spec.players, seed)
        replica = log.replica
        last_move_at = time.monotonic()
        waiting_since: float | None = None
        bots_since_move = 0
        for arrived, event in _events(port, game_id, report, spec.stall):
            try:
                seat = log.add(event)
            except LogViolation as exc:
                report.violations.append(str(exc))
                raise _Failed from exc
            if seat is not None:
                if seat != HUMAN_SEAT:
                    report.bot_moves += 1
                    bots_since_move += 1
                    report.bot_latencies.append(arrived - last_move_at)
                last_move_at = arrived
            if not log.settled:
                continue  # the rest of this move's consequences are on their way
            if replica.finished:
                break
            if replica.turn != HUMAN_SEAT:
                continue
            version = log.version
            if waiting_since is not None and bots_since_move:
                report.waits.append(time.monotonic() - waiting_since)
            # As a front end would: the seat's view, then one of its legal moves. The view
            # must be the replica's, seen from this seat.
            status, view, _ = api.request("GET", f"/api/v1/games/{game_id}", headers=auth)
            if status != 200:
                report.errors.append(f"view at version {version}: HTTP {status} {view}")
                raise _Failed
            if view["version"] != version or view_body(view) != log.view(HUMAN_SEAT):
                report.violations.append(f"the view at version {version} is not the replica's")
                raise _Failed
            if spec.think:
                time.sleep(spec.think)
            action = rng.choice(view["you"]["legal"])
            path, move = ("bids", {"bid": action}) if isinstance(action, int) else (
                "plays", {"card": action}
            )  # fmt: skip
            began = time.monotonic()
            status, view, resent = api.request(
                "POST",
                f"/api/v1/games/{game_id}/{path}",
                move,
                {**auth, "If-Match": f'"{version}"'},
            )
            ended = time.monotonic()
            # A resent move that was applied the first time is refused as stale: the
            # event stream shows it once, which is what is checked.
            if not (status == 200 or (resent and status == 412)):
                report.errors.append(f"{path} at version {version}: HTTP {status} {view}")
                raise _Failed
            if status == 200 and view["version"] != version + 1:
                report.violations.append(f"{path}: answered version {view['version']}")
                raise _Failed
            if not resent:
                report.move_latencies.append(ended - began)
            report.human_moves += 1
            last_move_at = waiting_since = ended
            bots_since_move = 0
        report.events = len(log.events)
        # The log as stored, the final view and the score sheet against the replica.
        final = log.view(None)
        history = _history(replica)
        checks: tuple[tuple[str, str, Callable[[Any], bool]], ...] = (
            ("events", "the stored event log differs from the streamed one", log.events.__eq__),
            (
                "",
                "the final view differs from the replayed game",
                lambda x: x["version"] == log.version and view_body(x) == final,
            ),
            (
                "history",
                "the score sheet differs from the replayed game",
                lambda x: x["hands"] == history and x["scores"] == replica.scores,
            ),
        )
        for path, problem, check in checks:
            status, body, _ = api.request("GET", f"/api/v1/games/{game_id}/{path}".rstrip("/"))
            if status != 200:
                report.errors.append(f"GET .../{path or 'game'} after the end: HTTP {status}")
            elif not check(body):
                report.violations.append(problem)
        report.finished = replica.finished and not report.errors and not report.violations
    except _Failed:
        pass
    except (OSError, http.client.HTTPException, ValueError, KeyError, TypeError) as exc:
        report.errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        api.close()
    return report


def _client(port: int, spec: SoakSpec, indices: list[int], pipe: Connection) -> None:
    """A load-client process: one thread per game; sends the reports back through `pipe`."""
    reports: list[GameReport] = [GameReport() for _ in indices]

    def run(slot: int, index: int) -> None:
        reports[slot] = play_one(port, spec, index)

    threads = [
        threading.Thread(target=run, args=(slot, index), daemon=True)
        for slot, index in enumerate(indices)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    pipe.send(reports)
    pipe.close()


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _ms(values: Sequence[float]) -> str:
    return (
        f"p50 {_percentile(values, 0.5) * 1000:.0f} ms, p99 "
        f"{_percentile(values, 0.99) * 1000:.0f} ms, max {max(values, default=0) * 1000:.0f} ms"
    )


def _http_ok(port: int, path: str) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        connection.request("GET", path)
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


@dataclass
class SoakResult:
    """The report's lines, and whether the target was met (every game finished, no error,
    no 5xx, no lost or doubled move)."""

    lines: list[str]
    ok: bool


class _Stack:
    """Redis, gunicorn and the workers of one soak, with their logs in `base`."""

    def __init__(self, base: Path, sock: Path, workers: int, api_workers: int | None) -> None:
        self.base = base
        # The socket goes in a short temporary path (a unix socket's path must fit in 108
        # bytes), the data and logs wherever `base` is.
        self.redis = RedisServer(base / "redis", unix_socket=sock)
        self.port = free_port()
        self.workers = workers
        self.api_workers = api_workers
        self.processes: list[subprocess.Popen[bytes]] = []

    def _spawn(self, name: str, command: list[str], env: dict[str, str]) -> None:
        log = (self.base / f"{name}.log").open("wb")
        self.processes.append(
            subprocess.Popen(
                command, env=env, stdout=log, stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent(),  # nothing outlives a killed soak
            )
        )  # fmt: skip
        log.close()

    def start(self) -> None:
        self.redis.start()
        env = {
            **os.environ,
            "REDIS_URL": self.redis.url,
            "POCHA_BOT_RUNNER": "rq",
            # The load client is one address standing in for every player.
            "POCHA_RATE_LIMITS": "off",
            "POCHA_MAX_STREAMS_PER_ADDRESS": "0",
            "POCHA_MAX_CONNECTIONS_PER_ADDRESS": "0",
            "POCHA_ACCESS_LOG": "",
            "POCHA_LOG_LEVEL": "warning",
        }
        self._spawn("api", gunicorn_command("127.0.0.1", self.port, self.api_workers), env)
        for i in range(self.workers):
            self._spawn(f"worker-{i}", worker_command(), env)
        self._wait_ready()

    def _wait_ready(self, timeout: float = 60.0) -> None:
        from rq import Worker

        from core.jobs.queues import connect

        connection = connect(self.redis.url)
        deadline = time.monotonic() + timeout
        try:
            while not _http_ok(self.port, "/readyz") or (
                Worker.count(connection=connection) < self.workers
            ):
                if any(p.poll() is not None for p in self.processes):
                    raise RuntimeError(f"a process of the stack exited; logs in {self.base}")
                if time.monotonic() > deadline:
                    raise RuntimeError("the stack did not start")
                time.sleep(0.1)
        finally:
            connection.close()

    def worker_stats(self) -> tuple[int, int, int]:
        """Failed bot-turn jobs, watchdog recoveries (from the workers' logs: jobs whose
        worker died, handed back to RQ, and tasks queued again), turns that the fallback
        bot had to play."""
        from rq.registry import FailedJobRegistry

        from core.jobs.queues import SERIALIZER, TURNS, connect

        connection = connect(self.redis.url)
        try:
            failed = FailedJobRegistry(TURNS, connection=connection, serializer=SERIALIZER).count
        finally:
            connection.close()
        logs = "".join(
            (self.base / f"worker-{i}.log").read_text(errors="replace") for i in range(self.workers)
        )
        recoveries = logs.count("lost its worker") + logs.count("queued it again")
        return failed, recoveries, logs.count("the fallback bot plays")

    def stop(self) -> None:
        stop_processes(self.processes, 30)
        self.processes = []
        self.redis.stop()


def run(
    spec: SoakSpec,
    workers: int = 2,
    api_workers: int | None = None,
    processes: int = 2,
    timeout: float = 1800.0,
    log_dir: str | os.PathLike[str] | None = None,
) -> SoakResult:
    """Start the stack, play `spec.games` games at once, check them; the report.
    `log_dir`: keep the logs of Redis, gunicorn and the workers there (else they go with
    a temporary directory)."""
    reports: list[GameReport] = []
    clients: list[SpawnProcess] = []
    with tempfile.TemporaryDirectory(prefix="pocha-soak-") as tmp:
        base = Path(log_dir) if log_dir is not None else Path(tmp)
        base.mkdir(parents=True, exist_ok=True)
        stack = _Stack(base, Path(tmp) / "redis.sock", workers, api_workers)
        try:
            stack.start()
            began = time.monotonic()
            context = multiprocessing.get_context("spawn")
            share = [list(range(i, spec.games, processes)) for i in range(processes)]
            pipes: list[Connection] = []
            for indices in share:
                if not indices:
                    continue
                receiver, sender = context.Pipe(duplex=False)
                client = context.Process(target=_client, args=(stack.port, spec, indices, sender))
                client.start()
                sender.close()
                pipes.append(receiver)
                clients.append(client)
            for receiver in pipes:
                if not receiver.poll(max(1.0, timeout - (time.monotonic() - began))):
                    raise RuntimeError(f"the soak did not end within {timeout:g} s")
                reports.extend(receiver.recv())
            elapsed = time.monotonic() - began
            for client in clients:
                client.join(timeout=30)
            failed_jobs, recoveries, fallbacks = stack.worker_stats()
        finally:
            for client in clients:
                if client.is_alive():
                    client.kill()
            stack.stop()
    return _summarise(
        spec, reports, elapsed, workers, api_workers, failed_jobs, recoveries, fallbacks
    )


def _summarise(
    spec: SoakSpec,
    reports: list[GameReport],
    elapsed: float,
    workers: int,
    api_workers: int | None,
    failed_jobs: int,
    recoveries: int,
    fallbacks: int,
) -> SoakResult:
    finished = sum(r.finished for r in reports)
    human = sum(r.human_moves for r in reports)
    bots = sum(r.bot_moves for r in reports)
    errors = [(r.game, e) for r in reports for e in r.errors]
    violations = [(r.game, v) for r in reports for v in r.violations]
    server_errors = sum(r.server_errors for r in reports)
    schedule = spec.schedule if isinstance(spec.schedule, str) else list(spec.schedule)
    lines = [
        f"soak: {spec.games} games at once, each you + {', '.join(spec.bots)} "
        f"(schedule {schedule}, think {spec.think:g} s); gunicorn workers="
        f"{api_workers or 'default'} (gevent), {workers} pocha workers, one Redis; "
        f"{os.cpu_count()} cores shared by all of it and the load client",
        f"games finished: {finished}/{spec.games} in {elapsed:.1f} s",
        f"moves: {human + bots} ({human} by the load client, {bots} by bots; "
        f"{(human + bots) / elapsed:.0f} moves/s); events checked: "
        f"{sum(r.events for r in reports)}",
        f"errors: {len(errors)}; 5xx: {server_errors}; requests: "
        f"{sum(r.requests for r in reports)}; stream reconnects: "
        f"{sum(r.reconnects for r in reports)}",
        f"lost or doubled moves: {len(violations)} (event logs checked against the engine)",
        f"move latency (the load client's moves): "
        f"{_ms([x for r in reports for x in r.move_latencies])}",
        f"bot turn latency (each bot move, from the move before it): "
        f"{_ms([x for r in reports for x in r.bot_latencies])}",
        f"waiting for the bots (from a move to the next turn): "
        f"{_ms([x for r in reports for x in r.waits])}",
        f"workers: {failed_jobs} failed bot-turn jobs, {recoveries} turns recovered by the "
        f"watchdog, {fallbacks} played by the fallback bot",
    ]
    for game, problem in (violations + errors)[:10]:
        lines.append(f"  game {game or '(not created)'}: {problem}")
    ok = finished == spec.games and not errors and not violations and server_errors == 0
    lines.append("target met" if ok else "TARGET MISSED: every game finished, 0 errors, 0 lost")
    return SoakResult(lines, ok)


def parse_schedule(text: str) -> str | tuple[int, ...]:
    """`classic`, `pyramid`, or card counts such as `2,3`."""
    text = text.strip()
    if text.isalpha():
        return text
    return tuple(int(x) for x in text.split(",") if x.strip())


__all__ = [
    "EventLog",
    "LogViolation",
    "SoakResult",
    "SoakSpec",
    "parse_schedule",
    "play_one",
    "run",
    "view_body",
]
