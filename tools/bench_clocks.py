"""`pocha bench clocks`: how late a person's clock ends, and what a waiting table costs.
How it works: docs/performance.md, `tools.bench_clocks`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import orjson
import redis
from rq import Worker

from core.jobs.queues import Timing
from core.play.games import GameService, PlayerSpec
from core.play.turns import RQBotRunner
from core.store.keys import CHANGES_PATTERN, game_of_channel
from core.store.store import GameStore
from tools.embedded_redis import RedisServer
from tools.processes import die_with_parent, stop_processes

PEOPLE_AND_BOTS = [
    PlayerSpec("Ana"),
    PlayerSpec("Bot A", "heuristic"),
    PlayerSpec("Eva"),
    PlayerSpec("Bot B", "heuristic"),
]


@dataclass
class ClockSpec:
    games: int = 60
    turn_seconds: int = 2
    spread: float = 10.0
    tables: int = 200


@dataclass
class _Heard:
    """Deadlines seen, by (game, version), and the lateness of each stand-in's move."""

    deadlines: dict[tuple[str, int], float] = field(default_factory=dict)
    late: list[float] = field(default_factory=list)
    finished: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _listen(client: redis.Redis, store: GameStore, heard: _Heard, stop: threading.Event) -> None:
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    pubsub.psubscribe(CHANGES_PATTERN)
    while not stop.is_set():
        message = pubsub.get_message(timeout=0.2)
        if message is None:
            continue
        at = time.time()
        game_id = game_of_channel(message["channel"].decode())
        if message["data"] == b"deleted":
            continue
        version = int(message["data"])
        record = store.load(game_id, history=False)
        with heard.lock:
            if record.deadline is not None:
                heard.deadlines[(game_id, record.version)] = record.deadline
            if record.finished:
                heard.finished.add(game_id)
            deadline = heard.deadlines.get((game_id, version - 1))
        if deadline is None:
            continue
        events = [orjson.loads(e) for e in store.events_json(game_id, 0)]
        if any(e["version"] == version and e.get("by") == "stand_in" for e in events):
            with heard.lock:
                heard.late.append(at - deadline)
    pubsub.close()


def run(spec: ClockSpec) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="pocha-clocks-", dir="/tmp") as tmp:
        server = RedisServer(tmp)
        server.start()
        env = {**os.environ, "REDIS_URL": server.url, "POCHA_LOG_LEVEL": "warning"}
        workers = [
            subprocess.Popen(
                [sys.executable, "-m", "cli.main", "worker", *args],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent(),
            )
            for args in ([], ["--queues", "pocha-turns"])
        ]
        try:
            client = redis.Redis.from_url(server.url)
            deadline = time.monotonic() + 60
            while len(Worker.all(connection=client)) < len(workers):
                if time.monotonic() > deadline:
                    raise RuntimeError("the workers did not start")
                time.sleep(0.2)
            return _measure(client, server.url, spec)
        finally:
            stop_processes(workers, 30)
            server.stop()


def _measure(client: redis.Redis, url: str, spec: ClockSpec) -> list[str]:
    store = GameStore(client, finished_ttl=3600, idle_ttl=3600)
    service = GameService(store, RQBotRunner(client))
    heard = _Heard()
    stop = threading.Event()
    listener = threading.Thread(
        target=_listen, args=(redis.Redis.from_url(url), store, heard, stop)
    )
    listener.start()
    time.sleep(0.5)  # subscribed before the first game
    rules = {"schedule": [2, 2], "turn_seconds": spec.turn_seconds, "tiebreak": False}
    ids = []
    try:
        began = time.monotonic()
        for i in range(spec.games):
            pause = began + spec.spread * i / spec.games - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            ids.append(service.create(PEOPLE_AND_BOTS, rules, stand_in_level="heuristic").record.id)
        end = time.monotonic() + 120 + spec.turn_seconds * 8
        while time.monotonic() < end:
            with heard.lock:
                if heard.finished >= set(ids):
                    break
            time.sleep(0.2)
    finally:
        stop.set()
        listener.join()
    late = heard.late
    load = os.getloadavg()[0]
    lines = [
        f"clocks: {spec.games} games of 2 people and 2 bots, turn_seconds {spec.turn_seconds}, "
        f"2 workers (a general one and one for bot turns), watchdog sweep every "
        f"{Timing.from_env().sweep:g} s",
        f"  timeouts fired: {len(late)} (games finished: {len(heard.finished & set(ids))}"
        f" of {len(ids)})",
    ]
    if late:
        lines.append(
            f"  lateness after the deadline: p50 {_percentile(late, 0.5) * 1000:.0f} ms, "
            f"p99 {_percentile(late, 0.99) * 1000:.0f} ms, worst {max(late) * 1000:.0f} ms "
            f"(load average {load:.1f})"
        )
    lines += _table_memory(client, service, spec.tables)
    return lines


def _table_memory(client: redis.Redis, service: GameService, tables: int) -> list[str]:
    players = [PlayerSpec("Ana"), PlayerSpec("", open=True), PlayerSpec("", open=True),
               PlayerSpec("", open=True)]  # fmt: skip
    lines = []
    for listed in (False, True):
        before = int(client.info("memory")["used_memory"])
        for _ in range(tables):
            service.create(players, {}, listed=listed)
        after = int(client.info("memory")["used_memory"])
        kind = "listed" if listed else "unlisted"
        lines.append(
            f"  a waiting table ({kind}, 1 person and 3 open seats, classic schedule): "
            f"{(after - before) / tables:,.0f} bytes of Redis memory (over {tables})"
        )
    return lines
