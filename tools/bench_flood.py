"""`pocha bench flood`: how long people wait for a bot's move while one address floods the
AI on demand with long AI moves.
How it works: docs/performance.md, `tools.bench_flood`.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.pocha.actions import action_to_wire
from tools.embedded_redis import free_port
from tools.processes import die_with_parent, stop_processes
from tools.soak import EventLog, LogViolation, stream_events

#: The person sits here; the bots take the other seats.
HUMAN_SEAT = 0
#: The target: bot-turn p99 under flood at most this many times the idle one.
TARGET_RATIO = 2.0
#: The flooder's position: a seat to act with a choice of three cards.
FLOOD_POSITION: dict[str, Any] = {
    "rules": {"players": 4},
    "seat": 0,
    "hand": ["O1", "O4", "C3"],
    "trump": {"card": "E7", "holder": None},
    "dealer": 3,
    "bids": [1, 0, 1, 0],
    "plays": [],
}
#: Loopback addresses: the people's (one per game) and the flooder's.
PEOPLE_NET = "127.0.1."
FLOODER_ADDRESS = "127.0.2.1"
#: Samples of moves made in the first seconds (first forks, imports) are not kept.
WARMUP_SECONDS = 5.0
#: Views and moves, not streams: a request that takes longer than this has failed.
REQUEST_TIMEOUT = 30.0


@dataclass(frozen=True)
class FloodSpec:
    """What to measure: the phases' length, the people's games, the flood, the workers."""

    seconds: float = 60.0
    #: One game, as in the issue's reproduction: with more, bot turns of different games
    #: also queue behind each other on the reserved worker, a question of its capacity.
    games: int = 1
    bots: tuple[str, ...] = ("easy", "medium", "hard")
    think: float = 0.3
    flood: int = 30
    flood_ms: int = 5000
    seed: int = 1
    #: Workers of `pocha serve` reserved for bot turns (1 as shipped; 0 shows what they do).
    turn_workers: int = 1


@dataclass
class Samples:
    """What the person clients saw, by phase."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: {"idle": [], "flood": []})
    #: The machine's load average (1 minute) at the end of each phase: what else ran.
    load: dict[str, float] = field(default_factory=dict)
    moves: int = 0
    games: int = 0
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, phase: str | None, seconds: float) -> None:
        if phase is None:
            return
        with self.lock:
            self.latencies[phase].append(seconds)


class _Clock:
    """The phase a moment belongs to: None (warm-up, or between phases), idle or flood."""

    def __init__(self) -> None:
        self.phase: str | None = None
        self.stop = threading.Event()


def _request(
    port: int,
    source: str,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=REQUEST_TIMEOUT, source_address=(source, 0)
    )
    try:
        payload = None if body is None else json.dumps(body)
        sent = {**(headers or {}), **({"Content-Type": "application/json"} if payload else {})}
        connection.request(method, path, payload, sent)
        response = connection.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else None
    finally:
        connection.close()


def _events(
    port: int, source: str, game_id: str, clock: _Clock
) -> Iterator[tuple[float, dict[str, Any]]]:
    """The game's events as they arrive (arrival time, event), resuming with Last-Event-ID
    when the server ends a stream, until the bench stops."""
    after = 0
    while not clock.stop.is_set():
        connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=20, source_address=(source, 0)
        )
        try:
            connection.request(
                "GET",
                f"/api/v1/games/{game_id}/events",
                headers={"Accept": "text/event-stream", "Last-Event-ID": str(after)},
            )
            response = connection.getresponse()
            if response.status != 200:
                raise RuntimeError(f"event stream: HTTP {response.status}")
            for event in stream_events(response):
                if event is not None:
                    after = int(event["seq"])
                    yield time.monotonic(), event
                if clock.stop.is_set():
                    return
        except (OSError, http.client.HTTPException):
            pass  # a read timeout or a dropped stream: resume from the last event
        finally:
            connection.close()


def _play(
    port: int, source: str, spec: FloodSpec, seed: int, clock: _Clock, samples: Samples
) -> None:
    """Play games one after another from `source` until the bench stops."""
    rng = random.Random(seed)
    players = [{"name": "You"}] + [
        {"name": f"{level.title()} {i}", "bot": level} for i, level in enumerate(spec.bots, 1)
    ]
    rules: dict[str, Any] = {"schedule": "classic"}
    while not clock.stop.is_set():
        game_seed = rng.randrange(1 << 40)
        status, created = _request(
            port, source, "POST", "/api/v1/games",
            {"players": players, "rules": rules, "seed": game_seed},
        )  # fmt: skip
        if status != 201:
            raise RuntimeError(f"create: HTTP {status} {created}")
        game_id = created["id"]
        auth = {"Authorization": f"Bearer {created['seats'][HUMAN_SEAT]['token']}"}
        log = EventLog(rules, len(players), game_seed)
        replica = log.replica
        moved_at: float | None = None
        moved_in: str | None = None
        for arrived, event in _events(port, source, game_id, clock):
            seat = log.add(event)
            if seat is not None and seat != HUMAN_SEAT and moved_at is not None:
                samples.add(moved_in, arrived - moved_at)
                moved_at = None
            if not log.settled or replica.turn != HUMAN_SEAT or replica.finished:
                if replica.finished and log.settled:
                    break
                continue
            moved_at = None  # the person's turn again, with no bot in between
            time.sleep(spec.think)
            action = action_to_wire(rng.choice(replica.legal_actions()))
            path, body = ("bids", {"bid": action}) if isinstance(action, int) else (
                "plays", {"card": action}
            )  # fmt: skip
            status, answer = _request(
                port, source, "POST", f"/api/v1/games/{game_id}/{path}", body,
                {**auth, "If-Match": f'"{log.version}"'},
            )  # fmt: skip
            if status != 200:
                raise RuntimeError(f"{path} at version {log.version}: HTTP {status} {answer}")
            moved_at, moved_in = time.monotonic(), clock.phase
            with samples.lock:
                samples.moves += 1
        with samples.lock:
            samples.games += 1


def _person(
    port: int, source: str, spec: FloodSpec, seed: int, clock: _Clock, samples: Samples
) -> None:
    try:
        _play(port, source, spec, seed, clock, samples)
    except (RuntimeError, LogViolation, OSError, http.client.HTTPException, ValueError) as exc:
        with samples.lock:
            samples.errors.append(f"{source}: {type(exc).__name__}: {exc}")
        clock.stop.set()


def _flood(
    port: int, per_minute: int, milliseconds: int, clock: _Clock, until: float, got: Counter[str]
) -> None:
    """Send AI moves from the flooder's address, evenly spaced, whatever the answers."""
    body = {**FLOOD_POSITION, "milliseconds": milliseconds}
    every = 60.0 / per_minute
    due = time.monotonic()
    while not clock.stop.is_set() and due < until:
        try:
            status, answer = _request(port, FLOODER_ADDRESS, "POST", "/api/v1/ai/move", body)
        except (OSError, http.client.HTTPException) as exc:
            got[type(exc).__name__] += 1
        else:
            error = answer.get("error") if status != 202 and isinstance(answer, dict) else None
            got[f"{status} {error or 'accepted'}"] += 1
        due += every
        clock.stop.wait(max(0.0, due - time.monotonic()))


def _percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _ready(port: int, workers: int) -> bool:
    try:
        status, body = _request(port, "127.0.0.1", "GET", "/readyz")
    except (OSError, http.client.HTTPException, ValueError):
        return False
    return status == 200 and body.get("workers", 0) >= workers


@dataclass
class FloodResult:
    lines: list[str]
    ok: bool


def run(spec: FloodSpec) -> FloodResult:
    """Start `pocha serve`, measure the idle phase then the flood phase; the report."""
    with tempfile.TemporaryDirectory(prefix="pocha-flood-", dir="/tmp") as tmp:
        port = free_port()
        log_path = Path(tmp) / "serve.log"
        env = {**os.environ, "POCHA_RATE_LIMITS": "on", "POCHA_LOG_LEVEL": "warning",
               "POCHA_ACCESS_LOG": ""}  # fmt: skip
        with log_path.open("wb") as log:
            serve = subprocess.Popen(
                [sys.executable, "-m", "cli.main", "serve", "--host", "127.0.0.1",
                 "--port", str(port), "--data-dir", str(Path(tmp) / "data"),
                 "--turn-workers", str(spec.turn_workers)],
                env=env, stdout=log, stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent(),  # nothing outlives a killed bench
            )  # fmt: skip
        try:
            deadline = time.monotonic() + 90
            # The general worker and those reserved for bot turns.
            while not _ready(port, workers=1 + spec.turn_workers):
                if serve.poll() is not None or time.monotonic() > deadline:
                    said = log_path.read_text(errors="replace")[-2000:]
                    raise RuntimeError(f"pocha serve did not start: {said}")
                time.sleep(0.2)
            return _measure(port, spec)
        finally:
            stop_processes([serve], 60)


def _measure(port: int, spec: FloodSpec) -> FloodResult:
    clock = _Clock()
    samples = Samples()
    people = [
        threading.Thread(
            target=_person,
            args=(port, f"{PEOPLE_NET}{i + 1}", spec, spec.seed + i, clock, samples),
            daemon=True,
        )
        for i in range(spec.games)
    ]
    for person in people:
        person.start()
    got: Counter[str] = Counter()
    clock.stop.wait(WARMUP_SECONDS)
    clock.phase = "idle"
    clock.stop.wait(spec.seconds)
    samples.load["idle"] = os.getloadavg()[0]
    clock.phase = "flood"
    until = time.monotonic() + spec.seconds
    flooder = threading.Thread(
        target=_flood, args=(port, spec.flood, spec.flood_ms, clock, until, got), daemon=True
    )
    flooder.start()
    clock.stop.wait(spec.seconds)
    samples.load["flood"] = os.getloadavg()[0]
    clock.phase = None
    flooder.join(timeout=REQUEST_TIMEOUT)
    # A last bot move already asked for is still counted; then the people stop.
    time.sleep(1.0)
    clock.stop.set()
    for person in people:
        person.join(timeout=REQUEST_TIMEOUT)
    return _report(spec, samples, got)


def _report(spec: FloodSpec, samples: Samples, got: Counter[str]) -> FloodResult:
    reserved = {0: "none", 1: "one"}.get(spec.turn_workers, str(spec.turn_workers))
    lines = [
        f"flood bench: pocha serve (a general worker, {reserved} reserved for bot turns, rate "
        f"limits on) on {os.cpu_count()} cores shared with the clients; {spec.games} game(s) "
        f"at once, you + {', '.join(spec.bots)}, each from its own address, moving "
        f"{spec.think:g} s after the bots",
        f"people: {samples.games} games finished, {samples.moves} moves",
    ]
    figures: dict[str, tuple[float, float]] = {}
    for phase in ("idle", "flood"):
        values = samples.latencies[phase]
        if not values:
            lines.append(f"bot-turn latency {phase}: no samples")
            continue
        p50, p99 = _percentile(values, 0.5), _percentile(values, 0.99)
        figures[phase] = (p50, p99)
        lines.append(
            f"bot-turn latency {phase:<5} ({spec.seconds:g} s): p50 {p50 * 1000:7.1f} ms   "
            f"p99 {p99 * 1000:7.1f} ms   max {max(values) * 1000:7.1f} ms   n={len(values)}   "
            f"load {samples.load.get(phase, 0):.1f}"
        )
    ok = False
    if len(figures) == 2:
        (idle50, idle99), (flood50, flood99) = figures["idle"], figures["flood"]
        ratio = flood99 / idle99
        ok = ratio <= TARGET_RATIO and not samples.errors
        lines.append(
            f"ratio flood/idle: p50 {flood50 / idle50:.2f}x   p99 {ratio:.2f}x   "
            f"(target: p99 within {TARGET_RATIO:g}x)"
        )
    answers = ", ".join(f"{count} {answer}" for answer, count in sorted(got.items()))
    lines.append(
        f"flood: {sum(got.values())} AI moves of {spec.flood_ms} ms from one address "
        f"({spec.flood} a minute): {answers or 'none sent'}"
    )
    for error in samples.errors[:5]:
        lines.append(f"  error: {error}")
    lines.append("target met" if ok else "TARGET MISSED")
    return FloodResult(lines, ok)
