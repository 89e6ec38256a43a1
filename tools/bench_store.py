"""`pocha bench store`: the game store alone, on one Redis and on a Redis Cluster.
How it works: docs/performance.md, `tools.bench_store`.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import redis

from core.jobs.queues import Timing
from core.jobs.tasks import sweep
from core.play.turns import owed_work
from core.store.redises import Redises, connect_store
from core.store.store import GameStore
from engine.pocha.game import Game
from engine.pocha.rules import Rules
from tools.embedded_cluster import EmbeddedCluster
from tools.embedded_redis import RedisServer


def _play(client: redis.Redis, games: int) -> str:
    store = GameStore(client, finished_ttl=600, idle_ttl=600)
    moves, reading, writing = 0, 0.0, 0.0
    cpu, wall = time.process_time(), time.perf_counter()
    for seed in range(games):
        game = Game.new(Rules.from_dict({"players": 4, "schedule": "classic"}), seed)
        game_id = store.create(game, [(f"P{i}", None) for i in range(4)]).record.id
        while True:
            started = time.perf_counter()
            record = store.load(game_id, history=False, consume=True)
            reading += time.perf_counter() - started
            if record.game.finished:
                break
            seat = record.game.turn
            assert seat is not None
            action = record.game.legal_actions()[0]
            started = time.perf_counter()
            store.apply_action(game_id, seat, action, record=record, owed_task=owed_work)
            writing += time.perf_counter() - started
            moves += 1
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return (
        f"{moves / wall:,.0f} moves/s; read {reading / moves * 1e6:.0f} us, write "
        f"{writing / moves * 1e6:.0f} us; {cpu / moves * 1e6:.0f} us of CPU a move "
        f"({moves} moves, {games} games)"
    )


def _sweep(store: redis.Redis, queues: redis.Redis, rounds: int) -> str:
    redises = Redises(store, queues)
    sweep(redises, Timing())  # learn the layout and load the scripts first
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(rounds):
        store.delete(redises.sweep_lock())
        sweep(redises, Timing())
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return (
        f"a sweep of {len(redises.due_keys())} due sets: {wall / rounds * 1e3:.1f} ms, "
        f"{cpu / rounds * 1e3:.1f} ms of CPU"
    )


def run(games: int = 20, rounds: int = 10) -> list[str]:
    """Play `games` games on one Redis, then on a cluster, and sweep the cluster `rounds`
    times; the report lines."""
    with tempfile.TemporaryDirectory(prefix="pocha-bench-store-") as tmp:
        base = Path(tmp)
        with RedisServer(base / "redis") as single, EmbeddedCluster(base / "cluster") as cluster:
            plain = connect_store(single.url)
            clustered = connect_store(cluster.url)
            return [
                f"one Redis: {_play(plain, games)}",
                f"cluster:   {_play(clustered, games)}",
                f"cluster watchdog: {_sweep(clustered, plain, rounds)}",
            ]
