"""`pocha bench ladder`: the ladder with many accounts. Makes the accounts and their
ratings straight through core's store (each with a short rating history) on a Redis of its
own, starts the API (one gunicorn process) on it, then times `GET /api/v1/ladder` (the
first page and the last) and the ladder page's load in Chromium up to its chart drawn.
How it works: docs/performance.md, "The ladder with 10,000 accounts".
"""

from __future__ import annotations

import http.client
import json
import random
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import redis

from core.store.accounts import create
from core.store.keys import ladder_key, rating_history_key, ratings_key
from core.store.ratings import Rating
from tools.bench_api import _wait_ready, server_env
from tools.embedded_redis import RedisServer, free_port
from tools.processes import stop_processes
from tools.serve import gunicorn_command

#: Ratings each account's history holds here (the service keeps up to 100).
CURVE = 10


def _fill(connection: redis.Redis, accounts: int, seed: int) -> float:
    """`accounts` people with a Pocha rating and a history each; the seconds it took."""
    chance = random.Random(seed)
    started = time.perf_counter()
    now = time.time()
    pipe = connection.pipeline(transaction=False)
    for n in range(accounts):
        _key, account = create(connection, f"Player {n:05d}", "person", now=now)
        mu, sigma = 25.0, 25 / 3
        for step in range(CURVE):
            mu += chance.gauss(0, 1.5)
            sigma = max(1.0, sigma * 0.93)
            when = now - (CURVE - step) * 3600 - chance.random() * 600
            entry = {
                "mu": mu, "sigma": sigma, "rating": mu - 3 * sigma, "game_id": f"g{n:05d}{step}",
                "rank": chance.randint(1, 4), "when": when,
            }  # fmt: skip
            pipe.lpush(rating_history_key("pocha", account.id), json.dumps(entry))
        rating = Rating(mu, sigma, CURVE, now, CURVE * 5, chance.randint(0, CURVE * 5))
        pipe.hset(ratings_key("pocha"), account.id, rating.to_json())
        pipe.zadd(ladder_key("pocha", "person"), {account.id: rating.shown})
        if n % 500 == 499:
            pipe.execute()
    pipe.execute()
    return time.perf_counter() - started


def _get_times(port: int, path: str, requests: int) -> list[float]:
    """Each request's time (ms), one kept-alive connection, after two unmeasured."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times = []
    try:
        for n in range(requests + 2):
            started = time.perf_counter()
            connection.request("GET", path, headers={"Accept": "application/json"})
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"GET {path}: {response.status}")
            if n >= 2:
                times.append((time.perf_counter() - started) * 1000)
    finally:
        connection.close()
    return times


def _figures(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"{name}: p50 {statistics.median(ordered):.1f} ms, p99 {p99:.1f} ms "
        f"({len(ordered)} requests)"
    )


def _page_loads(url: str, loads: int) -> list[float]:
    """The ladder page's load times (ms) in Chromium, each in a fresh context (nothing
    cached): from navigation to its table and chart drawn."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        raise ImportError("no chromium")
    times = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        try:
            for _ in range(loads + 1):
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                page = context.new_page()
                started = time.perf_counter()
                page.goto(url)
                page.wait_for_selector("#ladder-chart[data-drawn='5']", timeout=60_000)
                page.wait_for_selector("#ladder-table tbody tr")
                times.append((time.perf_counter() - started) * 1000)
                context.close()
        finally:
            browser.close()
    return times[1:]  # the first warms the browser up


def run(accounts: int = 10_000, requests: int = 200, loads: int = 5, seed: int = 0) -> list[str]:
    """The report lines."""
    with tempfile.TemporaryDirectory(prefix="pocha-bench-ladder-") as tmp:
        base = Path(tmp)
        with RedisServer(base / "redis") as server:
            connection = redis.Redis.from_url(server.url)
            took = _fill(connection, accounts, seed)
            lines = [f"{accounts:,} accounts with ratings and histories made in {took:.1f} s"]
            port = free_port()
            log = (base / "gunicorn.log").open("wb")
            api = subprocess.Popen(
                gunicorn_command("127.0.0.1", port, 1),
                env=server_env(server.url, POCHA_RATE_LIMITS="off"),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            try:
                _wait_ready(port, api)
                last = max(0, accounts - 50)
                for name, path in [
                    ("GET /api/v1/ladder (top 50)", "/api/v1/ladder?game=pocha&kind=person"),
                    (
                        f"GET /api/v1/ladder (places {last + 1}-{accounts})",
                        f"/api/v1/ladder?game=pocha&kind=person&offset={last}",
                    ),
                ]:
                    lines.append(_figures(name, _get_times(port, path, requests)))
                best = connection.zrevrange(ladder_key("pocha", "person"), 0, 0)[0]
                top = best.decode() if isinstance(best, bytes) else str(best)
                lines.append(
                    _figures(
                        "GET /api/v1/accounts/{id}/history (one curve)",
                        _get_times(port, f"/api/v1/accounts/{top}/history?game=pocha", requests),
                    )
                )
                try:
                    loaded = _page_loads(f"http://127.0.0.1:{port}/ladder/pocha", loads)
                except ImportError as missing:
                    lines.append(f"the page: not timed (no playwright or chromium: {missing})")
                else:
                    lines.append(
                        f"the ladder page in Chromium, to its table and chart of the top 5: "
                        f"median {statistics.median(loaded):.0f} ms, worst {max(loaded):.0f} ms "
                        f"({loads} loads, each in a fresh context)"
                    )
            finally:
                stop_processes([api], 15)
                log.close()
    return lines
