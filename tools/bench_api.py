"""`pocha bench api`: moves per second and latency of the real API under concurrent load.
How it works: docs/performance.md, `tools.bench_api`.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from tools.embedded_cluster import EmbeddedCluster
from tools.embedded_redis import RedisServer, free_port
from tools.processes import stop_processes
from tools.serve import gunicorn_command

PLAYERS = 4


@dataclass
class Sample:
    """What one phase measured: request latencies (s) and failures."""

    latencies: list[float]
    errors: int
    games: int = 0
    # Every request of the phase's kind, warm-up included (for CPU per request).
    sent: int = 0


class _Connection:
    """One keep-alive HTTP/1.1 connection with only what the load needs: a request out, a
    response with a Content-Length back (gunicorn sends one for every response here)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock: socket.socket | None = None
        self.buffer = b""

    def _connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock, self.buffer = sock, b""
        return sock

    def request(
        self, method: str, path: str, body: bytes = b"", headers: str = ""
    ) -> tuple[int, bytes]:
        """Send a request and read its response: (status, body)."""
        sock = self.sock or self._connect()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        sock.sendall(head.encode() + body)
        buffer = self.buffer
        while (end := buffer.find(b"\r\n\r\n")) < 0:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            buffer += chunk
        header = buffer[:end].lower()
        status = int(header[9:12])
        at = header.find(b"\r\ncontent-length:")
        length = int(header[at + 17 : header.find(b"\r\n", at + 2)]) if at >= 0 else 0
        start = end + 4
        while len(buffer) < start + length:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            buffer += chunk
        self.buffer = buffer[start + length :]
        if b"\r\nconnection: close" in header:
            self.close()
        return status, buffer[start : start + length]

    def ask(
        self, method: str, path: str, body: bytes = b"", headers: str = ""
    ) -> tuple[int, bytes]:
        """`request`, with a request that fails (no answer in time, a reset) answered as
        status 0 and the connection closed, so that a run counts it and goes on."""
        try:
            return self.request(method, path, body, headers)
        except OSError:
            self.close()
            return 0, b""

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock, self.buffer = None, b""


def _play_games(
    port: int, deadline: float, start: float, seed: int, out: Sample, rules: dict[str, Any]
) -> None:
    """One client thread: whole games, one after another, until `deadline`; moves made
    after `start` are timed."""
    from engine.pocha.game import Game
    from engine.pocha.rules import Rules

    rng = random.Random(seed)
    connection = _Connection(port)
    json_type = "Content-Type: application/json\r\n"
    while time.perf_counter() < deadline:
        game_seed = rng.randrange(1 << 40)
        body = json.dumps(
            {"players": [{"name": f"P{i}"} for i in range(PLAYERS)], "rules": rules,
             "seed": game_seed}
        )  # fmt: skip
        status, answer = connection.ask("POST", "/api/v1/games", body.encode(), json_type)
        if status != 201:
            out.errors += 1
            continue
        created = json.loads(answer)
        out.games += 1
        replica = Game.new(Rules.from_dict({**rules, "players": PLAYERS}), game_seed)
        seat_headers = [
            f"{json_type}Authorization: Bearer {seat['token']}\r\n" for seat in created["seats"]
        ]
        game_id = created["id"]
        while not replica.finished and time.perf_counter() < deadline:
            seat = replica.turn
            assert seat is not None
            action = rng.choice(replica.legal_actions())
            path, payload = move_request(action)
            began = time.perf_counter()
            status, _ = connection.ask(
                "POST", f"/api/v1/games/{game_id}/{path}", payload, seat_headers[seat]
            )
            ended = time.perf_counter()
            out.sent += 1
            if status != 200:
                out.errors += 1
                break
            replica.apply(seat, action)
            if began >= start:
                out.latencies.append(ended - began)
    connection.close()


def _hit_health(
    port: int, deadline: float, start: float, seed: int, out: Sample, rules: dict[str, Any]
) -> None:
    connection = _Connection(port)
    while time.perf_counter() < deadline:
        began = time.perf_counter()
        status, _ = connection.ask("GET", "/healthz")
        ended = time.perf_counter()
        out.sent += 1
        if status != 200:
            out.errors += 1
        elif began >= start:
            out.latencies.append(ended - began)
    connection.close()


def _client(phase: str, port: int, threads: int, warmup: float, seconds: float, seed: int,
            rules: dict[str, Any], pipe: Connection) -> None:  # fmt: skip
    """A load-generating process: `threads` threads for warmup + seconds; sends its
    samples back through `pipe`."""
    target = _play_games if phase == "moves" else _hit_health
    now = time.perf_counter()
    start, deadline = now + warmup, now + warmup + seconds
    samples = [Sample([], 0) for _ in range(threads)]
    workers = [
        threading.Thread(target=target, args=(port, deadline, start, seed * 1000 + i, s, rules))
        for i, s in enumerate(samples)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    merged = Sample(
        [x for s in samples for x in s.latencies],
        sum(s.errors for s in samples),
        sum(s.games for s in samples),
        sum(s.sent for s in samples),
    )
    pipe.send((merged.latencies, merged.errors, merged.games, merged.sent))
    pipe.close()


def _run_phase(
    phase: str,
    port: int,
    processes: int,
    threads: int,
    warmup: float,
    seconds: float,
    rules: dict[str, Any] | None = None,
) -> Sample:
    """Load the API with `processes` x `threads` clients of the phase; their games are
    played with `rules` (the classic schedule and the service's defaults if None)."""
    rules = rules if rules is not None else {"schedule": "classic"}
    context = multiprocessing.get_context("spawn")
    pipes = []
    workers = []
    for i in range(processes):
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(
            target=_client, args=(phase, port, threads, warmup, seconds, i + 1, rules, sender)
        )
        process.start()
        pipes.append(receiver)
        workers.append(process)
    total = Sample([], 0)
    for receiver in pipes:
        latencies, errors, games, sent = receiver.recv()
        total.latencies.extend(latencies)
        total.errors += errors
        total.games += games
        total.sent += sent
    for process in workers:
        process.join()
    return total


def _percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, round(q * (len(sorted_values) - 1)))
    return sorted_values[index]


def _summary(label: str, unit: str, sample: Sample, seconds: float) -> tuple[str, float]:
    values = sorted(sample.latencies)
    rate = len(values) / seconds
    line = (
        f"{label}: {rate:.0f} {unit}/s, p50 {_percentile(values, 0.5) * 1000:.1f} ms, "
        f"p99 {_percentile(values, 0.99) * 1000:.1f} ms"
    )
    if sample.errors:
        line += f" ({sample.errors} errors)"
    return line, rate


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by a process and its children's threads,
    from /proc; 0 where /proc is missing (not Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime and stime are fields 14 and 15 of stat; the split starts at field 3.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _server_pids(master: int) -> list[int]:
    """gunicorn's master and its workers."""
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    except OSError:
        children = []
    return [master, *(int(c) for c in children)]


class _ServerClock:
    """CPU time used by gunicorn's processes between two calls of `lap`: workers that
    appear in between count from their start, so none is missed."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.last = {pid: _cpu_seconds(pid) for pid in _server_pids(master)}

    def lap(self) -> float:
        now = {pid: _cpu_seconds(pid) for pid in _server_pids(self.master)}
        used = sum(cpu - self.last.get(pid, 0.0) for pid, cpu in now.items())
        self.last = now
        return used


def _wait_ready(
    port: int, process: subprocess.Popen[bytes], timeout: float = 30, path: str = "/readyz"
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("gunicorn exited during start-up")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", path)
            if connection.getresponse().status == 200:
                connection.close()
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError("gunicorn did not become ready")


def move_request(action: int) -> tuple[str, bytes]:
    """A Pocha action as the move endpoint that takes it and its JSON body."""
    from engine.pocha.actions import bid_of, is_bid
    from engine.pocha.cards import card_code

    if is_bid(action):
        return "bids", b'{"bid": %d}' % bid_of(action)
    return "plays", b'{"card": "%s"}' % card_code(action).encode()


def server_env(redis_url: str, **settings: str) -> dict[str, str]:
    """The environment of a benched API: bots inline, quiet logs, and the rate limits on
    (their cost is part of a move's) but far above what a load from 127.0.0.1 sends;
    `settings`: more of the environment (the queue Redis, the replica wait)."""
    return {
        **os.environ,
        **settings,
        "REDIS_URL": redis_url,
        "POCHA_BOT_RUNNER": "inline",
        "POCHA_ACCESS_LOG": "",
        "POCHA_LOG_LEVEL": "warning",
        "POCHA_RATE_LIMITS": "on",
        "POCHA_RATE_LIMIT_CREATE": "1000000/minute",
        "POCHA_RATE_LIMIT_MOVES": "1000000/minute",
    }


@dataclass
class _Figures:
    """One store's run: the moves phase, and CPU seconds of the API and of Redis."""

    moves: Sample
    server: float
    redis: float
    replicas: float = 0.0


def _load_api(
    base: Path,
    env: dict[str, str],
    redis_pids: list[int],
    replica_pids: list[int],
    load: tuple[int, int, int | None, float, float],
    rules: dict[str, Any],
    trivial: bool,
) -> tuple[_Figures, Sample | None, float]:
    """Start gunicorn on `env`, play the moves phase (and the trivial one), stop it."""
    processes, threads, workers, warmup, seconds = load
    port = free_port()
    log = (base / f"gunicorn-{port}.log").open("wb")
    api = subprocess.Popen(
        gunicorn_command("127.0.0.1", port, workers), env=env, stdout=log, stderr=log
    )
    try:
        _wait_ready(port, api)
        clock = _ServerClock(api.pid)
        redis_before = sum(_cpu_seconds(pid) for pid in redis_pids)
        replicas_before = sum(_cpu_seconds(pid) for pid in replica_pids)
        moves = _run_phase("moves", port, processes, threads, warmup, seconds, rules)
        figures = _Figures(
            moves,
            clock.lap(),
            sum(_cpu_seconds(pid) for pid in redis_pids) - redis_before,
            sum(_cpu_seconds(pid) for pid in replica_pids) - replicas_before,
        )
        if not trivial:
            return figures, None, 0.0
        baseline = _run_phase("trivial", port, processes, threads, warmup, seconds, rules)
        return figures, baseline, clock.lap()
    finally:
        stop_processes([api], 15)
        log.close()


def run(
    seconds: float = 10.0,
    processes: int = 2,
    threads: int = 8,
    workers: int | None = None,
    warmup: float = 1.0,
    turn_seconds: int | None = None,
    cluster: bool = False,
    wait_replicas: int = 0,
) -> list[str]:
    """Start Redis and gunicorn (`workers` API processes), load them, and return the report
    lines. `turn_seconds`: the games' clock (the service's default when None: 60 s, for
    these games of people). `cluster`: play the moves on a Redis Cluster too."""
    rules: dict[str, Any] = {"schedule": "classic"}
    if turn_seconds is not None:
        rules["turn_seconds"] = turn_seconds
    load = (processes, threads, workers, warmup, seconds)
    waits = {"POCHA_WAIT_REPLICAS": str(wait_replicas)} if wait_replicas else {}
    with tempfile.TemporaryDirectory(prefix="pocha-bench-") as tmp:
        base = Path(tmp)
        redis_server = RedisServer(
            base / "redis", port=free_port(), unix_socket=base / "redis.sock"
        ).start()
        # Moves that wait for a replica need one beside the single Redis too.
        replica = None
        if wait_replicas:
            replica = RedisServer(
                base / "replica", extra_args=["--replicaof", "127.0.0.1", str(redis_server.port)]
            ).start()
        try:
            single, trivial, server_trivial = _load_api(
                base, server_env(redis_server.url, **waits), [redis_server.process.pid],
                [] if replica is None else [replica.process.pid], load, rules, trivial=True,
            )  # fmt: skip
            clustered = None
            if cluster:
                with EmbeddedCluster(base / "cluster") as nodes:
                    env = server_env(nodes.url, POCHA_QUEUE_REDIS_URL=redis_server.url, **waits)
                    primaries = [n.process.pid for n in nodes.primaries()]
                    replicas = [n.process.pid for n in nodes.replicas()]
                    clustered, _, _ = _load_api(
                        base, env, primaries, replicas, load, rules, trivial=False
                    )
        finally:
            if replica is not None:
                replica.stop()
            redis_server.stop()
    assert trivial is not None
    moves_line, moves_rate = _summary("api", "moves", single.moves, seconds)
    trivial_line, trivial_rate = _summary("trivial", "req", trivial, seconds)
    shown_workers = workers if workers is not None else "default"
    # CPU per request, measured on the server processes over the whole phase (warm-up
    # included, so divided by every request sent): unlike the rates, it hardly depends on
    # what else the machine is running.
    per_move = single.server / max(1, single.moves.sent)
    per_trivial = server_trivial / max(1, trivial.sent)
    redis_per_move = single.redis / max(1, single.moves.sent)
    replica_per_move = single.replicas / max(1, single.moves.sent)
    cpu_line = (
        f"server cpu: {per_move * 1e6:.0f} us/move (+ redis {redis_per_move * 1e6:.0f} us"
        + (f", its replica {replica_per_move * 1e6:.0f} us" if wait_replicas else "")
        + f"), {per_trivial * 1e6:.0f} us/trivial request"
    )
    lines = [
        f"load: {processes} client processes x {threads} threads for {seconds:g} s per phase; "
        f"gunicorn workers={shown_workers} (gevent); "
        f"{os.cpu_count()} cores shared by client, server and Redis"
        + (f"; moves wait for {wait_replicas} replica(s)" if wait_replicas else ""),
        moves_line + f" ({single.moves.games} games started)",
        trivial_line,
        f"moves / trivial: {moves_rate / trivial_rate:.2f}" if trivial_rate else "",
        cpu_line,
    ]
    if clustered is not None:
        sent = max(1, clustered.moves.sent)
        cluster_line, _rate = _summary("cluster", "moves", clustered.moves, seconds)
        lines += [
            cluster_line + f" ({clustered.moves.games} games started; 3 primaries, 3 replicas)",
            f"cluster cpu: {clustered.server / sent * 1e6:.0f} us/move in the API "
            f"(+ primaries {clustered.redis / sent * 1e6:.0f} us, "
            f"replicas {clustered.replicas / sent * 1e6:.0f} us)",
        ]
    return lines


def _main(argv: list[str]) -> None:  # pragma: no cover - manual use
    for line in run(seconds=float(argv[0]) if argv else 5.0):
        print(line)


if __name__ == "__main__":  # pragma: no cover
    _main(sys.argv[1:])
