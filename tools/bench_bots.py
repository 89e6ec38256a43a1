"""`pocha bench bots`: how fast the workers think and play, measured through real workers.
How it works: docs/performance.md, `tools.bench_bots`.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import redis
from rq import Worker

from ai.bot import Budget
from ai.pocha.levels import LEVELS
from core.jobs.advice import Thinking, ask_move, wait_for_report
from core.jobs.matches import check_match, create_match, match_report
from core.jobs.queues import connect
from engine.pocha.game import Game
from engine.pocha.observation import observe
from engine.pocha.position import position_of
from engine.pocha.rules import Rules
from tools.embedded_redis import RedisServer
from tools.processes import die_with_parent, stop_processes


def sample_positions(count: int, seed: int = 1) -> list[dict[str, Any]]:
    """Positions a seat must decide in, from random legal play of 4-player hands."""
    rng = random.Random(seed)
    positions: list[dict[str, Any]] = []
    while len(positions) < count:
        cards = rng.randint(1, 10)
        game = Game.new(Rules(players=4, schedule=[cards]), rng.randrange(1 << 30))
        stop = rng.randrange(4 + 4 * cards)
        for _ in range(stop):
            seat = game.turn
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions()))
        seat = game.turn
        assert seat is not None
        positions.append(position_of(observe(game, seat)))
    return positions


def _percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _budget_text(budget: Budget) -> str:
    parts = []
    if budget.iterations is not None:
        parts.append(f"{budget.iterations} it")
    if budget.milliseconds is not None:
        parts.append(f"{budget.milliseconds:g} ms")
    return " or ".join(parts) if parts else "-"


class _Workers:
    """`pocha worker` processes on one Redis."""

    def __init__(self, redis_url: str, log_dir: Path) -> None:
        self.redis_url = redis_url
        self.log_dir = log_dir
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self, count: int) -> None:
        env = {**os.environ, "REDIS_URL": self.redis_url}
        for _ in range(count):
            log = (self.log_dir / f"worker-{len(self.processes)}.log").open("wb")
            self.processes.append(
                subprocess.Popen(
                    [sys.executable, "-m", "cli.main", "worker"],
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    preexec_fn=die_with_parent(),  # no worker outlives a killed bench
                )
            )

    def wait_ready(self, connection: redis.Redis, timeout: float = 60) -> None:
        """Until every worker has registered (imports done, listening)."""
        deadline = time.monotonic() + timeout
        while Worker.count(connection=connection) < len(self.processes):
            if time.monotonic() > deadline:
                raise RuntimeError("the workers did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        stop_processes(self.processes, 30)
        self.processes = []


def _latency(connection: redis.Redis, positions: list[dict[str, Any]]) -> list[str]:
    lines = [
        f"{'level':<10} {'budget':<16} {'think p50':>10} {'p99':>8} "
        f"{'end-to-end p50':>15} {'p99':>8}   n"
    ]
    # A first job warms the worker up (imports, first fork).
    wait_for_report(connection, ask_move(connection, positions[0], Thinking("random")), 60)
    for name, level in LEVELS.items():
        think, total = [], []
        for position in positions:
            start = time.perf_counter()
            job_id = ask_move(connection, position, Thinking(name))
            report = wait_for_report(connection, job_id, 120)
            if report is None or report["status"] != "finished":
                raise RuntimeError(f"an AI move at level {name} did not finish: {report}")
            total.append((time.perf_counter() - start) * 1000)
            think.append(float(report["result"]["elapsed_ms"]))
        lines.append(
            f"{name:<10} {_budget_text(level.budget):<16} "
            f"{_percentile(think, 0.5):>8.1f}ms {_percentile(think, 0.99):>6.1f}ms "
            f"{_percentile(total, 0.5):>13.1f}ms {_percentile(total, 0.99):>6.1f}ms "
            f"{len(positions):>4}"
        )
    return lines


def _throughput(
    connection: redis.Redis, seats: list[str], games: int, rules: dict[str, Any]
) -> float:
    """Games per minute of one match on the workers already running."""
    spec = check_match(seats, games, rules, 1, False, max_cpu_hours=1e9)
    start = time.perf_counter()
    match_id = create_match(connection, spec)
    while True:
        report = match_report(connection, match_id)
        assert report is not None
        if report["status"] == "finished":
            break
        time.sleep(0.05)
    if report["failed"]:
        raise RuntimeError(f"{report['failed']} games of the bench match failed")
    return games / (time.perf_counter() - start) * 60


def run(
    samples: int = 20,
    games: int = 16,
    seats: str = "easy,heuristic,easy,heuristic",
    rules: dict[str, Any] | None = None,
    worker_counts: Sequence[int] = (1, 2),
) -> list[str]:
    """Start Redis and workers, measure, and return the report lines."""
    rules = rules or {}
    lineup = [s.strip() for s in seats.split(",") if s.strip()]
    lines = [
        f"bots: {os.cpu_count()} cores, shared with whatever else runs here: the figures "
        "are indicative"
    ]
    with tempfile.TemporaryDirectory(prefix="pocha-bench-bots-") as tmp:
        base = Path(tmp)
        server = RedisServer(base / "redis")
        server.start()
        workers = _Workers(server.url, base)
        connection = connect(server.url)
        try:
            workers.start(1)
            workers.wait_ready(connection)
            lines.append(
                f"decision latency, {samples} positions per level, one worker, one job at a time:"
            )
            lines.extend("  " + line for line in _latency(connection, sample_positions(samples)))
            workers.stop()
            described = ",".join(lineup)
            schedule = rules.get("schedule", "classic")
            lines.append(f"match throughput, {games} games of {described} ({schedule} schedule):")
            for count in worker_counts:
                connection.flushdb()
                workers.start(count)
                workers.wait_ready(connection)
                rate = _throughput(connection, lineup, games, rules)
                workers.stop()
                lines.append(f"  {count} worker{'s' if count > 1 else ''}: {rate:.1f} games/minute")
        finally:
            workers.stop()
            connection.close()
            server.stop()
    return lines
