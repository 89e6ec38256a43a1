"""`pocha bench hostile`: moves and /healthz while hostile clients hold connections open.
How it works: docs/performance.md, `tools.bench_hostile`.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import re
import selectors
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

from tools.bench_api import (
    Sample,
    _Connection,
    _run_phase,
    _ServerClock,
    _summary,
    _wait_ready,
    move_request,
    server_env,
)
from tools.embedded_redis import RedisServer, free_port
from tools.processes import stop_processes
from tools.serve import gunicorn_command

PLAYERS = 4
#: Seconds between the bytes a slowloris socket trickles.
TRICKLE_SECONDS = 1.0
#: How long the streams may take to catch up with the last move once the feeder stops.
CATCH_UP_SECONDS = 15.0
_ID = re.compile(rb"\nid: (\d+)\n")


def _address(block: int, index: int) -> str:
    """The `index`th loopback address of a block: 127.<block>.<i // 250>.<i % 250 + 1>."""
    return f"127.{block}.{index // 250}.{index % 250 + 1}"


# -- the hostile process ------------------------------------------------------------------


@dataclass
class _Stream:
    game: str
    sock: socket.socket
    head: bytes = b""
    status: int = 0
    buffer: bytes = b""
    last: int = 0
    events: int = 0
    gaps: int = 0
    closed: bool = False


@dataclass
class _Loris:
    address: str
    sock: socket.socket | None = None
    sent: int = 0


@dataclass
class HostileReport:
    """What the hostile process saw."""

    streams: int = 0
    refused: dict[int, int] = field(default_factory=dict)
    closed: int = 0
    #: The last event each stream that opened received, by game.
    last_by_game: dict[str, list[int]] = field(default_factory=dict)
    gaps: int = 0
    slowloris_held: int = 0
    slowloris_reopened: int = 0
    slowloris_answered: int = 0


class _Hostile:
    def __init__(self, port: int, games: list[str], streams: int, slowloris: int) -> None:
        self.port = port
        self.selector = selectors.DefaultSelector()
        self.streams = [
            _Stream(games[i % len(games)], self._connect(_address(1, i))) for i in range(streams)
        ]
        for stream in self.streams:
            request = (
                f"GET /api/v1/games/{stream.game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Accept: text/event-stream\r\n\r\n"
            )
            self._send_when_connected(stream.sock, request.encode())
            self.selector.register(stream.sock, selectors.EVENT_READ, stream)
        self.lorises = [_Loris(_address(2, i)) for i in range(slowloris)]
        self.reopened = 0
        self.answered = 0
        for loris in self.lorises:
            self._open(loris)
        self.next_trickle = time.monotonic() + TRICKLE_SECONDS

    def _connect(self, address: str) -> socket.socket:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((address, 0))
        sock.connect(("127.0.0.1", self.port))
        sock.setblocking(False)
        return sock

    @staticmethod
    def _send_when_connected(sock: socket.socket, data: bytes) -> None:
        sock.setblocking(True)
        try:
            sock.sendall(data)
        finally:
            sock.setblocking(False)

    def _open(self, loris: _Loris) -> None:
        try:
            loris.sock = self._connect(loris.address)
            self._send_when_connected(loris.sock, b"GET /healthz HTTP/1.1\r\nHost: 127")
            loris.sent = 0
            self.selector.register(loris.sock, selectors.EVENT_READ, loris)
        except OSError:
            loris.sock = None

    def run_once(self, timeout: float) -> None:
        for key, _ in self.selector.select(timeout):
            if isinstance(key.data, _Stream):
                self._read_stream(key.data)
            else:
                self._read_loris(key.data)
        now = time.monotonic()
        if now >= self.next_trickle:
            self.next_trickle = now + TRICKLE_SECONDS
            for loris in self.lorises:
                if loris.sock is None:
                    self._open(loris)
                    continue
                try:
                    # One more header line, never the blank line that would end the head.
                    loris.sock.send(b"\r\nX-%d: a" % loris.sent)
                    loris.sent += 1
                except OSError:
                    self._drop(loris)

    def _read_stream(self, stream: _Stream) -> None:
        try:
            data = stream.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            stream.closed = True
            self.selector.unregister(stream.sock)
            stream.sock.close()
            return
        if not stream.status:
            stream.head += data
            end = stream.head.find(b"\r\n\r\n")
            if end < 0:
                return
            stream.status = int(stream.head[9:12])
            data, stream.head = stream.head[end + 2 :], b""
        buffer = stream.buffer + data
        matches = list(_ID.finditer(buffer))
        for match in matches:
            seq = int(match.group(1))
            if seq != stream.last + 1:
                stream.gaps += 1
            stream.last = seq
            stream.events += 1
        # Keep what may hold the start of an id line cut by this read.
        stream.buffer = buffer[max(matches[-1].end() - 1 if matches else 0, len(buffer) - 64) :]

    def _read_loris(self, loris: _Loris) -> None:
        assert loris.sock is not None
        try:
            data = loris.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data:
            self.answered += 1
        self._drop(loris)
        self.reopened += 1
        self._open(loris)

    def _drop(self, loris: _Loris) -> None:
        if loris.sock is not None:
            self.selector.unregister(loris.sock)
            loris.sock.close()
            loris.sock = None

    def report(self) -> HostileReport:
        found = HostileReport(streams=len(self.streams))
        for stream in self.streams:
            if stream.status != 200:
                found.refused[stream.status] = found.refused.get(stream.status, 0) + 1
                continue
            found.closed += stream.closed
            found.gaps += stream.gaps
            found.last_by_game.setdefault(stream.game, []).append(stream.last)
        found.slowloris_held = sum(1 for loris in self.lorises if loris.sock is not None)
        found.slowloris_reopened = self.reopened
        found.slowloris_answered = self.answered
        return found


def _hostile(port: int, games: list[str], streams: int, slowloris: int, pipe: Connection) -> None:
    """The hostile process: opens everything, says so, then keeps it open and answers
    "report" with a `HostileReport` until told "stop"."""
    hostile = _Hostile(port, games, streams, slowloris)
    deadline = time.monotonic() + 60
    while any(not s.status and not s.closed for s in hostile.streams):
        hostile.run_once(0.1)
        if time.monotonic() > deadline:
            break
    pipe.send("open")
    while True:
        hostile.run_once(0.05)
        if pipe.poll():
            command = pipe.recv()
            if command == "stop":
                pipe.send(hostile.report())
                return
            pipe.send(hostile.report())


# -- the feeder -----------------------------------------------------------------------------


class _Feeder:
    """Plays the streamed games, one move at a time, `rate` moves a second in all."""

    def __init__(self, port: int, games: list[tuple[str, int, list[str]]], rate: float) -> None:
        from engine.pocha.game import Game
        from engine.pocha.rules import Rules

        self.port = port
        self.rate = rate
        self.tables = [
            (game_id, Game.new(Rules.from_dict({"schedule": "classic", "players": PLAYERS}), seed),
             tokens)
            for game_id, seed, tokens in games
        ]  # fmt: skip
        self.moves = 0
        self.errors = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        rng = random.Random(7)
        connection = _Connection(self.port)
        json_type = "Content-Type: application/json\r\n"
        pause = 1.0 / self.rate
        turn = 0
        while not self._stop.wait(pause):
            game_id, replica, tokens = self.tables[turn % len(self.tables)]
            turn += 1
            seat = replica.turn
            if seat is None:
                continue
            action = rng.choice(replica.legal_actions())
            path, payload = move_request(action)
            status, _ = connection.ask(
                "POST", f"/api/v1/games/{game_id}/{path}", payload,
                f"{json_type}Authorization: Bearer {tokens[seat]}\r\n",
            )  # fmt: skip
            if status != 200:
                self.errors += 1
                continue
            replica.apply(seat, action)
            self.moves += 1
        connection.close()


def _create_games(port: int, count: int) -> list[tuple[str, int, list[str]]]:
    connection = _Connection(port)
    created = []
    for i in range(count):
        seed = 1000 + i
        body = json.dumps(
            {"players": [{"name": f"P{s}"} for s in range(PLAYERS)],
             "rules": {"schedule": "classic"}, "seed": seed}
        )  # fmt: skip
        status, answer = connection.request(
            "POST", "/api/v1/games", body.encode(), "Content-Type: application/json\r\n"
        )
        if status != 201:
            raise RuntimeError(f"creating a game answered {status}: {answer[:200]!r}")
        game = json.loads(answer)
        created.append((game["id"], seed, [seat["token"] for seat in game["seats"]]))
    connection.close()
    return created


def _last_seqs(port: int, game_ids: list[str]) -> dict[str, int]:
    connection = _Connection(port)
    found = {}
    for game_id in game_ids:
        status, answer = connection.ask("GET", f"/api/v1/games/{game_id}/events")
        events = json.loads(answer) if status == 200 else []
        # A game whose events cannot be read counts every stream of it as behind.
        found[game_id] = events[-1]["seq"] if events else -1
    connection.close()
    return found


# -- the run ------------------------------------------------------------------------------


def run(
    seconds: float = 10.0,
    processes: int = 2,
    threads: int = 4,
    streams: int = 1000,
    slowloris: int = 200,
    games: int = 50,
    feed_rate: float = 20.0,
    workers: int | None = None,
    baseline: bool = True,
    warmup: float = 1.0,
) -> tuple[list[str], bool]:
    """Start Redis and gunicorn, hold the hostile connections, load, check; the report
    lines, and whether every stream got every event and no request failed."""
    if streams > 250 * 250 or slowloris > 250 * 250:
        raise ValueError("at most 62500 streams and 62500 slowloris sockets")
    with tempfile.TemporaryDirectory(prefix="pocha-hostile-") as tmp:
        base = Path(tmp)
        redis_server = RedisServer(base / "redis", unix_socket=base / "redis.sock")
        redis_server.start()
        port = free_port()
        env = {
            **server_env(redis_server.url),
            "POCHA_TRUSTED_PROXIES": "0",
            # Streams outlive the run, so that each is checked whole.
            "POCHA_SSE_MAX_SECONDS": "3600",
        }
        log = (base / "gunicorn.log").open("wb")
        api = subprocess.Popen(
            gunicorn_command("127.0.0.1", port, workers), env=env, stdout=log, stderr=log
        )
        hostile: multiprocessing.context.SpawnProcess | None = None
        try:
            _wait_ready(port, api)
            clock = _ServerClock(api.pid)
            phases: list[tuple[str, Sample]] = []
            if baseline:
                for phase in ("moves", "trivial"):
                    quiet = _run_phase(phase, port, processes, threads, warmup, seconds)
                    phases.append((f"{phase}, quiet", quiet))
            clock.lap()
            table = _create_games(port, games)
            context = multiprocessing.get_context("spawn")
            receiver, sender = context.Pipe()
            hostile = context.Process(
                target=_hostile, args=(port, [g[0] for g in table], streams, slowloris, sender)
            )
            hostile.start()
            if not receiver.poll(90) or receiver.recv() != "open":
                raise RuntimeError("the hostile process did not open its connections")
            feeder = _Feeder(port, table, feed_rate)
            feeder.start()
            for phase in ("moves", "trivial"):
                loaded = _run_phase(phase, port, processes, threads, warmup, seconds)
                phases.append((f"{phase}, hostile", loaded))
            server_cpu = clock.lap()
            feeder.stop()
            last = _last_seqs(port, [g[0] for g in table])
            deadline = time.monotonic() + CATCH_UP_SECONDS
            while True:
                receiver.send("report")
                report: HostileReport = receiver.recv()
                behind = _behind(report, last)
                if not behind or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            receiver.send("stop")
            report = receiver.recv()
            hostile.join(10)
        finally:
            if hostile is not None and hostile.is_alive():
                hostile.kill()
            stop_processes([api], 15)
            log.close()
            redis_server.stop()
    return _report(phases, report, last, feeder, server_cpu, streams, slowloris, games,
                   processes, threads, seconds, workers)  # fmt: skip


def _behind(report: HostileReport, last: dict[str, int]) -> int:
    """Streams that opened and have not received their game's last event."""
    return sum(1 for g, seen in report.last_by_game.items() for s in seen if s != last[g])


def _report(
    phases: list[tuple[str, Sample]],
    report: HostileReport,
    last: dict[str, int],
    feeder: _Feeder,
    server_cpu: float,
    streams: int,
    slowloris: int,
    games: int,
    processes: int,
    threads: int,
    seconds: float,
    workers: int | None,
) -> tuple[list[str], bool]:
    behind = _behind(report, last)
    refused = sum(report.refused.values())
    lines = [
        f"hostile: {streams} event streams (127.1.x.y, one address each) on {games} games "
        f"played meanwhile; {slowloris} slowloris sockets (127.2.x.y) trickling a "
        f"request head; gunicorn workers={workers or 'default'}; {os.cpu_count()} cores "
        "shared by everything",
        f"load: {processes} client processes x {threads} threads for {seconds:g} s per phase",
    ]
    failed = bool(refused or behind or report.gaps or feeder.errors)
    for label, sample in phases:
        line, _ = _summary(label, "moves" if label.startswith("moves") else "req", sample,
                           seconds)  # fmt: skip
        lines.append(line)
        failed = failed or bool(sample.errors)
    lines += [
        f"streams: {report.streams - refused} open"
        + (f", {refused} refused ({report.refused})" if refused else "")
        + f", {report.closed} closed by the server; {report.streams - refused - behind} "
        f"got every event of their game, {behind} did not; gaps: {report.gaps}",
        f"slowloris: {report.slowloris_held} held at the end, {report.slowloris_reopened} "
        f"closed by the server and opened again ({report.slowloris_answered} answered)",
        f"feeder: {feeder.moves} moves in the streamed games, {feeder.errors} refused or failed",
        f"server cpu during the hostile phases: {server_cpu:.1f} s",
        "every stream got every event; no request failed" if not failed else "FAILED",
    ]
    return lines, not failed


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - manual use
    lines, ok = run()
    for line in lines:
        print(line)
    return 0 if ok else 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
